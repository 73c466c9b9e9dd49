#include "core/export/export.h"
#include "core/review/review.h"
#include "core/tokenizer/tokenizer.h"
#include "core/util/hashing.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

using namespace sieve;
namespace fs = std::filesystem;

namespace {

std::vector<nlohmann::json> readRows(const std::string &path)
{
    std::vector<nlohmann::json> rows;
    std::istringstream in(test::readFile(path));
    std::string line;
    while (std::getline(in, line))
        rows.push_back(nlohmann::json::parse(line));
    return rows;
}

std::string makeDemo(test::TempDir &dir, const std::string &name = "c.sieve")
{
    const std::string path = dir.file(name);
    Corpus c = Corpus::create(path);
    test::buildDemo(c);
    return path;
}

// Many tasks: 24 easy, 12 hard, 4 unsolved; two passing samples on each solved one.
std::string makeLarge(test::TempDir &dir)
{
    const std::string path = dir.file("large.sieve");
    Corpus c = Corpus::create(path);
    for (int i = 0; i < 40; ++i) {
        const std::string name = "op" + std::to_string(i);
        const auto t = test::addTask(c, name, 1 + i % 3, i % 2 ? "elementwise" : "reduction");
        if (i < 24) {
            test::addSample(c, t, {name + "-1", 1, "PASS", 1.2});
            test::addSample(c, t, {name + "-2", 2, "PASS", 1.4});
        } else if (i < 36) {
            test::addSample(c, t, {name + "-1", 1, "FAIL_MISMATCH"});
            test::addSample(c, t, {name + "-2", 2, "PASS", 1.1});
            test::addSample(c, t, {name + "-3", 3, "PASS", 1.3});
        } else {
            test::addSample(c, t, {name + "-1", 1, "FAIL_RUNTIME"});
        }
    }
    return path;
}

} // namespace

TEST(Export, SameCorpusSameOptionsGiveByteIdenticalFiles)
{
    test::TempDir dir;
    const std::string db = makeLarge(dir);
    fs::create_directories(dir.path() / "a");
    fs::create_directories(dir.path() / "b");
    fs::copy_file(db, dir.path() / "a" / "c.sieve");
    fs::copy_file(db, dir.path() / "b" / "c.sieve");
    ExportOptions o;
    o.selection.seed = 17;
    o.selection.easyCount = 10;
    o.tokenizerPath = test::testData("export/gpt2-style.json");
    o.maxTokens = 100000;
    exportCorpus((dir.path() / "a" / "c.sieve").string(), dir.file("outA"), o);
    exportCorpus((dir.path() / "b" / "c.sieve").string(), dir.file("outB"), o);
    for (const char *f : {"train.jsonl", "validation.jsonl", "manifest.json"})
        EXPECT_EQ(test::readFile(dir.file(std::string("outA/") + f)),
                  test::readFile(dir.file(std::string("outB/") + f)))
            << f;
    // Exporting again from the same file, which now records the first export: the same files and the
    // same manifest, since the corpus identity is the content exported, not the file's bytes.
    exportCorpus((dir.path() / "a" / "c.sieve").string(), dir.file("outC"), o);
    for (const char *f : {"train.jsonl", "validation.jsonl", "manifest.json"})
        EXPECT_EQ(test::readFile(dir.file(std::string("outA/") + f)),
                  test::readFile(dir.file(std::string("outC/") + f)))
            << f;
    EXPECT_EQ(nlohmann::json::parse(test::readFile(dir.file("outA/manifest.json")))["corpus"]["content_sha256"]
                  .get<std::string>()
                  .size(),
              64u);
    // Another seed draws another set.
    o.selection.seed = 18;
    exportCorpus((dir.path() / "b" / "c.sieve").string(), dir.file("outD"), o);
    EXPECT_NE(test::readFile(dir.file("outA/train.jsonl")), test::readFile(dir.file("outD/train.jsonl")));
}

TEST(Export, SplitIsByTaskAndStratifiedByDifficulty)
{
    test::TempDir dir;
    const std::string db = makeLarge(dir);
    ExportOptions o;
    o.validationFraction = 0.25;
    o.selection.seed = 5;
    const auto r = exportCorpus(db, dir.file("out"), o);
    std::map<std::string, std::set<std::string>> tasksBySplit;
    std::map<std::string, std::map<std::string, std::set<std::string>>> byDifficulty;
    for (const char *split : {"train", "validation"})
        for (const auto &row : readRows(dir.file(std::string("out/") + split + ".jsonl"))) {
            const std::string task = row["meta"]["task"];
            EXPECT_EQ(row["meta"]["split"], split);
            tasksBySplit[split].insert(task);
            byDifficulty[split][row["meta"]["difficulty"]].insert(task);
        }
    for (const auto &t : tasksBySplit["train"])
        EXPECT_FALSE(tasksBySplit["validation"].count(t)) << t << " is in both splits";
    EXPECT_EQ(tasksBySplit["train"].size() + tasksBySplit["validation"].size(), 36u); // unsolved ones have no rows
    EXPECT_EQ(byDifficulty["validation"]["easy"].size(), 6u);                         // round(0.25 * 24)
    EXPECT_EQ(byDifficulty["validation"]["hard"].size(), 3u);                         // round(0.25 * 12)
    const auto &m = r.manifest;
    EXPECT_EQ(m["counts"]["validation"]["by_difficulty"]["hard"]["tasks"], 3);
    EXPECT_EQ(m["counts"]["validation"]["tasks"], 9);
    EXPECT_EQ(m["counts"]["train"]["rows"].get<int>() + m["counts"]["validation"]["rows"].get<int>(), 72);
}

TEST(Export, MessagesFormsAndPromptTemplates)
{
    test::TempDir dir;
    const std::string db = makeDemo(dir);
    ExportOptions o;
    o.validationFraction = 0;
    o.reasoning = ReasoningMode::Field;
    o.tags = {"backend", "difficulty"};
    exportCorpus(db, dir.file("field"), o);
    const auto rows = readRows(dir.file("field/train.jsonl"));
    ASSERT_EQ(rows.size(), 8u);
    bool sawCuda = false;
    for (const auto &row : rows) {
        const auto &msgs = row["messages"];
        ASSERT_EQ(msgs.size(), 3u);
        EXPECT_EQ(msgs[0]["role"], "system");
        EXPECT_EQ(msgs[1]["role"], "user");
        EXPECT_EQ(msgs[2]["role"], "assistant");
        const std::string user = msgs[1]["content"], answer = msgs[2]["content"];
        EXPECT_NE(user.find("class Model(torch.nn.Module)"), std::string::npos);
        EXPECT_NE(user.find("ModelNew"), std::string::npos);
        EXPECT_NE(user.find("[difficulty: " + row["meta"]["difficulty"].get<std::string>() + "]"), std::string::npos);
        if (row["meta"]["backend"] == "cuda") {
            sawCuda = true;
            EXPECT_EQ(user.find("[backend: cuda]"), 0u) << user;
            EXPECT_NE(user.find("You write custom CUDA kernels"), std::string::npos);
        } else {
            EXPECT_NE(user.find("You write custom Triton kernels to replace the pytorch operators"), std::string::npos);
        }
        EXPECT_EQ(answer.rfind("```python\n", 0), 0u);
        EXPECT_EQ(answer.substr(answer.size() - 4), "\n```");
        EXPECT_NE(msgs[2]["reasoning_content"].get<std::string>().find("Reasoning for"), std::string::npos);
    }
    EXPECT_TRUE(sawCuda);

    o.reasoning = ReasoningMode::Think;
    o.systemTemplate = "none";
    exportCorpus(db, dir.file("think"), o);
    const auto think = readRows(dir.file("think/train.jsonl"));
    ASSERT_EQ(think[0]["messages"].size(), 2u);
    const std::string content = think[0]["messages"][1]["content"];
    EXPECT_EQ(content.rfind("<think>\nReasoning for", 0), 0u) << content;
    EXPECT_NE(content.find("\n</think>\n\n```python\n"), std::string::npos);
    EXPECT_FALSE(think[0]["messages"][1].contains("reasoning_content"));

    o.reasoning = ReasoningMode::None;
    o.format = ExportFormat::PromptCompletion;
    o.systemTemplate = "system";
    exportCorpus(db, dir.file("pc"), o);
    const auto pc = readRows(dir.file("pc/train.jsonl"));
    EXPECT_TRUE(pc[0].contains("prompt") && pc[0].contains("completion"));
    EXPECT_EQ(pc[0]["completion"].get<std::string>().rfind("```python\n", 0), 0u);
    EXPECT_NE(pc[0]["prompt"].get<std::string>().find("expert GPU kernel engineer"), std::string::npos);
    EXPECT_FALSE(pc[0].contains("reasoning_content"));
}

TEST(Export, TokenBudgetLeavesOutAndListsRows)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    {
        Corpus c = Corpus::create(db);
        test::buildDemo(c);
        // One long answer that cannot fit.
        const auto t = test::addTask(c, "huge", 1, "activation");
        test::SampleSpec big{"huge-a1", 1, "PASS", 1.0};
        big.reasoning = std::string(20000, 'x') + " think harder";
        test::addSample(c, t, big);
    }
    ExportOptions o;
    o.tokenizerPath = test::testData("export/llama3-style.json");
    o.maxTokens = 2000;
    o.validationFraction = 0;
    const auto r = exportCorpus(db, dir.file("out"), o);
    const auto &ex = r.manifest["excluded"];
    ASSERT_EQ(ex.size(), 1u);
    EXPECT_EQ(ex[0]["sample"], "huge-a1");
    EXPECT_EQ(ex[0]["reason"], "over token budget");
    EXPECT_GT(ex[0]["tokens"].get<int>(), 2000);
    // The manifest's token total is the sum of each row's fields, counted independently here.
    const Tokenizer tok = Tokenizer::fromFile(o.tokenizerPath);
    std::size_t total = 0;
    const auto rows = readRows(dir.file("out/train.jsonl"));
    EXPECT_EQ(rows.size(), 8u);
    for (const auto &row : rows)
        for (const auto &m : row["messages"]) {
            total += tok.count(m["content"].get<std::string>());
            if (m.contains("reasoning_content"))
                total += tok.count(m["reasoning_content"].get<std::string>());
        }
    EXPECT_EQ(r.manifest["counts"]["train"]["tokens"].get<std::size_t>(), total);
    EXPECT_NE(r.manifest["parameters"]["tokenizer"]["description"].get<std::string>().find("llama3"),
              std::string::npos);
}

TEST(Export, ManifestHashesRecordAndDryRun)
{
    test::TempDir dir;
    const std::string db = makeDemo(dir);
    ExportOptions o;
    o.dryRun = true;
    const auto dry = exportCorpus(db, dir.file("dry"), o);
    EXPECT_FALSE(fs::exists(dir.file("dry")));
    EXPECT_FALSE(dry.exportId);
    o.dryRun = false;
    const auto r = exportCorpus(db, dir.file("out"), o);
    const auto m = nlohmann::json::parse(test::readFile(dir.file("out/manifest.json")));
    // The manifest is an ordered_json; compared as json (key order aside), which also keeps the comparison
    // unambiguous under Clang's C++20 rewritten operators.
    EXPECT_EQ(m["corpus"], nlohmann::json(dry.manifest["corpus"])); // a dry run identifies the same content
    EXPECT_EQ(m["sieve_version"], SIEVE_VERSION);
    for (const char *f : {"train.jsonl", "validation.jsonl"})
        EXPECT_EQ(m["files"][f]["sha256"], hashing::sha256File(dir.file(std::string("out/") + f))) << f;
    EXPECT_EQ(m["counts"], nlohmann::json(dry.manifest["counts"]));
    ASSERT_TRUE(r.exportId);
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM exports").value_or(0), 1);
    const auto stored = nlohmann::json::parse(c.db().queryText("SELECT manifest_json FROM exports").value_or("{}"));
    EXPECT_EQ(stored["files"], m["files"]);
}

TEST(Export, RejectedNeverExportedAndMissingTemplateFails)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    std::int64_t relu = 0;
    {
        Corpus c = Corpus::create(db);
        relu = test::buildDemo(c).reluA;
        ReviewInput in;
        in.decision = ReviewDecision::Reject;
        recordReview(c.db(), relu, in);
    }
    ExportOptions o;
    o.validationFraction = 0;
    exportCorpus(db, dir.file("out"), o);
    for (const auto &row : readRows(dir.file("out/train.jsonl")))
        EXPECT_NE(row["meta"]["sample_id"].get<std::int64_t>(), relu);
    {
        Corpus c = Corpus::open(db);
        const auto t = test::addTask(c, "sycl_op", 1, "x", "sycl");
        test::addSample(c, t, {"sycl-a1", 1});
    }
    try {
        exportCorpus(db, dir.file("out2"), o);
        ADD_FAILURE() << "no error for a backend without a template";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("--template"), std::string::npos) << e.what();
    }
}

// A PASS made with stage 0 skipped (verify --skip-static) is not exported unless --include-skip-static; the
// manifest records the option so that a rebuild from it selects the same rows.
TEST(Export, StaticSkippedPassLeftOutUnlessIncluded)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    std::int64_t relu = 0;
    {
        Corpus c = Corpus::create(db);
        relu = test::buildDemo(c).reluA;
        test::addVerdict(c, relu, "PASS", "");
        c.db().exec("UPDATE verdicts SET flags='STATIC_SKIPPED'");
    }
    auto exported = [&](const std::string &out) {
        std::set<std::int64_t> ids;
        for (const char *f : {"/train.jsonl", "/validation.jsonl"})
            for (const auto &row : readRows(out + f))
                ids.insert(row["meta"]["sample_id"].get<std::int64_t>());
        return ids;
    };
    auto r = test::runCli({"export", db, dir.file("plain")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(exported(dir.file("plain")).count(relu));
    EXPECT_FALSE(nlohmann::json::parse(test::readFile(dir.file("plain/manifest.json")))["parameters"].contains(
        "include_skip_static"));
    r = test::runCli({"export", db, dir.file("with"), "--include-skip-static"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(exported(dir.file("with")).count(relu));
    EXPECT_EQ(
        nlohmann::json::parse(test::readFile(dir.file("with/manifest.json")))["parameters"]["include_skip_static"],
        true);
    r = test::runCli({"export", db, dir.file("again"), "--manifest", dir.file("with/manifest.json")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(exported(dir.file("again")).count(relu));
}

// --exclude-flags leaves out samples whose newest verdict carries a flag (NONDETERMINISTIC: its output changed
// from call to call on the same inputs); the manifest records it, and a rebuild from it leaves them out too.
TEST(Export, ExcludeFlagsLeavesFlaggedSamplesOut)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    std::int64_t relu = 0;
    {
        Corpus c = Corpus::create(db);
        relu = test::buildDemo(c).reluA;
        test::addVerdict(c, relu, "PASS", "");
        c.db().exec("UPDATE verdicts SET flags='SPEEDUP_OVER_10X,NONDETERMINISTIC' WHERE id=(SELECT max(id) FROM "
                    "verdicts)");
    }
    auto exported = [&](const std::string &out) {
        std::set<std::int64_t> ids;
        for (const char *f : {"/train.jsonl", "/validation.jsonl"})
            for (const auto &row : readRows(out + f))
                ids.insert(row["meta"]["sample_id"].get<std::int64_t>());
        return ids;
    };
    auto r = test::runCli({"export", db, dir.file("plain")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(exported(dir.file("plain")).count(relu));
    EXPECT_FALSE(
        nlohmann::json::parse(test::readFile(dir.file("plain/manifest.json")))["parameters"].contains("exclude_flags"));
    r = test::runCli({"export", db, dir.file("without"), "--exclude-flags", "NONDETERMINISTIC"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(exported(dir.file("without")).count(relu));
    const auto params = nlohmann::json::parse(test::readFile(dir.file("without/manifest.json")))["parameters"];
    EXPECT_EQ(params["exclude_flags"], nlohmann::json::array({"NONDETERMINISTIC"}));
    r = test::runCli({"export", db, dir.file("again"), "--manifest", dir.file("without/manifest.json")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(exported(dir.file("again")).count(relu));
    const auto sel = test::runCli({"select", db, "--json", "--exclude-flags", "STATIC_SKIPPED,NONDETERMINISTIC"});
    ASSERT_EQ(sel.exitCode, 0) << sel.err;
    EXPECT_EQ(nlohmann::json::parse(sel.out)["excluded"]["flag NONDETERMINISTIC"], 1);
    for (const char *bad : {"nondeterministic", "A,,B", "A,", "A B"}) {
        const auto e = test::runCli({"select", db, "--exclude-flags", bad});
        EXPECT_EQ(e.exitCode, 2) << bad << ": " << e.out;
        EXPECT_NE(e.err.find("--exclude-flags"), std::string::npos) << e.err;
    }
}

TEST(Export, CommandLine)
{
    test::TempDir dir;
    const std::string db = makeLarge(dir);
    auto r =
        test::runCli({"export", db, dir.file("out"), "--max-tokens", "5000", "--tokenizer",
                      test::testData("export/qwen2-style.json"), "--easy", "5", "--seed", "3", "--reasoning", "think"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("wrote"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::exists(dir.file("out/manifest.json")));
    r = test::runCli({"export", db, dir.file("dry"), "--dry-run", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out).contains("counts"));
    EXPECT_FALSE(fs::exists(dir.file("dry")));
    r = test::runCli({"export", db, dir.file("x"), "--max-tokens", "10"});
    EXPECT_EQ(r.exitCode, 2);
    r = test::runCli({"export", db, dir.file("x"), "--tokenizer", test::testData("export/make_tokenizers.py")});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("not valid JSON"), std::string::npos) << r.err;
}

TEST(Export, InvalidUtf8IsReplaced)
{
    EXPECT_EQ(validUtf8("ok"), "ok");
    EXPECT_EQ(validUtf8("a\xFF"
                        "b"),
              "a\xEF\xBF\xBD"
              "b");
    EXPECT_EQ(validUtf8("caf\xC3\xA9"), "caf\xC3\xA9");
}

TEST(Export, RowsAreCompactJsonThatRoundTrips)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    const std::string code = "x = \"q\" + '\\\\n'\x01\x1f\tcaf\xC3\xA9 \xE4\xB8\xAD \x7f end";
    {
        Corpus c = Corpus::create(db);
        const auto t = test::addTask(c, "tricky", 1, "x");
        test::SampleSpec s{"tricky-a1", 1};
        s.code = code;
        s.reasoning = "line1\r\nline2 \"quoted\" \\ back";
        test::addSample(c, t, s);
    }
    ExportOptions o;
    o.validationFraction = 0;
    o.reasoning = ReasoningMode::Field;
    exportCorpus(db, dir.file("out"), o);
    const std::string text = test::readFile(dir.file("out/train.jsonl"));
    ASSERT_FALSE(text.empty());
    const std::string line = text.substr(0, text.size() - 1);
    const auto row = nlohmann::ordered_json::parse(line);
    // Written exactly as nlohmann's compact dump would write it.
    EXPECT_EQ(row.dump(), line);
    EXPECT_EQ(row["messages"][2]["content"], "```python\n" + code + "\n```");
    EXPECT_EQ(row["messages"][2]["reasoning_content"], "line1\r\nline2 \"quoted\" \\ back");
    EXPECT_EQ(row["meta"]["level"], 1);
}

TEST(Export, CorruptPayloadFailsNamingTheSampleAndLeavesTheFolderAsItWas)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    std::int64_t bad = 0;
    {
        Corpus c = Corpus::create(db);
        bad = test::buildDemo(c).gemm1;
    }
    ExportOptions o;
    exportCorpus(db, dir.file("out"), o);
    const std::string manifestBefore = test::readFile(dir.file("out/manifest.json"));
    const std::string trainBefore = test::readFile(dir.file("out/train.jsonl"));
    {
        Corpus c = Corpus::open(db);
        // A zstd header that promises more than the frame holds.
        c.db()
            .prepare("UPDATE sample_payloads SET code=?1 WHERE sample_id=?2")
            .bindBlob(1, std::string("z\x28\xB5\x2F\xFD\x20\x40\x01", 8))
            .bind(2, bad)
            .run();
    }
    for (const std::string out : {"out", "fresh"}) {
        try {
            exportCorpus(db, dir.file(out), o);
            ADD_FAILURE() << "no error for a corrupt payload";
        } catch (const std::runtime_error &e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("gemm-a1"), std::string::npos) << what;
            EXPECT_NE(what.find("sample_payloads.code"), std::string::npos) << what;
        }
        // No half-written file is left, under its own name or a temporary one.
        for (const auto &entry : fs::directory_iterator(dir.file(out)))
            EXPECT_EQ(entry.path().string().find(".partial"), std::string::npos) << entry.path();
    }
    // The earlier export is untouched: its manifest still describes the files beside it.
    EXPECT_EQ(test::readFile(dir.file("out/manifest.json")), manifestBefore);
    EXPECT_EQ(test::readFile(dir.file("out/train.jsonl")), trainBefore);
    EXPECT_FALSE(fs::exists(dir.file("fresh/train.jsonl")));
    EXPECT_FALSE(fs::exists(dir.file("fresh/manifest.json")));
}

TEST(Export, UnwritableFolderFailsNamingIt)
{
    test::TempDir dir;
    const std::string db = makeDemo(dir);
    test::writeFile(dir.file("plain-file"), "x");
    try {
        exportCorpus(db, dir.file("plain-file/out"), ExportOptions{});
        ADD_FAILURE() << "no error for a folder under a file";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("plain-file"), std::string::npos) << e.what();
    }
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM exports").value_or(-1), 0);
}

TEST(Export, ManyBatchesKeepTheRowOrderAndTheCounts)
{
    // More rows than several of the exporter's batches, with rows left out on the way (no code, over
    // the budget), so that the ordered writer and the counts are exercised across batches.
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    int expectNoCode = 0;
    {
        Corpus c = Corpus::create(db);
        db::Transaction tx(c.db());
        for (int t = 0; t < 400; ++t) {
            const std::string name = "op" + std::to_string((t * 7919) % 400); // task ids not in name order
            const auto task = test::addTask(c, name, 1 + t % 3, t % 2 ? "elementwise" : "reduction");
            for (int k = 0; k < 3; ++k) {
                test::SampleSpec s{name + "-" + std::to_string(k), k + 1, "PASS", 1.0 + k};
                if ((t + k) % 97 == 0) {
                    s.code = "\n\n   \n";
                    ++expectNoCode;
                }
                if ((t + k) % 89 == 0)
                    s.reasoning = std::string(20000, 'x') + " long";
                test::addSample(c, task, s);
            }
        }
        tx.commit();
    }
    ExportOptions o;
    o.tokenizerPath = test::testData("export/llama3-style.json");
    o.maxTokens = 4000;
    const auto r = exportCorpus(db, dir.file("out"), o);
    const auto &m = r.manifest;
    std::int64_t rows = 0;
    for (const char *split : {"train", "validation"}) {
        const auto lines = readRows(dir.file(std::string("out/") + split + ".jsonl"));
        EXPECT_EQ(static_cast<std::int64_t>(lines.size()), m["counts"][split]["rows"].get<std::int64_t>());
        rows += static_cast<std::int64_t>(lines.size());
        for (std::size_t i = 1; i < lines.size(); ++i) {
            const auto &a = lines[i - 1]["meta"], &b = lines[i]["meta"];
            const auto ka = std::make_pair(a["task"].get<std::string>(), a["sample_id"].get<std::int64_t>());
            const auto kb = std::make_pair(b["task"].get<std::string>(), b["sample_id"].get<std::int64_t>());
            EXPECT_LT(ka, kb) << split << " row " << i;
        }
        EXPECT_EQ(m["files"][std::string(split) + ".jsonl"]["sha256"],
                  hashing::sha256File(dir.file(std::string("out/") + split + ".jsonl")));
    }
    int noCode = 0, overBudget = 0;
    for (const auto &e : m["excluded"]) {
        noCode += e["reason"] == "sample has no code";
        overBudget += e["reason"] == "over token budget";
    }
    EXPECT_EQ(noCode, expectNoCode);
    EXPECT_GT(overBudget, 0);
    EXPECT_EQ(rows + noCode + overBudget, 1200);
    // The same export again: the same bytes.
    const auto again = exportCorpus(db, dir.file("again"), o);
    EXPECT_EQ(again.manifest["files"], m["files"]);
}
