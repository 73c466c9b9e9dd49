#include "core/import/jsonlreader.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

using namespace sieve;

namespace {
std::vector<JsonlReader::Line> readAll(JsonlReader &r, std::vector<std::string> &texts)
{
    std::vector<JsonlReader::Line> lines;
    JsonlReader::Line l;
    while (r.next(l)) {
        lines.push_back(l);
        texts.emplace_back(l.text);
    }
    return lines;
}
} // namespace

TEST(ImportJsonl, SplitsLinesStripsCarriageReturnsAndKeepsALastLineWithoutNewline)
{
    test::TempDir dir;
    test::writeFile(dir.file("a.jsonl"), "{\"a\":1}\r\n\n{\"b\":2}\n{\"c\":3}");
    JsonlReader r(dir.file("a.jsonl"));
    std::vector<std::string> texts;
    const auto lines = readAll(r, texts);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(texts[0], "{\"a\":1}");
    EXPECT_EQ(texts[1], "");
    EXPECT_EQ(texts[3], "{\"c\":3}");
    EXPECT_EQ(lines[3].number, 4u);
    EXPECT_EQ(r.bytesConsumed(), r.fileSize());
}

TEST(ImportJsonl, SkipsAnOverlongLineAndCarriesOnAfterIt)
{
    test::TempDir dir;
    const std::string longLine(5000, 'x');
    test::writeFile(dir.file("a.jsonl"), "{\"a\":1}\n" + longLine + "\n{\"b\":2}\n");
    JsonlReader r(dir.file("a.jsonl"), 1000); // a small limit keeps the test fast
    std::vector<std::string> texts;
    const auto lines = readAll(r, texts);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].error, JsonlReader::LineError::None);
    EXPECT_EQ(lines[1].error, JsonlReader::LineError::TooLong);
    EXPECT_EQ(lines[1].number, 2u);
    EXPECT_EQ(texts[2], "{\"b\":2}");
    EXPECT_EQ(lines[2].number, 3u);
}

TEST(ImportJsonl, ALineOfExactlyTheLimitIsAccepted)
{
    test::TempDir dir;
    test::writeFile(dir.file("a.jsonl"), std::string(1000, 'y') + "\n" + std::string(1001, 'z'));
    JsonlReader r(dir.file("a.jsonl"), 1000);
    std::vector<std::string> texts;
    const auto lines = readAll(r, texts);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].error, JsonlReader::LineError::None);
    EXPECT_EQ(texts[0].size(), 1000u);
    EXPECT_EQ(lines[1].error, JsonlReader::LineError::TooLong);
}

TEST(ImportJsonl, FlagsInvalidUtf8WithTheOffsetOfTheFirstBadByte)
{
    test::TempDir dir;
    test::writeFile(dir.file("a.jsonl"), "{\"k\":\"caf\xc3\"}\n{\"k\":\"caf\xc3\xa9\"}\n");
    JsonlReader r(dir.file("a.jsonl"));
    std::vector<std::string> texts;
    const auto lines = readAll(r, texts);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].error, JsonlReader::LineError::InvalidUtf8);
    EXPECT_EQ(lines[0].badOffset, 9u);
    EXPECT_EQ(lines[1].error, JsonlReader::LineError::None);
}

TEST(ImportJsonl, FirstInvalidUtf8RejectsOverlongsAndSurrogates)
{
    EXPECT_EQ(firstInvalidUtf8("plain"), 5u);
    EXPECT_EQ(firstInvalidUtf8("\xc0\xaf"), 0u);          // overlong '/'
    EXPECT_EQ(firstInvalidUtf8("ab\xed\xa0\x80"), 2u);    // UTF-16 surrogate
    EXPECT_EQ(firstInvalidUtf8("\xf0\x9f\x98\x80!"), 5u); // a valid 4-byte sequence
}

TEST(ImportJsonl, UnreadableFileThrowsWithTheSystemsReason)
{
    try {
        JsonlReader r("/nonexistent/dir/x.jsonl");
        FAIL() << "expected an error";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
    }
}
