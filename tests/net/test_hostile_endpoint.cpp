// A faulty or hostile OpenAI-compatible endpoint (issue #21): every fault is retried without costing an
// attempt or hanging the run, memory stays bounded, and the key never reaches a reply, a message or the
// corpus in any encoding.
#include "net/chatclient.h"
#include "net/redaction.h"
#include "net/sampler.h"
#include "tests/net/fakeserver.h"
#include "tests/net/nettestutil.h"

#include <gtest/gtest.h>

#include <QElapsedTimer>

#include <fstream>

#include <cstring>

#include <malloc.h> // mallopt, malloc_trim (glibc)

using namespace sieve;
using namespace sieve::net;
using sieve::test::FakeAction;
using sieve::test::FakeServer;

namespace {

const QByteArray kKey = "sk-hostile-K3Y-echo-4711";

struct Harness
{
    FakeServer server;
    std::unique_ptr<ChatClient> client;
    std::vector<ChatReply> replies;
    QStringList reasons;
    QString fatal;
    explicit Harness(ClientOptions o = {})
    {
        EXPECT_NE(server.listen(), 0);
        o.endpoint = QUrl(QString::fromUtf8(server.baseUrl()));
        o.backoff.baseMs = 20;
        o.seed = 7;
        client = std::make_unique<ChatClient>(o);
        QObject::connect(client.get(), &ChatClient::replied, client.get(),
                         [this](const ChatReply &r) { replies.push_back(r); });
        QObject::connect(client.get(), &ChatClient::fatal, client.get(), [this](const QString &m) { fatal = m; });
        QObject::connect(client.get(), &ChatClient::retrying, client.get(),
                         [this](quint64, int, const QString &why, int) { reasons << why; });
    }
    static QByteArray body(bool stream)
    {
        return stream ? R"({"model":"m","messages":[],"stream":true})" : R"({"model":"m","messages":[]})";
    }
    bool waitReply(int ms = 30000)
    {
        return test::spinUntil([&] { return !replies.empty() || !fatal.isEmpty(); }, ms);
    }
};

// Resident memory of this process in KiB.
// Resident memory in KiB: VmHWM is its peak since resetPeak(), VmRSS what is resident now.
long memKb(const char *field = "VmHWM:")
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0)
            return std::stol(line.substr(std::strlen(field)));
    return -1;
}

// Makes the peak measure what is live: chunks of 128 KiB and more are mapped and unmapped with each
// allocation (glibc otherwise raises that threshold as such chunks are freed, then keeps freed ones resident),
// what was freed is handed back, and the peak starts again from here (clear_refs 5, Linux 4.0).
void resetPeak()
{
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    malloc_trim(0);
    std::ofstream("/proc/self/clear_refs") << "5";
}

} // namespace

TEST(HostileEndpoint, SlowLorisIsCutByTheWholeRequestDeadline)
{
    ClientOptions o;
    o.timeoutMs = 5000;  // a byte every 300 ms never trips the idle timeout
    o.deadlineMs = 1500; // but the whole request may take 1.5 s
    o.maxFailures = 5;
    Harness h(o);
    h.server.script({FakeAction{FakeAction::SlowLoris, 200, {}, {}, 300}});
    QElapsedTimer t;
    t.start();
    h.client->submit(1, Harness::body(false), false);
    ASSERT_TRUE(h.waitReply());
    ASSERT_TRUE(h.fatal.isEmpty()) << h.fatal.toStdString();
    ASSERT_EQ(h.replies.size(), 1u);
    EXPECT_EQ(h.replies[0].retries, 1);
    ASSERT_EQ(h.reasons.size(), 1);
    EXPECT_NE(h.reasons[0].indexOf(QLatin1String("deadline")), -1) << h.reasons[0].toStdString();
    EXPECT_LT(t.elapsed(), 10000);
}

TEST(HostileEndpoint, HugeReplyIsCutAtTheCapWithBoundedMemory)
{
    ClientOptions o;
    o.maxReplyBytes = 4 << 20;
    o.maxFailures = 5;
    Harness h(o);
    resetPeak();
    const long before = memKb();
    h.server.script({FakeAction{FakeAction::Huge, 300}}); // 300 MiB
    h.client->submit(1, Harness::body(false), false);
    ASSERT_TRUE(h.waitReply(60000));
    ASSERT_TRUE(h.fatal.isEmpty()) << h.fatal.toStdString();
    ASSERT_EQ(h.replies.size(), 1u);
    ASSERT_GE(h.reasons.size(), 1);
    EXPECT_NE(h.reasons[0].indexOf(QLatin1String("larger than the 4 MiB limit")), -1) << h.reasons[0].toStdString();
    // The reply was never held whole: at its peak this process (the in-process fake server included) held
    // less than the reply's 300 MiB. Measured: peaks of 166-192 MiB in 10 runs, far above the 4 MiB cap;
    // which side holds them is not known yet (an open question, not a bound to tighten blindly).
    EXPECT_LT(memKb() - before, 256 * 1024) << "KiB grown at the peak";
}

TEST(HostileEndpoint, GarbageMalformedAndStreamsWithoutDoneAreHandled)
{
    ClientOptions o;
    o.maxFailures = 8;
    Harness h(o);
    h.server.script({FakeAction{FakeAction::Garbage}, FakeAction{FakeAction::Truncated},
                     FakeAction{FakeAction::Status, 429, {}, "1"}, FakeAction{FakeAction::Reset},
                     FakeAction{FakeAction::Status, 500}, FakeAction{FakeAction::CutStream},
                     FakeAction{FakeAction::NoDoneStream}});
    h.client->submit(1, Harness::body(true), true);
    ASSERT_TRUE(h.waitReply());
    ASSERT_TRUE(h.fatal.isEmpty()) << h.fatal.toStdString();
    ASSERT_EQ(h.replies.size(), 1u);
    // Six faults retried; the stream that ended with a finish_reason but no [DONE] is a complete reply.
    EXPECT_EQ(h.replies[0].retries, 6);
    EXPECT_EQ(h.replies[0].parts.finishReason, "stop");
    EXPECT_NE(h.replies[0].parts.content.find("class ModelNew"), std::string::npos);
}

class KeyEcho : public ::testing::TestWithParam<std::pair<std::string, bool>>
{
};

TEST_P(KeyEcho, KeyIsInNoDecodingOfTheReply)
{
    const auto [encoding, stream] = GetParam();
    ClientOptions o;
    o.apiKey = kKey;
    Harness h(o);
    h.server.script({FakeAction{FakeAction::EchoKey, 200, QByteArray::fromStdString(encoding)}});
    h.client->submit(1, Harness::body(stream), stream);
    ASSERT_TRUE(h.waitReply());
    ASSERT_TRUE(h.fatal.isEmpty()) << h.fatal.toStdString();
    ASSERT_EQ(h.replies.size(), 1u);
    const ChatReply &r = h.replies[0];
    const std::string key = kKey.toStdString();
    const std::string_view raw(r.raw.constData(), static_cast<size_t>(r.raw.size()));
    EXPECT_FALSE(replyCarriesKey(raw, false, key)) << raw;
    EXPECT_FALSE(replyCarriesKey(raw, true, key)) << raw;
    EXPECT_EQ(r.parts.content.find(key), std::string::npos);
    // The answer survives the redaction.
    EXPECT_NE(r.parts.content.find("class ModelNew"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Encodings, KeyEcho,
    ::testing::Values(std::pair<std::string, bool>{"literal", false}, std::pair<std::string, bool>{"escaped", false},
                      std::pair<std::string, bool>{"field", false}, std::pair<std::string, bool>{"deflate", false},
                      std::pair<std::string, bool>{"literal", true}, std::pair<std::string, bool>{"escaped", true},
                      std::pair<std::string, bool>{"split", true}, std::pair<std::string, bool>{"field", true}),
    [](const auto &info) { return info.param.first + (info.param.second ? "_stream" : "_json"); });

TEST(HostileEndpoint, RedactionDecodesEscapesAndJoinsStreamPieces)
{
    const std::string key = "sk-abc/def";
    EXPECT_TRUE(replyCarriesKey(R"({"a":"\u0073k-abc\/def"})", false, key));
    EXPECT_TRUE(replyCarriesKey(
        "data: {\"c\":[{\"d\":{\"x\":\"sk-a\"}}]}\n\ndata: {\"c\":[{\"d\":{\"x\":\"bc/def\"}}]}\n\n", true, key));
    // Pieces of different fields do not join (a decoder never joins them either).
    EXPECT_FALSE(replyCarriesKey("data: {\"x\":\"sk-a\"}\n\ndata: {\"y\":\"bc/def\"}\n\n", true, key));
    EXPECT_FALSE(replyCarriesKey(R"({"a":"sk-abc"})", false, key));
}

// The sampler over every fault and every echo at once: the run finishes, each task gets exactly its
// samples, and the corpus file (payloads unpacked, WAL included) holds the key in no encoding.
TEST(HostileEndpoint, SamplerSurvivesEveryFaultAndStoresNoKey)
{
    for (const bool stream : {false, true}) {
        test::TempDir dir;
        const std::string db = dir.file("c.sieve");
        test::makeCorpus(db, {"relu", "gelu", "softmax", "tanh", "exp", "log"});
        FakeServer server;
        ASSERT_NE(server.listen(), 0);
        std::deque<FakeAction> script = {
            FakeAction{FakeAction::Status, 500},
            FakeAction{FakeAction::Status, 429, {}, "1"},
            FakeAction{FakeAction::Reset},
            FakeAction{FakeAction::Garbage},
            FakeAction{FakeAction::Truncated},
            FakeAction{FakeAction::SlowLoris, 200, {}, {}, 400},
            FakeAction{FakeAction::Huge, 20},
            FakeAction{FakeAction::EchoAuth},
            FakeAction{FakeAction::EchoKey, 200, "literal"},
            FakeAction{FakeAction::EchoKey, 200, "escaped"},
            FakeAction{FakeAction::EchoKey, 200, stream ? "split" : "deflate"},
            FakeAction{FakeAction::EchoKey, 200, "field"},
        };
        if (stream)
            script.push_back(FakeAction{FakeAction::CutStream});
        server.script(script);
        SamplerOptions o;
        o.dbPath = db;
        o.client.endpoint = QUrl(QString::fromUtf8(server.baseUrl()));
        o.client.backoff.baseMs = 10;
        o.client.maxFailures = 20;
        o.client.concurrency = 3;
        o.client.deadlineMs = 1500;
        o.client.maxReplyBytes = 2 << 20;
        o.client.apiKey = kKey;
        o.client.seed = 5;
        o.model = "teacher-m";
        o.k = 2;
        o.stream = stream;
        o.runName = "hostile";
        Sampler s(o, nullptr);
        bool done = false;
        SamplerSummary summary;
        QStringList notices;
        QObject::connect(&s, &Sampler::finished, &s, [&](const SamplerSummary &x) {
            summary = x;
            done = true;
        });
        QObject::connect(&s, &Sampler::notice, &s, [&](const QString &n) { notices << n; });
        s.start();
        ASSERT_TRUE(test::spinUntil([&] { return done; }, 90000));
        ASSERT_EQ(summary.state, QStringLiteral("finished")) << summary.error.toStdString();
        EXPECT_EQ(summary.progress.samplesStored, 12u);
        db::Database d(db, db::Database::Mode::ReadOnly);
        EXPECT_EQ(d.queryInt("SELECT count(*) FROM samples").value_or(-1), 12);
        EXPECT_EQ(d.queryInt("SELECT count(*) FROM (SELECT task_id FROM samples GROUP BY task_id HAVING count(*) != 2)")
                      .value_or(-1),
                  0);
        const std::string everything = test::corpusEverything(db);
        const std::string key = kKey.toStdString();
        EXPECT_EQ(everything.find(key), std::string::npos) << (stream ? "stream" : "json");
        EXPECT_EQ(everything.find("\\u0073\\u006b"), std::string::npos);
        EXPECT_EQ(everything.find("K3Y"), std::string::npos);
        for (const QString &n : notices)
            EXPECT_EQ(n.indexOf(QString::fromUtf8(kKey)), -1) << n.toStdString();
    }
}
