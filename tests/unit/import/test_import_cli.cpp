// sieve-cli import end to end, and the crash case: kill -9 in the middle of an import, then check that
// the file opens, passes integrity_check, and that a re-run completes without duplicates.
#include "core/cli/commands.h"
#include "core/db/corpus.h"
#include "gpu/cli/commands.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace sieve;

namespace {
const std::string kDemo = std::string(SIEVE_SOURCE_DIR) + "/resources/demo/";

std::vector<nlohmann::json> jsonLines(const std::string &text)
{
    std::vector<nlohmann::json> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty())
            rows.push_back(nlohmann::json::parse(line));
    return rows;
}
} // namespace

TEST(ImportCli, InitImportListStatsOnTheDemoCorpus)
{
    test::TempDir dir;
    const std::string db = dir.file("demo.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    const auto imp = test::runCli(
        {"import", db, "--format", "sieve", kDemo + "tasks.jsonl", kDemo + "samples.jsonl", "--json", "--quiet"});
    ASSERT_EQ(imp.exitCode, 0) << imp.err << imp.out;
    const auto report = nlohmann::json::parse(imp.out);
    EXPECT_EQ(report["tasks_added"], 5);
    EXPECT_EQ(report["samples_added"], 15);
    EXPECT_EQ(report["rejected"], 0);

    const auto list = test::runCli({"list", db, "--json"});
    ASSERT_EQ(list.exitCode, 0) << list.err;
    const auto rows = jsonLines(list.out);
    ASSERT_EQ(rows.size(), 15u);
    int withoutAnswer = 0;
    for (const auto &r : rows) {
        EXPECT_EQ(r["status"], "PENDING");
        // One CUDA answer (load_inline), the rest Triton.
        EXPECT_EQ(r["backend"], r["sample"] == "relu-cuda-1" ? "cuda" : "triton");
        withoutAnswer += r["has_answer"] ? 0 : 1;
    }
    EXPECT_EQ(withoutAnswer, 1);
    EXPECT_EQ(rows[0]["sample"], "rmsnorm-A");
    EXPECT_EQ(rows[0]["task"], "demo/rmsnorm");

    const auto stats = test::runCli({"stats", db, "--json"});
    ASSERT_EQ(stats.exitCode, 0) << stats.err;
    const auto s = nlohmann::json::parse(stats.out);
    EXPECT_EQ(s["tasks"], 5);
    EXPECT_EQ(s["samples"], 15);

    const auto again =
        test::runCli({"import", db, "--format", "sieve", kDemo + "tasks.jsonl", kDemo + "samples.jsonl"});
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.out.find("total: 0 tasks added, 0 samples added, 20 unchanged, 0 rejected"), std::string::npos)
        << again.out;
}

TEST(ImportCli, RejectedRecordsGiveExitCodeThreeAndFileLineFieldOnStderr)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    const auto r = test::runCli({"import", db, "--format", "sieve", test::testData("import/bad/sieve_bad.jsonl")});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("sieve_bad.jsonl:4: atol: expected a number, got a string"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("1 tasks added, 1 samples added, 0 unchanged, 13 rejected"), std::string::npos) << r.out;
}

TEST(ImportCli, UsageErrorsAndHelp)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    EXPECT_EQ(test::runCli({"import", db, "x.jsonl"}).exitCode, 2);
    const auto bad = test::runCli({"import", db, "--format", "csv", "x.jsonl"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--format takes one of kernelbench, kernelbook, cuda-archive, sieve; not 'csv'"),
              std::string::npos);
    const auto help = test::runCli({"import", "--help"});
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.out.find("cuda-archive"), std::string::npos);
    EXPECT_EQ(test::runCli({"import", dir.file("missing.sieve"), "--format", "sieve", "x"}).exitCode, 1);

    // --help is helpText(), whose options table is made from the option specs: import's lists each of its
    // options with its value name and description.
    const cli::Command import = cli::importCommand();
    EXPECT_EQ(help.out, cli::helpText(cli::withGlobalOptions(import)));
    for (const cli::OptionSpec &o : import.options)
        EXPECT_NE(help.out.find("  --" + o.name + (o.valueName.empty() ? "" : " " + o.valueName) + "  "),
                  std::string::npos)
            << o.name;
    // Every command of core and gpu: a summary and a usage, options named once, and every option with a
    // description in the command's --help (wrapping only changes the white space).
    auto squeezed = [](const std::string &text) {
        std::istringstream words(text);
        std::string out, w;
        while (words >> w)
            out += (out.empty() ? "" : " ") + w;
        return out;
    };
    std::vector<cli::Command> commands = cli::coreCommands();
    for (cli::Command &c : gpu::gpuCommands())
        commands.push_back(std::move(c));
    EXPECT_EQ(commands.size(), 11u + 10u); // core's and gpu's
    std::set<std::string> names;
    for (const cli::Command &c : commands) {
        SCOPED_TRACE(c.name);
        EXPECT_TRUE(names.insert(c.name).second);
        EXPECT_FALSE(c.summary.empty());
        EXPECT_EQ(c.usage.rfind("sieve-cli " + c.name, 0), 0u) << c.usage;
        EXPECT_NE(c.run, nullptr);
        const std::string text = squeezed(cli::helpText(c));
        std::set<std::string> options;
        for (const cli::OptionSpec &o : c.options) {
            EXPECT_TRUE(options.insert(o.name).second) << "--" << o.name << " twice"; // parse() takes the first
            if (o.help.empty())
                continue; // hidden: not listed
            EXPECT_EQ(o.takesValue, !o.valueName.empty()) << "--" << o.name;
            EXPECT_NE(text.find("--" + o.name + (o.valueName.empty() ? "" : " " + o.valueName)), std::string::npos)
                << "--" << o.name;
            EXPECT_NE(text.find(squeezed(o.help)), std::string::npos) << "--" << o.name;
        }
    }
}

TEST(ImportCli, KillNineMidImportLeavesAConsistentFileAndARerunCompletes)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve"), data = dir.file("samples.jsonl");
    constexpr int kRows = 60000;
    {
        std::ofstream out(data);
        out << test::readFile(test::testData("import/sieve_tasks.jsonl"));
        const std::string body(600, 'k');
        for (int i = 0; i < kRows; ++i)
            out << "{\"sample_id\":\"s" << i << "\",\"task_id\":\"t/double\",\"code\":\"# " << i << ' ' << body
                << "\",\"attempt\":" << i % 7 << "}\n";
    }
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);

    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(SIEVE_CLI_PATH, SIEVE_CLI_PATH, "import", db.c_str(), "--format", "sieve", "--batch", "500", data.c_str(),
              static_cast<char *>(nullptr));
        _exit(127);
    }
    // Kill it once some batches are committed but long before the end.
    long long seen = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < deadline) {
        try {
            db::Database reader(db, db::Database::Mode::ReadOnly);
            seen = reader.queryInt("SELECT count(*) FROM samples").value_or(0);
        } catch (const db::Error &) {
            seen = 0; // the writer may hold a lock for a moment
        }
        if (seen >= 1000)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the import finished before it could be killed";

    long long partial = 0;
    {
        Corpus c = Corpus::open(db);
        EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
        partial = c.db().queryInt("SELECT count(*) FROM samples").value_or(-1);
        EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM sample_payloads").value_or(-1), partial);
        EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM imports WHERE finished_at IS NULL").value_or(-1), 1);
    }
    EXPECT_GT(partial, 0);
    EXPECT_LT(partial, kRows);
    {
        // The import dropped the reviewer's indices to build them at its end (an empty corpus, a large
        // input); the read-write open above put them back.
        db::Database reader(db, db::Database::Mode::ReadOnly);
        EXPECT_EQ(reader.queryInt("SELECT count(*) FROM sqlite_master WHERE type='index' AND name IN "
                                  "('samples_task','samples_status','samples_speedup','samples_review',"
                                  "'samples_cluster')"),
                  5);
        EXPECT_EQ(reader.queryInt("SELECT count(*) FROM samples INDEXED BY samples_task WHERE task_id > 0"), partial);
    }

    const auto rerun = test::runCli({"import", db, "--format", "sieve", "--json", "--quiet", data});
    ASSERT_EQ(rerun.exitCode, 0) << rerun.err;
    const auto report = nlohmann::json::parse(rerun.out);
    EXPECT_EQ(report["samples_added"].get<long long>() + partial, kRows);

    Corpus c = Corpus::open(db);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples").value_or(-1), kRows);
    EXPECT_EQ(c.db().queryInt("SELECT count(DISTINCT name) FROM samples").value_or(-1), kRows);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM sample_payloads").value_or(-1), kRows);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM tasks").value_or(-1), 2);
}
