// Corpus files as users have them (#34.4): readable but not writable (another user's file, a read-only
// mount), and damaged (garbage header, truncated, overwritten pages). Real files, real sieve-cli
// processes: the commands that only read work, those that write say why they cannot, and nothing is
// written into a damaged file.
#include "core/db/corpus.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <unistd.h>

using namespace sieve;

namespace {

namespace fs = std::filesystem;

// Six passing samples over three tasks (export has rows in both splits), closed cleanly: no -wal, no -shm.
std::string makeCorpus(const test::TempDir &dir)
{
    const std::string db = dir.file("c.sieve");
    Corpus c = Corpus::create(db);
    for (const char *t : {"relu", "gelu", "tanh"}) {
        const auto task = test::addTask(c, t, 1, std::string("activation"));
        for (int a = 1; a <= 2; ++a)
            test::addSample(c, task, {.name = std::string(t) + "-a" + std::to_string(a), .attempt = a});
    }
    return db;
}

// The commands a user runs on a corpus, each with the arguments it needs (`out`: an export folder).
std::vector<std::vector<std::string>> readCommands(const std::string &db, const std::string &out)
{
    return {{"list", db}, {"stats", db}, {"select", db}, {"export", db, out, "--dry-run", "--split", "0.5"}};
}

bool mentionsSqlite(const std::string &text)
{
    for (const char *s : {"attempt to write a readonly database", "unable to open database", "disk image is malformed",
                          "file is not a database", "exec '", "step '", "prepare '"})
        if (text.find(s) != std::string::npos && text.find("is damaged") == std::string::npos)
            return true;
    return false;
}

// Runs every command as a user who can read the corpus but not write it or its folder, through `wrap`
// (the program and arguments before sieve-cli's), and checks what each does; `reason` is the cause the
// write refusal must name.
void checkReadOnlyCorpus(const test::TempDir &dir, const std::string &db, const std::vector<std::string> &wrap,
                         const std::string &out, const std::string &reason)
{
    const std::string before = test::readFile(db);
    auto run = [&](std::vector<std::string> args) {
        std::vector<std::string> command = wrap;
        command.push_back(SIEVE_CLI_PATH);
        command.insert(command.end(), args.begin(), args.end());
        return test::runProgram(command);
    };
    for (const auto &args : readCommands(db, out)) {
        const auto r = run(args);
        EXPECT_EQ(r.exitCode, 0) << args[0] << ": " << r.err;
    }
    const auto list = run({"list", db, "--json"});
    EXPECT_NE(list.out.find("\"tanh-a2\""), std::string::npos) << list.out;

    // A command that writes names the cause and what to do, in words rather than SQLite's.
    const auto review = run({"review", db, "relu-a1", "--accept"});
    EXPECT_EQ(review.exitCode, 1);
    EXPECT_NE(review.err.find("is read-only (" + reason), std::string::npos) << review.err;
    EXPECT_NE(review.err.find("Copy the corpus somewhere writable"), std::string::npos) << review.err;
    EXPECT_FALSE(mentionsSqlite(review.err)) << review.err;

    // The export itself is complete: exit 0, the files and manifest written, a warning that it is not
    // recorded in the corpus.
    const auto exp = run({"export", db, out, "--split", "0.5"});
    EXPECT_EQ(exp.exitCode, 0) << exp.err;
    EXPECT_NE(exp.err.find("not recorded in the corpus"), std::string::npos) << exp.err;
    EXPECT_TRUE(fs::exists(fs::path(out) / "manifest.json"));
    const std::string train = test::readFile((fs::path(out) / "train.jsonl").string());
    const std::string validation = test::readFile((fs::path(out) / "validation.jsonl").string());
    EXPECT_EQ(std::count(train.begin(), train.end(), '\n') + std::count(validation.begin(), validation.end(), '\n'), 6);
    EXPECT_EQ(test::readFile(db), before) << "a read-only corpus must come out unchanged";
    EXPECT_FALSE(fs::exists(db + "-wal"));
    (void)dir;
}

bool haveRoot()
{
    return ::geteuid() == 0;
}

// Overwrites `pages` pages from page `first` (1-based) with a pattern no SQLite page has.
void overwritePages(const std::string &path, std::int64_t first, int pages)
{
    db::Database d(path, db::Database::Mode::ReadOnly);
    const auto pageSize = d.queryInt("PRAGMA page_size").value_or(4096);
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp((first - 1) * pageSize);
    const std::string junk(static_cast<std::size_t>(pageSize * pages), '\x7f');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
}

std::int64_t rootPage(const std::string &path, const std::string &name)
{
    db::Database d(path, db::Database::Mode::ReadOnly);
    auto st = d.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?1");
    st.bind(1, name);
    return st.step() ? st.int64(0) : -1;
}

// Every command exits non-zero naming the damage and the way to recover, and the file is not written.
void checkDamaged(const test::TempDir &dir, const std::string &db, const std::string &what)
{
    const std::string before = test::readFile(db);
    auto commands = readCommands(db, dir.file("out"));
    commands.push_back({"review", db, "relu-a1", "--accept"});
    commands.push_back({"export", db, dir.file("out"), "--split", "0.5"});
    commands.push_back({"dedup", db});
    commands.push_back({"migrate", db});
    for (const auto &args : commands) {
        const auto r = test::runCli(args);
        EXPECT_NE(r.exitCode, 0) << what << ": " << args[0] << " exited 0: " << r.out;
        EXPECT_NE(r.err.find("is damaged"), std::string::npos) << what << ": " << args[0] << ": " << r.err;
        EXPECT_NE(r.err.find(".recover"), std::string::npos) << what << ": " << args[0] << ": " << r.err;
    }
    EXPECT_EQ(test::readFile(db), before) << what << ": nothing may be written into a damaged corpus";
    EXPECT_FALSE(fs::exists(dir.file("out") + "/manifest.json")) << what;
}

} // namespace

TEST(CorpusFiles, AnotherUsersCorpusIsReadableAndSaysWhyItCannotBeWritten)
{
    if (!haveRoot() || ::access("/usr/bin/setpriv", X_OK) != 0)
        GTEST_SKIP() << "needs root and setpriv to run sieve-cli as another user (nobody)";
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    fs::permissions(dir.path(), fs::perms(0755)); // nobody may read in it, not write
    fs::permissions(db, fs::perms(0644));
    const std::string out = dir.file("out");
    fs::create_directories(out);
    fs::permissions(out, fs::perms(0777));
    checkReadOnlyCorpus(dir, db, {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"}, out,
                        "permission denied");
}

TEST(CorpusFiles, CorpusOnAReadOnlyMountIsReadableAndSaysWhyItCannotBeWritten)
{
    if (!haveRoot())
        GTEST_SKIP() << "needs root for a private mount namespace (unshare -m)";
    test::TempDir dir;
    const std::string ro = dir.file("ro");
    fs::create_directories(ro);
    test::TempDir corpusDir;
    const std::string made = makeCorpus(corpusDir);
    fs::copy_file(made, ro + "/c.sieve");
    const std::string db = ro + "/c.sieve";
    const std::string out = dir.file("out");
    // sh -c 'mount ... && exec "$0" "$@"' sieve-cli ARGS: the mount exists only for that process.
    const std::vector<std::string> wrap{"unshare", "-m", "sh", "-c",
                                        "mount --bind '" + ro + "' '" + ro + "' && mount -o remount,ro,bind '" + ro +
                                            "' '" + ro + "' && exec \"$0\" \"$@\""};
    const auto probe = test::runProgram({"unshare", "-m", "sh", "-c",
                                         "mount --bind '" + ro + "' '" + ro + "' && mount -o remount,ro,bind '" + ro +
                                             "' '" + ro + "' && ! touch '" + ro + "/x' 2>/dev/null"});
    if (probe.exitCode != 0)
        GTEST_SKIP() << "cannot make a read-only bind mount here (unshare -m, mount -o remount,ro): " << probe.err;
    checkReadOnlyCorpus(dir, db, wrap, out, "read-only file system");
}

TEST(CorpusFiles, GarbageHeaderIsReportedByEveryCommand)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    {
        std::fstream f(db, std::ios::binary | std::ios::in | std::ios::out);
        f.write("this is garbage!", 16);
    }
    checkDamaged(dir, db, "garbage header");
}

TEST(CorpusFiles, TruncatedFileIsReportedByEveryCommand)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    fs::resize_file(db, fs::file_size(db) / 2);
    checkDamaged(dir, db, "truncated");
}

TEST(CorpusFiles, OverwrittenTablePagesAreReportedByEveryCommand)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    overwritePages(db, rootPage(db, "samples"), 1);
    checkDamaged(dir, db, "samples root overwritten");
}

TEST(CorpusFiles, DamageThatNoReadTouchesIsRefusedBeforeAnyWriteAndFoundByCheck)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    {
        // Payloads over several pages (random text that does not compress), so that one is not the root.
        Corpus c = Corpus::open(db);
        const auto task = test::addTask(c, "exp", 1, std::string("activation"));
        std::mt19937 rng(7);
        for (int i = 0; i < 12; ++i) {
            std::string code(3000, ' ');
            for (char &ch : code)
                ch = static_cast<char>('a' + rng() % 26);
            test::addSample(c, task, {.name = "exp-" + std::to_string(i), .attempt = 1, .code = code});
        }
    }
    std::int64_t leaf = -1;
    {
        db::Database d(db, db::Database::Mode::ReadOnly);
        leaf = d.queryInt("SELECT pageno FROM dbstat WHERE name = 'sample_payloads' AND pagetype = 'leaf' AND "
                          "pageno <> (SELECT rootpage FROM sqlite_master WHERE name = 'sample_payloads') LIMIT 1")
                   .value_or(-1);
    }
    ASSERT_GT(leaf, 0) << "the payloads should span several pages";
    // A page of payloads: list, stats and select never read it, so they answer (and their results are
    // right); a write and --check read every page.
    overwritePages(db, leaf, 1);
    const std::string before = test::readFile(db);
    for (const std::vector<std::string> &args :
         {std::vector<std::string>{"review", db, "relu-a1", "--accept"},
          std::vector<std::string>{"export", db, dir.file("out"), "--split", "0.5"},
          std::vector<std::string>{"list", db, "--check"}, std::vector<std::string>{"stats", db, "--check"}}) {
        const auto r = test::runCli(args);
        EXPECT_EQ(r.exitCode, 1) << args[0];
        EXPECT_NE(r.err.find("is damaged"), std::string::npos) << args[0] << ": " << r.err;
    }
    EXPECT_EQ(test::readFile(db), before);
    EXPECT_FALSE(fs::exists(dir.file("out") + "/manifest.json"));
}

TEST(CorpusFiles, CheckPassesOnAHealthyCorpusAndIsInEveryCommandsHelp)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    const auto r = test::runCli({"stats", db, "--check"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const auto review = test::runCli({"review", db, "relu-a1", "--accept", "--check"});
    EXPECT_EQ(review.exitCode, 0) << review.err;
    for (const char *command : {"list", "review", "export", "verify", "import"}) {
        const auto help = test::runCli({command, "--help"});
        EXPECT_NE(help.out.find("--check"), std::string::npos) << command;
    }
}
