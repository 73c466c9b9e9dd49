// Raw CUDA answers: the launch manifest, its expressions, and its check against the PTX signature.
#include "gpu/cuda/cudasourcemanifest.h"
#include "gpu/nvrtc/nvrtccompiler.h"
#include "gpu/nvrtc/nvrtclibrary.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

using namespace sieve;
using namespace sieve::gpu;

namespace {

std::string fieldOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const ManifestError &e) {
        return e.field;
    }
    return "(no error)";
}

const std::vector<PtxEntry> kRmsnorm{{"rmsnorm", {".u64", ".u64", ".u32", ".f32"}}};

std::string manifestText()
{
    return *embeddedManifest(test::readFile(test::testData("cuda/raw_rmsnorm.cu")));
}

} // namespace

TEST(RawCudaManifest, EmbeddedManifestParsesAndValidates)
{
    const LaunchManifest m = parseManifest(manifestText());
    ASSERT_EQ(m.launches.size(), 1u);
    EXPECT_EQ(m.launches[0].kernel, "rmsnorm");
    EXPECT_EQ(m.launches[0].args[3].literal.value_or(0), 1e-5);
    EXPECT_NO_THROW(validateManifest(m, kRmsnorm, 1));
    const Symbols s = shapeSymbols(m, {{64, 1000}});
    EXPECT_EQ(s.at("cols"), 1000);
    EXPECT_EQ(evalExpr(m.launches[0].sharedBytes, s, "shared_bytes"), 16);
}

TEST(RawCudaManifest, ExpressionsFloorAndCeil)
{
    const Symbols s{{"n", 1000}, {"x.shape[1]", 7}};
    EXPECT_EQ(evalExpr("ceil_div(n, 256)", s, "f"), 4);
    EXPECT_EQ(evalExpr("(n + 255) // 256 * 2 - min(3, x.shape[1]) % 2", s, "f"), 7);
    EXPECT_EQ(evalExpr("-7 / 2", s, "f"), -4);
    EXPECT_EQ(evalExpr("max(n, 2) - n", s, "f"), 0);
    EXPECT_EQ(fieldOf([&] { evalExpr("n / 0", s, "grid[0]"); }), "grid[0]");
    EXPECT_EQ(fieldOf([&] { evalExpr("n +", s, "block[1]"); }), "block[1]");
    EXPECT_EQ(fieldOf([&] { evalExpr("m * 2", s, "grid[2]"); }), "grid[2]");
}

TEST(RawCudaManifest, ErrorsNameTheField)
{
    const std::string base = manifestText();
    auto with = [&](const std::string &from, const std::string &to) {
        std::string t = base;
        t.replace(t.find(from), from.size(), to);
        return t;
    };
    EXPECT_EQ(fieldOf([&] { parseManifest("{"); }), "manifest");
    EXPECT_EQ(fieldOf([&] { parseManifest(with("sieve-raw-cuda/1", "v2")); }), "manifest.format");
    EXPECT_EQ(fieldOf([&] { parseManifest(with("\"shared_bytes\"", "\"shared_mem\"")); }), "launches[0].shared_mem");
    EXPECT_EQ(fieldOf([&] { parseManifest(with("\"type\": \"f32\"", "\"type\": \"f16\"")); }),
              "launches[0].args[3].type");
    EXPECT_EQ(fieldOf([&] { parseManifest(with("\"grid\": [\"rows\"]", "\"grid\": []")); }), "launches[0].grid");
    EXPECT_EQ(fieldOf([&] { parseManifest(with("\"dtype\": \"fp32\"", "\"dtype\": \"fp33\"")); }), "outputs[0].dtype");

    const auto validate = [&](const std::string &text, std::vector<PtxEntry> entries = kRmsnorm) {
        return fieldOf([&] { validateManifest(parseManifest(text), entries, 1); });
    };
    EXPECT_EQ(validate(with("\"kernel\": \"rmsnorm\"", "\"kernel\": \"rms\"")), "launches[0].kernel");
    EXPECT_EQ(validate(with("{\"input\": \"x\"}, ", "")), "launches[0].args");
    EXPECT_EQ(validate(with("\"scalar\": \"cols\", \"type\": \"i32\"", "\"scalar\": \"cols\", \"type\": \"i64\"")),
              "launches[0].args[2]");
    EXPECT_EQ(validate(with("{\"input\": \"x\"}", "{\"input\": \"z\"}")), "launches[0].args[0].input");
    EXPECT_EQ(validate(with("{\"output\": \"y\"}", "{\"output\": \"x\"}")), "launches[0].args[1].output");
    EXPECT_EQ(validate(with("\"grid\": [\"rows\"]", "\"grid\": [\"x.shape[0] * nope\"]")), "launches[0].grid[0]");
    EXPECT_EQ(validate(with("\"inputs\": [\"x\"]", "\"inputs\": [\"x\", \"w\"]")), "inputs");
    EXPECT_EQ(validate(base, {{"rmsnorm", {".u64", ".u64", ".u32", ".f32", ".u32"}}}), "launches[0].args");
    EXPECT_EQ(validate(base, {{"rmsnorm", {".u64", ".u64", ".u32", ".b8[16]"}}}), "launches[0].args[3]");
}

TEST(RawCudaManifest, SignatureComesFromTheCompiledPtx)
{
    if (!NvrtcLibrary::get())
        GTEST_SKIP() << "no NVRTC";
    test::TempDir cache;
    const std::string cu = test::readFile(test::testData("cuda/raw_rmsnorm.cu"));
    CompileOptions o;
    o.arch = "sm_90";
    const CompileResult r = NvrtcCompiler(cache.path().string()).compile(cu, "raw_rmsnorm.cu", o);
    ASSERT_TRUE(r.ok) << r.log;
    const auto entries = ptxEntries(r.ptx);
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].name, "rmsnorm");
    EXPECT_EQ(entries[0].params, (std::vector<std::string>{".u64", ".u64", ".u32", ".f32"}));
    EXPECT_NO_THROW(validateManifest(parseManifest(manifestText()), entries, 1));
}
