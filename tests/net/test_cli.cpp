// sieve-cli sample as users run it: exit codes, the summary, the verifier command, key hygiene.
#include "net/chatclient.h"
#include "tests/net/fakeserver.h"
#include "tests/net/nettestutil.h"

#include <QProcess>

#include <cctype>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

using namespace sieve;
using sieve::test::FakeAction;
using sieve::test::FakeServer;

namespace {
QStringList baseArgs(const std::string &db, const FakeServer &server)
{
    return {QStringLiteral("sample"),       QString::fromStdString(db),
            QStringLiteral("--endpoint"),   QString::fromUtf8(server.baseUrl()),
            QStringLiteral("--model"),      QStringLiteral("m"),
            QStringLiteral("--backoff-ms"), QStringLiteral("10"),
            QStringLiteral("--json")};
}
} // namespace

TEST(SampleCli, HelpListsTheOptions)
{
    const auto r = test::runCli({"sample", "--help"});
    EXPECT_EQ(r.exitCode, 0);
    for (const char *opt : {"--endpoint", "--model", "--mode", "--attempts", "--concurrency", "--rate", "--run-id",
                            "--api-key-env", "--extra", "--stream", "--max-failures"})
        EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

TEST(SampleCli, KeepAllRunPrintsSummaryAndKeepsKeyOutOfEverything)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"a", "b"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.script({FakeAction{FakeAction::EchoAuth}, FakeAction{FakeAction::Status, 429, {}, "0"}});
    QStringList args = baseArgs(db, server);
    args << QStringLiteral("-k") << QStringLiteral("2") << QStringLiteral("--api-key-env")
         << QStringLiteral("SIEVE_TEST_KEY") << QStringLiteral("--run-id") << QStringLiteral("cli1")
         << QStringLiteral("--stream");
    const std::string key = "sk-cli-K3Y-never-printed";
    const auto r = test::runCliServing(args, {QStringLiteral("SIEVE_TEST_KEY=") + QString::fromStdString(key)});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["state"], "finished");
    EXPECT_EQ(j["samples"], 4);
    EXPECT_EQ(j["retries"], 2);
    EXPECT_EQ(server.requests().value(0).authorization.toStdString(), "Bearer " + key);
    EXPECT_EQ(r.out.find(key), std::string::npos);
    EXPECT_EQ(r.err.find(key), std::string::npos);
    EXPECT_NE(r.err.find("[redacted]"), std::string::npos) << r.err;
    EXPECT_EQ(test::corpusEverything(db).find(key), std::string::npos);
}

TEST(SampleCli, EndpointThatKeepsFailingExitsOneAndResumeFinishes)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"a", "b", "c"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.script({FakeAction{FakeAction::Ok}, FakeAction{FakeAction::Status, 500}, FakeAction{FakeAction::Status, 502},
                   FakeAction{FakeAction::Reset}});
    QStringList args = baseArgs(db, server);
    args << QStringLiteral("--max-failures") << QStringLiteral("3") << QStringLiteral("--concurrency")
         << QStringLiteral("1") << QStringLiteral("--run-id") << QStringLiteral("flaky");
    const auto r = test::runCliServing(args);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("3 times in a row"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("run the same command again"), std::string::npos);

    const auto again = test::runCliServing(args);
    ASSERT_EQ(again.exitCode, 0) << again.err;
    const auto j = nlohmann::json::parse(again.out);
    EXPECT_TRUE(j["resumed"].get<bool>());
    EXPECT_EQ(j["samples"], 3);
    EXPECT_EQ(j["samples_this_session"], 2);
}

TEST(SampleCli, FirstPassRunsTheVerifierCommandPerAttempt)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"a"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    // A stand-in for `sieve-cli verify`: attempt 2 passes. It writes the status where the real verifier
    // does, and the sampler reads it back from the corpus.
    const std::string script = dir.file("verify.py");
    test::writeFile(script,
                    "import sqlite3, sys\n"
                    "c = sqlite3.connect(sys.argv[1], timeout=30)\n"
                    "a = c.execute('SELECT attempt FROM samples WHERE id=?', (int(sys.argv[2]),)).fetchone()[0]\n"
                    "c.execute('UPDATE samples SET status=? WHERE id=?', ('PASS' if a == 2 else 'FAIL_RUNTIME', "
                    "int(sys.argv[2])))\n"
                    "c.commit()\n");
    QStringList args = baseArgs(db, server);
    args << QStringLiteral("--mode") << QStringLiteral("first-pass") << QStringLiteral("--attempts")
         << QStringLiteral("5") << QStringLiteral("--verifier-cmd")
         << QStringLiteral("python3 %1 {db} {sample}").arg(QString::fromStdString(script));
    const auto r = test::runCliServing(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["tasks_passed"], 1);
    EXPECT_EQ(j["samples"], 2);
    EXPECT_EQ(server.received(), 2u);
}

TEST(SampleCli, BadOptionsAreUsageErrors)
{
    EXPECT_EQ(test::runCli({"sample", "x.sieve", "--model", "m"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"sample", "x.sieve", "--endpoint", "ftp://h", "--model", "m"}).exitCode, 2);
    EXPECT_EQ(
        test::runCli({"sample", "x.sieve", "--endpoint", "http://127.0.0.1:9/v1", "--model", "m", "--extra", "[1]"})
            .exitCode,
        2);
    EXPECT_EQ(test::runCli({"sample", "x.sieve", "--endpoint", "http://127.0.0.1:9/v1", "--model", "m", "--mode", "x"})
                  .exitCode,
              2);
}

TEST(SampleCli, TerminatedRunExits130AndIsLeftResumable)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"a"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setLatencyMs(5000);
    QStringList args = baseArgs(db, server);
    args << QStringLiteral("--run-id") << QStringLiteral("stopme");
    QProcess p;
    p.start(QStringLiteral(SIEVE_CLI_PATH), args);
    ASSERT_TRUE(test::spinUntil([&] { return server.received() >= 1; }));
    p.terminate(); // SIGTERM, like Ctrl-C
    ASSERT_TRUE(test::spinUntil([&] { return p.state() == QProcess::NotRunning; }));
    EXPECT_EQ(p.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(p.exitCode(), 130) << p.readAllStandardError().toStdString();
    db::Database d(db, db::Database::Mode::ReadOnly);
    EXPECT_EQ(d.queryText("SELECT state FROM sample_runs WHERE name='stopme'").value_or(""), "interrupted");
    EXPECT_EQ(d.queryInt("SELECT count(*) FROM samples").value_or(-1), 0);
}

TEST(SampleCli, DefaultDeadlineIsTenMinutesNotAnHour)
{
    // A trickling endpoint holds a request slot at most this long before it is cut off and retried.
    EXPECT_EQ(net::ClientOptions{}.deadlineMs, 600000);
    const auto r = test::runCli({"sample", "--help"});
    std::string help; // the options table wraps: one space for each run of white space
    for (const char c : r.out)
        if (!std::isspace(static_cast<unsigned char>(c)) || (!help.empty() && help.back() != ' '))
            help += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
    EXPECT_NE(help.find("--deadline S seconds a whole request may take, first byte to last (default 600; 0 = none)"),
              std::string::npos)
        << r.out;
}
