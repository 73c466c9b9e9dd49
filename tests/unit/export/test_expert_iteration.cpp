// Expert iteration: difficulty and statistics scoped to a model, a sampling run and a held-out task
// list, and pass@1 before/after (sieve-cli stats --compare), on a real corpus file.
#include "core/db/corpus.h"
#include "core/select/difficulty.h"
#include "core/select/selection.h"
#include "core/select/stats.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

using namespace sieve;

namespace {

// Four tasks. The base model: t1 easy, t2 hard (passes at attempt 3), t3 unsolved, t4 easy. The
// fine-tuned model (a later sampling run "sft-eval"): t1 and t2 on the first attempt, t3 1 of 2.
std::string makeCorpus(test::TempDir &dir)
{
    const std::string path = dir.file("iter.sieve");
    Corpus c = Corpus::create(path);
    std::map<std::string, std::int64_t> t;
    for (const char *name : {"t1", "t2", "t3", "t4"})
        t[name] = test::addTask(c, name, 1, "activation");
    auto add = [&](const char *task, const char *name, int attempt, const char *status, const char *model) {
        return test::addSample(c, t[task], {name, attempt, status, std::nullopt, model});
    };
    add("t1", "b-t1-1", 1, "PASS", "base");
    add("t2", "b-t2-1", 1, "FAIL_MISMATCH", "base");
    add("t2", "b-t2-2", 2, "FAIL_COMPILE", "base");
    add("t2", "b-t2-3", 3, "PASS", "base");
    add("t3", "b-t3-1", 1, "FAIL_RUNTIME", "base");
    add("t4", "b-t4-1", 1, "PASS", "base");
    c.db().exec("INSERT INTO sample_runs(name, mode, endpoint, model, params_json, started_at) "
                "VALUES('sft-eval', 'sample', 'http://localhost', 'sft', '{}', 0)");
    const std::int64_t run = c.db().lastInsertId();
    auto item = [&](const char *task, std::int64_t sample, int attempt) {
        c.db()
            .prepare("INSERT INTO sample_run_items(run_id, task_id, attempt, sample_id, created_at) "
                     "VALUES(?1, ?2, ?3, ?4, 0)")
            .bind(1, run)
            .bind(2, t[task])
            .bind(3, attempt)
            .bind(4, sample)
            .run();
    };
    item("t1", add("t1", "s-t1-1", 1, "PASS", "sft"), 1);
    item("t2", add("t2", "s-t2-1", 1, "PASS", "sft"), 1);
    item("t3", add("t3", "s-t3-1", 1, "FAIL_MISMATCH", "sft"), 1);
    item("t3", add("t3", "s-t3-2", 2, "PASS", "sft"), 2);
    add("t4", "s-t4-x", 1, "FAIL_RUNTIME", "sft"); // not stored by the run
    return path;
}

std::map<std::string, Difficulty> labels(const std::vector<TaskDifficulty> &v)
{
    std::map<std::string, Difficulty> out;
    for (const auto &d : v)
        out[d.name] = d.difficulty;
    return out;
}

} // namespace

TEST(ExpertIteration, DifficultyScopedToTheBaseModelIgnoresTheFineTunedRun)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    Corpus c = Corpus::open(db, true);
    // All samples: the fine-tuned model's samples rewrite the labels (t2 passes at attempt 1 now).
    const auto all = labels(taskDifficulties(c.db()));
    EXPECT_EQ(all.at("t2"), Difficulty::Easy);
    EXPECT_EQ(all.at("t3"), Difficulty::Hard); // base fails attempt 1, sft passes attempt 2
    SampleScope base;
    base.model = "base";
    const auto b = labels(taskDifficulties(c.db(), base));
    EXPECT_EQ(b.at("t1"), Difficulty::Easy);
    EXPECT_EQ(b.at("t2"), Difficulty::Hard);
    EXPECT_EQ(b.at("t3"), Difficulty::Unsolved);
    EXPECT_EQ(b.at("t4"), Difficulty::Easy);
    SampleScope run;
    run.run = "sft-eval";
    const auto r = labels(taskDifficulties(c.db(), run));
    EXPECT_EQ(r.at("t2"), Difficulty::Easy);
    EXPECT_EQ(r.at("t3"), Difficulty::Hard);
    EXPECT_EQ(r.at("t4"), Difficulty::Unknown); // the run stored nothing for t4
    SampleScope held;
    held.tasks = std::vector<std::string>{"t2", "t3"};
    EXPECT_EQ(taskDifficulties(c.db(), held).size(), 2u);
    SampleScope unknown;
    unknown.run = "nope";
    EXPECT_THROW(taskDifficulties(c.db(), unknown), std::runtime_error);

    // The selection takes its labels from the scope.
    SelectionOptions o;
    o.difficultyScope = base;
    o.easyCount = 0; // hard tasks only
    const Selection s = selectSamples(c.db(), o);
    std::set<std::string> tasks;
    for (const auto &x : s.samples)
        tasks.insert(x.taskName);
    EXPECT_EQ(tasks, (std::set<std::string>{"t2"}));
}

TEST(ExpertIteration, CompareGivesPassAt1BeforeAndAfterPerTask)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    test::writeFile(dir.file("held-out.txt"), "# held-out tasks\nt2\nt3\n\n");
    Corpus c = Corpus::open(db, true);
    SampleScope a, b;
    a.model = "base";
    b.run = "sft-eval";
    a.tasks = b.tasks = readTaskList(dir.file("held-out.txt"));
    const auto j = compareScopes(c, a, b);
    // base: t2 1/3, t3 0/1 -> (1/3 + 0) / 2; sft run: t2 1/1, t3 1/2 -> 0.75.
    EXPECT_NEAR(j["a"]["pass_at_1"].get<double>(), (1.0 / 3) / 2, 1e-12);
    EXPECT_NEAR(j["b"]["pass_at_1"].get<double>(), 0.75, 1e-12);
    EXPECT_EQ(j["paired"]["tasks"], 2);
    EXPECT_EQ(j["paired"]["improved"], 2);
    ASSERT_EQ(j["per_task"].size(), 2u);
    EXPECT_EQ(j["per_task"][0]["task"], "t2");
    EXPECT_EQ(j["per_task"][0]["a"]["n"], 3);
    EXPECT_NEAR(j["per_task"][1]["delta"].get<double>(), 0.5, 1e-12);

    const auto r =
        test::runCli({"stats", db, "--compare", "base", "run:sft-eval", "--tasks", dir.file("held-out.txt")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("pass@1 16.7% -> 75.0% (+58.3 points); improved 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("t2\t1/3\t33.3%\t1/1\t100.0%\t+66.7"), std::string::npos) << r.out;
    // Model against model, all tasks: t4 only has the base model's pass and the sft model's failure.
    const auto all = test::runCli({"stats", db, "--compare", "base", "sft", "--json"});
    ASSERT_EQ(all.exitCode, 0) << all.err;
    const auto ja = nlohmann::json::parse(all.out);
    EXPECT_EQ(ja["paired"]["tasks"], 4);
    EXPECT_EQ(ja["paired"]["worse"], 1);
    // Scoped plain statistics.
    const auto scoped = test::runCli({"stats", db, "--model", "base", "--tasks", dir.file("held-out.txt"), "--json"});
    ASSERT_EQ(scoped.exitCode, 0) << scoped.err;
    const auto js = nlohmann::json::parse(scoped.out);
    EXPECT_EQ(js["metrics"]["samples"], 4);
    EXPECT_EQ(js["scope"], "model=base tasks=2");
    test::writeFile(dir.file("bad.txt"), "t2\nmissing_task\n");
    const auto bad = test::runCli({"stats", db, "--compare", "base", "sft", "--tasks", dir.file("bad.txt")});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("missing_task"), std::string::npos) << bad.err;
}
