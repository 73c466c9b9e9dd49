#include "core/select/difficulty.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

using namespace sieve;

namespace {
Difficulty of(const std::vector<TaskDifficulty> &all, std::int64_t id)
{
    for (const auto &t : all)
        if (t.taskId == id)
            return t.difficulty;
    ADD_FAILURE() << "no task " << id;
    return Difficulty::Unknown;
}
} // namespace

TEST(Difficulty, FromAttemptsToFirstPass)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto d = test::buildDemo(c);
    const auto all = taskDifficulties(c.db());
    EXPECT_EQ(of(all, d.relu), Difficulty::Easy);
    EXPECT_EQ(of(all, d.softmax), Difficulty::Hard);
    EXPECT_EQ(of(all, d.conv), Difficulty::Hard);
    EXPECT_EQ(of(all, d.attention), Difficulty::Unsolved);
    EXPECT_EQ(of(all, d.pending), Difficulty::Unknown);
    for (const auto &t : all)
        if (t.taskId == d.softmax) {
            EXPECT_EQ(t.attemptsToFirstPass, 3);
            EXPECT_EQ(t.samples, 3);
            EXPECT_EQ(t.passed, 1);
            EXPECT_EQ(t.level, 1);
            EXPECT_EQ(t.category, "reduction");
        }
}

TEST(Difficulty, AttemptOrderNotInsertionOrder)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto t = test::addTask(c, "op", 1, "x");
    // Inserted out of order: attempt 2 passed, attempt 1 failed -> hard.
    test::addSample(c, t, {"s2", 2, "PASS"});
    test::addSample(c, t, {"s1", 1, "FAIL_RUNTIME"});
    const auto u = test::addTask(c, "op2", 1, "x");
    // No attempt numbers: order of insertion; the first passed -> easy. Pending ones do not count.
    test::addSample(c, u, {"u1", std::nullopt, "PASS"});
    test::addSample(c, u, {"u2", std::nullopt, "FAIL_RUNTIME"});
    const auto v = test::addTask(c, "op3", 1, "x");
    test::addSample(c, v, {"v1", std::nullopt, "PENDING"});
    test::addSample(c, v, {"v2", std::nullopt, "CANCELLED"});
    const auto all = taskDifficulties(c.db());
    EXPECT_EQ(of(all, t), Difficulty::Hard);
    EXPECT_EQ(of(all, u), Difficulty::Easy);
    EXPECT_EQ(of(all, v), Difficulty::Unknown);
    EXPECT_EQ(parseDifficulty("hard"), Difficulty::Hard);
    EXPECT_FALSE(parseDifficulty("medium"));
}
