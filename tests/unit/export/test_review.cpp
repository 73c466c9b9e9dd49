#include "core/review/review.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sieve;

namespace {
std::string current(Corpus &c, std::int64_t id)
{
    auto st = c.db().prepare("SELECT review FROM samples WHERE id=?1");
    st.bind(1, id);
    EXPECT_TRUE(st.step());
    return st.text(0);
}
} // namespace

TEST(Review, RecordsHistoryAndCurrentDecision)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto d = test::buildDemo(c);
    ReviewInput in;
    in.decision = ReviewDecision::Reject;
    in.reason = "sham";
    in.note = "writes zeros";
    in.reviewer = "ana";
    const RecordedReview r = recordReview(c.db(), d.reluA, in);
    EXPECT_EQ(r.previous, "none");
    EXPECT_EQ(r.current, "rejected");
    EXPECT_EQ(current(c, d.reluA), "rejected");
    // Undo is persisted by recording the previous decision again: the history keeps both steps.
    in = {};
    in.decision = *parseReviewValue(r.previous);
    recordReview(c.db(), d.reluA, in);
    EXPECT_EQ(current(c, d.reluA), "none");
    const auto h = reviewHistory(c.db(), d.reluA);
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].decision, "rejected");
    EXPECT_EQ(h[0].reason, "sham");
    EXPECT_EQ(h[0].note, "writes zeros");
    EXPECT_EQ(h[0].reviewer, "ana");
    EXPECT_EQ(h[1].decision, "none");
}

TEST(Review, AllOrNothingForSeveralSamples)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto d = test::buildDemo(c);
    ReviewInput in;
    in.decision = ReviewDecision::Accept;
    EXPECT_THROW(recordReviews(c.db(), {d.reluA, 99999}, in), std::runtime_error);
    EXPECT_EQ(current(c, d.reluA), "none");
    EXPECT_TRUE(reviewHistory(c.db(), d.reluA).empty());
    recordReviews(c.db(), {d.reluA, d.reluB}, in);
    EXPECT_EQ(current(c, d.reluB), "accepted");
}

TEST(Review, ResolvesIdsAndNames)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto d = test::buildDemo(c);
    EXPECT_EQ(resolveSample(c.db(), std::to_string(d.gemm1)), d.gemm1);
    EXPECT_EQ(resolveSample(c.db(), "gemm-a1"), d.gemm1);
    EXPECT_THROW(resolveSample(c.db(), "nope"), std::runtime_error);
    test::addSample(c, d.gemm, {"gemm-a1", 2});
    try {
        resolveSample(c.db(), "gemm-a1");
        ADD_FAILURE() << "an ambiguous name resolved";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("matches 2 samples"), std::string::npos) << e.what();
    }
}

TEST(Review, CommandLine)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    {
        Corpus c = Corpus::create(db);
        test::buildDemo(c);
    }
    auto r = test::runCli(
        {"review", db, "relu-a1", "softmax-a3", "--reject", "--reason", "style", "--note", "meh", "--reviewer", "bo"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("none -> rejected"), std::string::npos) << r.out;
    r = test::runCli({"review", db, "relu-a1", "--accept", "--reject"});
    EXPECT_EQ(r.exitCode, 2);
    r = test::runCli({"review", db, "no-such-sample", "--accept"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no-such-sample"), std::string::npos);
    r = test::runCli({"review", db, "relu-a1", "--clear", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["previous"], "rejected");
    EXPECT_EQ(j["review"], "none");
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM reviews").value_or(0), 3);
    EXPECT_EQ(c.db().queryText("SELECT reviewer FROM reviews ORDER BY id LIMIT 1").value_or(""), "bo");
}
