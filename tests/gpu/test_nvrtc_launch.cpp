// Native launches of raw CUDA answers on a real GPU (ctest label "gpu"; skipped without one).
#include "gpu/cuda/cudadriverlauncher.h"
#include "gpu/nvrtc/nvrtccompiler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace sieve::gpu;

namespace {

// tests/gpu does not link tests/unit's helpers; the two it needs, small.
namespace test {
std::string testData(const std::string &relative)
{
    return std::string(SIEVE_TEST_DATA) + "/" + relative;
}
std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
class TempDir
{
public:
    TempDir()
    {
        char tmpl[] = "/tmp/sieve-gpu-test-XXXXXX";
        m_path = mkdtemp(tmpl);
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    const std::filesystem::path &path() const { return m_path; }
    std::string file(const std::string &name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};
} // namespace test

class RawCudaLaunch : public ::testing::Test
{
protected:
    void SetUp() override
    {
        std::string why;
        m_arch = deviceArchIsolated(0, &why);
        if (m_arch.empty())
            GTEST_SKIP() << why;
    }
    LaunchRequest request(const std::string &fixture, const std::string &manifestPatch = {})
    {
        const std::string cu = test::readFile(test::testData("cuda/" + fixture));
        CompileOptions o;
        o.arch = m_arch;
        const CompileResult r = NvrtcCompiler(m_cache.path().string()).compile(cu, fixture, o);
        EXPECT_TRUE(r.ok) << r.log;
        LaunchRequest req;
        req.image = r.cubin;
        std::string manifest = *embeddedManifest(cu);
        if (!manifestPatch.empty())
            manifest.replace(manifest.find("\"spin\""), 6, manifestPatch);
        req.manifestJson = manifest;
        req.manifest = parseManifest(manifest);
        req.launcher = SIEVE_CLI_PATH;
        validateManifest(req.manifest, ptxEntries(r.ptx));
        return req;
    }
    std::string m_arch;
    test::TempDir m_cache;
    test::TempDir m_scratch;
};

HostTensor randomInput(std::int64_t rows, std::int64_t cols)
{
    HostTensor t;
    t.shape = {rows, cols};
    std::vector<float> v(static_cast<std::size_t>(rows * cols));
    std::mt19937 gen(7);
    std::normal_distribution<float> dist;
    for (auto &x : v)
        x = dist(gen);
    t.bytes.assign(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(float));
    return t;
}

} // namespace

TEST_F(RawCudaLaunch, RmsnormMatchesTheCpuReference)
{
    LaunchRequest req = request("raw_rmsnorm.cu");
    req.cases = {{randomInput(64, 1000)}};
    req.timingRuns = 5;
    const LaunchOutcome out = launchIsolated(req, m_scratch.file("run"));
    ASSERT_EQ(out.status, LaunchOutcome::Status::Ok) << out.message;
    ASSERT_EQ(out.outputs.size(), 1u);
    ASSERT_EQ(out.outputs[0].size(), 1u);
    const auto *x = reinterpret_cast<const float *>(req.cases[0][0].bytes.data());
    const auto *y = reinterpret_cast<const float *>(out.outputs[0][0].bytes.data());
    double worst = 0;
    for (int r = 0; r < 64; ++r) {
        double ss = 0;
        for (int c = 0; c < 1000; ++c)
            ss += double(x[r * 1000 + c]) * x[r * 1000 + c];
        const double scale = 1.0 / std::sqrt(ss / 1000 + 1e-5);
        for (int c = 0; c < 1000; ++c)
            worst = std::max(worst, std::abs(y[r * 1000 + c] - x[r * 1000 + c] * scale));
    }
    EXPECT_LT(worst, 1e-4);
    EXPECT_EQ(out.timingsMs.size(), 5u);
}

TEST_F(RawCudaLaunch, AKernelThatNeverEndsIsKilledAtItsTimeout)
{
    LaunchRequest req = request("raw_faults.cu");
    req.cases = {{randomInput(1, 32)}};
    req.cases[0][0].shape = {32};
    req.timeoutSeconds = 3;
    const LaunchOutcome out = launchIsolated(req, m_scratch.file("spin"));
    EXPECT_EQ(out.status, LaunchOutcome::Status::Timeout) << out.message;
}

TEST_F(RawCudaLaunch, AFaultingKernelFailsOnlyTheChild)
{
    LaunchRequest req = request("raw_faults.cu", "\"fault\"");
    req.cases = {{randomInput(1, 32)}};
    req.cases[0][0].shape = {32};
    req.timeoutSeconds = 30;
    const LaunchOutcome out = launchIsolated(req, m_scratch.file("fault"));
    EXPECT_NE(out.status, LaunchOutcome::Status::Ok);
    EXPECT_NE(out.status, LaunchOutcome::Status::Timeout);
    EXPECT_NE(out.message.find("illegal"), std::string::npos) << out.message;
    // This process is fine and can launch again.
    LaunchRequest good = request("raw_rmsnorm.cu");
    good.cases = {{randomInput(4, 100)}, {randomInput(3, 77)}};
    EXPECT_EQ(launchIsolated(good, m_scratch.file("again")).status, LaunchOutcome::Status::Ok);
}
