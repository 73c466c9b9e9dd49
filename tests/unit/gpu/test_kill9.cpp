// kill -9 at the worst moments (issue #21): an import killed again and again, and a verification whose
// sieve-cli and then whose worker are killed mid-run. Afterwards nothing is lost or doubled, no process
// or scratch folder is left behind, and the resumed run ends with the verdicts a clean run gives.
#include "core/db/corpus.h"
#include "tests/unit/gpu/test_verify_support.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace sieve;
using namespace sieve::test;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Child
{
    pid_t pid = -1;
    FILE *out = nullptr;
};

// sieve-cli `args` with stdout on a pipe, stderr to `errFile`, TMPDIR set to `tmpdir`.
Child startCli(const std::vector<std::string> &args, const std::string &tmpdir, const std::string &errFile)
{
    int p[2];
    EXPECT_EQ(pipe(p), 0);
    std::vector<std::string> store{SIEVE_CLI_PATH};
    store.insert(store.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (auto &a : store)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        setenv("TMPDIR", tmpdir.c_str(), 1);
        dup2(p[1], 1);
        const int err = open(errFile.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        dup2(err, 2);
        close(p[0]);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(p[1]);
    return {pid, fdopen(p[0], "r")};
}

int reap(Child &c)
{
    if (c.out) {
        char buf[4096];
        while (fgets(buf, sizeof buf, c.out)) {
        }
        fclose(c.out);
        c.out = nullptr;
    }
    int status = 0;
    waitpid(c.pid, &status, 0);
    return status;
}

// Every process below `root` (by parent pid), from /proc.
std::set<pid_t> descendants(pid_t root)
{
    std::map<pid_t, pid_t> parent;
    for (const auto &e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in(e.path() / "stat");
        std::string stat;
        std::getline(in, stat);
        const auto close = stat.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream rest(stat.substr(close + 2));
        char state = 0;
        pid_t ppid = 0;
        rest >> state >> ppid;
        parent[std::stoi(name)] = ppid;
    }
    std::set<pid_t> out{root};
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto &[pid, pp] : parent)
            if (out.count(pp) && out.insert(pid).second)
                grew = true;
    }
    out.erase(root);
    return out;
}

pid_t parentOf(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    std::getline(in, stat);
    const auto close = stat.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    pid_t ppid = -1;
    rest >> state >> ppid;
    return ppid;
}

// Alive and not a zombie.
bool alive(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!std::getline(in, stat))
        return false;
    const auto close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z' && stat[close + 2] != 'X';
}

bool allGoneWithin(const std::set<pid_t> &pids, std::chrono::seconds limit)
{
    const auto until = Clock::now() + limit;
    for (;;) {
        bool any = false;
        for (pid_t p : pids)
            any = any || alive(p);
        if (!any)
            return true;
        if (Clock::now() > until)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

std::vector<fs::path> scratchFolders(const fs::path &tmpdir)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(tmpdir, ec))
        if (e.path().filename().string().rfind("sieve-scratch-", 0) == 0)
            out.push_back(e.path());
    return out;
}

// What a scratch folder holds and who still uses it, for a failure message.
std::string describe(const fs::path &dir)
try {
    std::string out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        struct stat st
        {
        };
        ::lstat(it->path().c_str(), &st);
        out += "  " + fs::relative(it->path(), dir).string() + " uid " + std::to_string(st.st_uid) + "\n";
    }
    for (const auto &p : fs::directory_iterator("/proc", ec)) {
        const std::string pid = p.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::error_code e2;
        const std::string cwd = fs::read_symlink(p.path() / "cwd", e2).string();
        bool uses = !e2 && cwd.rfind(dir.string(), 0) == 0;
        for (const auto &fd : fs::directory_iterator(p.path() / "fd", e2))
            uses = uses || fs::read_symlink(fd.path(), e2).string().rfind(dir.string(), 0) == 0;
        if (uses)
            out += "  used by pid " + pid + ": " + readFile(p.path().string() + "/cmdline").substr(0, 200) + "\n";
    }
    return out;
} catch (const std::exception &e) { // a process that went while it was read
    return std::string("  (not described: ") + e.what() + ")";
}

std::int64_t count(Corpus &c, const std::string &sql)
{
    return c.db().queryInt(sql).value_or(-1);
}

std::vector<VerifierFixture> pick(const std::vector<std::string> &names)
{
    std::vector<VerifierFixture> out;
    for (const auto &f : verifierFixtures())
        if (std::find(names.begin(), names.end(), f.name) != names.end())
            out.push_back(f);
    return out;
}

} // namespace

TEST(Kill9, ImportKilledRepeatedlyLosesAndDoublesNothing)
{
    TempDir tmp;
    const std::string db = tmp.file("c.sieve");
    Corpus::create(db);
    // ~25 MB: a large import (indices dropped, keys checked in memory) that takes long enough to be hit.
    constexpr int kRows = 12000;
    {
        std::ofstream out(tmp.file("rows.jsonl"));
        out << nlohmann::json({{"task_id", "t/k"},
                               {"reference_code", "import torch\nclass Model(torch.nn.Module):\n    pass\n"
                                                  "def get_inputs():\n    return []\n"}})
                   .dump()
            << '\n';
        const std::string pad(2000, 'p');
        for (int i = 0; i < kRows; ++i)
            out << nlohmann::json({{"sample_id", "s" + std::to_string(i)},
                                   {"task_id", "t/k"},
                                   {"code", "class ModelNew: pass # " + std::to_string(i) + pad}})
                       .dump()
                << '\n';
    }
    const std::vector<std::string> args{"import", db, "--format", "sieve", tmp.file("rows.jsonl")};
    int kills = 0;
    for (int round = 0; round < 6; ++round) {
        Child c = startCli(args, tmp.path().string(), tmp.file("import.err"));
        // Killed at a different point each round: while parsing, writing, or rebuilding indices.
        std::this_thread::sleep_for(std::chrono::milliseconds(150 + 250 * round));
        if (::kill(c.pid, SIGKILL) == 0)
            ++kills;
        reap(c);
        // A reader may open in between (and must not stall or break anything).
        Corpus r = Corpus::open(db, true);
        EXPECT_EQ(
            count(r, "SELECT count(*) FROM (SELECT sample_key FROM samples GROUP BY sample_key HAVING count(*) > 1)"),
            0);
    }
    EXPECT_GE(kills, 1);
    const auto r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    Corpus c = Corpus::open(db);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples"), kRows) << "lost or doubled rows";
    EXPECT_EQ(count(c, "SELECT count(DISTINCT sample_key) FROM samples"), kRows);
    EXPECT_EQ(count(c, "SELECT count(*) FROM tasks"), 1);
    EXPECT_EQ(count(c, "SELECT count(*) FROM sqlite_master WHERE name='samples_key'"), 1);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    // Nothing but the corpus, its WAL files and the lock file is left beside the input.
    for (const auto &e : fs::directory_iterator(tmp.path())) {
        const std::string n = e.path().filename().string();
        EXPECT_TRUE(n == "c.sieve" || n == "c.sieve-wal" || n == "c.sieve-shm" || n == "c.sieve.import-lock" ||
                    n == "rows.jsonl" || n == "import.err")
            << n;
    }
}

TEST(Kill9, VerifyKilledThenWorkerKilledResumesToTheCleanVerdicts)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.sieve");
    Corpus::create(db);
    const auto fixtures = pick({"softmax", "static_no_kernel", "vector_add_derived_shape"});
    ASSERT_EQ(fixtures.size(), 3u);
    constexpr int kCopies = 3;
    addFixturesToCorpus(db, fixtures, kCopies);
    const fs::path tmpdir = tmp.path() / "tmp";
    fs::create_directories(tmpdir);
    const std::vector<std::string> args{"verify",     db,  "--cpu",       "--json",         "--quiet",
                                        "--parallel", "2", "--cache-dir", tmp.file("cache")};

    // 1. sieve-cli itself, after its first verdict: its worker and the worker's children die with it.
    Child c = startCli(args, tmpdir.string(), tmp.file("verify.err"));
    char line[65536];
    bool sawVerdict = false;
    while (!sawVerdict && fgets(line, sizeof line, c.out))
        sawVerdict = std::string(line).find("\"status\"") != std::string::npos;
    ASSERT_TRUE(sawVerdict) << readFile(tmp.file("verify.err"));
    const std::set<pid_t> below = descendants(c.pid);
    EXPECT_FALSE(below.empty()) << "the worker should be running";
    ASSERT_EQ(::kill(c.pid, SIGKILL), 0);
    reap(c);
    EXPECT_TRUE(allGoneWithin(below, std::chrono::seconds(15))) << "a worker or child outlived sieve-cli";
    const auto leftBehind = scratchFolders(tmpdir);
    EXPECT_EQ(leftBehind.size(), 1u) << "the killed run's scratch folder (removed by the next run)";
    {
        Corpus r = Corpus::open(db, true);
        EXPECT_EQ(r.db().queryText("SELECT state FROM verify_runs").value_or(""), "running");
        EXPECT_LT(count(r, "SELECT count(*) FROM verdicts"), 3 * kCopies);
    }

    // 2. The resume; its worker is killed after the resume's first verdict.
    Child resume = startCli(args, tmpdir.string(), tmp.file("verify.err"));
    sawVerdict = false;
    while (!sawVerdict && fgets(line, sizeof line, resume.out))
        sawVerdict = std::string(line).find("\"status\"") != std::string::npos;
    // The stale folder went before this run made its own.
    for (const auto &f : leftBehind)
        EXPECT_FALSE(fs::exists(f)) << f << "\n" << describe(f);
    int workerKills = 0;
    if (sawVerdict)
        for (pid_t p : descendants(resume.pid))
            if (parentOf(p) == resume.pid && // the worker itself, not one of its candidate children
                readFile("/proc/" + std::to_string(p) + "/cmdline").find("sieve_worker") != std::string::npos &&
                ::kill(p, SIGKILL) == 0)
                ++workerKills;
    std::string rest;
    while (fgets(line, sizeof line, resume.out))
        rest += line;
    const int status = reap(resume);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << rest << readFile(tmp.file("verify.err"));
    EXPECT_GE(workerKills, 1) << "the resume finished before its worker could be killed";

    Corpus r = Corpus::open(db, true);
    EXPECT_EQ(count(r, "SELECT count(*) FROM verify_runs"), 1);
    EXPECT_EQ(r.db().queryText("SELECT state FROM verify_runs").value_or(""), "finished");
    EXPECT_EQ(count(r, "SELECT count(*) FROM verdicts"), 3 * kCopies) << "lost or doubled verdicts";
    EXPECT_EQ(count(r, "SELECT count(DISTINCT sample_id) FROM verdicts"), 3 * kCopies);
    EXPECT_EQ(count(r, "SELECT count(*) FROM verdicts WHERE status='CRASH'"), 0) << "a harness kill was charged";
    for (const auto &f : fixtures) {
        db::Statement st = r.db().prepare("SELECT count(*) FROM samples WHERE name LIKE ?1 AND status = ?2");
        st.bind(1, f.name + "#%").bind(2, f.expect);
        ASSERT_TRUE(st.step());
        EXPECT_EQ(st.int64(0), kCopies) << f.name << " should be " << f.expect << " as in a clean run";
    }
    for (const auto &f : scratchFolders(tmpdir))
        ADD_FAILURE() << "scratch folder left behind: " << f << "\n" << describe(f);
}
