// Rows as the trainer sees them (sieve-cli export --chat-template): each row rendered with a real
// tokenizer_config.json's chat template and tokenized with a real tokenizer.json (tests/data/chat_export,
// built by make_tokenizers.py with the tokenizers library: a Llama 2 style byte-fallback + Metaspace BPE
// and a byte-level BPE with ChatML), the assistant-only mask, the budget on the rendered length.
#include "core/util/python.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace sieve;

namespace {

const std::string kData = test::testData("chat_export");
const std::string kSystem = "You are an expert in writing GPU kernels.";

// Two tasks, three answers; one answer has characters the small vocabularies lack (byte fallback).
std::string makeCorpus(test::TempDir &dir)
{
    const std::string path = dir.file("chat.sieve");
    Corpus c = Corpus::create(path);
    const auto relu = test::addTask(c, "relu", 1, "activation");
    const auto gemm = test::addTask(c, "gemm", 2, "gemm");
    test::SampleSpec a{"relu-short", 1, "PASS", 1.5};
    a.code = "class ModelNew:\n    pass  # x \xe2\x86\x92 max(x, 0) \xc3\xa9\n";
    a.reasoning = "One row per program.";
    test::addSample(c, relu, a);
    test::SampleSpec b{"gemm-long", 1, "PASS", 1.2};
    b.code = "import triton\n\nclass ModelNew:\n" + std::string(40, ' ') + "\n" + [] {
        std::string body;
        for (int i = 0; i < 40; ++i)
            body += "    def f" + std::to_string(i) + "(self, x):\n        return x * " + std::to_string(i) + "\n";
        return body;
    }();
    test::addSample(c, gemm, b);
    test::SampleSpec d{"gemm-cuda", 2, "PASS", 1.1};
    d.backend = "cuda";
    test::addSample(c, gemm, d);
    return path;
}

test::ProcessResult exportRows(const std::string &db, const std::string &out, const std::vector<std::string> &extra)
{
    std::vector<std::string> args = {"export", db, out, "--split", "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::runCli(args);
}

// The number of Unicode code points in UTF-8 text (Python's string length).
std::size_t codePoints(std::string_view s)
{
    std::size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

// The tokenizers library's ids for `text`, from Sieve's Python: the rows' ids are checked against it.
std::vector<int> referenceIds(const std::string &tokenizer, const std::string &text, test::TempDir &dir)
{
    test::writeFile(dir.file("text.txt"), text);
    const auto r = test::runProgram(
        {pythonInterpreter({}, "tokenizers"), "-c",
         "import sys, json; from tokenizers import Tokenizer; t = Tokenizer.from_file(sys.argv[1]); "
         "print(json.dumps(t.encode(open(sys.argv[2], encoding='utf-8').read(), add_special_tokens=False).ids))",
         tokenizer, dir.file("text.txt")});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(r.out).get<std::vector<int>>();
}

} // namespace

TEST(ChatExport, ChatMLTextRowsAreTheRenderedConversationWithTheAssistantSpan)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    ASSERT_EQ(exportRows(db, dir.file("plain"), {}).exitCode, 0);
    const auto r = exportRows(
        db, dir.file("chat"),
        {"--chat-template", kData + "/chatml/tokenizer_config.json", "--tokenizer", kData + "/chatml/tokenizer.json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto plain = test::readJsonl(dir.file("plain/train.jsonl"));
    const auto chat = test::readJsonl(dir.file("chat/train.jsonl"));
    ASSERT_EQ(plain.size(), 3u);
    ASSERT_EQ(chat.size(), 3u);
    for (std::size_t i = 0; i < chat.size(); ++i) {
        const auto &m = plain[i]["messages"];
        std::string prompt;
        for (int k = 0; k < 2; ++k)
            prompt += "<|im_start|>" + m[k]["role"].get<std::string>() + "\n" + m[k]["content"].get<std::string>() +
                      "<|im_end|>\n";
        prompt += "<|im_start|>assistant\n";
        const std::string text = prompt + m[2]["content"].get<std::string>() + "<|im_end|>\n";
        EXPECT_EQ(chat[i]["text"], text);
        EXPECT_EQ(chat[i]["assistant_spans"], nlohmann::json::array({{codePoints(prompt), codePoints(text)}}));
        EXPECT_EQ(chat[i]["meta"], plain[i]["meta"]);
        EXPECT_FALSE(chat[i].contains("messages"));
    }
    const auto man = nlohmann::json::parse(test::readFile(dir.file("chat/manifest.json")));
    EXPECT_EQ(man["parameters"]["chat_template"]["file"], "tokenizer_config.json");
    EXPECT_EQ(man["parameters"]["chat_template"]["rows"], "text");
    EXPECT_EQ(man["parameters"]["tokenizer"]["description"], "BPE (tokenizers library), 500 tokens");
    // The budget counts the rendered row: more than the fields alone (the template's tags and turns).
    const auto fields = exportRows(db, dir.file("fields"), {"--tokenizer", kData + "/chatml/tokenizer.json"});
    ASSERT_EQ(fields.exitCode, 0) << fields.err;
    const auto fman = nlohmann::json::parse(test::readFile(dir.file("fields/manifest.json")));
    std::size_t rendered = 0;
    for (const auto &row : chat)
        rendered += referenceIds(kData + "/chatml/tokenizer.json", row["text"], dir).size();
    EXPECT_EQ(man["counts"]["train"]["tokens"], rendered);
    EXPECT_GT(rendered, fman["counts"]["train"]["tokens"].get<std::size_t>());
    // The same files again from the manifest.
    const auto again =
        test::runCli({"export", db, dir.file("again"), "--manifest", dir.file("chat/manifest.json"), "--tokenizer",
                      kData + "/chatml/tokenizer.json", "--chat-template", kData + "/chatml/tokenizer_config.json"});
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(test::readFile(dir.file("again/train.jsonl")), test::readFile(dir.file("chat/train.jsonl")));
}

TEST(ChatExport, ByteFallbackMetaspaceTokenRowsMaskAllButTheAssistantTurn)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    const std::string tokenizer = kData + "/llama2/tokenizer.json";
    // The field-summing counter refuses this tokenizer; the rendered rows count it exactly.
    const auto refused = exportRows(db, dir.file("fields"), {"--tokenizer", tokenizer});
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_NE(refused.err.find("byte_fallback"), std::string::npos) << refused.err;
    ASSERT_EQ(exportRows(db, dir.file("plain"), {}).exitCode, 0);
    const auto r = exportRows(
        db, dir.file("tok"),
        {"--chat-template", kData + "/llama2/tokenizer_config.json", "--tokenizer", tokenizer, "--rows", "tokens"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto plain = test::readJsonl(dir.file("plain/train.jsonl"));
    const auto rows = test::readJsonl(dir.file("tok/train.jsonl"));
    ASSERT_EQ(rows.size(), 3u);
    std::size_t total = 0;
    bool sawByteTokens = false;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto &m = plain[i]["messages"];
        // Llama 2's template: <s>[INST] <<SYS>>\nS\n<</SYS>>\n\nU [/INST] A </s> (contents stripped).
        auto strip = [](std::string s) {
            s.erase(0, s.find_first_not_of(" \n\t"));
            s.erase(s.find_last_not_of(" \n\t") + 1);
            return s;
        };
        const std::string prompt = "<s>[INST] " +
                                   strip("<<SYS>>\n" + m[0]["content"].get<std::string>() + "\n<</SYS>>\n\n" +
                                         m[1]["content"].get<std::string>()) +
                                   " [/INST]";
        const std::string text = prompt + " " + strip(m[2]["content"]) + " </s>";
        const auto ids = rows[i]["input_ids"].get<std::vector<int>>();
        EXPECT_EQ(ids, referenceIds(tokenizer, text, dir)) << "row " << i;
        const auto labels = rows[i]["labels"].get<std::vector<int>>();
        const auto mask = rows[i]["assistant_masks"].get<std::vector<int>>();
        ASSERT_EQ(labels.size(), ids.size());
        ASSERT_EQ(mask.size(), ids.size());
        // -100 up to the assistant turn, the ids from there on, </s> (id 2) trained last.
        std::size_t first = 0;
        while (first < labels.size() && labels[first] == -100)
            ++first;
        EXPECT_GT(first, 10u);
        EXPECT_LT(first, ids.size());
        EXPECT_EQ(first, referenceIds(tokenizer, prompt, dir).size()) << "the mask starts after [/INST]";
        for (std::size_t k = 0; k < ids.size(); ++k) {
            EXPECT_EQ(labels[k], k < first ? -100 : ids[k]) << k;
            EXPECT_EQ(mask[k], k < first ? 0 : 1) << k;
        }
        EXPECT_EQ(ids.front(), 1);
        EXPECT_EQ(ids.back(), 2);
        for (int id : ids)
            sawByteTokens |= id >= 3 && id < 3 + 256; // <0x00>..<0xFF>
        total += ids.size();
    }
    EXPECT_TRUE(sawByteTokens) << "the arrow and the accent take byte-fallback tokens";
    const auto man = nlohmann::json::parse(test::readFile(dir.file("tok/manifest.json")));
    EXPECT_EQ(man["counts"]["train"]["tokens"], total);
    EXPECT_EQ(man["parameters"]["chat_template"]["rows"], "tokens");
    EXPECT_NE(man["parameters"]["tokenizer"]["description"].get<std::string>().find("byte fallback"),
              std::string::npos);
}

TEST(ChatExport, TheBudgetDropsAndListsRowsByTheirRenderedLength)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    const std::vector<std::string> chat = {"--chat-template", kData + "/llama2/tokenizer_config.json",
                                           "--tokenizer",     kData + "/llama2/tokenizer.json",
                                           "--rows",          "tokens"};
    ASSERT_EQ(exportRows(db, dir.file("all"), chat).exitCode, 0);
    std::map<std::string, std::size_t> lengths;
    for (const auto &row : test::readJsonl(dir.file("all/train.jsonl")))
        lengths[row["meta"]["sample"]] = row["input_ids"].size();
    ASSERT_EQ(lengths.size(), 3u);
    const std::size_t budget = lengths["relu-short"];
    ASSERT_GT(lengths["gemm-long"], budget);
    auto args = chat;
    args.insert(args.end(), {"--max-tokens", std::to_string(budget)});
    const auto r = exportRows(db, dir.file("budget"), args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto man = nlohmann::json::parse(test::readFile(dir.file("budget/manifest.json")));
    bool listed = false;
    for (const auto &e : man["excluded"])
        if (e["sample"] == "gemm-long") {
            listed = true;
            EXPECT_EQ(e["reason"], "over token budget");
            EXPECT_EQ(e["tokens"], lengths["gemm-long"]);
        }
    EXPECT_TRUE(listed) << man["excluded"].dump();
    for (const auto &row : test::readJsonl(dir.file("budget/train.jsonl")))
        EXPECT_LE(row["input_ids"].size(), budget);
}

TEST(ChatExport, BadTemplatesAndOptionsAreClearErrors)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    const std::string llamaTok = kData + "/llama2/tokenizer.json";
    auto r = exportRows(db, dir.file("x"),
                        {"--chat-template", kData + "/nochat/tokenizer_config.json", "--tokenizer", llamaTok});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("nochat/tokenizer_config.json: chat_template: missing"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("x/train.jsonl")));
    // Mistral's template takes no system message: its own error, naming the sample.
    r = exportRows(db, dir.file("m"),
                   {"--chat-template", kData + "/mistral/tokenizer_config.json", "--tokenizer", llamaTok});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("Conversation roles must alternate"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("sample '"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("m/train.jsonl")));
    r = exportRows(
        db, dir.file("m2"),
        {"--chat-template", kData + "/mistral/tokenizer_config.json", "--tokenizer", llamaTok, "--system", "none"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const auto &row : test::readJsonl(dir.file("m2/train.jsonl")))
        EXPECT_EQ(row["text"].get<std::string>().rfind("<s>[INST] You write custom", 0), 0u) << row["text"];
    r = exportRows(db, dir.file("p"),
                   {"--chat-template", kData + "/llama2/tokenizer_config.json", "--tokenizer", llamaTok, "--format",
                    "prompt-completion"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("use --format messages"), std::string::npos) << r.err;
    r = exportRows(db, dir.file("q"), {"--chat-template", kData + "/llama2/tokenizer_config.json"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--chat-template needs --tokenizer"), std::string::npos) << r.err;
    r = exportRows(db, dir.file("q"), {"--rows", "tokens"});
    EXPECT_EQ(r.exitCode, 2);
}
