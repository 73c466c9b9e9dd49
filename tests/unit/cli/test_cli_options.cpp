// The CLI tells the truth: enumerated option values are checked by the option framework (a usage error
// naming the choices, listed in --help too), unknown task, model and run names are errors, and progress
// lines carry no rate before there is one and no '\r' outside a terminal.
#include "core/cli/cli.h"
#include "core/util/progress.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <sstream>
#include <thread>

using namespace sieve;

namespace {

const std::vector<cli::OptionSpec> kSpecs = {
    {.name = "mode", .takesValue = true, .valueName = "M", .help = "how", .choices = {"fast", "slow"}},
    {.name = "tags",
     .takesValue = true,
     .valueName = "L",
     .help = "which",
     .choices = {"a", "b"},
     .listSeparator = ','},
    {.name = "free", .takesValue = true, .valueName = "X", .help = "anything"}};

// A corpus with one task, two models' samples and one sampling run-less history.
std::string demoCorpus(const test::TempDir &dir)
{
    const std::string db = dir.file("c.sieve");
    Corpus c = Corpus::create(db);
    test::buildDemo(c);
    return db;
}

void expectUsage(const test::ProcessResult &r, std::initializer_list<const char *> named)
{
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    for (const char *n : named)
        EXPECT_NE(r.err.find(n), std::string::npos) << "'" << n << "' not named in: " << r.err;
}

} // namespace

TEST(CliChoices, ParseRejectsValuesOutsideTheChoicesNamingThem)
{
    EXPECT_EQ(cli::parse({"--mode", "fast"}, kSpecs).value("mode"), "fast");
    EXPECT_EQ(cli::parse({"--tags=a,b", "--free", "zzz"}, kSpecs).value("tags"), "a,b");
    try {
        cli::parse({"--mode", "medium"}, kSpecs);
        FAIL() << "no usage error";
    } catch (const cli::UsageError &e) {
        EXPECT_STREQ(e.what(), "--mode takes one of fast, slow; not 'medium'");
    }
    try {
        cli::parse({"--tags", "a,c"}, kSpecs);
        FAIL() << "no usage error";
    } catch (const cli::UsageError &e) {
        EXPECT_STREQ(e.what(), "--tags takes a list of a, b; not 'c'");
    }
    const std::string help = cli::helpText({.name = "x", .usage = "x", .options = kSpecs});
    EXPECT_NE(help.find("one of: fast, slow"), std::string::npos) << help;
    EXPECT_NE(help.find("any of: a, b"), std::string::npos) << help;
}

TEST(CliChoices, EveryEnumeratedOptionIsAUsageErrorNamingTheChoices)
{
    test::TempDir dir;
    const std::string db = demoCorpus(dir);
    expectUsage(test::runCli({"list", db, "--status", "BOGUS"}), {"'BOGUS'", "PENDING", "FAIL_MISMATCH", "CRASH"});
    expectUsage(test::runCli({"select", db, "--require", "passing"}), {"passed-and-accepted"});
    expectUsage(test::runCli({"export", db, dir.file("o"), "--format", "chatml"}), {"preference-text"});
    expectUsage(test::runCli({"export", db, dir.file("o"), "--reasoning", "inline"}), {"think, field, none"});
    expectUsage(test::runCli({"export", db, dir.file("o"), "--tags", "backend,colour"}), {"'colour'", "category"});
    expectUsage(test::runCli({"export", db, dir.file("o"), "--order", "random"}), {"task, curriculum"});
    expectUsage(test::runCli({"dedup", db, "--scope", "corpus"}), {"task, global"});
    expectUsage(test::runCli({"import", db, "--format", "csv", db}), {"kernelbench", "cuda-archive"});
    expectUsage(test::runCli({"import", db, "--format", "sieve", "--compression", "gzip", db}), {"lz4, zstd"});
    expectUsage(test::runCli({"verify", db, "--cpu", "--policy", "lenient"}), {"strict, kernelbench"});
    expectUsage(test::runCli({"verify", db, "--cpu", "--fp32-precision", "tf32"}), {"deployed, ieee"});
    expectUsage(test::runCli({"tasks", "set", db, "--task", "relu", "--category", "misc"}), {"gemm", "fusion"});
    // The values are listed in --help as well.
    const auto help = test::runCli({"list", "--help"});
    EXPECT_NE(help.out.find("one of: PENDING, PASS, FAIL_STATIC"), std::string::npos) << help.out;
    // A valid value still works.
    EXPECT_EQ(test::runCli({"list", db, "--status", "FAIL_MISMATCH"}).exitCode, 0);
}

TEST(CliNames, UnknownTaskModelAndRunNamesAreErrors)
{
    test::TempDir dir;
    const std::string db = demoCorpus(dir);
    auto r = test::runCli({"stats", db, "--compare", "teacher-a", "nosuch"});
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.err.find("no samples of model 'nosuch'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("teacher-a, teacher-b"), std::string::npos) << r.err; // the models it has
    r = test::runCli({"stats", db, "--model", "nosuch"});
    EXPECT_EQ(r.exitCode, 1);
    r = test::runCli({"select", db, "--difficulty-model", "nosuch"});
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.err.find("'nosuch'"), std::string::npos) << r.err;
    r = test::runCli({"select", db, "--difficulty-run", "nosuch"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("(runs: none)"), std::string::npos) << r.err;
    r = test::runCli({"list", db, "--task", "nosuch"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no task named 'nosuch'"), std::string::npos) << r.err;
    // Known names still answer.
    EXPECT_EQ(test::runCli({"stats", db, "--compare", "teacher-a", "teacher-b"}).exitCode, 0);
    EXPECT_EQ(test::runCli({"select", db, "--difficulty-model", "teacher-b"}).exitCode, 0);
}

TEST(CliProgress, NoRateBeforeThereIsOneAndPlainLinesOutsideATerminal)
{
    std::ostringstream log;
    {
        Progress p(log, "work", 10, true, false);
        p.update(0);
        p.finish();
    }
    EXPECT_EQ(log.str(), "work 0/10 (0%)\n");
    std::ostringstream log2;
    {
        Progress p(log2, "work", 10, true, false);
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        p.update(4);
        p.update(5);
        p.finish();
    }
    // One line per report, each ending in a newline, no carriage return, a rate once something was done.
    EXPECT_EQ(log2.str().find('\r'), std::string::npos) << log2.str();
    EXPECT_NE(log2.str().find("work 4/10 (40%), "), std::string::npos) << log2.str();
    EXPECT_NE(log2.str().find("/s\nwork 5/10 (50%)"), std::string::npos) << log2.str();
    // A resumed run's earlier work is not a rate.
    std::ostringstream log3;
    {
        Progress p(log3, "verify", 10, true, false);
        p.resumedAt(6);
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        p.update(6);
        p.finish();
    }
    EXPECT_EQ(log3.str().find("/s"), std::string::npos) << log3.str();
    // On a terminal: one redrawn line.
    std::ostringstream tty;
    {
        Progress p(tty, "work", 10, true, true);
        p.finish();
    }
    EXPECT_EQ(tty.str().front(), '\r');
    EXPECT_EQ(tty.str().back(), '\n');
}
