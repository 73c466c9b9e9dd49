// The verdict channel between the engine and a worker (gpu/verify/workerprocess.h): only lines tagged with
// the session key and the next sequence number are opened; forged, replayed, reordered and untagged lines
// are not. The known vector was made with Python's hmac module, as the worker computes it.
#include "gpu/verify/workerprocess.h"

#include <gtest/gtest.h>

using namespace sieve::gpu;

namespace {
const std::string kKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const std::string kJson = R"({"op": "verdict", "status": "PASS"})";
} // namespace

TEST(WorkerChannel, TagMatchesPythonHmac)
{
    EXPECT_EQ(channelTag(kKey, 0, kJson), "745fa35470037c4c967f74fcc89a55f15c34c633a4b36d64133a30411c65bb80");
}

TEST(WorkerChannel, OpensTaggedLinesInOrderOnly)
{
    std::uint64_t seq = 0;
    std::string why;
    const std::string first = channelTag(kKey, 0, kJson) + " 0 " + kJson;
    const std::string second = channelTag(kKey, 1, kJson) + " 1 " + kJson;
    auto a = openChannelLine(kKey, seq, first, why);
    ASSERT_TRUE(a.has_value()) << why;
    EXPECT_EQ(*a, kJson);
    EXPECT_EQ(seq, 1u);
    EXPECT_FALSE(openChannelLine(kKey, seq, first, why).has_value()) << "a replayed line was opened";
    EXPECT_NE(why.find("sequence"), std::string::npos);
    auto b = openChannelLine(kKey, seq, second, why);
    ASSERT_TRUE(b.has_value()) << why;
    EXPECT_EQ(seq, 2u);
}

TEST(WorkerChannel, DropsForgedAndUntaggedLines)
{
    std::uint64_t seq = 0;
    std::string why;
    EXPECT_FALSE(openChannelLine(kKey, seq, kJson, why).has_value());
    EXPECT_EQ(why, "no channel tag");
    const std::string otherKey(64, 'f');
    EXPECT_FALSE(openChannelLine(kKey, seq, channelTag(otherKey, 0, kJson) + " 0 " + kJson, why).has_value());
    EXPECT_EQ(why, "wrong channel tag");
    std::string altered = channelTag(kKey, 0, kJson) + " 0 " + kJson;
    altered[altered.size() - 3] = 'X'; // "PASS" -> "PAXS": the tag no longer fits
    EXPECT_FALSE(openChannelLine(kKey, seq, altered, why).has_value());
    EXPECT_EQ(seq, 0u);
}

TEST(WorkerChannel, KeysAreFreshAndHex)
{
    const std::string a = newChannelKey(), b = newChannelKey();
    EXPECT_EQ(a.size(), 64u);
    EXPECT_NE(a, b);
    EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
}
