// The wire format and the retry arithmetic, without a network.
#include "net/answersource.h"
#include "net/backoff.h"
#include "net/chatwire.h"

#include <gtest/gtest.h>

#include <set>

using namespace sieve::net;

TEST(ChatWire, CompletionGivesContentReasoningAndFinishReason)
{
    const ReplyParts p = parseCompletion(
        R"({"choices":[{"index":0,"message":{"role":"assistant","content":"hi","reasoning_content":"think"},"finish_reason":"length"}]})");
    EXPECT_EQ(p.content, "hi");
    EXPECT_EQ(p.reasoning, "think");
    EXPECT_EQ(p.finishReason, "length");
}

TEST(ChatWire, TruncatedOrErrorCompletionIsAWireError)
{
    EXPECT_THROW(parseCompletion(R"({"choices":[{"index":0,"message":{"content":"```py)"), WireError);
    EXPECT_THROW(parseCompletion(R"({"error":{"message":"overloaded"}})"), WireError);
    EXPECT_THROW(parseCompletion(R"({"choices":[]})"), WireError);
}

TEST(ChatWire, SseDeltasAssembleAcrossArbitraryChunkBoundaries)
{
    const std::string stream =
        "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\r\n\r\n"
        ": ping\n\n"
        "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"ab\"}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{\"content\":\"hello \"}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{\"content\":\"world\"},\"finish_reason\":\"stop\"}]}\n\n"
        "data: [DONE]\n\n";
    for (size_t step : {1, 3, 17, 1000}) {
        SseDecoder d;
        for (size_t i = 0; i < stream.size(); i += step)
            d.feed(std::string_view(stream).substr(i, step));
        d.finish();
        EXPECT_TRUE(d.done());
        EXPECT_EQ(d.parts().content, "hello world") << step;
        EXPECT_EQ(d.parts().reasoning, "ab");
        EXPECT_EQ(d.parts().finishReason, "stop");
    }
}

TEST(ChatWire, StreamCutBeforeDoneIsAWireError)
{
    SseDecoder d;
    d.feed("data: {\"choices\":[{\"delta\":{\"content\":\"cla\"}}]}\n\n");
    EXPECT_THROW(d.finish(), WireError);
    SseDecoder bad;
    EXPECT_THROW(bad.feed("data: {\"choices\":[{\"delta\n\n"), WireError);
}

TEST(Backoff, DelaysGrowWithJitterAndRespectCap)
{
    BackoffPolicy p{100, 1000, 600000};
    std::mt19937_64 rng(7);
    for (int retry = 0; retry < 8; ++retry) {
        const int exp = std::min(1000, 100 << retry);
        for (int i = 0; i < 50; ++i) {
            const int d = backoffDelayMs(p, retry, std::nullopt, rng);
            EXPECT_GE(d, exp / 2);
            EXPECT_LE(d, exp);
        }
    }
    // Jitter: not every draw is the same.
    std::set<int> seen;
    for (int i = 0; i < 20; ++i)
        seen.insert(backoffDelayMs(p, 3, std::nullopt, rng));
    EXPECT_GT(seen.size(), 5u);
}

TEST(Backoff, RetryAfterIsAFloorWithACap)
{
    BackoffPolicy p{100, 1000, 5000};
    std::mt19937_64 rng(1);
    EXPECT_GE(backoffDelayMs(p, 0, 3000, rng), 3000);
    EXPECT_EQ(backoffDelayMs(p, 0, 90000000, rng), 5000);
    const QDateTime now = QDateTime::fromString(QStringLiteral("Sun, 06 Nov 1994 08:49:30 +0000"), Qt::RFC2822Date);
    ASSERT_TRUE(now.isValid());
    EXPECT_EQ(parseRetryAfterMs("2", now), 2000);
    EXPECT_EQ(parseRetryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT", now), 7000);
    EXPECT_FALSE(parseRetryAfterMs("soon", now).has_value());
    EXPECT_FALSE(parseRetryAfterMs("", now).has_value());
}

TEST(TokenBucket, AllowsABurstThenPacesAtTheRate)
{
    TokenBucket b(10); // 10/s, burst 10
    int taken = 0;
    while (b.tryTake(0))
        ++taken;
    EXPECT_EQ(taken, 10);
    EXPECT_EQ(b.msUntilNext(0), 100);
    EXPECT_FALSE(b.tryTake(50));
    EXPECT_TRUE(b.tryTake(100));
    TokenBucket unlimited(0);
    for (int i = 0; i < 1000; ++i)
        ASSERT_TRUE(unlimited.tryTake(0));
}

TEST(AnswerSource, LastModelNewBlockOutsideThinkTags)
{
    const Extracted e = extractAnswer("<think>draft\n```python\nclass ModelNew(nn.Module): draft\n```\n</think>\n"
                                      "text\n```python\nclass ModelNew(nn.Module):\n    final = 1\n```\n"
                                      "```bash\necho test\n```\n",
                                      "");
    EXPECT_TRUE(e.hasAnswer);
    EXPECT_EQ(e.code, "class ModelNew(nn.Module):\n    final = 1\n");
    EXPECT_NE(e.reasoning.find("draft"), std::string::npos);
    EXPECT_FALSE(extractAnswer("no code here", "r").hasAnswer);
    EXPECT_EQ(extractAnswer("x", "from field").reasoning, "from field");
}
