#include "core/store/corpusbrowse.h"

#include "core/db/payload.h"

#include <sqlite3.h>

#include <algorithm>

namespace sieve::store::browse {

namespace {
std::optional<std::string> optText(const db::Statement &st, int c)
{
    return st.isNull(c) ? std::nullopt : std::optional<std::string>(st.text(c));
}

std::optional<std::string> unpacked(const db::Statement &st, int c)
{
    if (st.isNull(c))
        return std::nullopt;
    return payload::unpack(st.blob(c));
}

// sieve_payload_contains(blob, text): whether the unpacked payload contains text, ignoring ASCII case.
void payloadContains(sqlite3_context *ctx, int, sqlite3_value **argv)
{
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_int(ctx, 0);
        return;
    }
    const auto *blob = static_cast<const char *>(sqlite3_value_blob(argv[0]));
    const std::string_view packed(blob ? blob : "", size_t(sqlite3_value_bytes(argv[0])));
    const auto *needleText = reinterpret_cast<const char *>(sqlite3_value_text(argv[1]));
    const std::string_view needle(needleText ? needleText : "", size_t(sqlite3_value_bytes(argv[1])));
    thread_local std::string text;
    try {
        payload::unpackInto(packed, text);
    } catch (const std::exception &) {
        sqlite3_result_int(ctx, 0); // an unreadable payload matches nothing (the detail view reports it)
        return;
    }
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    const auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                                [&](char a, char b) { return lower(a) == lower(b); });
    sqlite3_result_int(ctx, it != text.end() ? 1 : 0);
}

void prepareConnection(const db::Database &db)
{
    sqlite3_create_function_v2(db.handle(), "sieve_payload_contains", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                               payloadContains, nullptr, nullptr, nullptr);
}

// WHERE clause and its parameters, shared by the count, the page and the bulk query so that the three
// always agree on what "the filter" means.
struct Where
{
    std::string sql;
    std::vector<std::string> texts;
};

Where where(const SampleFilter &q)
{
    Where w;
    std::vector<std::string> parts;
    if (q.tasksFiltered && q.taskIds.empty()) {
        parts.push_back("0"); // the task filters match no task
    } else if (!q.taskIds.empty()) {
        std::string in;
        for (std::int64_t id : q.taskIds) {
            in += in.empty() ? "" : ",";
            in += std::to_string(id); // integers from our own model: safe to inline, keeps the plan simple
        }
        parts.push_back("s.task_id IN (" + in + ")");
    }
    if (!q.status.empty()) {
        parts.push_back("s.status = ?");
        w.texts.push_back(q.status);
    }
    if (!q.review.empty()) {
        parts.push_back("s.review = ?");
        w.texts.push_back(q.review);
    }
    if (q.judge == "unjudged") {
        parts.push_back("NOT EXISTS (SELECT 1 FROM judge_suggestions j WHERE j.sample_id = s.id)");
    } else if (q.judge == "flagged") {
        parts.push_back("EXISTS (SELECT 1 FROM judge_suggestions j WHERE j.sample_id = s.id AND j.verdict IN "
                        "('delegates', 'wrong'))");
    } else if (!q.judge.empty()) {
        parts.push_back("EXISTS (SELECT 1 FROM judge_suggestions j WHERE j.sample_id = s.id AND j.verdict = ?)");
        w.texts.push_back(q.judge);
    }
    if (!q.codeText.empty()) {
        // Payloads are compressed per row: sieve_payload_contains unpacks and searches each (registered on
        // the connection by prepareConnection). Fast within a task; a whole large corpus takes seconds.
        parts.push_back("EXISTS (SELECT 1 FROM sample_payloads p WHERE p.sample_id = s.id AND "
                        "(sieve_payload_contains(p.code, ?) OR sieve_payload_contains(p.reasoning, ?)))");
        w.texts.push_back(q.codeText);
        w.texts.push_back(q.codeText);
    }
    if (!q.text.empty()) {
        parts.push_back("(s.name LIKE ? OR s.model LIKE ?)");
        const std::string like = "%" + q.text + "%";
        w.texts.push_back(like);
        w.texts.push_back(like);
    }
    for (size_t i = 0; i < parts.size(); ++i)
        w.sql += (i == 0 ? " WHERE " : " AND ") + parts[i];
    return w;
}

void bindWhere(db::Statement &st, const Where &w)
{
    int i = 1;
    for (const std::string &t : w.texts)
        st.bind(i++, t);
}

const char *const kSortColumns[kSortColumnCount] = {"s.id",      "s.name",  "s.status",     "s.speedup",
                                                    "s.attempt", "s.model", "s.cluster_id", "s.review"};

int sortColumn(const SampleFilter &q)
{
    return q.sortColumn >= 0 && q.sortColumn < kSortColumnCount ? q.sortColumn : 0;
}

std::string orderBy(const SampleFilter &q)
{
    const int c = sortColumn(q);
    const char *dir = q.ascending ? " ASC" : " DESC";
    // The id tie-break runs in the same direction so that SQLite can walk (column, rowid) indexes.
    if (c == SortId)
        return std::string(" ORDER BY s.id") + dir;
    return std::string(" ORDER BY ") + kSortColumns[c] + dir + ", s.id" + dir;
}

// The latest review's reviewer and reason: an index lookup per row of the page (reviews_sample).
const SampleColumns kSampleColumns = {SampleColumn::Id,      SampleColumn::TaskId,   SampleColumn::Name,
                                      SampleColumn::Status,  SampleColumn::Speedup,  SampleColumn::Attempt,
                                      SampleColumn::Model,   SampleColumn::Cluster,  SampleColumn::Review,
                                      SampleColumn::Backend, SampleColumn::Reviewer, SampleColumn::Reason};

void bindKeyValue(db::Statement &st, int i, const SortValue &v)
{
    if (const auto *d = std::get_if<double>(&v))
        st.bind(i, *d);
    else if (const auto *s = std::get_if<std::string>(&v))
        st.bind(i, *s);
    else if (const auto *n = std::get_if<std::int64_t>(&v))
        st.bind(i, *n);
    else
        st.bind(i, std::int64_t(0)); // as QVariant().toLongLong() did
}

void appendRows(db::Statement &st, std::vector<SampleRow> &out)
{
    while (st.step())
        out.push_back(kSampleColumns.read(st));
}

std::vector<SampleRow> partlyIndexedSamples(const db::Database &db, const SampleFilter &q, const PageStart &start,
                                            int limit)
{
    const std::string col = kSortColumns[sortColumn(q)];
    const bool asc = q.ascending;
    const char *dir = asc ? " ASC" : " DESC";
    const char *op = asc ? " > " : " < ";
    // Where the previous page ended: among the values, among the NULLs, or nowhere yet.
    const bool hasValue = !std::holds_alternative<std::monostate>(start.lastValue);
    const bool afterValue = start.keyset && hasValue;
    const bool afterNull = start.keyset && !hasValue;
    std::vector<SampleRow> out;
    out.reserve(std::max(limit, 0));
    const auto left = [&] { return std::to_string(limit - static_cast<int>(out.size())); };
    auto values = [&] {
        Where w = where(q);
        w.sql += (w.sql.empty() ? " WHERE " : " AND ") + col + " IS NOT NULL";
        if (afterValue)
            w.sql += " AND (" + col + ", s.id)" + op + "(?, ?)";
        db::Statement st = db.prepare("SELECT " + kSampleColumns.selectList() + " FROM samples s" + w.sql +
                                      " ORDER BY " + col + dir + ", s.id" + dir + " LIMIT " + left());
        bindWhere(st, w);
        if (afterValue) {
            bindKeyValue(st, int(w.texts.size()) + 1, start.lastValue);
            st.bind(int(w.texts.size()) + 2, std::int64_t(start.lastId));
        }
        appendRows(st, out);
    };
    auto nulls = [&] {
        Where w = where(q);
        w.sql += (w.sql.empty() ? " WHERE " : " AND ") + col + " IS NULL";
        if (afterNull)
            w.sql += std::string(" AND s.id") + op + "?";
        db::Statement st = db.prepare("SELECT " + kSampleColumns.selectList() + " FROM samples s" + w.sql +
                                      " ORDER BY s.id" + dir + " LIMIT " + left());
        bindWhere(st, w);
        if (afterNull)
            st.bind(int(w.texts.size()) + 1, std::int64_t(start.lastId));
        appendRows(st, out);
    };
    if (asc) {
        if (!afterValue)
            nulls();
        if (static_cast<int>(out.size()) < limit)
            values();
    } else {
        if (!afterNull)
            values();
        if (static_cast<int>(out.size()) < limit)
            nulls();
    }
    return out;
}
} // namespace

void useBrowsingCache(db::Database &db)
{
    db.exec("PRAGMA cache_size=-65536");
}

std::vector<TaskSummary> tasks(const db::Database &db)
{
    std::vector<TaskSummary> out;
    db::Statement st = db.prepare(
        "SELECT t.id, t.name, t.level, t.category, t.backend, count(s.id), coalesce(sum(s.status='PASS'),0), "
        "coalesce(sum(s.status='PENDING'),0), coalesce(sum(s.review='accepted'),0), "
        "coalesce(sum(s.review='rejected'),0) "
        "FROM tasks t LEFT JOIN samples s ON s.task_id = t.id GROUP BY t.id ORDER BY t.name");
    while (st.step()) {
        TaskSummary r;
        r.id = st.int64(0);
        r.name = optText(st, 1);
        r.level = st.optInt64(2);
        r.category = optText(st, 3);
        r.backend = optText(st, 4);
        r.samples = st.int64(5);
        r.passed = st.int64(6);
        r.pending = st.int64(7);
        r.accepted = st.int64(8);
        r.rejected = st.int64(9);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<std::optional<std::string>> distinctStatuses(const db::Database &db)
{
    std::vector<std::optional<std::string>> out;
    db::Statement st = db.prepare("SELECT DISTINCT status FROM samples ORDER BY status");
    while (st.step())
        out.push_back(optText(st, 0));
    return out;
}

std::vector<std::pair<std::optional<std::string>, std::int64_t>> statusCounts(const db::Database &db)
{
    std::vector<std::pair<std::optional<std::string>, std::int64_t>> out;
    db::Statement st = db.prepare("SELECT status, count(*) FROM samples GROUP BY status");
    while (st.step())
        out.emplace_back(optText(st, 0), st.int64(1));
    return out;
}

std::int64_t countSamples(const db::Database &db, const SampleFilter &q)
{
    prepareConnection(db);
    const Where w = where(q);
    db::Statement st = db.prepare("SELECT count(*) FROM samples s" + w.sql);
    bindWhere(st, w);
    return st.step() ? st.int64(0) : 0;
}

// samples_speedup and samples_cluster index only the samples that have a value (schema v5): at import
// every sample's are NULL, and indexing a million NULLs cost each large import a second. A sort on either
// column therefore reads in two parts, the values by the index and the NULLs by id, NULLs first
// ascending and last descending as SQLite orders them.
bool partlyIndexed(int column)
{
    return column == SortSpeedup || column == SortCluster;
}

std::vector<SampleRow> samples(const db::Database &db, const SampleFilter &q, const PageStart &start, int limit)
{
    prepareConnection(db);
    if (partlyIndexed(sortColumn(q)) && (start.keyset || start.offset == 0))
        return partlyIndexedSamples(db, q, start, limit);
    Where w = where(q);
    std::string page = " LIMIT " + std::to_string(limit);
    if (start.keyset) {
        const char *op = q.ascending ? " > " : " < ";
        const std::string col = kSortColumns[sortColumn(q)];
        const std::string cond =
            q.sortColumn == SortId ? "s.id" + std::string(op) + "?" : "(" + col + ", s.id)" + op + "(?, ?)";
        // In descending order NULLs come last in SQLite, so they follow the non-NULL keys.
        const bool nullsFollow = !q.ascending && q.sortColumn != SortId;
        w.sql += (w.sql.empty() ? " WHERE " : " AND ") + (nullsFollow ? "(" + cond + " OR " + col + " IS NULL)" : cond);
    } else {
        page += " OFFSET " + std::to_string(start.offset);
    }
    db::Statement st =
        db.prepare("SELECT " + kSampleColumns.selectList() + " FROM samples s" + w.sql + orderBy(q) + page);
    bindWhere(st, w);
    if (start.keyset) {
        int i = int(w.texts.size()) + 1;
        bindKeyValue(st, i++, start.lastValue);
        if (q.sortColumn != SortId)
            st.bind(i, std::int64_t(start.lastId));
    }
    std::vector<SampleRow> out;
    out.reserve(std::max(limit, 0));
    appendRows(st, out);
    return out;
}

std::vector<std::pair<std::int64_t, std::optional<std::string>>> matchingReviews(const db::Database &db,
                                                                                 const SampleFilter &q)
{
    prepareConnection(db);
    const Where w = where(q);
    db::Statement st = db.prepare("SELECT s.id, s.review FROM samples s" + w.sql + orderBy(q));
    bindWhere(st, w);
    std::vector<std::pair<std::int64_t, std::optional<std::string>>> out;
    while (st.step())
        out.emplace_back(st.int64(0), optText(st, 1));
    return out;
}

std::vector<std::pair<std::int64_t, std::optional<std::string>>> reviewsOf(const db::Database &db,
                                                                           const std::vector<std::int64_t> &sampleIds)
{
    std::vector<std::pair<std::int64_t, std::optional<std::string>>> out;
    db::Statement st = db.prepare("SELECT review FROM samples WHERE id = ?1");
    for (std::int64_t id : sampleIds) {
        st.reset();
        st.bind(1, id);
        if (st.step())
            out.emplace_back(id, optText(st, 0));
    }
    return out;
}

std::vector<ReviewRow> history(const db::Database &db, std::int64_t sampleId)
{
    std::vector<ReviewRow> out;
    db::Statement st = db.prepare("SELECT decision, reason, note, reviewer, created_at FROM reviews "
                                  "WHERE sample_id = ?1 ORDER BY id DESC");
    st.bind(1, sampleId);
    while (st.step())
        out.push_back(ReviewRow{optText(st, 0), optText(st, 1), optText(st, 2), optText(st, 3), st.int64(4)});
    return out;
}

std::optional<SampleDetail> detail(const db::Database &db, std::int64_t sampleId)
{
    SampleDetail d;
    {
        db::Statement st = db.prepare("SELECT " + kSampleColumns.selectList() +
                                      ", t.name, p.code, p.reasoning, tp.reference_code FROM samples s "
                                      "JOIN tasks t ON t.id = s.task_id "
                                      "LEFT JOIN sample_payloads p ON p.sample_id = s.id "
                                      "LEFT JOIN task_payloads tp ON tp.task_id = s.task_id WHERE s.id = ?1");
        st.bind(1, sampleId);
        if (!st.step())
            return std::nullopt;
        d.row = kSampleColumns.read(st);
        const int next = kSampleColumns.size(); // the columns after the row's
        d.taskName = optText(st, next);
        d.code = unpacked(st, next + 1);
        d.reasoning = unpacked(st, next + 2);
        d.reference = unpacked(st, next + 3);
    }
    {
        db::Statement st = db.prepare(
            "SELECT v.id, v.status, v.stage, v.reasons, v.message, v.device, v.interpreted, v.kernels_launched, "
            "v.custom_kernel_share, v.speedup, v.flags, v.duration_ms, vp.log, r.env_json, r.verifier_version "
            "FROM verdicts v JOIN verify_runs r ON r.id = v.run_id "
            "LEFT JOIN verdict_payloads vp ON vp.verdict_id = v.id "
            "WHERE v.sample_id = ?1 ORDER BY v.created_at DESC, v.id DESC LIMIT 1");
        st.bind(1, sampleId);
        if (st.step()) {
            NewestVerdict v;
            v.id = st.int64(0);
            v.status = optText(st, 1);
            v.stage = optText(st, 2);
            v.reasons = optText(st, 3);
            v.message = optText(st, 4);
            v.device = optText(st, 5);
            v.interpreted = st.int64(6) != 0;
            v.kernelsLaunched = st.optInt64(7);
            v.customKernelShare = st.optReal(8);
            v.speedup = st.optReal(9);
            v.flags = optText(st, 10);
            v.durationMs = st.optReal(11);
            v.log = unpacked(st, 12);
            v.envJson = optText(st, 13);
            v.verifierVersion = optText(st, 14);
            d.verdict = std::move(v);
        }
    }
    if (d.verdict) {
        db::Statement st = db.prepare("SELECT shape_index, shape_json, seed, ok, max_abs, max_rel, mismatches, "
                                      "nonfinite_mismatches FROM verdict_checks WHERE verdict_id = ?1 "
                                      "ORDER BY shape_index, seed");
        st.bind(1, d.verdict->id);
        while (st.step())
            d.verdict->checks.push_back(CheckRow{st.int64(0), optText(st, 1), st.int64(2), st.int64(3) != 0,
                                                 st.optReal(4), st.optReal(5), st.optInt64(6), st.optInt64(7)});
        db::Statement tt = db.prepare("SELECT shape_index, which, median_ms, std_ms, runs FROM verdict_timings "
                                      "WHERE verdict_id = ?1 ORDER BY shape_index, which");
        tt.bind(1, d.verdict->id);
        while (tt.step())
            d.verdict->timings.push_back(
                TimingRow{tt.int64(0), optText(tt, 1), tt.optReal(2), tt.optReal(3), tt.optInt64(4)});
    }
    d.history = history(db, sampleId);
    // A corpus read at an older schema version (read-only, not migrated) has no teacher tables.
    if (db.queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'judge_suggestions'").value_or(0) > 0) {
        d.judge = judgeSuggestion(db, sampleId);
        d.teacherReasoning = teacherReasoning(db, sampleId);
    }
    return d;
}

std::vector<double> taskSpeedups(const db::Database &db, std::int64_t taskId)
{
    std::vector<double> out;
    db::Statement st =
        db.prepare("SELECT speedup FROM samples WHERE task_id = ?1 AND speedup IS NOT NULL ORDER BY speedup");
    st.bind(1, taskId);
    while (st.step())
        out.push_back(st.real(0));
    return out;
}

std::int64_t countSpeedups(const db::Database &db, std::optional<double> lo, std::optional<double> hi)
{
    std::string sql = "SELECT count(*) FROM samples WHERE speedup IS NOT NULL";
    if (lo)
        sql += " AND speedup >= " + std::to_string(*lo);
    if (hi)
        sql += " AND speedup < " + std::to_string(*hi);
    return db.queryInt(sql).value_or(0);
}

std::vector<ClusterRow> clusters(const db::Database &db, std::int64_t taskId)
{
    std::vector<ClusterRow> out;
    db::Statement st = db.prepare("SELECT c.id, c.task_id, t.name, c.representative_id, c.size FROM clusters c "
                                  "LEFT JOIN tasks t ON t.id = c.task_id WHERE ?1 < 0 OR c.task_id = ?1 "
                                  "ORDER BY c.size DESC, c.id");
    st.bind(1, taskId);
    while (st.step())
        out.push_back(ClusterRow{st.int64(0), st.optInt64(1), optText(st, 2), st.optInt64(3), st.int64(4)});
    return out;
}

std::vector<ClusterMember> clusterMembers(const db::Database &db, std::int64_t clusterId)
{
    std::vector<ClusterMember> out;
    db::Statement st = db.prepare("SELECT m.sample_id, s.name, s.status, s.review, m.similarity, s.speedup, "
                                  "c.representative_id = m.sample_id FROM cluster_members m "
                                  "JOIN samples s ON s.id = m.sample_id JOIN clusters c ON c.id = m.cluster_id "
                                  "WHERE m.cluster_id = ?1 ORDER BY 7 DESC, m.similarity DESC, m.sample_id");
    st.bind(1, clusterId);
    while (st.step())
        out.push_back(ClusterMember{st.int64(0), optText(st, 1), optText(st, 2), optText(st, 3), st.optReal(4),
                                    st.optReal(5), !st.isNull(6) && st.int64(6) != 0});
    return out;
}

} // namespace sieve::store::browse
