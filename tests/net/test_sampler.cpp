// The sampling loop against the fake server: attempt accounting, resume, key hygiene.
#include "core/db/payload.h"
#include "net/sampler.h"
#include "tests/net/fakeserver.h"
#include "tests/net/nettestutil.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

using namespace sieve;
using namespace sieve::net;
using sieve::test::FakeAction;
using sieve::test::FakeServer;

namespace {

struct RunResult
{
    SamplerSummary summary;
    bool done = false;
    QStringList notices;
};

SamplerOptions baseOptions(const std::string &db, const FakeServer &server)
{
    SamplerOptions o;
    o.dbPath = db;
    o.client.endpoint = QUrl(QString::fromUtf8(server.baseUrl()));
    o.client.backoff.baseMs = 10;
    o.client.maxFailures = 6;
    o.client.seed = 3;
    o.model = "teacher-m";
    o.temperature = 0.7;
    o.maxTokens = 4096;
    o.runName = "r1";
    return o;
}

RunResult runSampler(Sampler &s, int timeoutMs = 30000)
{
    RunResult r;
    QObject::connect(&s, &Sampler::finished, &s, [&](const SamplerSummary &x) {
        r.summary = x;
        r.done = true;
    });
    QObject::connect(&s, &Sampler::notice, &s, [&](const QString &n) { r.notices << n; });
    s.start();
    EXPECT_TRUE(test::spinUntil([&] { return r.done; }, timeoutMs));
    return r;
}

std::int64_t count(const std::string &db, const std::string &sql)
{
    db::Database d(db, db::Database::Mode::ReadOnly);
    return d.queryInt(sql).value_or(-1);
}

} // namespace

TEST(Sampler, KeepAllStoresKPerTaskAndErrorsConsumeNothing)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"relu", "gelu", "softmax"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.script({FakeAction{FakeAction::Status, 500}, FakeAction{FakeAction::Ok}, FakeAction{FakeAction::Reset},
                   FakeAction{FakeAction::Status, 429, {}, "0"}, FakeAction{FakeAction::Truncated}});
    SamplerOptions o = baseOptions(db, server);
    o.k = 2;
    o.extra = {{"reasoning_effort", "max"}};
    o.client.concurrency = 2;
    Sampler s(o, nullptr);
    const RunResult r = runSampler(s);
    ASSERT_EQ(r.summary.state, QStringLiteral("finished")) << r.summary.error.toStdString();
    EXPECT_EQ(r.summary.progress.tasksDone, 3);
    EXPECT_EQ(r.summary.progress.samplesStored, 6u);
    EXPECT_GE(r.summary.progress.retries, 4u);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples WHERE origin='teacher' AND model='teacher-m'"), 6);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples GROUP BY task_id HAVING count(*) != 2"), -1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples WHERE attempt NOT IN (1, 2) OR temperature != 0.7"), 0);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples WHERE has_answer=1 AND code_hash IS NOT NULL"), 6);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_run_items WHERE run_id=1"), 6);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_runs WHERE state='finished'"), 1);

    db::Database d(db, db::Database::Mode::ReadOnly);
    db::Statement st = d.prepare("SELECT request, response, reasoning, code FROM sample_payloads LIMIT 1");
    ASSERT_TRUE(st.step());
    const auto request = nlohmann::json::parse(payload::unpack(st.blob(0)));
    EXPECT_EQ(request["model"], "teacher-m");
    EXPECT_EQ(request["temperature"], 0.7);
    EXPECT_EQ(request["max_tokens"], 4096);
    EXPECT_EQ(request["reasoning_effort"], "max");
    EXPECT_NE(request["messages"].back()["content"].get<std::string>().find("class Model(torch.nn.Module)"),
              std::string::npos);
    const auto response = nlohmann::json::parse(payload::unpack(st.blob(1)));
    EXPECT_EQ(response["object"], "chat.completion");
    EXPECT_EQ(payload::unpack(st.blob(2)), "Let me think about the kernel.");
    EXPECT_EQ(payload::unpack(st.blob(3)).rfind("import torch", 0), 0u);
}

TEST(Sampler, FirstPassStopsAtFirstPassOneAttemptAtATime)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"easy", "hard", "never"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    // Errors in the middle of the run: none of them may use up an attempt.
    server.script({FakeAction{FakeAction::Ok}, FakeAction{FakeAction::Status, 503}, FakeAction{FakeAction::Ok},
                   FakeAction{FakeAction::Reset}, FakeAction{FakeAction::Ok}, FakeAction{FakeAction::Truncated}});
    test::ScriptedVerifier verifier(db, {{"easy", 1}, {"hard", 3}});
    SamplerOptions o = baseOptions(db, server);
    o.mode = SampleMode::FirstPass;
    o.attempts = 4;
    o.stream = true;
    Sampler s(o, &verifier);
    const RunResult r = runSampler(s);
    ASSERT_EQ(r.summary.state, QStringLiteral("finished")) << r.summary.error.toStdString();
    EXPECT_EQ(r.summary.progress.tasksPassed, 2);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples s JOIN tasks t ON t.id=s.task_id WHERE t.name='easy'"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples s JOIN tasks t ON t.id=s.task_id WHERE t.name='hard'"), 3);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples s JOIN tasks t ON t.id=s.task_id WHERE t.name='never'"), 4);
    EXPECT_EQ(count(db, "SELECT max(attempt) FROM samples s JOIN tasks t ON t.id=s.task_id WHERE t.name='never'"), 4);
    EXPECT_EQ(verifier.calls, 8);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_run_items WHERE status='PASS'"), 2);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_run_items WHERE status IS NULL"), 0);
    // Requests: 8 attempts + 3 endpoint errors, nothing more.
    EXPECT_EQ(server.received(), 11u);
    // One at a time per task: every request for a task came after the verdict of its previous attempt,
    // so a task's attempts are numbered 1..n without gaps.
    EXPECT_EQ(count(db, "SELECT count(*) FROM (SELECT task_id FROM samples GROUP BY task_id "
                        "HAVING max(attempt) != count(*))"),
              0);
}

TEST(Sampler, InterruptedKeepAllRunResumesWithoutCountingTwice)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"a", "b"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setLatencyMs(30);
    SamplerOptions o = baseOptions(db, server);
    o.k = 3;
    o.client.concurrency = 2;
    {
        Sampler s(o, nullptr);
        RunResult r;
        QObject::connect(&s, &Sampler::finished, &s, [&](const SamplerSummary &x) {
            r.summary = x;
            r.done = true;
        });
        QObject::connect(&s, &Sampler::progressChanged, &s, [&](const SamplerProgress &p) {
            if (p.samplesStored >= 2)
                s.cancel(); // two requests are still in flight: they must be asked again, once
        });
        s.start();
        ASSERT_TRUE(test::spinUntil([&] { return r.done; }));
        EXPECT_EQ(r.summary.state, QStringLiteral("interrupted"));
    }
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples"), 2);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_runs WHERE state='interrupted'"), 1);

    Sampler again(o, nullptr);
    const RunResult r2 = runSampler(again);
    ASSERT_EQ(r2.summary.state, QStringLiteral("finished")) << r2.summary.error.toStdString();
    EXPECT_TRUE(r2.summary.resumed);
    EXPECT_EQ(r2.summary.progress.storedThisSession, 4u);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples"), 6);
    EXPECT_EQ(count(db, "SELECT count(DISTINCT task_id || '/' || attempt) FROM samples"), 6);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_runs"), 1);

    // A third start has nothing to do and sends nothing.
    const quint64 before = server.received();
    Sampler third(o, nullptr);
    const RunResult r3 = runSampler(third);
    EXPECT_EQ(r3.summary.state, QStringLiteral("finished"));
    EXPECT_EQ(server.received(), before);
}

TEST(Sampler, FirstPassResumeVerifiesStoredAttemptInsteadOfAskingAgain)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"t"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    SamplerOptions o = baseOptions(db, server);
    o.mode = SampleMode::FirstPass;
    o.attempts = 5;
    {
        test::ScriptedVerifier broken(db, {{"t", 1}});
        broken.fail = true;
        Sampler s(o, &broken);
        const RunResult r = runSampler(s);
        EXPECT_EQ(r.summary.state, QStringLiteral("failed"));
        EXPECT_NE(r.summary.error.indexOf(QLatin1String("scripted verifier failure")), -1);
    }
    EXPECT_EQ(server.received(), 1u);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_run_items WHERE status IS NULL"), 1);

    test::ScriptedVerifier working(db, {{"t", 1}});
    Sampler s(o, &working);
    const RunResult r = runSampler(s);
    ASSERT_EQ(r.summary.state, QStringLiteral("finished")) << r.summary.error.toStdString();
    EXPECT_EQ(r.summary.progress.tasksPassed, 1);
    EXPECT_EQ(server.received(), 1u); // no new request: attempt 1 was stored and only needed its verdict
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples"), 1);
}

TEST(Sampler, ResumeWithOtherSettingsIsRefused)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"t"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    SamplerOptions o = baseOptions(db, server);
    {
        Sampler s(o, nullptr);
        runSampler(s);
    }
    o.temperature = 1.0;
    Sampler s(o, nullptr);
    try {
        s.start();
        FAIL() << "expected RunMismatch";
    } catch (const store::RunMismatch &e) {
        EXPECT_NE(std::string(e.what()).find("temperature was 0.7"), std::string::npos) << e.what();
    }
}

TEST(Sampler, EndpointDownStopsTheRunAsFailedWithoutSamples)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"t1", "t2"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    for (int i = 0; i < 100; ++i)
        server.push(FakeAction{FakeAction::Status, 503});
    SamplerOptions o = baseOptions(db, server);
    o.client.maxFailures = 5;
    Sampler s(o, nullptr);
    const RunResult r = runSampler(s);
    EXPECT_EQ(r.summary.state, QStringLiteral("failed"));
    EXPECT_NE(r.summary.error.indexOf(QLatin1String("5 times in a row")), -1) << r.summary.error.toStdString();
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples"), 0);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_runs WHERE state='failed' AND error LIKE '%in a row%'"), 1);
}

TEST(Sampler, KeyNeverReachesTheCorpus)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"t"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    const QByteArray key = "sk-live-ZZ-hygiene-key-9876";
    server.script({FakeAction{FakeAction::EchoAuth}});
    server.setReasoning("the header said " + key);
    SamplerOptions o = baseOptions(db, server);
    o.client.apiKey = key;
    Sampler s(o, nullptr);
    const RunResult r = runSampler(s);
    ASSERT_EQ(r.summary.state, QStringLiteral("finished")) << r.summary.error.toStdString();
    EXPECT_EQ(server.requests().value(0).authorization, "Bearer " + key);
    for (const QString &n : r.notices)
        EXPECT_EQ(n.indexOf(QString::fromUtf8(key)), -1) << n.toStdString();
    EXPECT_EQ(test::corpusEverything(db).find(key.toStdString()), std::string::npos);
}
