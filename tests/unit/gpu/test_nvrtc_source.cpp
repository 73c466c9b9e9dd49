// Finding the CUDA of a Python answer (load_inline) with exact line maps, and the NVRTC precheck.
#include "gpu/nvrtc/cudasource.h"
#include "gpu/nvrtc/nvrtccheck.h"
#include "gpu/nvrtc/nvrtclibrary.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

using namespace sieve;
using namespace sieve::gpu;

namespace {

std::string line(const std::string &text, int n) // 1-based
{
    std::size_t pos = 0;
    for (int i = 1; i < n; ++i)
        pos = text.find('\n', pos) + 1;
    return text.substr(pos, text.find('\n', pos) - pos);
}

} // namespace

TEST(CudaSource, ModuleLevelStringVariableIsFoundWithItsLines)
{
    const std::string py = test::readFile(test::testData("cuda/load_inline_ok.py"));
    const auto units = extractCudaFromPython(py, "load_inline_ok.py");
    ASSERT_EQ(units.size(), 1u);
    const CudaUnit &u = units[0];
    EXPECT_EQ(u.origin, "load_inline(name='relu') cuda_sources");
    EXPECT_TRUE(u.dynamicReason.empty());
    EXPECT_NE(u.source.find("__global__ void relu_kernel"), std::string::npos);
    // Every line of the extracted source maps to the identical line of the .py file.
    int n = 1;
    for (std::size_t pos = 0; pos < u.source.size(); ++n) {
        const std::size_t end = u.source.find('\n', pos);
        const std::string text = u.source.substr(pos, end - pos);
        const int original = u.map.originalLine(n);
        if (n > 1) { // line 1 is the rest of the `relu_source = """` line
            EXPECT_EQ(line(py, original), text) << "generated line " << n;
        }
        pos = end == std::string::npos ? u.source.size() : end + 1;
    }
}

TEST(CudaSource, EscapesListsAndConcatenationKeepTheMap)
{
    const std::string py = test::readFile(test::testData("cuda/load_inline_escapes.py"));
    const auto units = extractCudaFromPython(py, "e.py");
    ASSERT_EQ(units.size(), 1u);
    const CudaUnit &u = units[0];
    // "header" holds two lines via \n escapes (line 4), then '\n'.join, then the parenthesised literals.
    EXPECT_EQ(u.source.rfind("#include <cuda_fp16.h>\n#define BLOCK 128\n\n__global__ void fill", 0), 0u) << u.source;
    EXPECT_EQ(u.map.originalLine(1), 4);
    EXPECT_EQ(u.map.originalLine(2), 4);
    EXPECT_EQ(u.map.originalLine(4), 6); // __global__ void fill
    EXPECT_EQ(u.map.originalLine(6), 8); // the statement without its semicolon
    EXPECT_EQ(u.map.originalLine(7), 9); // "}"
    EXPECT_EQ(u.extraOptions, (std::vector<std::string>{"--use_fast_math", "-DEXTRA=1"}));
}

TEST(CudaSource, PositionalArgumentsAndInlineLiterals)
{
    const std::string py = "from torch.utils.cpp_extension import load_inline\n"
                           "m = load_inline('x', 'void f();', '''\n"
                           "__global__ void k(int *p) { *p = 1; }\n"
                           "''', functions=['f'])\n";
    const auto units = extractCudaFromPython(py, "p.py");
    ASSERT_EQ(units.size(), 1u);
    EXPECT_EQ(units[0].origin, "load_inline(name='x') cuda_sources");
    EXPECT_EQ(units[0].map.originalLine(2), 3);
}

TEST(CudaSource, RunTimeSourcesAreMarkedDynamic)
{
    const std::string py = "B = 256\n"
                           "src = f'''__global__ void k(float *y) {{ y[threadIdx.x] = {B}; }}'''\n"
                           "m = load_inline(name='d', cpp_sources='', cuda_sources=src)\n"
                           "n = load_inline(name='e', cpp_sources='', cuda_sources=make_source(B))\n";
    const auto units = extractCudaFromPython(py, "d.py");
    ASSERT_EQ(units.size(), 2u);
    EXPECT_NE(units[0].dynamicReason.find("f-string"), std::string::npos);
    EXPECT_NE(units[1].dynamicReason.find("not a string literal"), std::string::npos);
    EXPECT_FALSE(prepareForNvrtc(units[0]).skipReason.empty());
}

TEST(CudaSource, WithoutLoadInlineKernelLiteralsAreUsed)
{
    const std::string py = "import cupy\n"
                           "k = cupy.RawKernel(r'''\n"
                           "extern \"C\" __global__ void f(float *x) { x[0] = 1; }\n"
                           "''', 'f')\n";
    const auto units = extractCudaFromPython(py, "c.py");
    ASSERT_EQ(units.size(), 1u);
    EXPECT_EQ(units[0].origin, "string literal at line 2");
    EXPECT_TRUE(extractCudaFromPython("import torch\nx = 'hello'\n", "n.py").empty());
}

TEST(CudaPrecheck, HostCodeIsBlankedAndLinesArePreserved)
{
    const std::string py = test::readFile(test::testData("cuda/load_inline_ok.py"));
    const CudaUnit u = extractCudaFromPython(py, "ok.py").at(0);
    const PrecheckSource pre = prepareForNvrtc(u);
    EXPECT_TRUE(pre.skipReason.empty()) << pre.skipReason;
    EXPECT_EQ(pre.kernels, 1);
    EXPECT_EQ(pre.source.find("torch/extension.h"), std::string::npos);
    EXPECT_EQ(pre.source.find("relu_cuda"), std::string::npos);
    EXPECT_EQ(pre.source.find("<<<"), std::string::npos);
    EXPECT_NE(pre.source.find("__device__ __forceinline__ float clampf"), std::string::npos);
    const auto lines = [](const std::string &s) { return std::count(s.begin(), s.end(), '\n'); };
    EXPECT_EQ(static_cast<std::size_t>(lines(pre.source)) + 1, pre.map.lines.size());
    EXPECT_EQ(pre.map.lines.size(), u.map.lines.size() + static_cast<std::size_t>(lines(pre.source) - lines(u.source)));
}

TEST(CudaPrecheck, TorchTypesInDeviceCodeSkipHonestly)
{
    const std::string py = test::readFile(test::testData("cuda/load_inline_torch_types.py"));
    const CudaUnit u = extractCudaFromPython(py, "t.py").at(0);
    const PrecheckSource pre = prepareForNvrtc(u);
    EXPECT_NE(pre.skipReason.find("needs torch headers"), std::string::npos) << pre.skipReason;
    EXPECT_NE(pre.skipReason.find("at::Half"), std::string::npos);
    EXPECT_NE(pre.skipReason.find("t.py:10"), std::string::npos) << pre.skipReason;
}

TEST(CudaPrecheck, NamespacesAndExternCBlocksAreEntered)
{
    CudaUnit u = cudaUnitFromFile("#include <torch/extension.h>\n"
                                  "namespace {\n"
                                  "__global__ void k(float *y) { y[0] = 1.f; }\n"
                                  "void host() { std::vector<int> v; }\n"
                                  "}\n"
                                  "extern \"C\" {\n"
                                  "__global__ void k2(float *y) { y[0] = 2.f; }\n"
                                  "}\n"
                                  "at::Tensor f(at::Tensor x);\n",
                                  "n.cu");
    const PrecheckSource pre = prepareForNvrtc(u);
    EXPECT_TRUE(pre.skipReason.empty()) << pre.skipReason;
    EXPECT_EQ(pre.kernels, 2);
    EXPECT_EQ(pre.source.find("host()"), std::string::npos);
    EXPECT_EQ(pre.source.find("at::Tensor"), std::string::npos);
}

TEST(CudaPrecheck, UndefinedMacrosAreInconclusiveOtherErrorsAreNot)
{
    EXPECT_TRUE(precheckInconclusive({{3, 20, "error", "identifier \"CUDA_KERNEL_ASSERT\" is undefined"}}));
    EXPECT_FALSE(precheckInconclusive({{3, 20, "error", "identifier \"undefined_scale\" is undefined"}}));
    EXPECT_FALSE(precheckInconclusive(
        {{3, 20, "error", "identifier \"CUDA_KERNEL_ASSERT\" is undefined"}, {4, 21, "error", "expected a \";\""}}));
    EXPECT_FALSE(precheckInconclusive({{3, 20, "warning", "variable \"x\" was declared but never referenced"}}));
}

TEST(NvrtcCheck, LoadInlineDeviceErrorFailsWithThePyLine)
{
    if (!NvrtcLibrary::get())
        GTEST_SKIP() << "no NVRTC";
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    CompileOptions o;
    o.arch = "sm_90";
    const std::string py = test::readFile(test::testData("cuda/load_inline_error.py"));
    const auto units = cudaUnitsOf(py, "load_inline_error.py");
    ASSERT_EQ(units.size(), 1u);
    const UnitCheck c = checkUnit(units[0], compiler, o);
    EXPECT_EQ(c.status, UnitCheck::Status::Failed);
    EXPECT_TRUE(c.prechecked);
    ASSERT_TRUE(c.result);
    ASSERT_EQ(c.result->errorCount(), 1);
    EXPECT_EQ(c.result->diagnostics[0].line, 11);
    EXPECT_NE(c.result->log.find("load_inline_error.py(11): error: identifier \"undefined_scale\""), std::string::npos)
        << c.result->log;

    const auto ok = cudaUnitsOf(test::readFile(test::testData("cuda/load_inline_ok.py")), "ok.py");
    const UnitCheck good = checkUnit(ok.at(0), compiler, o);
    EXPECT_EQ(good.status, UnitCheck::Status::Compiled) << (good.result ? good.result->log : good.reason);
    ASSERT_TRUE(good.result);
    ASSERT_EQ(good.result->resources.kernels.size(), 1u);
    EXPECT_EQ(good.result->resources.kernels[0].name, "relu_kernel(float const*, float*, long long)");
}

TEST(NvrtcCheck, TemplateKernelsAreInstantiatedWhereTheSourceUsesFloat)
{
    if (!NvrtcLibrary::get())
        GTEST_SKIP() << "no NVRTC";
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    CompileOptions o;
    o.arch = "sm_90";
    const auto good = cudaUnitsOf(test::readFile(test::testData("cuda/torch_extension.cu")), "te.cu");
    ASSERT_EQ(good.size(), 1u);
    const PrecheckSource pre = prepareForNvrtc(good[0]);
    EXPECT_EQ(pre.nameExpressions, (std::vector<std::string>{"&row_max_kernel<float>"}));
    const UnitCheck ok = checkUnit(good[0], compiler, o);
    EXPECT_EQ(ok.status, UnitCheck::Status::Compiled) << (ok.result ? ok.result->log : ok.reason);
    EXPECT_NE(ok.reason.find("instantiated as float: row_max_kernel<float>"), std::string::npos) << ok.reason;
    ASSERT_TRUE(ok.result);
    ASSERT_EQ(ok.result->resources.kernels.size(), 1u);
    EXPECT_EQ(ok.result->resources.kernels[0].name, "void row_max_kernel<float>(float const*, float*, int)");

    // A typo inside the template body is only seen once the template is instantiated.
    const auto bad = cudaUnitsOf(test::readFile(test::testData("cuda/torch_extension_error.cu")), "te.cu");
    const UnitCheck failed = checkUnit(bad.at(0), compiler, o);
    EXPECT_EQ(failed.status, UnitCheck::Status::Failed);
    ASSERT_TRUE(failed.result);
    ASSERT_GE(failed.result->errorCount(), 1);
    EXPECT_EQ(failed.result->diagnostics[0].line, 28) << failed.result->log;
}

TEST(CudaPrecheck, TemplatesWithoutAFloatUseAreNamedAsUnchecked)
{
    const CudaUnit u = cudaUnitFromFile("#include <torch/extension.h>\n"
                                        "template <int BLOCK> __global__ void k(float *y) { y[0] = BLOCK; }\n"
                                        "template <typename T> __global__ void h(T *y) { y[0] = T(0); }\n",
                                        "t.cu");
    const PrecheckSource pre = prepareForNvrtc(u);
    EXPECT_TRUE(pre.nameExpressions.empty());
    EXPECT_EQ(pre.uninstantiated, (std::vector<std::string>{"k", "h"}));
}
