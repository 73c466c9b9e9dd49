// The canonical stream (normaliser_restructure.h): renderings that differ by inlined temporaries or by the
// order of independent statements get the same canonical hash; anything that changes what is computed,
// or in what order it must be, does not.
#include "core/dedup/dedup.h"
#include "core/dedup/normaliser.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <random>

using namespace sieve;

namespace {
std::uint64_t canon(const std::string &code)
{
    return CodeNormaliser().normalise(code, CodeLanguage::Auto, false).canonical;
}
std::string canonText(const std::string &code)
{
    return CodeNormaliser().normalise(code).canonicalText;
}
std::string labelled(const std::string &name)
{
    return test::readFile(test::testData("dedup/labelled/" + name));
}

const std::string kAddTemps = R"(import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    out = x + y
    tl.store(out_ptr + offs, out, mask=mask)
)";
// The same kernel, renamed, written without temporaries.
const std::string kAddInline = R"(import triton
import triton.language as tl


@triton.jit
def vadd(a, b, c, size, TILE: tl.constexpr):
    tl.store(c + tl.program_id(0) * TILE + tl.arange(0, TILE),
             tl.load(a + tl.program_id(0) * TILE + tl.arange(0, TILE), mask=tl.program_id(0) * TILE + tl.arange(0, TILE) < size)
             + tl.load(b + tl.program_id(0) * TILE + tl.arange(0, TILE), mask=tl.program_id(0) * TILE + tl.arange(0, TILE) < size),
             mask=tl.program_id(0) * TILE + tl.arange(0, TILE) < size)
)";
} // namespace

TEST(CodeNormaliserRestructure, InlinedTemporaryReadsAsTheExpression)
{
    const std::string split = "def k(x_ptr, y_ptr, n):\n    v = tl.load(x_ptr + n)\n    s = v * 2.0\n"
                              "    tl.store(y_ptr + n, s)\n";
    const std::string inlined = "def k(x_ptr, y_ptr, n):\n    tl.store(y_ptr + n, tl.load(x_ptr + n) * 2.0)\n";
    EXPECT_EQ(canon(split), canon(inlined));
    EXPECT_NE(CodeNormaliser().normalise(split).tokens,
              CodeNormaliser().normalise(inlined).tokens); // the source streams differ
    EXPECT_NE(canonText(split).find("tl . store ( v1 + v2 , tl . load ( v0 + v2 ) * FLOAT )"), std::string::npos)
        << canonText(split);
}

TEST(CodeNormaliserRestructure, TemporariesUsedOftenAndWrittenOutAtEachUseAgree)
{
    EXPECT_EQ(canon(kAddTemps), canon(kAddInline));
}

TEST(CodeNormaliserRestructure, ReorderedIndependentLoadsAgree)
{
    // Each load is used twice and too long to copy, so it stays a statement, and the order is what differs.
    const std::string a =
        "def k(x_ptr, w_ptr, y_ptr, n, B: tl.constexpr):\n"
        "    cols = tl.arange(0, B)\n"
        "    x = tl.load(x_ptr + tl.program_id(0) * n + cols, mask=cols < n, other=0.0).to(tl.float32)\n"
        "    w = tl.load(w_ptr + cols, mask=cols < n, other=0.0).to(tl.float32)\n"
        "    tl.store(y_ptr + cols, x * x * w + w, mask=cols < n)\n";
    std::string b = a;
    const std::size_t x = b.find("    x = "), w = b.find("    w = "), end = b.find("    tl.store");
    b = b.substr(0, x) + b.substr(w, end - w) + b.substr(x, w - x) + b.substr(end);
    ASSERT_NE(a, b);
    EXPECT_NE(CodeNormaliser().normalise(a).tokens, CodeNormaliser().normalise(b).tokens);
    EXPECT_EQ(canon(a), canon(b));
    EXPECT_NE(canonText(a).find("= tl . load ("), std::string::npos) << canonText(a); // not inlined
    // Renamed and with another literal as well.
    std::string c = b;
    for (auto [from, to] : {std::pair<std::string, std::string>{"x_ptr", "inp"}, {"cols", "offs"}, {"0.0", "0."}})
        for (std::size_t at; (at = c.find(from)) != std::string::npos;)
            c.replace(at, from.size(), to);
    EXPECT_EQ(canon(c), canon(a));
}

TEST(CodeNormaliserRestructure, ReorderedDependentStatementsDiffer)
{
    // s reads acc before the update in one and after it in the other: another computation.
    const std::string a = "def k(p, n):\n    acc = tl.load(p)\n    s = acc * 2\n    acc = acc + n\n"
                          "    tl.store(p, s + acc)\n";
    const std::string b = "def k(p, n):\n    acc = tl.load(p)\n    acc = acc + n\n    s = acc * 2\n"
                          "    tl.store(p, s + acc)\n";
    EXPECT_NE(canon(a), canon(b));
}

TEST(CodeNormaliserRestructure, LoadsKeepTheirPlaceAroundStores)
{
    // The load after the store may read what was stored: it must not move, nor be inlined, past it.
    const std::string before = "def k(p, q):\n    v = tl.load(p)\n    tl.store(p, 0)\n    tl.store(q, v)\n";
    const std::string after = "def k(p, q):\n    tl.store(p, 0)\n    v = tl.load(p)\n    tl.store(q, v)\n";
    EXPECT_NE(canon(before), canon(after));
    EXPECT_NE(canon(before), canon("def k(p, q):\n    tl.store(p, 0)\n    tl.store(q, tl.load(p))\n"));
}

TEST(CodeNormaliserRestructure, ATemporaryCarriedAroundALoopIsNotInlined)
{
    // The first iteration's use reads the value before the loop; later ones the previous iteration's.
    const std::string carried = "def k(p, n):\n    t = tl.load(p)\n    for i in range(n):\n"
                                "        tl.store(p + i, t)\n        t = t * 2\n";
    const std::string wrong = "def k(p, n):\n    for i in range(n):\n        tl.store(p + i, tl.load(p))\n";
    EXPECT_NE(canon(carried), canon(wrong));
}

TEST(CodeNormaliserRestructure, ParenthesesFollowPrecedence)
{
    // (a + b) * c needs them; x * (y * z) reads as x * y * z; a - (b - c) keeps them.
    EXPECT_EQ(canon("def k(a, b, c):\n    t = a + b\n    return t * c\n"),
              canon("def k(a, b, c):\n    return (a + b) * c\n"));
    EXPECT_NE(canon("def k(a, b, c):\n    t = a + b\n    return t * c\n"),
              canon("def k(a, b, c):\n    return a + b * c\n"));
    EXPECT_EQ(canon("def k(x, y, z):\n    t = y * z\n    return x * t\n"),
              canon("def k(x, y, z):\n    return x * y * z\n"));
    EXPECT_EQ(canon("def k(a, b, c):\n    t = b - c\n    return a - t\n"),
              canon("def k(a, b, c):\n    return a - (b - c)\n"));
    EXPECT_NE(canon("def k(a, b, c):\n    t = b - c\n    return a - t\n"),
              canon("def k(a, b, c):\n    return a - b - c\n"));
}

TEST(CodeNormaliserRestructure, CudaTemporariesDeclarationsAndBraces)
{
    const std::string a =
        "__global__ void add(const float* x, const float* y, float* z, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) {\n        float u = x[i];\n        float v = y[i];\n        z[i] = u + v;\n    "
        "}\n}\n"
        "void launch(const float* x, const float* y, float* z, int n) {\n"
        "    dim3 block(256);\n    dim3 grid((n + 255) / 256);\n    add<<<grid, block>>>(x, y, z, n);\n}\n";
    // Renamed, the loads written out, the body without braces, the launch configuration swapped.
    const std::string b = "__global__ void vadd(const float* p, const float* q, float* r, int size) {\n"
                          "    int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    if (k < size) r[k] = p[k] + q[k];\n}\n"
                          "void launch(const float* p, const float* q, float* r, int size) {\n"
                          "    dim3 grid((size + 255) / 256);\n    dim3 block(256);\n    vadd<<<grid, "
                          "block>>>(p, q, r, size);\n}\n";
    EXPECT_EQ(canon(a), canon(b));
    // A constant grid stride is the same in the loop header as in a variable.
    const std::string strided = "__global__ void k(float* z, int n) {\n    int stride = blockDim.x * gridDim.x;\n"
                                "    for (int i = threadIdx.x; i < n; i += stride) z[i] = 0.0f;\n}\n";
    const std::string direct = "__global__ void k(float* z, int n) {\n"
                               "    for (int i = threadIdx.x; i < n; i += blockDim.x * gridDim.x) z[i] = 0.0f;\n}\n";
    EXPECT_EQ(canon(strided), canon(direct));
    // ... but a barrier stays where it is.
    const std::string synced =
        "__global__ void k(float* s, float* z) {\n    s[threadIdx.x] = 1.0f;\n    __syncthreads();\n"
        "    z[threadIdx.x] = s[threadIdx.x + 1];\n}\n";
    const std::string unsynced = "__global__ void k(float* s, float* z) {\n    s[threadIdx.x] = 1.0f;\n"
                                 "    z[threadIdx.x] = s[threadIdx.x + 1];\n    __syncthreads();\n}\n";
    EXPECT_NE(canon(synced), canon(unsynced));
}

TEST(CodeNormaliserRestructure, ExtensionFunctionsAreRenamedInThePythonThatCallsThem)
{
    // self.ext.add_cuda(...) names the C++ add_cuda of the load_inline source: renaming both is cosmetic.
    const std::string a = labelled("vector_add/cuda.1.py");
    std::string b = a;
    for (std::size_t at; (at = b.find("add_cuda")) != std::string::npos;)
        b.replace(at, 8, "vector_sum");
    EXPECT_EQ(canon(a), canon(b));
}

TEST(CodeNormaliserRestructure, RmsnormVariantsABCStayApartWhileTheirRenderingsFold)
{
    std::map<std::string, std::uint64_t> byFamily;
    for (const char *family : {"onerow", "blocked", "multirow"}) {
        for (int n = 1; n <= 4; ++n) {
            const std::string name = std::string(family) + "." + std::to_string(n) + ".py";
            const std::uint64_t h = canon(labelled("rmsnorm/" + name));
            if (n == 1)
                byFamily[family] = h;
            else
                EXPECT_EQ(h, byFamily[family]) << name << " differs from " << family << ".1.py";
        }
    }
    EXPECT_EQ(byFamily.size(), 3u);
    EXPECT_NE(byFamily["onerow"], byFamily["blocked"]);
    EXPECT_NE(byFamily["onerow"], byFamily["multirow"]);
    EXPECT_NE(byFamily["blocked"], byFamily["multirow"]);

    // Through the dedup: A's renderings (renamed, another BLOCK literal, temporaries inlined or not,
    // loads reordered) are one cluster, A, B and C three.
    std::vector<std::string> texts;
    for (const char *name :
         {"onerow.1.py", "onerow.2.py", "onerow.3.py", "onerow.4.py", "blocked.1.py", "multirow.1.py"})
        texts.push_back(labelled(std::string("rmsnorm/") + name));
    DedupIndex index(DedupParams{});
    std::vector<DedupDocument> docs;
    for (const auto &t : texts)
        docs.push_back({t});
    index.add(docs);
    const DedupResult r = index.run();
    for (int i = 1; i < 4; ++i)
        EXPECT_EQ(r.cluster[i], r.cluster[0]) << i;
    EXPECT_NE(r.cluster[4], r.cluster[0]);
    EXPECT_NE(r.cluster[5], r.cluster[0]);
    EXPECT_NE(r.cluster[5], r.cluster[4]);
}

TEST(CodeNormaliserRestructure, EveryTierOneRenderingOfTheLabelledSetFoldsAndNoTwoFamiliesDo)
{
    namespace fs = std::filesystem;
    std::map<std::string, std::uint64_t> family; // task/family -> canonical hash of its first rendering
    std::map<std::uint64_t, std::string> owner;
    for (const auto &task : fs::directory_iterator(test::testData("dedup/labelled"))) {
        if (!task.is_directory())
            continue;
        for (const auto &file : fs::directory_iterator(task.path())) {
            const std::string name = file.path().filename().string();
            if (name.find("+edit") != std::string::npos)
                continue;
            const std::string key = task.path().filename().string() + "/" + name.substr(0, name.find('.'));
            const std::uint64_t h = canon(test::readFile(file.path().string()));
            auto [it, added] = family.emplace(key, h);
            EXPECT_EQ(it->second, h) << name << " of " << key;
            auto [o, fresh] = owner.emplace(h, key);
            EXPECT_EQ(o->second, key) << key << " and " << o->second << " read the same";
        }
    }
    EXPECT_GE(family.size(), 18u);
}

TEST(CodeNormaliserRestructure, SurvivesGarbageAndDeepNesting)
{
    // Unbalanced brackets, stray dedents and braces, a thousand nested blocks: never a crash, always the
    // same answer.
    std::mt19937 rng(5);
    const char *pieces[] = {"x",
                            "=",
                            "(",
                            ")",
                            "[",
                            "]",
                            "{",
                            "}",
                            ";",
                            ":",
                            "\n",
                            "    ",
                            "if ",
                            "for ",
                            "t",
                            "+",
                            "tl.load(",
                            "tl.store(",
                            "__syncthreads();",
                            "else",
                            "return ",
                            "1",
                            "def f(a):\n"};
    for (int round = 0; round < 300; ++round) {
        std::string s;
        const int n = static_cast<int>(rng() % 200);
        for (int i = 0; i < n; ++i)
            s += pieces[rng() % (sizeof pieces / sizeof *pieces)];
        EXPECT_EQ(canon(s), canon(s));
        EXPECT_EQ(CodeNormaliser().normalise(s, CodeLanguage::Cuda, false).canonical,
                  CodeNormaliser().normalise(s, CodeLanguage::Cuda, false).canonical);
    }
    std::string python = "def f(a):\n", cuda = "void f(int a) {\n";
    for (int d = 1; d < 1000; ++d) {
        python += std::string(static_cast<std::size_t>(d) * 4, ' ') + "if a:\n";
        cuda += "if (a) {\n";
    }
    python += std::string(4000, ' ') + "t = a + 1\n" + std::string(4000, ' ') + "a = t\n";
    cuda += "int t = a + 1; a = t;\n" + std::string(999, '}') + "}\n";
    EXPECT_NE(canon(python), 0u);
    EXPECT_NE(CodeNormaliser().normalise(cuda, CodeLanguage::Cuda, false).canonical, 0u);
}
