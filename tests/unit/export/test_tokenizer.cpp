// The C++ tokenizer against the `tokenizers` library: ids for every fixture text with every fixture
// tokenizer (tests/data/export/make_tokenizers.py wrote both), and clear errors for what it cannot do.
#include "core/tokenizer/pretokenize.h"
#include "core/tokenizer/tokenizer.h"
#include "core/tokenizer/unicode.h"
#include "tests/unit/testutil.h"

#include <algorithm>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sieve;

namespace {

const nlohmann::json &expected()
{
    static const nlohmann::json j = nlohmann::json::parse(test::readFile(test::testData("export/token_counts.json")));
    return j;
}

const nlohmann::json &stress()
{
    static const nlohmann::json j = nlohmann::json::parse(test::readFile(test::testData("export/token_stress.json")));
    return j;
}

// Every text of `fixture` (token_counts.json or token_stress.json) with tokenizer `name`: ids and count
// as the library's, from one tokenizer whose cache fills as it goes.
void checkTokenizer(const std::string &name, const nlohmann::json &fixture = expected())
{
    const Tokenizer tok = Tokenizer::fromFile(test::testData("export/" + name));
    const auto &texts = fixture["texts"];
    const auto &ids = fixture["results"][name]["ids"];
    ASSERT_EQ(texts.size(), ids.size());
    int mismatches = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const std::string text = texts[i].get<std::string>();
        const auto want = ids[i].get<std::vector<std::uint32_t>>();
        const auto got = tok.encode(text);
        if (got != want && ++mismatches <= 5)
            ADD_FAILURE() << name << " text #" << i << " " << nlohmann::json(text).dump() << ": got "
                          << nlohmann::json(got).dump() << " want " << nlohmann::json(want).dump();
        EXPECT_EQ(tok.count(text), want.size()) << name << " text #" << i;
    }
    EXPECT_EQ(mismatches, 0) << name;
}

std::string withField(const std::string &name, const std::function<void(nlohmann::json &)> &edit)
{
    nlohmann::json j = nlohmann::json::parse(test::readFile(test::testData("export/" + name)));
    edit(j);
    return j.dump();
}

void expectError(const std::string &json, const std::string &fragment)
{
    try {
        Tokenizer::fromJson(json, "t.json");
        ADD_FAILURE() << "no error; wanted one naming " << fragment;
    } catch (const TokenizerError &e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

} // namespace

TEST(Tokenizer, Gpt2StyleMatchesLibrary)
{
    checkTokenizer("gpt2-style.json");
}
TEST(Tokenizer, Llama3StyleMatchesLibrary)
{
    checkTokenizer("llama3-style.json");
}
TEST(Tokenizer, Qwen2StyleWithNfcMatchesLibrary)
{
    checkTokenizer("qwen2-style.json");
}
TEST(Tokenizer, DigitsAndPrefixSpaceMatchLibrary)
{
    checkTokenizer("digits-prefix.json");
}

// Texts aimed at the fast paths: pieces around the short cache's 15 bytes, words around the 32
// symbols of scan merging, ASCII runs that turn non-ASCII at every offset, NUL bytes, short texts.
TEST(Tokenizer, StressTextsMatchLibrary)
{
    for (const char *name : {"gpt2-style.json", "llama3-style.json", "qwen2-style.json", "digits-prefix.json"})
        checkTokenizer(name, stress());
}

// The split patterns alone against the library's Split pre-tokenizer, on both fixtures' texts: a wrong
// piece boundary often leaves the ids unchanged (no merge crosses it), so the ids tests can miss it.
TEST(Tokenizer, SplitPatternsMatchLibrary)
{
    std::vector<std::string> texts;
    for (const auto *fixture : {&expected(), &stress()})
        for (const auto &t : (*fixture)["texts"])
            texts.push_back(t.get<std::string>());
    auto codePoints = [](std::string_view s) {
        return static_cast<std::size_t>(
            std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
    };
    for (const auto &[name, pattern] :
         {std::pair{"gpt2", tok::SplitPattern::Gpt2}, std::pair{"llama3", tok::SplitPattern::Llama3},
          std::pair{"qwen2", tok::SplitPattern::Qwen2}}) {
        const auto &want = stress()["pieces"][name];
        ASSERT_EQ(want.size(), texts.size()) << name;
        int mismatches = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            std::vector<std::string_view> pieces;
            tok::splitPattern(pattern, texts[i], pieces);
            std::vector<std::size_t> got;
            for (std::string_view p : pieces)
                got.push_back(codePoints(p));
            if (got != want[i].get<std::vector<std::size_t>>() && ++mismatches <= 5)
                ADD_FAILURE() << name << " text #" << i << " " << nlohmann::json(texts[i]).dump() << ": got "
                              << nlohmann::json(got).dump() << " want " << want[i].dump();
        }
        EXPECT_EQ(mismatches, 0) << name;
    }
}

// The word caches evict (the short one a set at a time, the long one wholesale): a tokenizer that has
// seen many more distinct pieces than they hold must still give the library's ids, before and after.
TEST(Tokenizer, EvictionKeepsResults)
{
    const Tokenizer tok = Tokenizer::fromFile(test::testData("export/llama3-style.json"));
    const auto &texts = stress()["texts"];
    const auto &ids = stress()["results"]["llama3-style.json"]["ids"];
    auto checkAll = [&](const char *when) {
        for (std::size_t i = 0; i < texts.size(); ++i)
            ASSERT_EQ(tok.encode(texts[i].get<std::string>()), ids[i].get<std::vector<std::uint32_t>>())
                << when << " text #" << i;
    };
    checkAll("cold");
    // 40,000 distinct short words (the short cache holds 16,384) and 70,000 distinct long ones (the
    // long cache is cleared at 65,536), in texts of 100 words.
    std::uint64_t state = 1;
    auto word = [&](std::size_t len) {
        std::string w = " ";
        for (std::size_t k = 0; k < len; ++k) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            w += static_cast<char>('a' + (state >> 33) % 26);
        }
        return w;
    };
    const Tokenizer fresh = Tokenizer::fromFile(test::testData("export/llama3-style.json"));
    std::string batch;
    for (int n = 0; n < 110000; ++n) {
        batch += word(n < 40000 ? 3 + n % 10 : 16 + n % 20);
        if (n % 100 == 99) {
            ASSERT_EQ(tok.count(batch), fresh.clone().encode(batch).size()) << "batch ending at word " << n;
            batch.clear();
        }
    }
    checkAll("after eviction");
}

TEST(Tokenizer, CacheDoesNotChangeResults)
{
    const Tokenizer tok = Tokenizer::fromFile(test::testData("export/llama3-style.json"));
    const std::string text = "def forward(self, x):\n    return x * 2  # it's 1234 times\n";
    const auto first = tok.encode(text);
    EXPECT_EQ(tok.encode(text), first);
    EXPECT_EQ(tok.count(text + text), 2 * first.size()); // the newline ends the first copy's last piece
}

TEST(Tokenizer, DescribesWhatItRecognised)
{
    const Tokenizer tok = Tokenizer::fromFile(test::testData("export/qwen2-style.json"));
    EXPECT_NE(tok.description().find("Split(qwen2)"), std::string::npos) << tok.description();
    EXPECT_NE(tok.description().find("NFC"), std::string::npos);
}

TEST(Tokenizer, UnsupportedFieldsFailNamingTheField)
{
    expectError(withField("gpt2-style.json", [](auto &j) { j["model"]["type"] = "Unigram"; }), "model.type");
    expectError(withField("gpt2-style.json",
                          [](auto &j) {
                              j["normalizer"] = {{"type", "Lowercase"}};
                          }),
                "normalizer.type");
    expectError(withField("llama3-style.json",
                          [](auto &j) { j["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = "\\w+"; }),
                "pre_tokenizer.pretokenizers[0].pattern.Regex");
    expectError(
        withField("llama3-style.json", [](auto &j) { j["pre_tokenizer"]["pretokenizers"][0]["behavior"] = "Removed"; }),
        "pre_tokenizer.pretokenizers[0].behavior");
    expectError(withField("gpt2-style.json",
                          [](auto &j) {
                              j["pre_tokenizer"] = {{"type", "Metaspace"}};
                          }),
                "pre_tokenizer.type");
    expectError(withField("gpt2-style.json", [](auto &j) { j["pre_tokenizer"] = nullptr; }), "pre_tokenizer");
    expectError(withField("gpt2-style.json", [](auto &j) { j["model"]["byte_fallback"] = true; }),
                "model.byte_fallback");
    expectError(withField("gpt2-style.json", [](auto &j) { j["model"]["dropout"] = 0.1; }), "model.dropout");
    expectError("{not json", "not valid JSON");
}

TEST(TokenizerUnicode, NfcComposesAndReorders)
{
    EXPECT_EQ(tok::unicode::nfc("cafe\xCC\x81"), "caf\xC3\xA9");              // e + acute -> é
    EXPECT_EQ(tok::unicode::nfc("\xE2\x84\xAB"), "\xC3\x85");                 // Angstrom sign -> Å
    EXPECT_EQ(tok::unicode::nfc("\xE1\x84\x80\xE1\x85\xA1"), "\xEA\xB0\x80"); // Hangul L+V -> 가
    EXPECT_EQ(tok::unicode::nfc("plain ascii"), "plain ascii");
}
