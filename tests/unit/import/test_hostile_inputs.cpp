// Hostile inputs (issue #21): each case once made an import or answer extraction crash, hang, abort or
// store something invalid. Every one must now end in a per-record rejection naming the path, with the
// rest of the input committed and the import finished.
#include "core/db/corpus.h"
#include "core/import/importer.h"
#include "core/import/importlock.h"
#include "core/prompt/answer.h"
#include "core/util/jsondepth.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace sieve;
namespace fs = std::filesystem;

namespace {

std::string problem(int n)
{
    return "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    def forward(self, x):\n"
           "        return torch.relu(x) * " +
           std::to_string(n) +
           "\n\ndef get_inputs():\n    return [torch.randn(8)]\n\ndef get_init_inputs():\n"
           "    return []\n";
}

void writeProblem(const fs::path &file, int n)
{
    fs::create_directories(file.parent_path());
    test::writeFile(file.string(), problem(n));
}

std::int64_t count(Corpus &c, const std::string &sql)
{
    return c.db().queryInt(sql).value_or(-1);
}

bool anyErrorNames(const ImportReport &r, const std::string &needle)
{
    for (const auto &f : r.files)
        for (const auto &e : f.errors)
            if (e.file.find(needle) != std::string::npos || e.message.find(needle) != std::string::npos)
                return true;
    return false;
}

// True when every import has finished (its report stored).
bool importsFinished(Corpus &c)
{
    return count(c, "SELECT count(*) FROM imports WHERE finished_at IS NULL") == 0;
}

} // namespace

TEST(HostileAnswer, DeeplyNestedResponseIsExtractedWithoutRecursion)
{
    // A million levels of choices[0]: the old messageOf recursed once per level and overflowed.
    const int depth = 1000000;
    std::string nested;
    nested.reserve(std::size_t(depth) * 16);
    for (int i = 0; i < depth; ++i)
        nested += "{\"choices\":[";
    nested += "{\"message\":{\"content\":\"```python\\nclass ModelNew(nn.Module):\\n    pass\\n```\"}}";
    for (int i = 0; i < depth; ++i)
        nested += "]}";
    // Too deep to be a completion: read as plain text (whose fence lines are JSON-escaped, so no answer).
    // Returning at all is the point: the old walk recursed once per level and overflowed the stack.
    const answer::Extracted e = answer::extract(nested);
    EXPECT_FALSE(e.hasAnswer);
    // Under the depth limit, choices nested in choices are walked once, not followed down.
    std::string shallow;
    for (int i = 0; i < 100; ++i)
        shallow += "{\"choices\":[";
    shallow += "{\"message\":{\"content\":\"x\"}}";
    for (int i = 0; i < 100; ++i)
        shallow += "]}";
    EXPECT_FALSE(answer::extract(shallow).hasAnswer);
    std::string arrays(200000, '[');
    EXPECT_FALSE(answer::extract("{\"choices\":" + arrays).hasAnswer);
}

TEST(HostileAnswer, CompletionOneLevelDownStillFound)
{
    const auto e = answer::extract(
        R"({"choices":[{"message":{"content":"```python\nclass ModelNew(nn.Module):\n    pass\n```","reasoning_content":"hmm"}}]})");
    EXPECT_TRUE(e.hasAnswer);
    EXPECT_EQ(e.reasoning, "hmm");
    // choices inside choices is not a completion's shape: no message is taken from the inner one.
    const auto inner = answer::extract(R"({"choices":[{"choices":[{"message":{"content":"x"}}]}]})");
    EXPECT_FALSE(inner.hasAnswer);
}

TEST(HostileAnswer, DepthGuardSkipsStringsAndCountsLevels)
{
    EXPECT_TRUE(jsonguard::depthWithin(R"({"a":"[[[[[[[[[[[[[[[[[[[["})", 2));
    EXPECT_TRUE(jsonguard::depthWithin(R"({"a":[{"b":1}]})", 3));
    EXPECT_FALSE(jsonguard::depthWithin(R"({"a":[{"b":[1]}]})", 3));
    EXPECT_TRUE(jsonguard::depthWithin(R"({"a":"\"[[["})", 1));
}

TEST(HostileKernelBench, HugeLevelNumberRejectsOnlyItsFiles)
{
    test::TempDir dir;
    writeProblem(dir.path() / "kb" / "level1" / "1_A.py", 1);
    writeProblem(dir.path() / "kb" / "level99999999999" / "2_B.py", 2);
    writeProblem(dir.path() / "kb" / "level0" / "3_C.py", 3);
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const ImportReport r = importFiles(c, ImportFormat::KernelBench, {(dir.path() / "kb").string()});
    EXPECT_EQ(r.tasksAdded(), 1u);
    EXPECT_EQ(r.rejected(), 2u);
    EXPECT_TRUE(anyErrorNames(r, "level99999999999/2_B.py")) << r.toJson().dump(2);
    EXPECT_TRUE(anyErrorNames(r, "level0/3_C.py")) << r.toJson().dump(2);
    EXPECT_TRUE(importsFinished(c));
}

TEST(HostileKernelBench, NonUtf8FileNameIsRejectedAndReRunsFinish)
{
    test::TempDir dir;
    writeProblem(dir.path() / "kb" / "level1" / "1_A.py", 1);
    writeProblem(dir.path() / "kb" / "level1" / "2_\xff\xfe.py", 2);
    writeProblem(dir.path() / "kb" / "level1" / "3_C.py", 3);
    Corpus c = Corpus::create(dir.file("c.sieve"));
    for (int run = 0; run < 2; ++run) {
        const ImportReport r = importFiles(c, ImportFormat::KernelBench, {(dir.path() / "kb").string()});
        EXPECT_EQ(r.tasksAdded(), run == 0 ? 2u : 0u);
        EXPECT_EQ(r.rejected(), 1u);
        EXPECT_TRUE(anyErrorNames(r, "2_\\xFF\\xFE.py"))
            << r.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
        EXPECT_TRUE(importsFinished(c)) << "run " << run;
        // The stored report is valid JSON.
        const auto stored = c.db().queryText("SELECT report_json FROM imports ORDER BY id DESC LIMIT 1");
        ASSERT_TRUE(stored);
        EXPECT_TRUE(nlohmann::json::accept(*stored));
    }
    EXPECT_EQ(count(c, "SELECT count(*) FROM tasks"), 2);
}

TEST(HostileKernelBench, LeadingZeroIdStoresValidJson)
{
    test::TempDir dir;
    writeProblem(dir.path() / "kb" / "level1" / "007_Lead.py", 7);
    writeProblem(dir.path() / "kb" / "level1" / "99999999999999999999_Big.py", 8);
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const ImportReport r = importFiles(c, ImportFormat::KernelBench, {(dir.path() / "kb").string()});
    EXPECT_EQ(r.tasksAdded(), 1u);
    EXPECT_EQ(r.rejected(), 1u);
    EXPECT_TRUE(anyErrorNames(r, "99999999999999999999_Big.py"));
    const auto prov = c.db().queryText("SELECT provenance_json FROM tasks");
    ASSERT_TRUE(prov);
    const auto j = nlohmann::json::parse(*prov, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << *prov;
    EXPECT_EQ(j.at("problem_id"), 7);
    EXPECT_EQ(j.at("file"), "level1/007_Lead.py");
}

// Root reads every folder, so the unreadable one is tested as an unprivileged user in a child process.
TEST(HostileKernelBench, UnreadableSubfolderRejectsOnlyItsRecords)
{
    test::TempDir dir;
    writeProblem(dir.path() / "kb" / "level1" / "1_A.py", 1);
    writeProblem(dir.path() / "kb" / "locked" / "level2" / "2_B.py", 2);
    writeProblem(dir.path() / "kb" / "zz" / "level3" / "3_C.py", 3);
    fs::permissions(dir.path(), fs::perms::all);
    for (const auto &e : fs::recursive_directory_iterator(dir.path()))
        fs::permissions(e.path(), fs::perms::all);
    fs::permissions(dir.path() / "kb" / "locked", fs::perms::none);
    const std::string db = dir.file("c.sieve");
    Corpus::create(db);
    for (const std::string &f : {db, db + "-wal", db + "-shm"})
        if (fs::exists(f))
            fs::permissions(f, fs::perms::all);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(3);
        try {
            Corpus c = Corpus::open(db);
            const ImportReport r = importFiles(c, ImportFormat::KernelBench, {(dir.path() / "kb").string()});
            const bool ok =
                r.tasksAdded() == 2 && r.rejected() == 1 && anyErrorNames(r, "kb/locked") && importsFinished(c);
            _exit(ok ? 0 : 1);
        } catch (...) {
            _exit(2);
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    fs::permissions(dir.path() / "kb" / "locked", fs::perms::all);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: wrong counts, 2: threw, 3: cannot drop privileges";
}

TEST(HostileKernelBench, FifoAmongInputsIsRejectedWithoutBlocking)
{
    test::TempDir dir;
    writeProblem(dir.path() / "kb" / "level1" / "1_A.py", 1);
    ASSERT_EQ(mkfifo((dir.path() / "kb" / "level1" / "2_Fifo.py").c_str(), 0644), 0);
    ASSERT_EQ(mkfifo(dir.file("tasks.jsonl").c_str(), 0644), 0);
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto t0 = std::chrono::steady_clock::now();
    const ImportReport kb =
        importFiles(c, ImportFormat::KernelBench,
                    {(dir.path() / "kb").string(), (dir.path() / "kb" / "level1" / "2_Fifo.py").string()});
    EXPECT_EQ(kb.tasksAdded(), 1u);
    EXPECT_EQ(kb.rejected(), 2u);
    EXPECT_TRUE(anyErrorNames(kb, "2_Fifo.py"));
    const ImportReport jsonl = importFiles(c, ImportFormat::Sieve, {dir.file("tasks.jsonl")});
    EXPECT_EQ(jsonl.rejected(), 1u);
    EXPECT_TRUE(anyErrorNames(jsonl, "not a regular file")) << jsonl.toJson().dump(2);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
    EXPECT_TRUE(importsFinished(c));
}

// Two large imports of the same rows at once: the second waits for the first instead of checking keys
// against a stale picture, so no key is stored twice. A reader that opens meanwhile leaves the dropped
// indices to the import.
TEST(HostileImport, OverlappingImportsOfTheSameRowsStoreEachKeyOnce)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    Corpus::create(db);
    // A large import (> 10,000 expected rows at 2 KiB a row) drops the indices and checks in memory.
    std::string rows = nlohmann::json({{"task_id", "t/one"}, {"reference_code", problem(1)}}).dump() + "\n";
    const std::string pad(2000, 'x');
    for (int i = 0; i < 11000; ++i)
        rows += nlohmann::json({{"sample_id", "s" + std::to_string(i)},
                                {"task_id", "t/one"},
                                {"code", "class ModelNew: pass # " + std::to_string(i) + pad}})
                    .dump() +
                "\n";
    test::writeFile(dir.file("rows.jsonl"), rows);
    std::atomic<int> waited{0};
    auto one = [&] {
        Corpus c = Corpus::open(db);
        ImportOptions o;
        o.onWaitForLock = [&] { ++waited; };
        importFiles(c, ImportFormat::Sieve, {dir.file("rows.jsonl")}, o);
    };
    std::thread a(one), b(one);
    a.join();
    b.join();
    Corpus c = Corpus::open(db);
    EXPECT_LE(waited.load(), 1);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples"), 11000);
    EXPECT_EQ(count(c, "SELECT count(*) FROM (SELECT sample_key FROM samples GROUP BY sample_key HAVING count(*) > 1)"),
              0);
    EXPECT_EQ(count(c, "SELECT count(*) FROM sqlite_master WHERE name='samples_key'"), 1);
}

TEST(HostileImport, OpenerLeavesDroppedIndicesToTheRunningImport)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    {
        Corpus c = Corpus::create(db);
        schema::dropSampleIndices(c.db(), true);
    }
    {
        const ImportLock lock(db);
        EXPECT_TRUE(importRunning(db));
        Corpus c = Corpus::open(db);
        EXPECT_EQ(count(c, "SELECT count(*) FROM sqlite_master WHERE name='samples_key'"), 0);
    }
    EXPECT_FALSE(importRunning(db));
    Corpus c = Corpus::open(db);
    EXPECT_EQ(count(c, "SELECT count(*) FROM sqlite_master WHERE name='samples_key'"), 1);
}
