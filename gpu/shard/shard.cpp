#include "gpu/shard/shard.h"

#include "core/db/corpus.h"
#include "core/db/unixtime.h"
#include "core/store/shardstore.h"
#include "core/util/hashing.h"
#include "gpu/verify/verifyrun.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sieve::gpu {

namespace {

int parseInt(const std::string &s, const std::string &what)
{
    size_t used = 0;
    long long v = -1;
    try {
        v = std::stoll(s, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used == 0 || used != s.size() || v < 0 || v > 1000000)
        throw std::invalid_argument(what + ": '" + s + "' is not a number between 0 and 1000000");
    return static_cast<int>(v);
}

std::string metaText(const db::Database &db, const std::string &path, const char *key)
{
    auto value = store::metaValue(db, key);
    if (!value)
        throw ShardError(path + ": meta '" + key + "' is missing");
    return *value;
}

std::int64_t metaInt(const db::Database &db, const std::string &path, const char *key)
{
    const std::string v = metaText(db, path, key);
    try {
        size_t used = 0;
        const long long n = std::stoll(v, &used);
        if (used == v.size() && n >= 0)
            return n;
    } catch (const std::exception &) {
    }
    throw ShardError(path + ": meta '" + std::string(key) + "' is '" + v + "', not a count");
}

nlohmann::json metaJson(const db::Database &db, const std::string &path, const char *key)
{
    nlohmann::json j = nlohmann::json::parse(metaText(db, path, key), nullptr, false);
    if (j.is_discarded())
        throw ShardError(path + ": meta '" + std::string(key) + "' is not JSON");
    return j;
}

} // namespace

std::string corpusId(const db::Database &db)
{
    return store::corpusId(db);
}

ShardSpec ShardSpec::parse(const std::string &text)
{
    const auto slash = text.find('/');
    if (slash == std::string::npos)
        throw std::invalid_argument("--shard expects K/N (shard K of N, counting from 0), e.g. 0/4; got '" + text +
                                    "'");
    ShardSpec s;
    s.index = parseInt(text.substr(0, slash), "--shard K");
    s.count = parseInt(text.substr(slash + 1), "--shard N");
    if (s.count < 1 || s.index >= s.count)
        throw std::invalid_argument("--shard K/N needs 0 <= K < N; got '" + text + "'");
    return s;
}

std::string ShardSpec::fileName() const
{
    return "shard-" + std::to_string(index) + "-of-" + std::to_string(count) + ".sieve";
}

std::string ShardSpec::text() const
{
    return std::to_string(index) + "/" + std::to_string(count);
}

int shardOf(std::string_view sampleKey, int count)
{
    if (count <= 1)
        return 0;
    const std::string h = hashing::contentKey({sampleKey});
    const std::uint64_t v = std::stoull(h.substr(0, 16), nullptr, 16);
    return static_cast<int>(v % static_cast<std::uint64_t>(count));
}

std::string ShardPlan::key() const
{
    const std::string n = std::to_string(count);
    const std::string sel = selection.toJson().dump();
    return hashing::contentKey({kShardFormat, corpusId, n, sel, mode});
}

ShardFile readShardMeta(const db::Database &db, const std::string &path)
{
    if (!store::metaValue(db, "shard_format"))
        throw ShardError(path + ": not a shard results file (its meta table has no 'shard_format'; was it made by "
                                "'sieve-cli verify --shard'?)");
    const std::string format = metaText(db, path, "shard_format");
    if (format != kShardFormat)
        throw ShardError(path + ": shard format '" + format + "', this Sieve reads '" + kShardFormat + "'");
    ShardFile f;
    f.path = path;
    f.spec.index = static_cast<int>(metaInt(db, path, "shard_index"));
    f.spec.count = static_cast<int>(metaInt(db, path, "shard_count"));
    if (f.spec.count < 1 || f.spec.index >= f.spec.count)
        throw ShardError(path + ": meta says shard " + f.spec.text() + ", which is not a shard");
    f.plan.count = f.spec.count;
    f.plan.mode = metaText(db, path, "shard_mode");
    f.plan.corpusId = metaText(db, path, "shard_corpus_id");
    try {
        f.plan.selection = SampleSelection::fromJson(metaJson(db, path, "shard_selection"));
    } catch (const nlohmann::json::exception &e) {
        throw ShardError(path + ": meta 'shard_selection' is malformed: " + e.what());
    }
    f.planKey = metaText(db, path, "shard_plan");
    f.uid = metaText(db, path, "shard_uid");
    f.corpusPath = metaText(db, path, "shard_corpus_path");
    f.samples = metaInt(db, path, "shard_samples");
    f.corpusSamples = metaInt(db, path, "shard_corpus_samples");
    f.taskFlagsBefore = metaJson(db, path, "shard_task_flags");
    if (f.planKey != f.plan.key())
        throw ShardError(path + ": meta 'shard_plan' does not match the plan it describes (edited by hand?)");
    return f;
}

ShardFile prepareShardFile(const std::string &corpusPath, const ShardSpec &spec, const ShardPlan &planIn,
                           const std::string &outDir, bool &created)
{
    created = false;
    Corpus corpus = Corpus::open(corpusPath, true);
    ShardPlan plan = planIn;
    plan.corpusId = corpusId(corpus.db());
    plan.count = spec.count;
    fs::create_directories(outDir);
    const std::string path = (fs::path(outDir) / spec.fileName()).string();
    if (fs::exists(path)) {
        db::Database existing(path, db::Database::Mode::ReadOnly);
        ShardFile f = readShardMeta(existing, path);
        if (f.planKey != plan.key() || f.spec.index != spec.index)
            throw ShardError(path + " holds shard " + f.spec.text() + " of another job (corpus '" + f.plan.corpusId +
                             "', mode " + f.plan.mode + ", selection " + f.plan.selection.toJson().dump() +
                             "); remove it or pick another --out");
        return f;
    }

    // The selection first (the same rules as a plain verify), then the shard's share of it.
    std::uint64_t none = 0;
    const auto refs = pendingSamples(corpus, plan.selection, 0, none);
    std::set<std::int64_t> selected;
    for (const auto &r : refs)
        selected.insert(r.id);
    std::vector<std::int64_t> mine;
    std::set<std::int64_t> tasks;
    store::forEachSampleKey(corpus.db(), [&](std::int64_t id, std::string_view key, std::int64_t taskId) {
        if (!selected.count(id) || shardOf(key, spec.count) != spec.index)
            return;
        mine.push_back(id);
        tasks.insert(taskId);
    });

    const std::string tmp = path + ".part-" + std::to_string(::getpid());
    fs::remove(tmp);
    {
        Corpus out = Corpus::create(tmp);
        db::Database &dst = out.db();
        db::Transaction tx(dst);
        nlohmann::json flagsBefore = nlohmann::json::object();
        {
            store::RowCopier task(
                corpus.db(), dst, "tasks",
                "id, task_key, name, level, category, backend, target, dtype, atol, rtol, shapes_json, "
                "source, license, provenance_json, flags, created_at");
            store::RowCopier ref(corpus.db(), dst, "task_payloads", "task_id, reference_code");
            store::TaskFlagsById fl(corpus.db());
            for (auto id : tasks) {
                task.copy(id);
                ref.copy(id);
                if (const auto row = fl.get(id))
                    flagsBefore[row->taskKey] = row->flags ? nlohmann::json(*row->flags) : nlohmann::json();
            }
        }
        {
            // Blobs name the dictionary they were packed with: the shard's readers need the corpus's.
            store::forEachPayloadDictionary(corpus.db(), [&](const std::string &dict, std::int64_t trainedOn) {
                out.addPayloadDictionary(dict, trainedOn, std::nullopt);
            });
        }
        {
            store::RowCopier sample(
                corpus.db(), dst, "samples",
                "id, sample_key, name, task_id, backend, origin, model, temperature, attempt, has_answer, "
                "code_hash, code_bytes, status, speedup, review, created_at");
            // Only the code travels: reasoning and raw responses are not needed to verify.
            store::RowCopier code(corpus.db(), dst, "sample_payloads", "sample_id, code");
            for (auto id : mine) {
                sample.copy(id);
                code.copy(id);
            }
        }
        const std::int64_t now = unixNow();
        const std::map<std::string, std::string> meta = {
            {"shard_format", kShardFormat},
            {"shard_index", std::to_string(spec.index)},
            {"shard_count", std::to_string(spec.count)},
            {"shard_mode", plan.mode},
            {"shard_selection", plan.selection.toJson().dump()},
            {"shard_corpus_id", plan.corpusId},
            {"shard_corpus_path", fs::absolute(corpusPath).lexically_normal().string()},
            {"shard_plan", plan.key()},
            // The shard file's own random identity doubles as the shard's: a re-cut shard is another one.
            {"shard_uid", corpusId(out.db())},
            {"shard_samples", std::to_string(mine.size())},
            {"shard_corpus_samples", std::to_string(refs.size())},
            {"shard_task_flags", flagsBefore.dump()},
            {"shard_created_at", std::to_string(now)},
        };
        store::writeMeta(dst, meta);
        tx.commit();
        store::useRollbackJournal(dst);
    }
    fs::rename(tmp, path);
    created = true;
    db::Database made(path, db::Database::Mode::ReadOnly);
    return readShardMeta(made, path);
}

void sealShardFile(const std::string &path)
{
    store::sealDatabaseFile(path);
}

} // namespace sieve::gpu
