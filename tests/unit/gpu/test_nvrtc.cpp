// The NVRTC compiler service: PTX + CUBIN per architecture, ptxas resources, mapped logs, the cache.
#include "gpu/nvrtc/nvrtccompiler.h"
#include "gpu/nvrtc/nvrtclibrary.h"
#include "gpu/nvrtc/nvrtcsass.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace sieve;
using namespace sieve::gpu;

namespace {

#define REQUIRE_NVRTC()                                                                                                \
    do {                                                                                                               \
        std::string why;                                                                                               \
        if (!NvrtcLibrary::get(&why))                                                                                  \
            GTEST_SKIP() << why;                                                                                       \
    } while (0)

CompileOptions forArch(const std::string &arch)
{
    CompileOptions o;
    o.arch = arch;
    return o;
}

} // namespace

TEST(NvrtcLibrary, ListsSm80AndSm90)
{
    REQUIRE_NVRTC();
    const NvrtcLibrary *lib = NvrtcLibrary::get();
    EXPECT_TRUE(lib->supports(80));
    EXPECT_TRUE(lib->supports(90));
    EXPECT_GE(lib->major(), 11);
    EXPECT_FALSE(lib->buildId().empty());
}

class NvrtcArch : public ::testing::TestWithParam<const char *>
{
};

TEST_P(NvrtcArch, CompilesKernelsToPtxCubinAndResources)
{
    REQUIRE_NVRTC();
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    const std::string source = test::readFile(test::testData("cuda/vector_tiled.cu"));
    const CompileResult r = compiler.compile(source, "vector_tiled.cu", forArch(GetParam()));
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.arch, GetParam());
    EXPECT_NE(r.ptx.find(".entry scale("), std::string::npos);
    EXPECT_NE(r.ptx.find(".target " + std::string(GetParam())), std::string::npos);
    EXPECT_GT(r.cubin.size(), 1000u);
    EXPECT_EQ(r.cubin.compare(0, 4,
                              "\x7f"
                              "ELF"),
              0);
    ASSERT_EQ(r.resources.kernels.size(), 2u);
    for (const auto &k : r.resources.kernels) {
        EXPECT_GT(k.registers, 0) << k.name;
        EXPECT_EQ(k.spillStoreBytes, 0) << k.name;
    }
    const auto tiled =
        std::find_if(r.resources.kernels.begin(), r.resources.kernels.end(),
                     [](const KernelResources &k) { return k.name.find("tiled<16>") != std::string::npos; });
    ASSERT_NE(tiled, r.resources.kernels.end());
    EXPECT_EQ(tiled->sharedBytes, 2 * 16 * 16 * 4);
    EXPECT_EQ(tiled->barriers, 1);
    EXPECT_TRUE(r.log.empty()) << r.log; // ptxas info lines are parsed, not shown
}

INSTANTIATE_TEST_SUITE_P(Archs, NvrtcArch, ::testing::Values("sm_80", "sm_90"));

TEST(NvrtcCompiler, ComputeArchGivesPtxOnly)
{
    REQUIRE_NVRTC();
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    const CompileResult r =
        compiler.compile("extern \"C\" __global__ void k(int *p) { *p = 1; }", "k.cu", forArch("compute_80"));
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_NE(r.ptx.find(".entry k("), std::string::npos);
    EXPECT_TRUE(r.cubin.empty());
}

TEST(NvrtcCompiler, SyntaxErrorReportsTheFilesLine)
{
    REQUIRE_NVRTC();
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    const CompileResult r =
        compiler.compile(test::readFile(test::testData("cuda/syntax_error.cu")), "syntax_error.cu", forArch("sm_90"));
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.cubin.empty());
    ASSERT_EQ(r.errorCount(), 1);
    EXPECT_EQ(r.diagnostics[0].line, 8);
    EXPECT_NE(r.diagnostics[0].message.find("expected a \";\""), std::string::npos);
    EXPECT_NE(r.log.find("syntax_error.cu(8): error"), std::string::npos) << r.log;
    EXPECT_EQ(r.log.find("sieve_input.cu"), std::string::npos) << r.log;
}

TEST(NvrtcCompiler, LogLinesGoThroughTheSourceMap)
{
    REQUIRE_NVRTC();
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    // Two generated lines that came from lines 40 and 41 of answer.py.
    const SourceMap map{"answer.py", {40, 41}};
    const CompileResult r = compiler.compile("__global__ void k(float *y)\n{ y[0] = nope; }", map, forArch("sm_90"));
    ASSERT_FALSE(r.ok);
    ASSERT_EQ(r.errorCount(), 1);
    EXPECT_EQ(r.diagnostics[0].line, 41);
    EXPECT_NE(r.log.find("answer.py(41): error: identifier \"nope\" is undefined"), std::string::npos) << r.log;
}

TEST(NvrtcCompiler, SecondCompileIsACacheHitWithTheSameBytes)
{
    REQUIRE_NVRTC();
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    const std::string source = test::readFile(test::testData("cuda/vector_tiled.cu"));
    const CompileResult cold = compiler.compile(source, "a.cu", forArch("sm_90"));
    const CompileResult warm = compiler.compile(source, "a.cu", forArch("sm_90"));
    ASSERT_TRUE(cold.ok);
    EXPECT_FALSE(cold.fromCache);
    EXPECT_TRUE(warm.fromCache);
    EXPECT_EQ(warm.ptx, cold.ptx);
    EXPECT_EQ(warm.cubin, cold.cubin);
    EXPECT_EQ(warm.resources.kernels.size(), cold.resources.kernels.size());
    EXPECT_LT(warm.millis, cold.millis);
    // Different options are a different entry.
    CompileOptions other = forArch("sm_90");
    other.extra = {"-DUNUSED=1"};
    EXPECT_FALSE(compiler.compile(source, "a.cu", other).fromCache);
    // And a bypass compiles afresh.
    CompileOptions bypass = forArch("sm_90");
    bypass.useCache = false;
    EXPECT_FALSE(compiler.compile(source, "a.cu", bypass).fromCache);
}

TEST(NvrtcCompiler, CorruptCacheEntryIsAMiss)
{
    REQUIRE_NVRTC();
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    const std::string source = "extern \"C\" __global__ void k(int *p) { *p = 2; }";
    ASSERT_TRUE(compiler.compile(source, "k.cu", forArch("sm_80")).ok);
    for (const auto &e : std::filesystem::recursive_directory_iterator(cache.path()))
        if (e.is_regular_file())
            test::writeFile(e.path().string(), "SIEVE-NVRTC-1\n1\x05");
    const CompileResult r = compiler.compile(source, "k.cu", forArch("sm_80"));
    EXPECT_TRUE(r.ok);
    EXPECT_FALSE(r.fromCache);
    EXPECT_FALSE(r.cubin.empty());
}

TEST(NvrtcCompiler, UnsupportedArchThrowsNamingIt)
{
    REQUIRE_NVRTC();
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    try {
        compiler.compile("__global__ void k() {}", "k.cu", forArch("sm_20"));
        FAIL() << "expected CompilerUnavailable";
    } catch (const CompilerUnavailable &e) {
        EXPECT_NE(std::string(e.what()).find("sm_20"), std::string::npos);
    }
    EXPECT_THROW(normalizeArch("hopper"), std::invalid_argument);
    EXPECT_EQ(normalizeArch("90"), "sm_90");
    EXPECT_EQ(normalizeArch("sm_90a"), "sm_90a");
    EXPECT_EQ(archNumber("compute_100"), 100);
}

TEST(NvrtcLog, ParsesPtxasVerboseOutput)
{
    const std::string log =
        "ptxas info    : 0 bytes gmem, 256 bytes cmem[3]\n"
        "ptxas info    : Compiling entry function '_Z2k2Pdi' for 'sm_80'\n"
        "ptxas info    : Function properties for _Z2k2Pdi\n"
        "ptxas         .     1184 bytes stack frame, 1600 bytes spill stores, 1596 bytes spill loads\n"
        "ptxas info    : Used 32 registers, used 0 barriers, 1184 bytes cumulative stack size, "
        "364 bytes cmem[0]\n"
        "ptxas info    : Compile time = 49.954 ms\n"
        "ptxas info    : Function properties for helper\n"
        "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
        "ptxas info    : Compiling entry function 'add' for 'sm_80'\n"
        "ptxas info    : Function properties for add\n"
        "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem, 372 bytes cmem[0]\n";
    const PtxasReport r = parsePtxas(log);
    EXPECT_EQ(r.userConstBytes, 256);
    ASSERT_EQ(r.kernels.size(), 2u);
    EXPECT_EQ(r.kernels[0].name, "k2(double*, int)");
    EXPECT_EQ(r.kernels[0].mangled, "_Z2k2Pdi");
    EXPECT_EQ(r.kernels[0].registers, 32);
    EXPECT_EQ(r.kernels[0].spillStoreBytes, 1600);
    EXPECT_EQ(r.kernels[0].spillLoadBytes, 1596);
    EXPECT_EQ(r.kernels[0].stackFrameBytes, 1184);
    EXPECT_EQ(r.kernels[0].constBytes, 364);
    EXPECT_EQ(r.kernels[1].name, "add");
    EXPECT_EQ(r.kernels[1].sharedBytes, 1024);
    EXPECT_EQ(r.kernels[1].barriers, 1);
    EXPECT_EQ(r.kernels[1].spillStoreBytes, 0); // the helper's spills are not the kernel's
}

TEST(NvrtcCompiler, SpillsShowUpUnderARegisterCap)
{
    REQUIRE_NVRTC();
    test::TempDir cache;
    const NvrtcCompiler compiler(cache.path().string());
    const std::string source = "__global__ void k2(double* d, int n) { double acc[64];\n"
                               "  for (int j = 0; j < 64; j++) acc[j] = d[j * n];\n"
                               "  for (int j = 0; j < 64; j++) d[j] += acc[(j * 7) % 64]; }\n";
    CompileOptions o = forArch("sm_80");
    o.extra = {"--maxrregcount=32"};
    const CompileResult r = compiler.compile(source, "k.cu", o);
    ASSERT_TRUE(r.ok) << r.log;
    ASSERT_EQ(r.resources.kernels.size(), 1u);
    EXPECT_LE(r.resources.kernels[0].registers, 32);
    EXPECT_GT(r.resources.kernels[0].spillStoreBytes, 0);
}

TEST(NvrtcSass, DisassemblesTheCubinWhenAToolIsInstalled)
{
    REQUIRE_NVRTC();
    if (findDisassembler().empty())
        GTEST_SKIP() << "neither nvdisasm nor cuobjdump is installed";
    test::TempDir cache;
    const CompileResult r =
        NvrtcCompiler(cache.path().string())
            .compile(test::readFile(test::testData("cuda/vector_tiled.cu")), "v.cu", forArch("sm_90"));
    ASSERT_TRUE(r.ok);
    std::string why;
    const auto sass = disassemble(r.cubin, &why);
    ASSERT_TRUE(sass) << why;
    EXPECT_NE(sass->find("scale"), std::string::npos);
    EXPECT_NE(sass->find("EXIT"), std::string::npos);
    EXPECT_FALSE(disassemble("not an ELF file", &why));
    EXPECT_NE(why.find("failed"), std::string::npos) << why;
}
