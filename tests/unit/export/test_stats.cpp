#include "core/select/stats.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace sieve;

TEST(Stats, PassAtKHandComputed)
{
    // n=5, c=2, k=1: 1 - C(3,1)/C(5,1) = 1 - 3/5 = 0.4
    EXPECT_DOUBLE_EQ(passAtK(5, 2, 1), 0.4);
    // n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10 = 0.7
    EXPECT_NEAR(passAtK(5, 2, 2), 0.7, 1e-12);
    // n=10, c=3, k=5: 1 - C(7,5)/C(10,5) = 1 - 21/252
    EXPECT_NEAR(passAtK(10, 3, 5), 1.0 - 21.0 / 252.0, 1e-12);
    EXPECT_DOUBLE_EQ(passAtK(4, 0, 1), 0.0);
    EXPECT_DOUBLE_EQ(passAtK(3, 1, 5), 1.0);  // n < k uses k = n: one of three passed -> certain
    EXPECT_DOUBLE_EQ(passAtK(10, 8, 5), 1.0); // fewer than k failures
    // Large n stays finite and exact enough: n=200, c=1, k=10 -> 10/200.
    EXPECT_NEAR(passAtK(200, 1, 10), 0.05, 1e-12);
}

TEST(Stats, CorpusMetricsOverallAndPerGroup)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto d = test::buildDemo(c);
    test::addVerdict(c, d.softmax1, "FAIL_MISMATCH", R"(["MISMATCH","NONFINITE_MISMATCH"])");
    test::addVerdict(c, d.softmax2, "FAIL_STATIC", "TORCH_OP_IN_FORWARD");
    test::addVerdict(c, d.attn1, "FAIL_STATIC", R"(["NO_KERNEL"])"); // superseded below
    test::addVerdict(c, d.attn1, "FAIL_RUNTIME", R"(["RUNTIME_ERROR"])");
    test::addVerdict(c, d.conv1, "FAIL_COMPILE", R"(["COMPILE_ERROR"])");
    const nlohmann::json s = corpusStats(c);
    EXPECT_EQ(s["tasks"], 8); // the old keys stay
    const auto &m = s["metrics"];
    // Verified tasks: relu (2/2), softmax (1/3), rms (2/2), gemm (1/1), attention (0/1), add (1/1), conv (1/2).
    const double p1 = (1.0 + 1.0 / 3 + 1.0 + 1.0 + 0.0 + 1.0 + 0.5) / 7;
    EXPECT_NEAR(m["pass_at_k"]["1"].get<double>(), p1, 1e-12);
    // pass@5 uses k = n for every task here: each task with a pass counts 1.
    EXPECT_NEAR(m["pass_at_k"]["5"].get<double>(), 6.0 / 7, 1e-12);
    EXPECT_EQ(m["tasks"], 8);
    EXPECT_EQ(m["tasks_verified"], 7);
    // fast_p over the 8 tasks with samples; best passing speedups: relu 1.5, softmax 2.5, rms 1.2,
    // gemm 3.0, add 1.0, conv 0.8.
    EXPECT_NEAR(m["fast_p"]["0"].get<double>(), 6.0 / 8, 1e-12);
    EXPECT_NEAR(m["fast_p"]["0.8"].get<double>(), 5.0 / 8, 1e-12);
    EXPECT_NEAR(m["fast_p"]["1"].get<double>(), 4.0 / 8, 1e-12);
    EXPECT_NEAR(m["fast_p"]["1.5"].get<double>(), 2.0 / 8, 1e-12);
    EXPECT_NEAR(m["fast_p"]["2"].get<double>(), 2.0 / 8, 1e-12);
    const double logs = std::log(1.5) + std::log(1.1) + std::log(2.5) + std::log(0.9) + std::log(1.2) + std::log(3.0) +
                        std::log(1.0) + std::log(0.8);
    EXPECT_NEAR(m["geomean_speedup"].get<double>(), std::exp(logs / 8), 1e-12);
    EXPECT_EQ(m["failures"]["by_status"]["FAIL_STATIC"], 1);
    EXPECT_EQ(m["failures"]["by_status"]["FAIL_RUNTIME"], 1);
    EXPECT_EQ(m["failures"]["by_reason"]["RUNTIME_ERROR"], 1);
    EXPECT_FALSE(m["failures"]["by_reason"].contains("NO_KERNEL")) << "only the latest verdict counts";
    EXPECT_EQ(m["failures"]["by_reason"]["TORCH_OP_IN_FORWARD"], 1);
    EXPECT_EQ(m["failures"]["by_reason"]["NONFINITE_MISMATCH"], 1);
    // Per teacher model: teacher-b wrote rms (2/2) and add (1/1).
    EXPECT_NEAR(s["metrics_by"]["model"]["teacher-b"]["pass_at_k"]["1"].get<double>(), 1.0, 1e-12);
    EXPECT_EQ(s["metrics_by"]["level"]["3"]["pass_at_k"]["1"].get<double>(), 0.0);
    EXPECT_NEAR(s["metrics_by"]["category"]["reduction"]["pass_at_k"]["1"].get<double>(), 1.0 / 3, 1e-12);
}

TEST(Stats, TextOutputHasTheMetrics)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    {
        Corpus c = Corpus::create(db);
        test::buildDemo(c);
    }
    const auto r = test::runCli({"stats", db});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("pass@10"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("model=teacher-b"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("failures by status"), std::string::npos) << r.out;
}
