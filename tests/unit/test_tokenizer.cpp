// The C++ tokenizer against the `tokenizers` library: ids for every fixture text with every fixture
// tokenizer (tests/data/export/make_tokenizers.py wrote both), and clear errors for what it cannot do.
#include "testutil.h"
#include "tokenizer.h"
#include "tokenizer_unicode.h"

#include <gtest/gtest.h>
#include <functional>
#include <nlohmann/json.hpp>

using namespace sieve;

namespace {

const nlohmann::json &expected()
{
    static const nlohmann::json j = nlohmann::json::parse(test::readFile(test::testData("export/token_counts.json")));
    return j;
}

void checkTokenizer(const std::string &name)
{
    const Tokenizer tok = Tokenizer::fromFile(test::testData("export/" + name));
    const auto &texts = expected()["texts"];
    const auto &ids = expected()["results"][name]["ids"];
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

TEST(Tokenizer, Gpt2StyleMatchesLibrary) { checkTokenizer("gpt2-style.json"); }
TEST(Tokenizer, Llama3StyleMatchesLibrary) { checkTokenizer("llama3-style.json"); }
TEST(Tokenizer, Qwen2StyleWithNfcMatchesLibrary) { checkTokenizer("qwen2-style.json"); }
TEST(Tokenizer, DigitsAndPrefixSpaceMatchLibrary) { checkTokenizer("digits-prefix.json"); }

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
    expectError(withField("gpt2-style.json", [](auto &j) { j["normalizer"] = {{"type", "Lowercase"}}; }),
                "normalizer.type");
    expectError(withField("llama3-style.json",
                          [](auto &j) { j["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = "\\w+"; }),
                "pre_tokenizer.pretokenizers[0].pattern.Regex");
    expectError(withField("llama3-style.json",
                          [](auto &j) { j["pre_tokenizer"]["pretokenizers"][0]["behavior"] = "Removed"; }),
                "pre_tokenizer.pretokenizers[0].behavior");
    expectError(withField("gpt2-style.json", [](auto &j) { j["pre_tokenizer"] = {{"type", "Metaspace"}}; }),
                "pre_tokenizer.type");
    expectError(withField("gpt2-style.json", [](auto &j) { j["pre_tokenizer"] = nullptr; }), "pre_tokenizer");
    expectError(withField("gpt2-style.json", [](auto &j) { j["model"]["byte_fallback"] = true; }),
                "model.byte_fallback");
    expectError(withField("gpt2-style.json", [](auto &j) { j["model"]["dropout"] = 0.1; }), "model.dropout");
    expectError("{not json", "not valid JSON");
}

TEST(TokenizerUnicode, NfcComposesAndReorders)
{
    EXPECT_EQ(tok::unicode::nfc("cafe\xCC\x81"), "caf\xC3\xA9");                  // e + acute -> é
    EXPECT_EQ(tok::unicode::nfc("\xE2\x84\xAB"), "\xC3\x85");                       // Angstrom sign -> Å
    EXPECT_EQ(tok::unicode::nfc("\xE1\x84\x80\xE1\x85\xA1"), "\xEA\xB0\x80");      // Hangul L+V -> 가
    EXPECT_EQ(tok::unicode::nfc("plain ascii"), "plain ascii");
}
