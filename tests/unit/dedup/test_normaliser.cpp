#include "core/dedup/normaliser.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

using namespace sieve;

namespace {
std::string py(const std::string &code)
{
    return CodeNormaliser().normalise(code, CodeLanguage::Python).text;
}
std::string cu(const std::string &code)
{
    return CodeNormaliser().normalise(code, CodeLanguage::Cuda).text;
}
std::vector<std::uint64_t> tokens(const std::string &code, CodeLanguage l = CodeLanguage::Auto)
{
    return CodeNormaliser().normalise(code, l, false).tokens;
}
bool has(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}
} // namespace

TEST(CodeNormaliser, PythonDropsCommentsDocstringsAndBlankLines)
{
    const std::string plain = "def f(a):\n    return a + 1\n";
    const std::string noisy = "# header comment\n\ndef f(a):\n    \"\"\"Adds one.\n\n    Really.\"\"\"\n"
                              "    # why\n\n    return a + 1   # trailing\n";
    EXPECT_EQ(py(plain), py(noisy));
    EXPECT_FALSE(has(py(noisy), "Adds"));
    EXPECT_FALSE(has(py(noisy), "#"));
}

TEST(CodeNormaliser, PythonKeepsApiNamesAndRenamesLocals)
{
    const std::string t = py("@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n"
                             "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                             "    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\n"
                             "    y = torch.empty_like(x).to(tl.float32)\n");
    for (const char *api : {"triton . jit", "tl . constexpr", "tl . program_id", "tl . arange", "tl . load",
                            "mask =", "other =", "torch . empty_like", ". to ( tl . float32 )"})
        EXPECT_TRUE(has(t, api)) << api << " missing in\n" << t;
    for (const char *local : {"x_ptr", "offs", "BLOCK", " n ", "def k"})
        EXPECT_FALSE(has(t, local)) << local << " kept in\n" << t;
    EXPECT_TRUE(has(t, "def g0 ( v0 , v1 , v2 : tl . constexpr )")) << t;
}

TEST(CodeNormaliser, ConsistentRenamingMakesRenamedCopiesEqual)
{
    const std::string a = "def f(x, w):\n    s = x * w\n    return s + x\n";
    const std::string b = "def g(inp, weight):\n    tmp = inp * weight\n    return tmp + inp\n";
    const std::string c = "def g(inp, weight):\n    tmp = inp * weight\n    return tmp + weight\n";
    EXPECT_EQ(tokens(a), tokens(b));
    EXPECT_NE(tokens(a), tokens(c)); // a different data flow is not a rename
}

TEST(CodeNormaliser, EachFunctionHasItsOwnLocals)
{
    // The wrapper reuses the kernel's parameter names in one file and not in the other.
    const std::string a = "def k(x, n):\n    return x + n\ndef run(x, n):\n    return k(n, x)\n";
    const std::string b = "def k(x, n):\n    return x + n\ndef run(a, b):\n    return k(b, a)\n";
    EXPECT_EQ(tokens(a), tokens(b));
}

TEST(CodeNormaliser, NumbersAreBucketed)
{
    EXPECT_EQ(tokens("f(BLOCK=512)\n"), tokens("f(BLOCK=1024)\n"));
    EXPECT_EQ(tokens("f(16, 8192, 0x100)\n"), tokens("f(64, 32, 4096)\n"));
    EXPECT_EQ(tokens("f(1e-6, 0.5)\n"), tokens("f(1e-5, 2.)\n"));
    EXPECT_NE(tokens("f(axis=0)\n"), tokens("f(axis=1)\n"));
    EXPECT_NE(tokens("f(1)\n"), tokens("f(2)\n"));
    EXPECT_NE(tokens("f(4)\n"), tokens("f(512)\n"));
    EXPECT_NE(tokens("f(1)\n"), tokens("f(1.0)\n"));
    EXPECT_TRUE(has(py("x = 3 + 1024 + 1.5\n"), "g0 = NUM_SMALL + NUM_BIG + FLOAT")) << py("x = 3 + 1024 + 1.5\n");
}

TEST(CodeNormaliser, StringsBecomeOneToken)
{
    EXPECT_EQ(tokens("f(name='a')\n"), tokens("f(name=\"something else\")\n"));
    EXPECT_TRUE(has(py("tl.f(name=r'x', other=b\"\"\"y\"\"\")\n"), "tl . f ( name = STR , other = STR )"))
        << py("tl.f(name=r'x', other=b\"\"\"y\"\"\")\n");
}

TEST(CodeNormaliser, InlineCudaSourceIsLexedAsCuda)
{
    const std::string t = CodeNormaliser().normalise(test::readFile(test::testData("dedup/vector_add_inline.py"))).text;
    EXPECT_TRUE(has(t, "__global__ void")) << t;
    EXPECT_TRUE(has(t, "blockIdx . x * blockDim . x + threadIdx . x")) << t;
    EXPECT_TRUE(has(t, "load_inline ( name = STR")) << t;
    EXPECT_FALSE(has(t, "one thread per element")) << t;
}

TEST(CodeNormaliser, CudaStripsCommentsKeepsBuiltinsRenamesLocals)
{
    const std::string t = cu(test::readFile(test::testData("dedup/vector_add.cu")));
    for (const char *kept : {"__global__", "__restrict__", "blockIdx . x", "blockDim . x", "threadIdx . x",
                             "gridDim . x", "__syncthreads ( )", "<<<", ">>>", "<cuda_runtime.h>", "FLOAT", "NUM_BIG"})
        EXPECT_TRUE(has(t, kept)) << kept << " missing in\n" << t;
    for (const char *gone : {"Element-wise", "grid-stride", "vector_add", "idx", "256", "2.0f"})
        EXPECT_FALSE(has(t, gone)) << gone << " kept in\n" << t;
}

TEST(CodeNormaliser, CudaIntrinsicsStayAndRenamedCopiesMatch)
{
    const std::string a = "__global__ void k(float* out, const float* in) {\n"
                          "  float v = in[threadIdx.x]; // load\n"
                          "  v += __shfl_down_sync(0xffffffff, v, 16);\n"
                          "  if (threadIdx.x == 0) atomicAdd(out, v);\n}\n";
    const std::string b = "/* renamed */ __global__ void reduce(float* dst, const float* src) {\n"
                          "  float acc = src[threadIdx.x];\n"
                          "  acc += __shfl_down_sync(0xffffffff, acc, 32);\n"
                          "  if (threadIdx.x == 0) atomicAdd(dst, acc);\n}\n";
    EXPECT_EQ(tokens(a, CodeLanguage::Cuda), tokens(b, CodeLanguage::Cuda));
    const std::string t = cu(a);
    EXPECT_TRUE(has(t, "__shfl_down_sync")) << t;
    EXPECT_TRUE(has(t, "atomicAdd")) << t;
}

TEST(CodeNormaliser, DetectsLanguage)
{
    EXPECT_EQ(CodeNormaliser::detect(test::readFile(test::testData("dedup/vector_add.cu"))), CodeLanguage::Cuda);
    EXPECT_EQ(CodeNormaliser::detect(test::readFile(test::testData("dedup/rmsnorm_a.py"))), CodeLanguage::Python);
    EXPECT_EQ(CodeNormaliser::detect(test::readFile(test::testData("dedup/vector_add_inline.py"))),
              CodeLanguage::Python);
}
