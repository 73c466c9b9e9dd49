// sieve-cli compile and devices, end to end as a user runs them.
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "gpu/nvrtc/nvrtclibrary.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace sieve;

namespace {

// Restores an environment variable when the test ends.
class ScopedEnv
{
public:
    ScopedEnv(const char *name, const char *value) : m_name(name)
    {
        if (const char *old = std::getenv(name))
            m_old = old;
        setenv(name, value, 1);
    }
    ~ScopedEnv()
    {
        if (m_old)
            setenv(m_name, m_old->c_str(), 1);
        else
            unsetenv(m_name);
    }

private:
    const char *m_name;
    std::optional<std::string> m_old;
};

} // namespace

TEST(NvrtcCli, DevicesWithoutADriverSaysSoAndSucceeds)
{
    ScopedEnv env("SIEVE_CUDA_DRIVER", "/nonexistent/libcuda.so.1");
    const auto text = test::runCli({"devices"});
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_EQ(text.out.rfind("no CUDA driver", 0), 0u) << text.out;
    const auto json = test::runCli({"devices", "--json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_TRUE(j["driver"].is_null());
    EXPECT_TRUE(j["devices"].empty());
    EXPECT_NE(j["reason"].get<std::string>().find("/nonexistent/libcuda.so.1"), std::string::npos);
}

TEST(NvrtcCli, CompileWithoutNvrtcFailsCleanly)
{
    ScopedEnv env("SIEVE_NVRTC", "/nonexistent/libnvrtc.so");
    test::TempDir cache;
    const auto r = test::runCli(
        {"compile", test::testData("cuda/vector_tiled.cu"), "--arch", "sm_90", "--cache-dir", cache.path().string()});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("NVRTC not found"), std::string::npos) << r.err;
}

class NvrtcCliCompile : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!gpu::NvrtcLibrary::get())
            GTEST_SKIP() << "no NVRTC";
    }
    test::ProcessResult compile(std::vector<std::string> args)
    {
        args.insert(args.begin(), "compile");
        args.insert(args.end(), {"--cache-dir", m_cache.path().string()});
        return test::runCli(args);
    }
    test::TempDir m_cache;
};

TEST_F(NvrtcCliCompile, CuFilePrintsResourcesPerKernel)
{
    const auto r = compile({test::testData("cuda/vector_tiled.cu"), "--arch", "sm_80"});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("compiled for sm_80"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("void tiled<16>"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("scale"), std::string::npos);
    const auto again = compile({test::testData("cuda/vector_tiled.cu"), "--arch", "sm_80"});
    EXPECT_NE(again.out.find("(cached)"), std::string::npos) << again.out;
}

TEST_F(NvrtcCliCompile, LoadInlineErrorExitsOneWithThePyLine)
{
    const auto r = compile({test::testData("cuda/load_inline_error.py"), "--arch", "sm_90", "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["units"].size(), 1u);
    const auto &u = j["units"][0];
    EXPECT_EQ(u["status"], "failed");
    EXPECT_EQ(u["diagnostics"][0]["line"], 11);
    EXPECT_EQ(u["first_line"], 5);
}

TEST_F(NvrtcCliCompile, TorchTypedKernelIsSkippedNotFailed)
{
    const auto r = compile({test::testData("cuda/load_inline_torch_types.py"), "--arch", "sm_90"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("skipped"), std::string::npos);
    EXPECT_NE(r.out.find("precheck skipped: needs torch headers"), std::string::npos) << r.out;
}

TEST_F(NvrtcCliCompile, SampleFromACorpus)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    {
        Corpus c = Corpus::create(db);
        c.db().exec("INSERT INTO tasks(id, task_key, name, created_at) VALUES (1, 'k', 'relu', 0)");
        c.db().exec("INSERT INTO samples(id, sample_key, name, task_id, backend, origin, has_answer, created_at) "
                    "VALUES (7, 's7', 'relu_a', 1, 'cuda', 'test', 1, 0)");
        auto st = c.db().prepare("INSERT INTO sample_payloads(sample_id, code) VALUES (7, ?1)");
        st.bindBlob(1, payload::pack(test::readFile(test::testData("cuda/load_inline_error.py"))));
        st.step();
    }
    const auto r = compile({"--db", db, "--sample", "7", "--arch", "sm_90"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.out.find("sample-7(relu_a)(11): error"), std::string::npos) << r.out;
    const auto missing = compile({"--db", db, "--sample", "8"});
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.err.find("no sample with id 8"), std::string::npos) << missing.err;
}

TEST_F(NvrtcCliCompile, BadArchIsAUsageError)
{
    const auto r = compile({test::testData("cuda/vector_tiled.cu"), "--arch", "hopper"});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("hopper"), std::string::npos) << r.err;
}
