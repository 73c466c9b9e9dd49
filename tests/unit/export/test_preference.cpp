// Preference pairs (--format preference), the speedup bar (--min-speedup), and exports a trainer loads
// as they are: no empty split file, reasoning in the trained text, TRL's conversational
// prompt-completion, a content identity and the rebuild from a manifest. All on real corpus files.
#include "core/export/export.h"
#include "core/select/preference.h"
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

// A verdict with GPU (or interpreted) timings, as the engine stores one; samples.speedup mirrors it.
void addTimedVerdict(Corpus &c, std::int64_t sampleId, const std::string &status, std::optional<double> candidateMs,
                     std::optional<double> eagerMs, std::optional<double> compileMs, bool interpreted = false)
{
    c.db().exec("INSERT INTO verify_runs(started_at, mode, verifier_version) VALUES(0, 'gpu:0', 'v-test')");
    c.db()
        .prepare("INSERT INTO verdicts(run_id, sample_id, status, interpreted, candidate_ms, eager_ms, compile_ms, "
                 "speedup, created_at) VALUES((SELECT max(id) FROM verify_runs), ?1, ?2, ?3, ?4, ?5, ?6, ?7, 0)")
        .bind(1, sampleId)
        .bind(2, status)
        .bind(3, interpreted ? 1 : 0)
        .bind(4, candidateMs)
        .bind(5, eagerMs)
        .bind(6, compileMs)
        .bind(7, candidateMs && eagerMs ? std::optional<double>(*eagerMs / *candidateMs) : std::nullopt)
        .run();
}

void setCodeHash(Corpus &c, std::int64_t sampleId, const std::string &hash)
{
    c.db().prepare("UPDATE samples SET code_hash=?1 WHERE id=?2").bind(1, hash).bind(2, sampleId).run();
}

// Tasks with passing and failing samples of every class.
struct PairCorpus
{
    std::int64_t relu, softmax, norm, lonely;
    std::int64_t reluPass, reluMismatch, reluCompile, reluSham, reluPatches, reluCrash, reluFallback;
    std::int64_t softPass1, softPass2, softRuntime, softSameCode;
};

PairCorpus buildPairs(Corpus &c)
{
    PairCorpus p{};
    p.relu = test::addTask(c, "relu", 1, "activation");
    p.softmax = test::addTask(c, "softmax", 1, "reduction");
    p.norm = test::addTask(c, "rms_norm", 2, "normalization");
    p.lonely = test::addTask(c, "lonely", 1, "activation"); // passes, no failure
    p.reluCompile = test::addSample(c, p.relu, {"relu-a1", 1, "FAIL_COMPILE"});
    test::addVerdict(c, p.reluCompile, "FAIL_COMPILE", "COMPILE_ERROR");
    p.reluMismatch = test::addSample(c, p.relu, {"relu-a2", 2, "FAIL_MISMATCH"});
    test::addVerdict(c, p.reluMismatch, "FAIL_MISMATCH", "MISMATCH");
    p.reluSham = test::addSample(c, p.relu, {"relu-a3", 3, "FAIL_SHAM"});
    test::addVerdict(c, p.reluSham, "FAIL_SHAM", "OUTPUT_NOT_FROM_KERNEL");
    p.reluPatches = test::addSample(c, p.relu, {"relu-a4", 4, "FAIL_STATIC"});
    test::addVerdict(c, p.reluPatches, "FAIL_STATIC", "PATCHES_TIMER,TORCH_OP_IN_FORWARD");
    p.reluCrash = test::addSample(c, p.relu, {"relu-a5", 5, "CRASH"});
    test::addVerdict(c, p.reluCrash, "CRASH", "SIGNAL");
    p.reluFallback = test::addSample(c, p.relu, {"relu-a6", 6, "FAIL_STATIC"});
    test::addVerdict(c, p.reluFallback, "FAIL_STATIC", "TORCH_OP_IN_FORWARD");
    p.reluPass = test::addSample(c, p.relu, {"relu-a7", 7, "PASS", 1.5});
    p.softRuntime = test::addSample(c, p.softmax, {"softmax-a1", 1, "FAIL_RUNTIME"});
    p.softSameCode = test::addSample(c, p.softmax, {"softmax-a2", 2, "FAIL_MISMATCH"});
    p.softPass1 = test::addSample(c, p.softmax, {"softmax-a3", 3, "PASS", 2.0});
    p.softPass2 = test::addSample(c, p.softmax, {"softmax-a4", 4, "PASS", 1.2});
    setCodeHash(c, p.softPass1, "same");
    setCodeHash(c, p.softSameCode, "same"); // a flaky verdict of the same code: no negative
    test::addSample(c, p.norm, {"norm-a1", 1, "FAIL_MISMATCH"});
    test::addSample(c, p.norm, {"norm-a2", 2, "PENDING"});
    test::addSample(c, p.lonely, {"lonely-a1", 1, "PASS", 1.0});
    return p;
}

std::string makePairs(test::TempDir &dir, PairCorpus *ids = nullptr)
{
    const std::string path = dir.file("pairs.sieve");
    Corpus c = Corpus::create(path);
    const PairCorpus p = buildPairs(c);
    if (ids)
        *ids = p;
    return path;
}

} // namespace

TEST(Preference, NegativeClasses)
{
    EXPECT_EQ(negativeClass("FAIL_MISMATCH", {"MISMATCH"}), "compiled");
    EXPECT_EQ(negativeClass("FAIL_RUNTIME", {}), "compiled");
    EXPECT_EQ(negativeClass("FAIL_COMPILE", {}), "compile");
    EXPECT_EQ(negativeClass("TIMEOUT", {"STAGE_TIMEOUT"}), "compile");
    EXPECT_EQ(negativeClass("FAIL_STATIC", {"TORCH_OP_IN_FORWARD"}), "static");
    EXPECT_EQ(negativeClass("FAIL_STATIC", {"NO_KERNEL", "FORBIDDEN_IMPORT"}), "hostile");
    EXPECT_EQ(negativeClass("FAIL_STATIC", {"PATCHES_HARNESS"}), "hostile");
    EXPECT_EQ(negativeClass("FAIL_STATIC", {}), "hostile"); // no recorded reason: not trusted as a plain fault
    EXPECT_EQ(negativeClass("FAIL_SANDBOX", {"NETWORK"}), "hostile");
    EXPECT_EQ(negativeClass("FAIL_SHAM", {"KERNEL_NOT_RUN"}), "hostile");
    EXPECT_EQ(negativeClass("CRASH", {"SIGNAL"}), "");
    EXPECT_EQ(negativeClass("PASS", {}), "");
    EXPECT_EQ(negativeClass("UNVERIFIABLE", {}), "");
}

TEST(Preference, PairsPreferCompiledFailuresAndLeaveOutHostileOnes)
{
    test::TempDir dir;
    PairCorpus p;
    const std::string db = makePairs(dir, &p);
    Corpus c = Corpus::open(db, true);
    const Pairs pairs = selectPairs(c.db(), SelectionOptions{}, PairOptions{});
    std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>> byTask;
    for (const PreferencePair &x : pairs.pairs) {
        const SelectedSample &ch = pairs.selection.samples[x.chosen];
        byTask[ch.taskName].emplace_back(ch.sampleId, pairs.rejected[x.rejected].sample.sampleId);
        EXPECT_EQ(ch.status, "PASS");
        EXPECT_EQ(ch.taskId, pairs.rejected[x.rejected].sample.taskId);
    }
    // relu: one chosen; negatives compiled (a2), static (a6), compile (a1), in that order; the sham,
    // the harness patcher and the crash are left out.
    const std::vector<std::pair<std::int64_t, std::int64_t>> relu = {
        {p.reluPass, p.reluMismatch}, {p.reluPass, p.reluFallback}, {p.reluPass, p.reluCompile}};
    EXPECT_EQ(byTask["relu"], relu);
    // softmax: two chosen (faster first), one negative (the other has the chosen's code).
    const std::vector<std::pair<std::int64_t, std::int64_t>> soft = {{p.softPass1, p.softRuntime},
                                                                     {p.softPass2, p.softRuntime}};
    EXPECT_EQ(byTask["softmax"], soft);
    EXPECT_FALSE(byTask.count("rms_norm")); // no passing sample
    EXPECT_FALSE(byTask.count("lonely"));   // no failing one
    EXPECT_EQ(pairs.tasksWithoutNegative, 1);
    EXPECT_EQ(pairs.excludedNegatives.at("hostile"), 2);
    EXPECT_EQ(pairs.excludedNegatives.at("crash"), 1);
    EXPECT_EQ(pairs.excludedNegatives.at("same code as a chosen sample"), 1);
    EXPECT_EQ(pairs.pairsByClass.at("compiled"), 3);

    // Kept as explicit negatives on request, after the others; a cap of 2 per task.
    PairOptions keep;
    keep.keepHostile = true;
    keep.maxPairsPerTask = 2;
    const Pairs k = selectPairs(c.db(), SelectionOptions{}, keep);
    int reluPairs = 0;
    for (const PreferencePair &x : k.pairs)
        if (k.selection.samples[x.chosen].taskName == "relu")
            ++reluPairs;
    EXPECT_EQ(reluPairs, 2);
    EXPECT_EQ(k.excludedNegatives.at("pair cap"), 3); // 5 negatives (2 hostile now kept), 2 used
    keep.maxPairsPerTask = 0;
    const Pairs all = selectPairs(c.db(), SelectionOptions{}, keep);
    EXPECT_EQ(all.pairsByClass.at("hostile"), 2);
    std::vector<std::string> classes;
    for (const PreferencePair &x : all.pairs)
        if (all.selection.samples[x.chosen].taskName == "relu")
            classes.push_back(all.rejected[x.rejected].negativeClass);
    EXPECT_EQ(classes, (std::vector<std::string>{"compiled", "static", "compile", "hostile", "hostile"}));
}

TEST(Preference, ExportWritesTrlRowsSplitByTaskAndCountsPairs)
{
    test::TempDir dir;
    PairCorpus p;
    const std::string db = makePairs(dir, &p);
    ExportOptions o;
    o.format = ExportFormat::Preference;
    o.validationFraction = 0;
    const auto r = exportCorpus(db, dir.file("pref"), o);
    const auto rows = readRows(dir.file("pref/train.jsonl"));
    ASSERT_EQ(rows.size(), 5u);
    for (const auto &row : rows) {
        ASSERT_TRUE(row["prompt"].is_array());
        EXPECT_EQ(row["prompt"][0]["role"], "system");
        EXPECT_EQ(row["prompt"][1]["role"], "user");
        EXPECT_NE(row["prompt"][1]["content"].get<std::string>().find("class Model"), std::string::npos);
        ASSERT_EQ(row["chosen"].size(), 1u);
        ASSERT_EQ(row["rejected"].size(), 1u);
        EXPECT_EQ(row["chosen"][0]["role"], "assistant");
        EXPECT_EQ(row["rejected"][0]["role"], "assistant");
        const std::string chosen = row["chosen"][0]["content"], rejected = row["rejected"][0]["content"];
        // Reasoning in the trained text by default, and the code of each sample.
        EXPECT_EQ(chosen.rfind("<think>\nReasoning for " + row["meta"]["sample"].get<std::string>(), 0), 0u) << chosen;
        EXPECT_NE(rejected.find("# " + row["meta"]["rejected_sample"].get<std::string>()), std::string::npos);
        EXPECT_NE(chosen, rejected);
        EXPECT_EQ(row["meta"]["status"], "PASS");
        EXPECT_NE(row["meta"]["rejected_status"], "PASS");
    }
    EXPECT_EQ(rows[0]["meta"]["rejected_class"], "compiled");
    EXPECT_EQ(rows[0]["meta"]["rejected_sample_id"], p.reluMismatch);
    const auto &m = r.manifest;
    EXPECT_EQ(m["pairs"]["pairs"], 5);
    EXPECT_EQ(m["counts"]["train"]["pairs"], 5);
    EXPECT_EQ(m["counts"]["train"]["by_rejected_class"]["compiled"], 3);
    EXPECT_EQ(m["pairs"]["excluded_negatives"]["hostile"], 2);
    EXPECT_EQ(m["parameters"]["max_pairs_per_task"], 4);
    EXPECT_FALSE(fs::exists(dir.file("pref/validation.jsonl"))); // no rows, no file
    EXPECT_FALSE(m["files"].contains("validation.jsonl"));

    // Plain text, split by task: a task's pairs all land in one split.
    o.format = ExportFormat::PreferenceText;
    o.validationFraction = 0.5;
    exportCorpus(db, dir.file("text"), o);
    std::map<std::string, std::set<std::string>> splits;
    for (const char *split : {"train", "validation"})
        for (const auto &row : readRows(dir.file(std::string("text/") + split + ".jsonl"))) {
            EXPECT_TRUE(row["prompt"].is_string() && row["chosen"].is_string() && row["rejected"].is_string());
            EXPECT_NE(row["prompt"].get<std::string>().find("expert GPU kernel engineer"), std::string::npos);
            splits[row["meta"]["task"]].insert(split);
        }
    ASSERT_EQ(splits.size(), 2u);
    for (const auto &[task, s] : splits)
        EXPECT_EQ(s.size(), 1u) << task;

    // From the command line, with the options.
    const auto cli = test::runCli({"export", db, dir.file("cli"), "--format", "preference", "--hostile-negatives",
                                   "--max-pairs-per-task", "2", "--split", "0"});
    ASSERT_EQ(cli.exitCode, 0) << cli.err;
    EXPECT_NE(cli.out.find("pairs: 4"), std::string::npos) << cli.out;
    EXPECT_NE(cli.out.find("no validation.jsonl (no rows)"), std::string::npos) << cli.out;
    EXPECT_EQ(readRows(dir.file("cli/train.jsonl")).size(), 4u);
    const auto bad = test::runCli({"export", db, dir.file("x"), "--hostile-negatives"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--format preference"), std::string::npos) << bad.err;
}

TEST(SpeedupBar, KeepsSamplesThatClearItAndCountsTheUntimed)
{
    test::TempDir dir;
    const std::string path = dir.file("speed.sieve");
    std::int64_t fast, slow, untimed, interp, compileSlow;
    {
        Corpus c = Corpus::create(path);
        const auto t = test::addTask(c, "gemm", 2, "gemm");
        fast = test::addSample(c, t, {"fast", 1, "PASS", 2.0});
        addTimedVerdict(c, fast, "PASS", 1.0, 2.0, 1.6);
        slow = test::addSample(c, t, {"slow", 2, "PASS", 0.9});
        addTimedVerdict(c, slow, "PASS", 1.0, 0.9, 0.8);
        untimed = test::addSample(c, t, {"untimed", 3, "PASS", 5.0}); // an imported speedup, no verdict
        interp = test::addSample(c, t, {"interpreted", 4, "PASS"});
        addTimedVerdict(c, interp, "PASS", 1.0, 9.0, 9.0, true); // CPU interpreter: no timing
        compileSlow = test::addSample(c, t, {"compile-slow", 5, "PASS", 1.5});
        addTimedVerdict(c, compileSlow, "PASS", 1.0, 1.5, 0.9);
        // A newer verdict supersedes an older one.
        const auto t2 = test::addTask(c, "relu", 1, "activation");
        const auto re = test::addSample(c, t2, {"reverified", 1, "PASS"});
        addTimedVerdict(c, re, "PASS", 1.0, 3.0, 3.0);
        addTimedVerdict(c, re, "PASS", 1.0, 1.1, 1.0);
    }
    Corpus c = Corpus::open(path, true);
    SelectionOptions o;
    o.onePerCluster = false;
    o.minSpeedup = 1.2;
    Selection s = selectSamples(c.db(), o);
    std::set<std::int64_t> kept;
    for (const auto &x : s.samples)
        kept.insert(x.sampleId);
    EXPECT_EQ(kept, (std::set<std::int64_t>{fast, compileSlow}));
    EXPECT_EQ(kept.count(untimed), 0u) << "an imported speedup without a timed verdict does not count";
    EXPECT_EQ(s.excluded.at("no timing"), 2);     // untimed, interpreted
    EXPECT_EQ(s.excluded.at("below speedup"), 2); // slow, reverified (its newest verdict: 1.1x)
    o.minSpeedupCompile = 1.0;
    s = selectSamples(c.db(), o);
    ASSERT_EQ(s.samples.size(), 1u);
    EXPECT_EQ(s.samples[0].sampleId, fast);
    o.minSpeedup.reset();
    o.minSpeedupCompile = 1.0;
    s = selectSamples(c.db(), o);
    EXPECT_EQ(s.samples.size(), 2u); // fast (1.6x) and reverified (1.0x) against torch.compile

    const auto sel = test::runCli({"select", path, "--min-speedup", "1.2", "--all-in-cluster"});
    ASSERT_EQ(sel.exitCode, 0) << sel.err;
    EXPECT_NE(sel.out.find("no timing=2"), std::string::npos) << sel.out;
    EXPECT_NE(sel.out.find("below speedup=2"), std::string::npos) << sel.out;
    const auto ex = test::runCli({"export", path, dir.file("out"), "--min-speedup", "1.2", "--split", "0", "--json"});
    ASSERT_EQ(ex.exitCode, 0) << ex.err;
    const auto m = nlohmann::json::parse(ex.out);
    EXPECT_EQ(m["selection"]["excluded"]["no timing"], 2);
    EXPECT_EQ(m["parameters"]["min_speedup"], 1.2);
    EXPECT_EQ(m["counts"]["train"]["rows"], 2);
    EXPECT_EQ(test::runCli({"select", path, "--min-speedup", "0"}).exitCode, 2);
}

TEST(TrainerReady, NoEmptySplitFileAndNothingToExportFails)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    {
        Corpus c = Corpus::create(db);
        test::buildDemo(c);
    }
    ExportOptions o;
    o.validationFraction = 0.5;
    exportCorpus(db, dir.file("out"), o);
    ASSERT_TRUE(fs::exists(dir.file("out/validation.jsonl")));
    o.validationFraction = 0;
    const auto r = exportCorpus(db, dir.file("out"), o); // the same folder: the older split goes
    EXPECT_FALSE(fs::exists(dir.file("out/validation.jsonl")));
    EXPECT_FALSE(fs::exists(dir.file("out/validation.jsonl.partial")));
    EXPECT_EQ(r.manifest["counts"]["validation"]["rows"], 0);
    EXPECT_EQ(r.manifest["files"].size(), 1u);
    const std::string before = test::readFile(dir.file("out/train.jsonl"));
    o.selection.quotas = {parseQuota("category=*:0")};
    try {
        exportCorpus(db, dir.file("out"), o);
        FAIL() << "an export without rows succeeded";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("nothing to export"), std::string::npos) << e.what();
    }
    EXPECT_EQ(test::readFile(dir.file("out/train.jsonl")), before); // left as it was
    EXPECT_TRUE(fs::exists(dir.file("out/manifest.json")));
}

TEST(TrainerReady, ReasoningIsTrainedTextByDefaultAndFieldNeedsMessages)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    {
        Corpus c = Corpus::create(db);
        test::buildDemo(c);
    }
    ExportOptions o;
    o.validationFraction = 0;
    o.format = ExportFormat::PromptCompletion;
    exportCorpus(db, dir.file("pc"), o);
    const auto pc = readRows(dir.file("pc/train.jsonl"));
    EXPECT_EQ(pc[0]["completion"].get<std::string>().rfind("<think>\nReasoning for", 0), 0u);
    EXPECT_FALSE(pc[0].contains("reasoning_content"));
    o.reasoning = ReasoningMode::Field;
    EXPECT_THROW(exportCorpus(db, dir.file("pc2"), o), std::runtime_error);
    const auto cli =
        test::runCli({"export", db, dir.file("pc3"), "--format", "prompt-completion", "--reasoning", "field"});
    EXPECT_EQ(cli.exitCode, 1);
    EXPECT_NE(cli.err.find("use --reasoning think"), std::string::npos) << cli.err;

    // TRL's conversational prompt-completion: prompt and completion are message lists.
    o.format = ExportFormat::ChatPromptCompletion;
    exportCorpus(db, dir.file("chat"), o);
    const auto chat = readRows(dir.file("chat/train.jsonl"));
    ASSERT_FALSE(chat.empty());
    ASSERT_EQ(chat[0]["prompt"].size(), 2u);
    EXPECT_EQ(chat[0]["prompt"][1]["role"], "user");
    ASSERT_EQ(chat[0]["completion"].size(), 1u);
    EXPECT_EQ(chat[0]["completion"][0]["role"], "assistant");
    EXPECT_EQ(chat[0]["completion"][0]["content"].get<std::string>().rfind("```python\n", 0), 0u);
    EXPECT_NE(chat[0]["completion"][0]["reasoning_content"].get<std::string>().find("Reasoning for"),
              std::string::npos);
}

TEST(TrainerReady, ContentIdentityIsStableAndTheManifestRebuildsTheSameFiles)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    PairCorpus p;
    {
        Corpus c = Corpus::create(db);
        p = buildPairs(c);
        const auto add = test::addTask(c, "add", 1, "elementwise", "cuda");
        test::addSample(c, add, {"add-a1", 1, "PASS", 1.0});
        test::addSample(c, add, {"add-a2", 2, "FAIL_MISMATCH"});
    }
    auto r = test::runCli({"export", db, dir.file("a"), "--seed", "9", "--split", "0.3", "--tags", "backend,difficulty",
                           "--tokenizer", test::testData("export/gpt2-style.json"), "--max-tokens", "100000"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto ma = nlohmann::json::parse(test::readFile(dir.file("a/manifest.json")));
    EXPECT_EQ(ma["format"], "sieve-export/2");
    EXPECT_EQ(ma["templates"]["user"]["triton"]["sha256"].get<std::string>().size(), 64u);
    EXPECT_TRUE(ma["templates"]["user"].contains("cuda"));
    // The first export was recorded in the corpus; the second one still has the same identity.
    r = test::runCli({"export", db, dir.file("b"), "--manifest", dir.file("a/manifest.json"), "--tokenizer",
                      test::testData("export/gpt2-style.json")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("rebuilt: the files are those of"), std::string::npos) << r.out;
    for (const char *f : {"train.jsonl", "validation.jsonl", "manifest.json"})
        EXPECT_EQ(test::readFile(dir.file(std::string("a/") + f)), test::readFile(dir.file(std::string("b/") + f)))
            << f;

    // The same for preference pairs.
    r = test::runCli({"export", db, dir.file("pa"), "--format", "preference", "--max-pairs-per-task", "3"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    r = test::runCli({"export", db, dir.file("pb"), "--manifest", dir.file("pa/manifest.json")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char *f : {"train.jsonl", "manifest.json"})
        EXPECT_EQ(test::readFile(dir.file(std::string("pa/") + f)), test::readFile(dir.file(std::string("pb/") + f)))
            << f;

    // Options beside --manifest, a missing tokenizer, a changed corpus: clear failures.
    r = test::runCli({"export", db, dir.file("c"), "--manifest", dir.file("a/manifest.json"), "--seed", "1"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--seed cannot be given"), std::string::npos) << r.err;
    r = test::runCli({"export", db, dir.file("c"), "--manifest", dir.file("a/manifest.json")});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("give it with --tokenizer"), std::string::npos) << r.err;
    {
        Corpus c = Corpus::open(db);
        c.db()
            .prepare("UPDATE sample_payloads SET reasoning=?1 WHERE sample_id=?2")
            .bindBlob(1, payload::pack("Changed reasoning."))
            .bind(2, p.reluPass)
            .run();
    }
    r = test::runCli({"export", db, dir.file("d"), "--manifest", dir.file("pa/manifest.json")});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("the corpus changed"), std::string::npos) << r.err;
    const auto md = nlohmann::json::parse(test::readFile(dir.file("d/manifest.json")));
    const auto mpa = nlohmann::json::parse(test::readFile(dir.file("pa/manifest.json")));
    EXPECT_NE(md["corpus"]["content_sha256"], mpa["corpus"]["content_sha256"]);
}
