#include "core/util/hashing.h"

#include <gtest/gtest.h>

#include <string>

using namespace sieve;

TEST(Hashing, IncrementalSha256EqualsOneShotInAnyPieces)
{
    std::string data;
    for (int i = 0; i < 300000; ++i)
        data += static_cast<char>((i * 131) ^ (i >> 7));
    const std::string whole = hashing::sha256Hex(data);
    for (std::size_t piece : {1u, 63u, 64u, 65u, 4096u, 1000003u}) {
        hashing::Sha256 h;
        for (std::size_t at = 0; at < data.size(); at += piece)
            h.update(std::string_view(data).substr(at, piece));
        EXPECT_EQ(h.finishHex(), whole) << "pieces of " << piece;
    }
    hashing::Sha256 empty;
    empty.update({});
    EXPECT_EQ(empty.finishHex(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
