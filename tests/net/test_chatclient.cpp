// ChatClient against the fake server: every endpoint error is retried, never surfaced as a reply.
#include "net/chatclient.h"
#include "tests/net/fakeserver.h"
#include "tests/net/nettestutil.h"

#include <gtest/gtest.h>

using namespace sieve;
using namespace sieve::net;
using sieve::test::FakeAction;
using sieve::test::FakeServer;

namespace {
struct Harness
{
    FakeServer server;
    std::unique_ptr<ChatClient> client;
    std::vector<ChatReply> replies;
    QString fatal;
    explicit Harness(ClientOptions o = {})
    {
        EXPECT_NE(server.listen(), 0);
        o.endpoint = QUrl(QString::fromUtf8(server.baseUrl()));
        if (o.backoff.baseMs == BackoffPolicy{}.baseMs)
            o.backoff.baseMs = 20;
        o.seed = 42;
        client = std::make_unique<ChatClient>(o);
        QObject::connect(client.get(), &ChatClient::replied, client.get(),
                         [this](const ChatReply &r) { replies.push_back(r); });
        QObject::connect(client.get(), &ChatClient::fatal, client.get(), [this](const QString &m) { fatal = m; });
    }
    QByteArray body(bool stream = false) const
    {
        return stream ? R"({"model":"m","messages":[],"stream":true})" : R"({"model":"m","messages":[]})";
    }
};
} // namespace

TEST(ChatClient, EveryKindOfEndpointErrorIsRetriedUntilAReply)
{
    ClientOptions o;
    o.timeoutMs = 600;
    o.maxFailures = 10;
    Harness h(o);
    h.server.script({FakeAction{FakeAction::Status, 500}, FakeAction{FakeAction::Reset},
                     FakeAction{FakeAction::Truncated}, FakeAction{FakeAction::Status, 502},
                     FakeAction{FakeAction::Slow, 200, {}, {}, 3000}, FakeAction{FakeAction::Ok}});
    h.client->submit(7, h.body(), false);
    ASSERT_TRUE(test::spinUntil([&] { return !h.replies.empty() || !h.fatal.isEmpty(); }));
    ASSERT_TRUE(h.fatal.isEmpty()) << h.fatal.toStdString();
    ASSERT_EQ(h.replies.size(), 1u);
    EXPECT_EQ(h.replies[0].id, 7u);
    EXPECT_EQ(h.replies[0].retries, 5);
    EXPECT_NE(h.replies[0].parts.content.find("class ModelNew"), std::string::npos);
    EXPECT_EQ(h.client->consecutiveFailures(), 0);
    EXPECT_EQ(h.server.received(), 6u);
}

TEST(ChatClient, RetryAfterIsHonoured)
{
    Harness h;
    h.server.script({FakeAction{FakeAction::Status, 429, {}, "1"}});
    h.client->submit(1, h.body(), false);
    ASSERT_TRUE(test::spinUntil([&] { return !h.replies.empty(); }));
    const auto &reqs = h.server.requests();
    ASSERT_EQ(reqs.size(), 2);
    // Backoff base is 20 ms here; only Retry-After explains a second's wait.
    EXPECT_GE(reqs[1].atMs - reqs[0].atMs, 990);
    EXPECT_EQ(h.replies[0].retries, 1);
}

TEST(ChatClient, BackoffGrowsBetweenConsecutiveFailures)
{
    ClientOptions o;
    o.backoff.baseMs = 40;
    o.maxFailures = 10;
    Harness h(o);
    for (int i = 0; i < 4; ++i)
        h.server.push(FakeAction{FakeAction::Status, 503});
    h.client->submit(1, h.body(), false);
    ASSERT_TRUE(test::spinUntil([&] { return !h.replies.empty(); }));
    const auto &r = h.server.requests();
    ASSERT_EQ(r.size(), 5);
    // Equal jitter: retry n waits between 40*2^n/2 and 40*2^n ms.
    for (int n = 0; n < 4; ++n) {
        const qint64 gap = r[n + 1].atMs - r[n].atMs;
        EXPECT_GE(gap, (40 << n) / 2 - 2) << n;
        EXPECT_LE(gap, (40 << n) + 1500) << n; // loose: timers run late on a loaded CI host
    }
}

TEST(ChatClient, StreamedReplyAssemblesDeltasAndCutStreamIsRetried)
{
    Harness h;
    h.server.script({FakeAction{FakeAction::CutStream}});
    h.server.setReasoning("step one, step two");
    h.client->submit(3, h.body(true), true);
    ASSERT_TRUE(test::spinUntil([&] { return !h.replies.empty() || !h.fatal.isEmpty(); }));
    ASSERT_EQ(h.replies.size(), 1u) << h.fatal.toStdString();
    EXPECT_EQ(h.replies[0].retries, 1);
    EXPECT_EQ(h.replies[0].parts.reasoning, "step one, step two");
    EXPECT_NE(h.replies[0].parts.content.find("class ModelNew"), std::string::npos);
    EXPECT_EQ(h.replies[0].parts.finishReason, "stop");
    EXPECT_TRUE(h.replies[0].raw.contains("data: [DONE]"));
}

TEST(ChatClient, ConsecutiveFailuresEndInFatalAfterTheBound)
{
    ClientOptions o;
    o.maxFailures = 3;
    Harness h(o);
    for (int i = 0; i < 10; ++i)
        h.server.push(FakeAction{FakeAction::Status, 500});
    h.client->submit(1, h.body(), false);
    ASSERT_TRUE(test::spinUntil([&] { return !h.fatal.isEmpty(); }));
    EXPECT_NE(h.fatal.indexOf(QLatin1String("3 times in a row")), -1) << h.fatal.toStdString();
    EXPECT_EQ(h.server.received(), 3u);
    EXPECT_TRUE(h.replies.empty());
}

TEST(ChatClient, UnfixableStatusIsFatalAtOnce)
{
    Harness h;
    h.server.push(FakeAction{FakeAction::Status, 401, R"({"error":{"message":"invalid key"}})"});
    h.client->submit(1, h.body(), false);
    ASSERT_TRUE(test::spinUntil([&] { return !h.fatal.isEmpty(); }));
    EXPECT_NE(h.fatal.indexOf(QLatin1String("HTTP 401")), -1);
    EXPECT_EQ(h.server.received(), 1u);
}

TEST(ChatClient, ConcurrencyLimitHoldsAndIsReached)
{
    ClientOptions o;
    o.concurrency = 9; // more than one manager's six connections
    Harness h(o);
    h.server.setLatencyMs(60);
    for (int i = 0; i < 40; ++i)
        h.client->submit(static_cast<quint64>(i), h.body(), false);
    int maxSeen = 0;
    ASSERT_TRUE(test::spinUntil([&] {
        maxSeen = std::max(maxSeen, h.client->inFlight());
        return h.replies.size() == 40;
    }));
    EXPECT_EQ(h.server.maxConcurrent(), 9);
    EXPECT_EQ(maxSeen, 9);
}

TEST(ChatClient, RateLimitSpacesRequests)
{
    ClientOptions o;
    o.rate = 20; // burst 20, then one per 50 ms
    o.concurrency = 64;
    Harness h(o);
    for (int i = 0; i < 30; ++i)
        h.client->submit(static_cast<quint64>(i), h.body(), false);
    QElapsedTimer t;
    t.start();
    ASSERT_TRUE(test::spinUntil([&] { return h.replies.size() == 30; }));
    EXPECT_GE(t.elapsed(), 10 * 50 - 30);
}

TEST(ChatClient, KeyIsSentButNeverEchoedBack)
{
    ClientOptions o;
    o.apiKey = "sk-test-S3CRET-value-123";
    o.maxFailures = 2;
    Harness h(o);
    h.server.setContent(
        [](const QByteArray &, int) { return QByteArray("content repeating sk-test-S3CRET-value-123"); });
    h.server.setReasoning("reasoning with sk-test-S3CRET-value-123");
    h.server.script({FakeAction{FakeAction::EchoAuth}});
    QStringList notices;
    QObject::connect(h.client.get(), &ChatClient::retrying, h.client.get(),
                     [&](quint64, int, const QString &reason, int) { notices << reason; });
    h.client->submit(1, h.body(), false);
    ASSERT_TRUE(test::spinUntil([&] { return !h.replies.empty() || !h.fatal.isEmpty(); }));
    ASSERT_EQ(h.server.requests().size(), 2);
    EXPECT_EQ(h.server.requests()[0].authorization, "Bearer sk-test-S3CRET-value-123");
    ASSERT_EQ(notices.size(), 1);
    EXPECT_EQ(notices[0].indexOf(QLatin1String("S3CRET")), -1) << notices[0].toStdString();
    EXPECT_NE(notices[0].indexOf(QLatin1String("[redacted]")), -1);
    ASSERT_EQ(h.replies.size(), 1u);
    EXPECT_FALSE(h.replies[0].raw.contains("S3CRET"));
    EXPECT_EQ(h.replies[0].parts.content.find("S3CRET"), std::string::npos);
    EXPECT_EQ(h.replies[0].parts.reasoning.find("S3CRET"), std::string::npos);
}
