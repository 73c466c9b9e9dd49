#include "core/dedup/dedup_corpus.h"
#include "core/db/payload.h"
#include "core/db/unixtime.h"
#include "core/select/samplepreference.h"
#include "core/store/samplerow.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

namespace sieve {

namespace {

using store::SampleRow;

// True when a should represent a cluster rather than b: the shared order of core/samplepreference.h.
bool preferred(const SampleRow &a, const SampleRow &b)
{
    return preferredSample({a.id, a.review, a.status, a.speedup, a.attempt},
                           {b.id, b.review, b.status, b.speedup, b.attempt});
}

std::string joinIds(const std::vector<std::int64_t> &ids)
{
    std::string s;
    for (std::int64_t id : ids)
        s += (s.empty() ? "" : ",") + std::to_string(id);
    return s;
}

// Samples with code, optionally limited to some tasks (or some samples), by id.
std::vector<SampleRow> loadSamples(const Corpus &corpus, const std::string &where, bool withCode = true)
{
    static const store::SampleColumns kColumns = {
        store::SampleColumn::Id,       store::SampleColumn::TaskId,  store::SampleColumn::Name,
        store::SampleColumn::TaskName, store::SampleColumn::Status,  store::SampleColumn::Review,
        store::SampleColumn::Speedup,  store::SampleColumn::Cluster, store::SampleColumn::Attempt};
    static const store::SampleColumns kWithCode = {store::SampleColumn::Id,      store::SampleColumn::TaskId,
                                                   store::SampleColumn::Name,    store::SampleColumn::TaskName,
                                                   store::SampleColumn::Status,  store::SampleColumn::Review,
                                                   store::SampleColumn::Speedup, store::SampleColumn::Cluster,
                                                   store::SampleColumn::Attempt, store::SampleColumn::Code};
    std::string sql = "SELECT " + (withCode ? kWithCode : kColumns).selectList();
    sql += withCode ? "" : ", NULL";
    sql += " FROM samples s JOIN tasks t ON t.id = s.task_id JOIN sample_payloads p ON p.sample_id = s.id"
           " WHERE s.has_answer != 0 AND p.code IS NOT NULL";
    if (!where.empty())
        sql += " AND " + where;
    sql += " ORDER BY s.id";
    db::Statement st = corpus.db().prepare(sql);
    std::vector<SampleRow> rows;
    while (st.step())
        rows.push_back((withCode ? kWithCode : kColumns).read(st));
    return rows;
}

std::string paramsJson(const CorpusDedupOptions &o, LshParams lsh)
{
    return nlohmann::json{{"threshold", o.params.threshold},
                          {"shingle", o.params.shingle},
                          {"permutations", o.params.permutations},
                          {"bands", lsh.bands},
                          {"rows", lsh.rows},
                          {"scope", o.scope == DedupScope::Task ? "task" : "global"},
                          {"rule", samplePreferenceRule()}}
        .dump();
}

void writeClusters(Corpus &corpus, const CorpusDedupOptions &o, const DedupReport &report,
                   const std::set<std::int64_t> &oldIds, std::vector<ClusterInfo> &clusters)
{
    db::Database &db = corpus.db();
    db::Transaction tx(db);
    const std::string params = paramsJson(o, report.lsh);
    const std::int64_t now = unixNow();
    std::set<std::int64_t> reused;
    for (const ClusterInfo &c : clusters)
        if (c.id)
            reused.insert(c.id);
    db::Statement delMembers = db.prepare("DELETE FROM cluster_members WHERE cluster_id = ?1");
    db::Statement unlink = db.prepare("UPDATE samples SET cluster_id = NULL WHERE cluster_id = ?1");
    db::Statement delCluster = db.prepare("DELETE FROM clusters WHERE id = ?1");
    for (std::int64_t id : oldIds) {
        delMembers.bind(1, id).run();
        delMembers.reset();
        if (!reused.count(id)) {
            unlink.bind(1, id).run();
            unlink.reset();
            delCluster.bind(1, id).run();
            delCluster.reset();
        }
    }
    db::Statement update = db.prepare("UPDATE clusters SET scope = ?2, task_id = ?3, representative_id = ?4, size = "
                                      "?5, params_json = ?6 WHERE id = ?1");
    db::Statement insert = db.prepare("INSERT INTO clusters(scope, task_id, representative_id, size, params_json, "
                                      "created_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    db::Statement member =
        db.prepare("INSERT OR REPLACE INTO cluster_members(sample_id, cluster_id, similarity) VALUES(?1, ?2, ?3)");
    db::Statement link = db.prepare("UPDATE samples SET cluster_id = ?2 WHERE id = ?1");
    const char *scope = o.scope == DedupScope::Task ? "task" : "global";
    for (ClusterInfo &c : clusters) {
        if (c.id) {
            update.bind(1, c.id).bind(2, scope).bind(3, c.taskId).bind(4, c.representative);
            update.bind(5, static_cast<std::int64_t>(c.members.size())).bind(6, params).run();
            update.reset();
        } else {
            insert.bind(1, scope).bind(2, c.taskId).bind(3, c.representative);
            insert.bind(4, static_cast<std::int64_t>(c.members.size())).bind(5, params).bind(6, now).run();
            insert.reset();
            c.id = db.lastInsertId();
        }
        for (const ClusterMemberInfo &m : c.members) {
            member.bind(1, m.sampleId).bind(2, c.id).bind(3, m.similarity).run();
            member.reset();
            link.bind(1, m.sampleId).bind(2, c.id).run();
            link.reset();
        }
    }
    tx.commit();
}

DedupReport clusterRows(Corpus &corpus, const CorpusDedupOptions &o, std::vector<SampleRow> rows)
{
    DedupIndex index(o.params);
    DedupReport report;
    report.lsh = index.lsh();
    report.samples = rows.size();
    const std::size_t batch = 20000;
    for (std::size_t lo = 0; lo < rows.size(); lo += batch) {
        std::vector<DedupDocument> docs;
        for (std::size_t i = lo; i < std::min(rows.size(), lo + batch); ++i)
            docs.push_back({rows[i].code, CodeLanguage::Auto, o.scope == DedupScope::Task ? rows[i].taskId : 0});
        index.add(docs);
        for (std::size_t i = lo; i < std::min(rows.size(), lo + batch); ++i)
            rows[i].code = std::string(); // the fingerprints are all we need from here on
    }
    const DedupResult result = index.run();
    report.candidates = result.candidates;
    report.confirmedPairs = result.pairs.size();
    for (std::size_t i = 0; i < rows.size(); ++i)
        report.exactDuplicates += result.duplicateOf[i] != i;

    std::map<std::uint32_t, std::vector<std::uint32_t>> groups; // root (lowest index = lowest id) -> members
    for (std::size_t i = 0; i < rows.size(); ++i)
        groups[result.cluster[i]].push_back(static_cast<std::uint32_t>(i));

    std::set<std::int64_t> oldIds, claimed;
    for (const SampleRow &r : rows)
        if (r.cluster)
            oldIds.insert(*r.cluster);
    std::vector<ClusterInfo> clusters;
    clusters.reserve(groups.size());
    for (const auto &[root, members] : groups) {
        ClusterInfo c;
        // Keep the id of the old cluster that most members came from, so that ids stay stable across runs.
        std::map<std::int64_t, int> votes;
        for (std::uint32_t i : members)
            if (rows[i].cluster && !claimed.count(*rows[i].cluster))
                ++votes[*rows[i].cluster];
        int best = 0;
        for (const auto &[id, count] : votes)
            if (count > best) {
                best = count;
                c.id = id;
            }
        if (c.id)
            claimed.insert(c.id);
        std::uint32_t rep = members.front();
        for (std::uint32_t i : members)
            if (preferred(rows[i], rows[rep]))
                rep = i;
        c.representative = rows[rep].id;
        if (o.scope == DedupScope::Task) {
            c.taskId = rows[rep].taskId;
            c.taskName = rows[rep].taskName;
        }
        c.members.push_back({rows[rep].id, rows[rep].name, 1.0});
        for (std::uint32_t i : members)
            if (i != rep)
                c.members.push_back({rows[i].id, rows[i].name, index.similarity(i, rep)});
        clusters.push_back(std::move(c));
    }
    if (!o.dryRun)
        writeClusters(corpus, o, report, oldIds, clusters);
    std::sort(clusters.begin(), clusters.end(), [](const ClusterInfo &a, const ClusterInfo &b) {
        return (a.id != 0) != (b.id != 0) ? a.id != 0
               : a.id != b.id             ? a.id < b.id
                                          : a.representative < b.representative;
    });
    report.clusters = std::move(clusters);
    return report;
}

} // namespace

DedupReport dedupCorpus(Corpus &corpus, const CorpusDedupOptions &options)
{
    return clusterRows(corpus, options, loadSamples(corpus, {}));
}

DedupReport updateClusters(Corpus &corpus, const CorpusDedupOptions &options,
                           const std::vector<std::int64_t> &sampleIds)
{
    if (options.scope == DedupScope::Global || sampleIds.empty())
        return options.scope == DedupScope::Global ? dedupCorpus(corpus, options) : DedupReport{};
    std::vector<std::int64_t> tasks;
    db::Statement st =
        corpus.db().prepare("SELECT DISTINCT task_id FROM samples WHERE id IN (" + joinIds(sampleIds) + ")");
    while (st.step())
        tasks.push_back(st.int64(0));
    const std::string inTasks = "task_id IN (" + joinIds(tasks) + ")";
    // Clusters that reach outside these tasks (an earlier global run) cannot be patched locally.
    const auto outside =
        corpus.db().queryInt("SELECT count(*) FROM samples WHERE cluster_id IN (SELECT cluster_id FROM samples WHERE " +
                             inTasks + " AND cluster_id IS NOT NULL) AND NOT " + inTasks);
    if (outside.value_or(0) > 0)
        return dedupCorpus(corpus, options);
    return clusterRows(corpus, options, loadSamples(corpus, "s." + inTasks));
}

std::vector<std::int64_t> refreshRepresentatives(Corpus &corpus, const std::vector<std::int64_t> &clusterIds,
                                                 const DedupParams &params)
{
    std::vector<std::int64_t> changed;
    db::Database &db = corpus.db();
    db::Transaction tx(db);
    db::Statement setRep = db.prepare("UPDATE clusters SET representative_id = ?2 WHERE id = ?1");
    db::Statement setSim = db.prepare("UPDATE cluster_members SET similarity = ?2 WHERE sample_id = ?1");
    CodeNormaliser normaliser;
    NormalisedCode norm;
    for (std::int64_t cid : clusterIds) {
        db::Statement q = db.prepare("SELECT representative_id, params_json FROM clusters WHERE id = ?1");
        q.bind(1, cid);
        if (!q.step())
            continue;
        const std::optional<std::int64_t> oldRep = q.optInt64(0);
        int shingle = params.shingle;
        if (!q.isNull(1)) {
            const auto j = nlohmann::json::parse(q.text(1), nullptr, false);
            if (j.is_object() && j.contains("shingle") && j["shingle"].is_number_integer())
                shingle = j["shingle"].get<int>();
        }
        std::vector<SampleRow> rows = loadSamples(
            corpus, "s.id IN (SELECT sample_id FROM cluster_members WHERE cluster_id = " + std::to_string(cid) + ")");
        if (rows.empty())
            continue;
        std::size_t rep = 0;
        for (std::size_t i = 1; i < rows.size(); ++i)
            if (preferred(rows[i], rows[rep]))
                rep = i;
        if (oldRep && *oldRep == rows[rep].id)
            continue;
        changed.push_back(cid);
        setRep.bind(1, cid).bind(2, rows[rep].id).run();
        setRep.reset();
        std::vector<std::vector<std::uint32_t>> sets(rows.size());
        std::vector<std::uint64_t> canonical(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            normaliser.normalise(rows[i].code, CodeLanguage::Auto, norm, false);
            shingleSet(norm.tokens, shingle, sets[i]);
            canonical[i] = norm.canonical;
        }
        for (std::size_t i = 0; i < rows.size(); ++i) { // as DedupIndex::similarity: 1 for exact duplicates
            const double s = canonical[i] == canonical[rep]
                                 ? 1.0
                                 : jaccard(sets[i].data(), sets[i].size(), sets[rep].data(), sets[rep].size());
            setSim.bind(1, rows[i].id).bind(2, s).run();
            setSim.reset();
        }
    }
    tx.commit();
    return changed;
}

} // namespace sieve
