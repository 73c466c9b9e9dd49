// Shards and merging (gpu/shard/shard.h, gpu/shard/shardmerge.h) without the worker: shards are cut from a
// real corpus, their runs are written through the verify run's own writer, then merged back.
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "gpu/shard/shard.h"
#include "gpu/shard/shardmerge.h"
#include "gpu/shard/slurmscript.h"
#include "gpu/verify/verdictwriter.h"
#include "gpu/verify/verifyrun.h"
#include "tests/unit/gpu/test_verify_support.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace sieve;
using namespace sieve::test;
namespace fs = std::filesystem;

namespace {

const char *kReference =
    "import torch\\nimport torch.nn as nn\\n\\nclass Model(nn.Module):\\n    def forward(self, x):\\n"
    "        return x\\n\\ndef get_inputs():\\n    return [torch.randn(4)]\\n\\n"
    "def get_init_inputs():\\n    return []\\n";

// A corpus with `tasks` tasks and `perTask` samples each (names t<i>/s<j>, code that differs per sample).
std::string makeCorpus(const TempDir &tmp, const std::string &name, int tasks, int perTask,
                       const std::string &salt = "")
{
    const std::string db = tmp.file(name);
    std::string t, s;
    for (int i = 0; i < tasks; ++i) {
        t += "{\"task_id\": \"" + salt + "t" + std::to_string(i) + "\", \"reference_code\": \"" + kReference + "\"}\n";
        for (int j = 0; j < perTask; ++j)
            s += "{\"sample_id\": \"" + salt + "t" + std::to_string(i) + "/s" + std::to_string(j) +
                 "\", \"task_id\": \"" + salt + "t" + std::to_string(i) +
                 "\", \"backend\": \"triton\", \"code\": \"class ModelNew:  # " + salt + std::to_string(i) + "." +
                 std::to_string(j) + "\\n    pass\\n\"}\n";
    }
    writeFile(tmp.file(name + ".tasks.jsonl"), t);
    writeFile(tmp.file(name + ".samples.jsonl"), s);
    EXPECT_EQ(runCli({"init", db}).exitCode, 0);
    const auto r =
        runCli({"import", db, "--format", "sieve", tmp.file(name + ".tasks.jsonl"), tmp.file(name + ".samples.jsonl")});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return db;
}

std::set<std::string> keysOf(const std::string &db)
{
    std::set<std::string> keys;
    db::Database d(db, db::Database::Mode::ReadOnly);
    db::Statement st = d.prepare("SELECT sample_key FROM samples");
    while (st.step())
        keys.insert(st.text(0));
    return keys;
}

gpu::ShardPlan cpuPlan()
{
    gpu::ShardPlan p;
    p.mode = "cpu";
    return p;
}

std::vector<gpu::ShardFile> cutAll(const std::string &db, int n, const std::string &dir)
{
    std::vector<gpu::ShardFile> out;
    for (int k = 0; k < n; ++k) {
        bool created = false;
        out.push_back(gpu::prepareShardFile(db, gpu::ShardSpec{k, n}, cpuPlan(), dir, created));
        EXPECT_TRUE(created);
    }
    return out;
}

// Stands in for the engine: a run over every sample of the shard file, written by VerdictWriter, with
// a status that depends on the sample's name so that a merge can be checked sample by sample.
void verifyFake(const std::string &shardPath, const std::string &state = "finished", int limit = -1)
{
    gpu::VerifyOptions o;
    o.dbPath = shardPath;
    o.cpu = true;
    o.selection.all = true;
    std::int64_t run = 0;
    std::vector<std::pair<std::int64_t, std::string>> samples;
    {
        Corpus c = Corpus::open(shardPath);
        run = gpu::createRun(c, o);
        db::Statement st = c.db().prepare("SELECT id, name FROM samples ORDER BY id");
        while (st.step())
            samples.emplace_back(st.int64(0), st.text(1));
    }
    {
        gpu::VerdictWriter w(shardPath, run);
        w.setWorkerEnv(0, {{"device", "cpu"}, {"torch", "test"}}, "1");
        int n = 0;
        for (const auto &[id, name] : samples) {
            if (limit >= 0 && n++ >= limit)
                break;
            gpu::VerdictRecord v;
            v.sampleId = id;
            v.status = name.back() % 2 ? "PASS" : "FAIL_MISMATCH";
            v.stage = "correct";
            v.reasons = {"R1", "R2"};
            v.message = "verdict for " + name;
            v.log = "log of " + name;
            v.device = "cpu";
            v.interpreted = true;
            v.details = {{"note", name}};
            v.checks.push_back({0, "{\"M\":4}", 0, true, 1e-6, 2e-6, 0, 0});
            v.timings.push_back({0, "candidate", 1.5, 1.6, 0.1, 10});
            w.add(v);
        }
        w.finish(state);
    }
    gpu::sealShardFile(shardPath);
}

std::int64_t scalar(const std::string &db, const std::string &sql)
{
    db::Database d(db, db::Database::Mode::ReadOnly);
    return d.queryInt(sql).value_or(-1);
}

bool hasProblem(const gpu::MergeReport &r, const std::string &fileEnd, const std::string &reasonPart)
{
    for (const auto &p : r.problems)
        if (p.file.size() >= fileEnd.size() &&
            p.file.compare(p.file.size() - fileEnd.size(), fileEnd.size(), fileEnd) == 0 &&
            p.reason.find(reasonPart) != std::string::npos)
            return true;
    return false;
}

std::string problemsText(const gpu::MergeReport &r)
{
    std::string s;
    for (const auto &p : r.problems)
        s += p.file + ": " + p.reason + "\n";
    return s;
}

} // namespace

TEST(Shard, SpecParsesKOfNAndRejectsTheRest)
{
    const auto s = gpu::ShardSpec::parse("3/8");
    EXPECT_EQ(s.index, 3);
    EXPECT_EQ(s.count, 8);
    EXPECT_EQ(s.fileName(), "shard-3-of-8.sieve");
    for (const char *bad : {"8/8", "1", "-1/4", "a/4", "1/0", "1/4x", "/4", ""})
        EXPECT_THROW(gpu::ShardSpec::parse(bad), std::invalid_argument) << bad;
}

TEST(Shard, ShardsAreDisjointCoverEverySampleAndDoNotDependOnTheRest)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 6, 20);
    const auto all = keysOf(db);
    ASSERT_EQ(all.size(), 120u);
    for (int n : {1, 3, 7}) {
        const auto shards = cutAll(db, n, tmp.file("n" + std::to_string(n)));
        std::set<std::string> seen;
        std::size_t total = 0;
        for (const auto &s : shards) {
            const auto keys = keysOf(s.path);
            EXPECT_EQ(static_cast<std::int64_t>(keys.size()), s.samples);
            EXPECT_EQ(s.corpusSamples, 120);
            for (const auto &k : keys) {
                EXPECT_EQ(gpu::shardOf(k, n), s.spec.index);
                EXPECT_TRUE(seen.insert(k).second) << "sample in two shards: " << k;
            }
            total += keys.size();
            if (n == 3) {
                EXPECT_GT(keys.size(), 20u) << "a hash split of 120 samples into 3 is roughly even";
            }
        }
        EXPECT_EQ(total, all.size());
        EXPECT_EQ(seen, all);
    }
    // Adding samples to the corpus moves none of the existing ones to another shard.
    const std::string bigger = makeCorpus(tmp, "d.sieve", 8, 20);
    const auto before = cutAll(db, 3, tmp.file("before"));
    const auto after = cutAll(bigger, 3, tmp.file("after"));
    for (int k = 0; k < 3; ++k) {
        const auto a = keysOf(before[k].path), b = keysOf(after[k].path);
        for (const auto &key : a)
            EXPECT_TRUE(b.count(key)) << "shard " << k << " lost " << key;
    }
}

TEST(Shard, ShardFilesCarryTheCorpusPayloadDictionaries)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 2, 5);
    auto text = [](int i) {
        std::string t = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k" + std::to_string(i) +
                        "(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n";
        for (int line = 0; line < 12; ++line)
            t += "    v" + std::to_string((i * 31 + line * 7) % 97) + " = tl.load(x_ptr + " +
                 std::to_string(line * i % 13) + ", mask=m)  # " + std::to_string(i * line) + "\n";
        return t + "class ModelNew:\n    pass\n";
    };
    std::uint32_t id = 0;
    {
        Corpus c = Corpus::open(db);
        std::vector<std::string> texts;
        for (int i = 0; i < 600; ++i)
            texts.push_back(text(i));
        const std::string dict = payload::trainDictionary(std::vector<std::string_view>(texts.begin(), texts.end()));
        ASSERT_FALSE(dict.empty());
        id = payload::dictionaryId(dict);
        db::Transaction tx(c.db());
        c.addPayloadDictionary(dict, 600, std::nullopt);
        db::Statement up = c.db().prepare("UPDATE sample_payloads SET code = ?1 WHERE sample_id = ?2");
        for (std::int64_t sid = 1; sid <= 10; ++sid) {
            up.reset();
            up.bindBlob(1, payload::pack(text(1000 + static_cast<int>(sid)), id)).bind(2, sid).run();
        }
        tx.commit();
    }
    int seen = 0;
    for (const auto &s : cutAll(db, 2, tmp.file("out"))) {
        Corpus c = Corpus::open(s.path, true);
        EXPECT_EQ(c.payloadDictionary(), id);
        db::Statement st = c.db().prepare("SELECT code FROM sample_payloads");
        while (st.step()) {
            EXPECT_EQ(payload::dictionaryOf(st.blob(0)), id);
            EXPECT_NE(payload::unpack(st.blob(0)).find("class ModelNew"), std::string::npos);
            ++seen;
        }
    }
    EXPECT_EQ(seen, 10);
}

TEST(Shard, ShardFileIsACorpusWithTheSamplesCodeAndTasks)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 2, 5);
    const auto shards = cutAll(db, 2, tmp.file("out"));
    for (const auto &s : shards) {
        Corpus c = Corpus::open(s.path, true);
        EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM sample_payloads WHERE code IS NOT NULL").value_or(-1),
                  s.samples);
        EXPECT_EQ(c.db()
                      .queryInt("SELECT count(*) FROM samples s LEFT JOIN task_payloads p ON p.task_id = s.task_id "
                                "WHERE p.reference_code IS NULL")
                      .value_or(-1),
                  0);
        EXPECT_EQ(s.plan.corpusId, gpu::corpusId(Corpus::open(db, true).db()));
        EXPECT_FALSE(s.uid.empty());
        EXPECT_FALSE(fs::exists(s.path + "-wal"));
    }
    // Cutting again reuses the file (a resumed node), another selection is refused.
    bool created = true;
    const auto again = gpu::prepareShardFile(db, gpu::ShardSpec{0, 2}, cpuPlan(), tmp.file("out"), created);
    EXPECT_FALSE(created);
    EXPECT_EQ(again.uid, shards[0].uid);
    gpu::ShardPlan other = cpuPlan();
    other.selection.all = true;
    EXPECT_THROW(gpu::prepareShardFile(db, gpu::ShardSpec{0, 2}, other, tmp.file("out"), created), gpu::ShardError);
}

TEST(ShardMerge, MergesEveryVerdictOnceAndTwiceAddsNothing)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 3, 10);
    const auto shards = cutAll(db, 3, tmp.file("out"));
    for (const auto &s : shards)
        verifyFake(s.path);

    const auto r = gpu::mergeShards(db, {tmp.file("out")});
    ASSERT_TRUE(r.problems.empty()) << problemsText(r);
    EXPECT_TRUE(r.committed);
    ASSERT_EQ(r.runs.size(), 3u);
    std::uint64_t merged = 0;
    for (const auto &m : r.runs) {
        EXPECT_FALSE(m.alreadyMerged);
        merged += m.verdicts;
    }
    EXPECT_EQ(merged, 30u);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verify_runs"), 3);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verdicts"), 30);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verdict_checks"), 30);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verdict_timings"), 30);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM samples WHERE status='PENDING'"), 0);
    // Each verdict landed on its own sample, with its log and details.
    {
        db::Database d(db, db::Database::Mode::ReadOnly);
        db::Statement st =
            d.prepare("SELECT s.name, s.status, v.message FROM samples s JOIN verdicts v ON v.sample_id = s.id");
        while (st.step()) {
            EXPECT_EQ(st.text(2), "verdict for " + st.text(0));
            EXPECT_EQ(st.text(1), st.text(0).back() % 2 ? "PASS" : "FAIL_MISMATCH");
        }
    }
    // The run keeps the node's environment and says where it came from.
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verify_runs WHERE json_extract(env_json,'$.torch')='test' AND "
                         "json_extract(params_json,'$.merged_from.run_uid') IS NOT NULL AND state='finished'"),
              3);

    const auto again = gpu::mergeShards(db, {tmp.file("out")});
    ASSERT_TRUE(again.problems.empty()) << problemsText(again);
    ASSERT_EQ(again.runs.size(), 3u);
    for (const auto &m : again.runs)
        EXPECT_TRUE(m.alreadyMerged);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verify_runs"), 3);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verdicts"), 30);
}

TEST(ShardMerge, MissingShardIsReportedAndNothingMerged)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 3, 10);
    const auto shards = cutAll(db, 3, tmp.file("out"));
    for (const auto &s : shards)
        verifyFake(s.path);
    fs::remove(shards[1].path);
    const auto r = gpu::mergeShards(db, {tmp.file("out")});
    EXPECT_TRUE(hasProblem(r, "shard-1-of-3.sieve", "missing")) << problemsText(r);
    EXPECT_FALSE(r.committed);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verdicts"), 0);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verify_runs"), 0);
    // --partial takes the two that are whole; the third can follow later.
    const auto p = gpu::mergeShards(db, {tmp.file("out")}, {.partial = true});
    EXPECT_TRUE(hasProblem(p, "shard-1-of-3.sieve", "missing"));
    EXPECT_TRUE(p.committed);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verify_runs"), 2);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verdicts"), 30 - shards[1].samples);
}

TEST(ShardMerge, TruncatedCorruptAndForeignShardsAreReportedWithTheirReason)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 3, 10);
    const auto shards = cutAll(db, 4, tmp.file("out"));
    for (const auto &s : shards)
        verifyFake(s.path);
    // 0: cut short; 1: garbage where the SQLite header was; 2: a page in the middle overwritten.
    fs::resize_file(shards[0].path, fs::file_size(shards[0].path) / 2 + 100);
    {
        std::fstream f(shards[1].path, std::ios::in | std::ios::out | std::ios::binary);
        f.write("this is not a database", 22);
    }
    {
        const auto size = fs::file_size(shards[2].path);
        std::fstream f(shards[2].path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(size / 2));
        const std::string junk(8192, '\x5a');
        f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
    }
    // A shard of the same name and job shape, cut from another corpus.
    const std::string other = makeCorpus(tmp, "other.sieve", 3, 10, "x");
    bool created = false;
    const auto foreign = gpu::prepareShardFile(other, gpu::ShardSpec{3, 4}, cpuPlan(), tmp.file("foreign"), created);
    verifyFake(foreign.path);
    fs::remove(shards[3].path);
    fs::copy_file(foreign.path, shards[3].path);

    const auto r = gpu::mergeShards(db, {tmp.file("out"), tmp.file("nope")});
    EXPECT_TRUE(hasProblem(r, "shard-0-of-4.sieve", "truncated")) << problemsText(r);
    EXPECT_TRUE(hasProblem(r, "shard-1-of-4.sieve", "not an SQLite file")) << problemsText(r);
    EXPECT_TRUE(hasProblem(r, "shard-2-of-4.sieve", "corrupt") || hasProblem(r, "shard-2-of-4.sieve", "malformed"))
        << problemsText(r);
    EXPECT_TRUE(hasProblem(r, "shard-3-of-4.sieve", "another corpus")) << problemsText(r);
    EXPECT_TRUE(hasProblem(r, "nope", "does not exist")) << problemsText(r);
    EXPECT_FALSE(r.committed);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verdicts"), 0);
}

TEST(ShardMerge, SamplesUnknownToTheCorpusAreRefusedEvenWithoutACorpusId)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 2, 5);
    const std::string other = makeCorpus(tmp, "other.sieve", 2, 5, "y");
    const auto shards = cutAll(other, 1, tmp.file("out"));
    verifyFake(shards[0].path);
    {
        db::Database d(shards[0].path, db::Database::Mode::ReadWrite);
        d.exec("UPDATE meta SET value='' WHERE key='shard_corpus_id'");
        gpu::ShardPlan plan = shards[0].plan;
        plan.corpusId = "";
        d.prepare("UPDATE meta SET value=?1 WHERE key='shard_plan'").bind(1, plan.key()).run();
    }
    const auto r = gpu::mergeShards(db, {shards[0].path});
    EXPECT_TRUE(hasProblem(r, "shard-0-of-1.sieve", "not in this corpus")) << problemsText(r);
    EXPECT_FALSE(r.committed);
}

TEST(ShardMerge, UnfinishedShardIsNotMerged)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 2, 5);
    const auto shards = cutAll(db, 1, tmp.file("out"));
    verifyFake(shards[0].path, "interrupted", 3);
    const auto r = gpu::mergeShards(db, {tmp.file("out")});
    EXPECT_TRUE(hasProblem(r, "shard-0-of-1.sieve", "not finished: run 1 is 'interrupted' with 3 of 10"))
        << problemsText(r);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verdicts"), 0);
}

TEST(ShardMerge, CliNamesTheFileAndExitsNonZero)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 2, 5);
    const auto shards = cutAll(db, 2, tmp.file("out"));
    for (const auto &s : shards)
        verifyFake(s.path);
    fs::resize_file(shards[1].path, 1000);
    auto r = runCli({"merge", db, tmp.file("out")});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("shard-1-of-2.sieve: truncated"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing merged"), std::string::npos) << r.err;
    r = runCli({"merge", db, tmp.file("out"), "--partial", "--json"});
    EXPECT_EQ(r.exitCode, 1);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["merged"].size(), 1u);
    EXPECT_EQ(j["problems"].size(), 1u);
    EXPECT_TRUE(j["committed"].get<bool>());
    EXPECT_EQ(runCli({"merge", db}).exitCode, 2);
}

TEST(ShardVerify, UsageErrors)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 1, 2);
    EXPECT_EQ(runCli({"verify", db, "--cpu", "--shard", "0/2"}).exitCode, 2);
    EXPECT_EQ(runCli({"verify", db, "--cpu", "--shard", "2/2", "--out", tmp.file("o")}).exitCode, 2);
    EXPECT_EQ(runCli({"verify", db, "--cpu", "--shard", "0/2", "--out", tmp.file("o"), "--limit", "3"}).exitCode, 2);
    EXPECT_EQ(runCli({"verify", db, "--cpu", "--out", tmp.file("o")}).exitCode, 2);
}

TEST(SlurmScript, ArrayGresTimeShardArgumentsAndTheMergeCommand)
{
    TempDir tmp;
    const std::string db = makeCorpus(tmp, "c.sieve", 2, 5);
    auto r = runCli({"slurm-script", db, "--shards", "4", "--out", tmp.file("job"), "--gpus-per-task", "2", "--time",
                     "01:30:00", "--partition", "h200", "--task", "t1", "--sieve-cli", "/opt/sieve/bin/sieve-cli"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string s = readFile(tmp.file("job/sieve-verify.sbatch"));
    EXPECT_EQ(s.rfind("#!/bin/bash\n", 0), 0u);
    for (const std::string &line : std::vector<std::string>{
             "#SBATCH --array=0-3\n", "#SBATCH --gres=gpu:2\n", "#SBATCH --time=01:30:00\n",
             "#SBATCH --partition=h200\n", "#SBATCH --output=" + tmp.file("job") + "/logs/shard-%a-of-4.out\n"})
        EXPECT_NE(s.find(line), std::string::npos) << line << "\n" << s;
    EXPECT_NE(s.find("exec /opt/sieve/bin/sieve-cli verify " + db + " --shard \"${SLURM_ARRAY_TASK_ID}/4\" --out " +
                     tmp.file("job") + " --gpus 0,1 --task t1 --quiet\n"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find("#          /opt/sieve/bin/sieve-cli merge " + db + " " + tmp.file("job") + "\n"),
              std::string::npos)
        << s;
    EXPECT_TRUE(fs::exists(tmp.file("job/logs")));

    r = runCli({"slurm-script", db, "--shards", "2", "--out", tmp.file("cpu"), "--cpu"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string c = readFile(tmp.file("cpu/sieve-verify.sbatch"));
    EXPECT_EQ(c.find("--gres"), std::string::npos);
    EXPECT_NE(c.find("#SBATCH --array=0-1\n"), std::string::npos);
    EXPECT_NE(c.find(" --cpu --quiet\n"), std::string::npos) << c;

    EXPECT_EQ(runCli({"slurm-script", db, "--shards", "2", "--out", tmp.file("x"), "--time", "90 minutes"}).exitCode,
              2);
    EXPECT_EQ(runCli({"slurm-script", db, "--out", tmp.file("x")}).exitCode, 2);
    EXPECT_EQ(
        runCli({"slurm-script", db, "--shards", "2", "--out", tmp.file("x"), "--cpu", "--gpus-per-task", "1"}).exitCode,
        2);
}

TEST(SlurmScript, TimeFormats)
{
    for (const char *ok : {"30", "30:00", "04:00:00", "1-00", "1-12:00", "2-00:00:00"})
        EXPECT_TRUE(gpu::validSlurmTime(ok)) << ok;
    for (const char *bad : {"", "1h", "4:00:00:00", "-1", "1-", "a:00"})
        EXPECT_FALSE(gpu::validSlurmTime(bad)) << bad;
    EXPECT_EQ(gpu::shellQuote("/a b/it's"), "'/a b/it'\\''s'");
    EXPECT_EQ(gpu::shellQuote("/plain/path.sieve"), "/plain/path.sieve");
}

// The real engine on the CPU: two shards verified by `sieve-cli verify --shard`, merged, give the
// verdicts (and task hygiene flags) that a direct verify of the same corpus gives.
TEST(ShardVerify, MergedShardsEqualADirectRun)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.sieve");
    Corpus::create(db);
    std::vector<VerifierFixture> picked;
    for (const auto &f : verifierFixtures())
        if (f.name == "softmax" || f.name == "static_try_except" || f.name == "hygiene_constant" ||
            f.name == "static_no_kernel")
            picked.push_back(f);
    ASSERT_EQ(picked.size(), 4u);
    addFixturesToCorpus(db, picked);
    const std::string direct = tmp.file("direct.sieve");
    fs::copy_file(db, direct);
    const std::string cache = tmp.file("cache");

    std::map<int, std::int64_t> perShard;
    for (int k = 0; k < 2; ++k) {
        const auto r = runCli({"verify", db, "--cpu", "--quiet", "--cache-dir", cache, "--shard",
                               std::to_string(k) + "/2", "--out", tmp.file("out")});
        ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
        perShard[k] =
            scalar(tmp.file("out/shard-" + std::to_string(k) + "-of-2.sieve"), "SELECT count(*) FROM samples");
    }
    EXPECT_EQ(perShard[0] + perShard[1], 4);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verify_runs"), 0) << "a node must not write the corpus";
    // Run again, a finished shard does nothing.
    const int full = perShard[0] > 0 ? 0 : 1;
    const auto again = runCli({"verify", db, "--cpu", "--quiet", "--cache-dir", cache, "--shard",
                               std::to_string(full) + "/2", "--out", tmp.file("out")});
    EXPECT_EQ(again.exitCode, 0);
    EXPECT_NE(again.out.find("already verified"), std::string::npos) << again.out;

    const auto m = runCli({"merge", db, tmp.file("out")});
    ASSERT_EQ(m.exitCode, 0) << m.err << m.out;
    const auto d = runCli({"verify", direct, "--cpu", "--quiet", "--cache-dir", cache});
    ASSERT_EQ(d.exitCode, 0) << d.err;
    auto statuses = [](const std::string &path) {
        std::map<std::string, std::string> out;
        db::Database c(path, db::Database::Mode::ReadOnly);
        db::Statement st = c.prepare("SELECT s.name, v.status || ' ' || coalesce(v.reasons, '') FROM samples s "
                                     "JOIN verdicts v ON v.sample_id = s.id");
        while (st.step())
            out[st.text(0)] = st.text(1);
        return out;
    };
    const auto merged = statuses(db);
    EXPECT_EQ(merged.size(), 4u);
    EXPECT_EQ(merged, statuses(direct));
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM tasks WHERE flags LIKE '%REF_CONSTANT%'"), 1);
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM verify_runs WHERE json_extract(env_json, '$.torch') IS NOT NULL"),
              (perShard[0] > 0) + (perShard[1] > 0));
}
