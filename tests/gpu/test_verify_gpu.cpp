// The verifier's fixtures on a real GPU (`--gpus 0`): every fixture except the CPU-only ones, with the
// GPU expectations of the manifest (expect_gpu) where they differ. Skips without a GPU.
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "gpu/verify/verificationengine.h"

// The unit tests' helpers, compiled into this binary too (the GPU suite is a separate executable).
#include "tests/unit/gpu/test_verify_support.cpp"
#include "tests/unit/testutil.cpp"

#include <gtest/gtest.h>

#include <cstdio>

using namespace sieve;
using namespace sieve::test;

namespace {

bool haveGpu()
{
    FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
    if (!p)
        return false;
    char buf[256];
    const bool gpu = fgets(buf, sizeof buf, p) && std::string(buf).rfind("GPU ", 0) == 0;
    pclose(p);
    return gpu;
}

TEST(VerifyGpu, FixturesOnGpu0)
{
    if (!haveGpu())
        GTEST_SKIP() << "no GPU (nvidia-smi -L lists none)";
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    std::vector<VerifierFixture> fixtures;
    for (auto &f : verifierFixtures())
        if (!f.cpuOnly)
            fixtures.push_back(f);
    for (const auto &f : fixtures)
        if (f.raw.contains("must_not_exist"))
            std::filesystem::remove(f.raw["must_not_exist"].get<std::string>());
    const auto ids = addFixturesToCorpus(db, fixtures);
    const std::string why = verifyFixturesInCorpus(db, fixtures, ids, tmp.file("cache"), 0);
    ASSERT_TRUE(why.empty()) << why;
    Corpus c = Corpus::open(db, true);
    for (const auto &f : fixtures) {
        SCOPED_TRACE(f.name);
        std::string expect = f.expect, reason = f.reason;
        if (f.raw.contains("expect_gpu")) {
            expect = f.raw["expect_gpu"].value("expect", expect);
            reason = f.raw["expect_gpu"].contains("reason") && f.raw["expect_gpu"]["reason"].is_string()
                         ? f.raw["expect_gpu"]["reason"].get<std::string>()
                         : "";
        }
        db::Statement st = c.db().prepare("SELECT v.status, v.reasons, v.message, v.interpreted, v.flags, v.speedup, "
                                          "p.log FROM verdicts v LEFT JOIN verdict_payloads p ON p.verdict_id = v.id "
                                          "WHERE v.sample_id = ?1");
        st.bind(1, ids.at(f.name));
        ASSERT_TRUE(st.step()) << "no verdict";
        const std::string status = st.text(0), reasons = st.text(1);
        std::printf("%-32s %-14s %-40s speedup %s\n", f.name.c_str(), status.c_str(), reasons.c_str(),
                    st.isNull(5) ? "-" : std::to_string(st.real(5)).c_str());
        EXPECT_EQ(status, expect) << reasons << ": " << st.text(2);
        if (!reason.empty()) {
            EXPECT_NE(("," + reasons + ",").find("," + reason + ","), std::string::npos) << reasons;
        }
        EXPECT_EQ(st.int64(3), 0) << "GPU verdicts are not interpreted";
        for (const auto &flag : f.raw.value("flags_absent", nlohmann::json::array())) {
            EXPECT_EQ(st.text(4).find(flag.get<std::string>()), std::string::npos);
        }
        if (f.raw.contains("log_must_not_contain")) {
            const std::string log = st.isNull(6) ? "" : payload::unpack(st.blob(6));
            EXPECT_EQ(log.find(f.raw["log_must_not_contain"].get<std::string>()), std::string::npos);
        }
        if (f.raw.contains("must_not_exist")) {
            EXPECT_FALSE(std::filesystem::exists(f.raw["must_not_exist"].get<std::string>()));
        }
    }
    // The run records the GPU it ran on.
    const auto env = nlohmann::json::parse(c.db().queryText("SELECT env_json FROM verify_runs WHERE id=1").value());
    EXPECT_TRUE(env.contains("gpu") && env["gpu"].is_string()) << env.dump();
}

} // namespace
