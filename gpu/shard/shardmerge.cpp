#include "gpu/shard/shardmerge.h"

#include "core/db/corpus.h"
#include "core/db/unixtime.h"
#include "core/store/shardstore.h"
#include "core/store/verdictstore.h"
#include "core/store/verifyrunstore.h"
#include "gpu/shard/shard.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>

namespace fs = std::filesystem;

namespace sieve::gpu {

namespace {

struct Candidate
{
    ShardFile meta;
    std::vector<std::int64_t> runs; // finished runs in the shard file
};

// The SQLite header says how long the file must be; a copy cut short fails here with a reason a user
// understands, before SQLite reports "database disk image is malformed" somewhere in the middle.
std::optional<std::string> headerProblem(const std::string &path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        return "cannot read: " + ec.message();
    if (size == 0)
        return std::string("empty file (0 bytes)");
    std::ifstream in(path, std::ios::binary);
    unsigned char h[100] = {};
    in.read(reinterpret_cast<char *>(h), sizeof h);
    if (in.gcount() < 100 || std::string(reinterpret_cast<char *>(h), 16) != std::string("SQLite format 3\0", 16))
        return "not an SQLite file (" + std::to_string(size) + " bytes without the SQLite header)";
    std::uint64_t pageSize = (std::uint64_t(h[16]) << 8) | h[17];
    if (pageSize == 1)
        pageSize = 65536;
    const std::uint64_t pages =
        (std::uint64_t(h[28]) << 24) | (std::uint64_t(h[29]) << 16) | (std::uint64_t(h[30]) << 8) | h[31];
    if (pageSize < 512 || size % pageSize != 0)
        return "truncated: " + std::to_string(size) + " bytes is not a whole number of " + std::to_string(pageSize) +
               "-byte pages";
    if (pages > 0 && size < pages * pageSize)
        return "truncated: the header says " + std::to_string(pages) + " pages (" + std::to_string(pages * pageSize) +
               " bytes), the file has " + std::to_string(size) + " bytes";
    if (fs::exists(path + "-wal"))
        return "has a -wal file beside it: its node is still writing, or died before sealing it; run its verify "
               "command again (it resumes) instead of merging a half-written file";
    return std::nullopt;
}

// Everything that must hold before a shard file's runs may enter the corpus. Returns the reason when not.
std::optional<std::string> checkShard(Corpus &corpus, const std::string &path, Candidate &c)
{
    if (auto p = headerProblem(path))
        return p;
    try {
        db::Database db(path, db::Database::Mode::ReadOnly);
        const auto check = store::quickCheck(db);
        if (!check || *check != "ok")
            return "corrupt: SQLite's integrity check says '" + check.value_or("?") + "'";
        const int version = schema::version(db);
        if (version != Corpus::kSchemaVersion)
            return "schema version " + std::to_string(version) + ", this Sieve writes " +
                   std::to_string(Corpus::kSchemaVersion) + " (made by another Sieve version)";
        c.meta = readShardMeta(db, path);
        const std::string cid = corpusId(corpus.db());
        if (!c.meta.plan.corpusId.empty() && !cid.empty() && c.meta.plan.corpusId != cid)
            return "made from another corpus (its corpus id is " + c.meta.plan.corpusId + ", this corpus's is " + cid +
                   "; it was cut from " + c.meta.corpusPath + ")";
        const auto held = store::sampleCount(db).value_or(-1);
        if (held != c.meta.samples)
            return "truncated: meta says " + std::to_string(c.meta.samples) + " samples, the file holds " +
                   std::to_string(held);

        // Each sample must be this corpus's sample: same content key, same code, same task.
        store::SampleByKey lookup(corpus.db());
        std::uint64_t missing = 0, differ = 0;
        std::string firstMissing, firstDiffer;
        store::forEachSampleIdentity(db, [&](const store::SampleIdentity &s) {
            const auto cs = lookup.find(s.sampleKey);
            if (!cs) {
                if (!missing++)
                    firstMissing = "'" + s.name + "' (key " + s.sampleKey + ")";
                return;
            }
            if (cs->codeHash != s.codeHash || cs->taskKey != s.taskKey) {
                if (!differ++)
                    firstDiffer = "'" + s.name + "'";
            }
        });
        if (missing)
            return std::to_string(missing) + " of its " + std::to_string(c.meta.samples) +
                   " samples are not in this corpus, e.g. " + firstMissing + ": made from another corpus?";
        if (differ)
            return std::to_string(differ) + " samples have another code or task than in this corpus, e.g. " +
                   firstDiffer;

        if (c.meta.samples == 0)
            return std::nullopt; // an empty shard is complete without a run
        std::string unfinished;
        for (const store::RunVerdicts &run : store::runsWithVerdictCounts(db)) {
            const std::int64_t id = run.id;
            const std::string &state = run.state;
            const std::int64_t n = run.verdicts;
            if (state == "finished") {
                if (n != c.meta.samples)
                    return "truncated: run " + std::to_string(id) + " is marked finished but holds " +
                           std::to_string(n) + " verdicts for " + std::to_string(c.meta.samples) + " samples";
                c.runs.push_back(id);
            } else if (state == "running" || state == "interrupted") {
                unfinished = "run " + std::to_string(id) + " is '" + state + "' with " + std::to_string(n) + " of " +
                             std::to_string(c.meta.samples) + " verdicts";
            }
        }
        if (c.runs.empty())
            return "not finished: " + (unfinished.empty() ? std::string("no verification run in it") : unfinished) +
                   "; run its 'sieve-cli verify ... --shard " + c.meta.spec.text() + "' again to resume";
    } catch (const ShardError &e) {
        std::string what = e.what();
        if (what.rfind(path + ": ", 0) == 0)
            what = what.substr(path.size() + 2);
        return what;
    } catch (const std::exception &e) {
        return std::string("unreadable: ") + e.what();
    }
    return std::nullopt;
}

std::vector<std::string> collectFiles(const std::vector<std::string> &inputs, std::vector<MergeProblem> &problems)
{
    static const std::regex shardName(R"(shard-[0-9]+-of-[0-9]+\.sieve)");
    std::vector<std::string> files;
    std::set<std::string> seen;
    auto add = [&](const fs::path &p) {
        std::error_code ec;
        const auto canon = fs::weakly_canonical(p, ec).string();
        if (seen.insert(ec ? p.string() : canon).second)
            files.push_back(p.string());
    };
    for (const auto &in : inputs) {
        std::error_code ec;
        if (!fs::exists(in, ec)) {
            problems.push_back({in, "does not exist"});
        } else if (fs::is_directory(in, ec)) {
            std::vector<fs::path> found;
            for (const auto &e : fs::directory_iterator(in, ec))
                if (std::regex_match(e.path().filename().string(), shardName))
                    found.push_back(e.path());
            std::sort(found.begin(), found.end());
            if (found.empty())
                problems.push_back({in, "holds no shard results (no shard-K-of-N.sieve files)"});
            for (const auto &f : found)
                add(f);
        } else {
            add(in);
        }
    }
    return files;
}

// Copies one finished shard run into the corpus as a run of its own, unless it is already there.
MergedRun mergeRun(Corpus &corpus, const Candidate &c, std::int64_t shardRunId)
{
    MergedRun m;
    m.file = c.meta.path;
    m.shard = c.meta.spec.text();
    m.uid = c.meta.uid + "/" + std::to_string(shardRunId);
    db::Database &db = corpus.db();
    if (const auto merged = store::mergedRunId(db, m.uid)) {
        m.alreadyMerged = true;
        m.corpusRunId = *merged;
        return m;
    }
    db::Database shard(c.meta.path, db::Database::Mode::ReadOnly);
    auto run = store::readVerifyRun(shard, shardRunId);
    if (!run)
        throw ShardError(c.meta.path + ": run " + std::to_string(shardRunId) + " vanished while merging");
    nlohmann::json params =
        !run->paramsJson ? nlohmann::json::object() : nlohmann::json::parse(*run->paramsJson, nullptr, false);
    if (!params.is_object())
        params = nlohmann::json::object();
    params["merged_from"] = {{"run_uid", m.uid},     {"file", fs::absolute(c.meta.path).lexically_normal().string()},
                             {"shard", m.shard},     {"plan", c.meta.planKey},
                             {"run_id", shardRunId}, {"merged_at", unixNow()}};
    run->paramsJson = params.dump();
    m.corpusRunId = store::insertVerifyRunCopy(db, *run);

    store::VerdictInserter inserter(db);
    store::SampleByKey lookup(corpus.db());
    // samples.status mirrors the newest verdict: a shard verified before a later local run must not win.
    store::SampleStatusUpdater status(db, true);
    store::forEachVerdict(shard, shardRunId, [&](const store::StoredVerdict &sv) {
        const auto cs = lookup.find(sv.sampleKey);
        if (!cs)
            throw ShardError(c.meta.path + ": sample key " + sv.sampleKey + " vanished from the corpus while merging");
        VerdictRecord r = sv.record;
        r.sampleId = cs->id;
        if (!inserter.insert(m.corpusRunId, r, sv.createdAt))
            return;
        status.update(r.sampleId, r.status, r.speedup, sv.createdAt);
        ++m.verdicts;
        ++m.byStatus[r.status];
    });

    // Task hygiene codes the node wrote (tasks.flags), where they changed from what the shard was cut with.
    store::TaskFlagsByKeyUpdater upd(db);
    store::forEachTaskFlags(shard, [&](const std::string &key, const std::optional<std::string> &flags) {
        const nlohmann::json now = flags ? nlohmann::json(*flags) : nlohmann::json();
        const nlohmann::json before = c.meta.taskFlagsBefore.is_object() && c.meta.taskFlagsBefore.contains(key)
                                          ? c.meta.taskFlagsBefore.at(key)
                                          : nlohmann::json();
        if (now == before)
            return;
        upd.update(key, now.is_string() ? std::optional<std::string>(now.get<std::string>()) : std::nullopt);
    });
    return m;
}

} // namespace

MergeReport mergeShards(const std::string &corpusPath, const std::vector<std::string> &inputs,
                        const MergeOptions &options)
{
    MergeReport report;
    const auto files = collectFiles(inputs, report.problems);
    report.files = files.size();
    Corpus corpus = Corpus::open(corpusPath);

    std::vector<Candidate> good;
    for (const auto &f : files) {
        Candidate c;
        if (auto why = checkShard(corpus, f, c))
            report.problems.push_back({f, *why});
        else
            good.push_back(std::move(c));
    }

    // A job is whole when each of its N shards is there once, cut from the same state of the corpus.
    std::map<std::string, std::vector<const Candidate *>> plans;
    for (const auto &c : good)
        plans[c.meta.planKey].push_back(&c);
    std::set<const Candidate *> rejected;
    std::set<std::string> reported;
    for (const auto &p : report.problems)
        reported.insert(p.file);
    for (const auto &[plan, members] : plans) {
        const int n = members.front()->meta.spec.count;
        std::map<int, const Candidate *> byIndex;
        std::int64_t held = 0;
        for (const Candidate *c : members) {
            auto [it, fresh] = byIndex.emplace(c->meta.spec.index, c);
            if (!fresh) {
                if (it->second->meta.uid != c->meta.uid) {
                    report.problems.push_back(
                        {c->meta.path, "a second shard " + c->meta.spec.text() + " of the same job, cut apart from " +
                                           it->second->meta.path + " (uid " + c->meta.uid + " vs " +
                                           it->second->meta.uid + "); keep one of them"});
                    rejected.insert(c);
                } else {
                    rejected.insert(c); // the same shard copied twice: one copy is enough
                }
                continue;
            }
            held += c->meta.samples;
            if (c->meta.corpusSamples != members.front()->meta.corpusSamples) {
                report.problems.push_back(
                    {c->meta.path, "cut from another state of the corpus than " + members.front()->meta.path +
                                       " (its selection held " + std::to_string(c->meta.corpusSamples) +
                                       " samples, the other's " + std::to_string(members.front()->meta.corpusSamples) +
                                       ")"});
                rejected.insert(c);
            }
        }
        const std::string dir = fs::path(members.front()->meta.path).parent_path().string();
        for (int k = 0; k < n; ++k) {
            if (byIndex.count(k))
                continue;
            // A file of that name that failed its checks was already reported with its own reason.
            const std::string expected = (fs::path(dir) / ShardSpec{k, n}.fileName()).string();
            if (!reported.count(expected))
                report.problems.push_back(
                    {expected, "missing: shard " + ShardSpec{k, n}.text() + " of this job is not among the inputs"});
        }
        if (static_cast<int>(byIndex.size()) == n && held != members.front()->meta.corpusSamples)
            report.problems.push_back({dir, "the " + std::to_string(n) + " shards hold " + std::to_string(held) +
                                                " samples, their selection held " +
                                                std::to_string(members.front()->meta.corpusSamples)});
    }

    if (!report.problems.empty() && !options.partial)
        return report;
    db::Transaction tx(corpus.db());
    for (const auto &c : good) {
        if (rejected.count(&c))
            continue;
        for (auto runId : c.runs)
            report.runs.push_back(mergeRun(corpus, c, runId));
    }
    tx.commit();
    report.committed = true;
    return report;
}

} // namespace sieve::gpu
