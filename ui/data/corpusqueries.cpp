#include "ui/data/corpusqueries.h"

#include "core/db/database.h"
#include "core/db/payload.h"

#include <nlohmann/json.hpp>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>

namespace sieve::ui::queries {

namespace {
QString qs(const db::Statement &st, int col) { return st.isNull(col) ? QString() : QString::fromStdString(st.text(col)); }
double real(const db::Statement &st, int col) { return st.isNull(col) ? kNoValue : st.real(col); }

QString unpacked(const db::Statement &st, int col)
{
    if (st.isNull(col))
        return {};
    return QString::fromStdString(payload::unpack(st.blob(col)));
}

QStringList jsonList(const QString &text)
{
    QStringList out;
    if (text.isEmpty())
        return out;
    try {
        const auto j = nlohmann::json::parse(text.toStdString());
        if (j.is_array()) {
            for (const auto &v : j)
                out << QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump());
            return out;
        }
    } catch (const nlohmann::json::exception &) {
        // Older rows keep reason codes comma-separated rather than as a JSON array.
    }
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        out << part.trimmed();
    return out;
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
struct Where {
    std::string sql;
    std::vector<std::string> texts;
    std::vector<qint64> ids;
};

Where where(const SampleQuery &q)
{
    Where w;
    std::vector<std::string> parts;
    if (q.tasksFiltered && q.taskIds.isEmpty()) {
        parts.push_back("0"); // the task filters match no task
    } else if (!q.taskIds.isEmpty()) {
        std::string in;
        for (qint64 id : q.taskIds) {
            in += in.empty() ? "" : ",";
            in += std::to_string(id); // integers from our own model: safe to inline, keeps the plan simple
        }
        parts.push_back("s.task_id IN (" + in + ")");
    }
    if (!q.status.isEmpty()) {
        parts.push_back("s.status = ?");
        w.texts.push_back(q.status.toStdString());
    }
    if (!q.review.isEmpty()) {
        parts.push_back("s.review = ?");
        w.texts.push_back(q.review.toStdString());
    }
    if (!q.codeText.isEmpty()) {
        // Payloads are compressed per row: sieve_payload_contains unpacks and searches each (registered on
        // the connection by prepareConnection). Fast within a task; a whole large corpus takes seconds.
        parts.push_back("EXISTS (SELECT 1 FROM sample_payloads p WHERE p.sample_id = s.id AND "
                        "(sieve_payload_contains(p.code, ?) OR sieve_payload_contains(p.reasoning, ?)))");
        w.texts.push_back(q.codeText.toStdString());
        w.texts.push_back(q.codeText.toStdString());
    }
    if (!q.text.isEmpty()) {
        parts.push_back("(s.name LIKE ? OR s.model LIKE ?)");
        const std::string like = "%" + q.text.toStdString() + "%";
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

const char *const kSortColumns[kSortableColumns] = {"s.id",      "s.name",  "s.status",     "s.speedup",
                                            "s.attempt", "s.model", "s.cluster_id", "s.review"};

int sortColumn(const SampleQuery &q) { return q.sortColumn >= 0 && q.sortColumn < kSortableColumns ? q.sortColumn : 0; }

std::string orderBy(const SampleQuery &q)
{
    const int c = sortColumn(q);
    const char *dir = q.order == Qt::AscendingOrder ? " ASC" : " DESC";
    // The id tie-break runs in the same direction so that SQLite can walk (column, rowid) indexes.
    if (c == ColId)
        return std::string(" ORDER BY s.id") + dir;
    return std::string(" ORDER BY ") + kSortColumns[c] + dir + ", s.id" + dir;
}

// The latest review's reviewer and reason: an index lookup per row of the page (reviews_sample).
const char *kSampleColumns = "s.id, s.task_id, s.name, s.status, s.speedup, s.attempt, s.model, s.cluster_id, "
                             "s.review, s.backend, "
                             "(SELECT r.reviewer FROM reviews r WHERE r.sample_id = s.id ORDER BY r.id DESC LIMIT 1), "
                             "(SELECT r.reason FROM reviews r WHERE r.sample_id = s.id ORDER BY r.id DESC LIMIT 1)";

constexpr int kSampleColumnCount = 12; // what kSampleColumns selects, read by sampleRow

SampleRow sampleRow(const db::Statement &st)
{
    SampleRow r;
    r.id = st.int64(0);
    r.taskId = st.int64(1);
    r.name = qs(st, 2);
    r.status = qs(st, 3);
    r.speedup = real(st, 4);
    r.attempt = st.isNull(5) ? -1 : int(st.int64(5));
    r.model = qs(st, 6);
    r.cluster = st.isNull(7) ? -1 : st.int64(7);
    r.review = qs(st, 8);
    r.backend = qs(st, 9);
    r.reviewer = qs(st, 10);
    r.reason = qs(st, 11);
    return r;
}
} // namespace

QList<TaskRow> tasks(const db::Database &db)
{
    QList<TaskRow> out;
    db::Statement st = db.prepare(
        "SELECT t.id, t.name, t.level, t.category, t.backend, count(s.id), coalesce(sum(s.status='PASS'),0), "
        "coalesce(sum(s.status='PENDING'),0), coalesce(sum(s.review='accepted'),0) "
        "FROM tasks t LEFT JOIN samples s ON s.task_id = t.id GROUP BY t.id ORDER BY t.name");
    while (st.step()) {
        TaskRow r;
        r.id = st.int64(0);
        r.name = qs(st, 1);
        r.level = st.isNull(2) ? 0 : int(st.int64(2));
        r.category = qs(st, 3);
        r.backend = qs(st, 4);
        r.samples = st.int64(5);
        r.passed = st.int64(6);
        r.pending = st.int64(7);
        r.accepted = st.int64(8);
        out << r;
    }
    return out;
}

QStringList distinctStatuses(const db::Database &db)
{
    QStringList out;
    db::Statement st = db.prepare("SELECT DISTINCT status FROM samples ORDER BY status");
    while (st.step())
        out << qs(st, 0);
    return out;
}

qint64 countSamples(const db::Database &db, const SampleQuery &q)
{
    prepareConnection(db);
    const Where w = where(q);
    db::Statement st = db.prepare("SELECT count(*) FROM samples s" + w.sql);
    bindWhere(st, w);
    return st.step() ? st.int64(0) : 0;
}

QHash<QString, qint64> statusCounts(const db::Database &db)
{
    QHash<QString, qint64> out;
    db::Statement st = db.prepare("SELECT status, count(*) FROM samples GROUP BY status");
    while (st.step())
        out.insert(qs(st, 0), st.int64(1));
    return out;
}

namespace {
// samples_speedup and samples_cluster index only the samples that have a value (schema v5): at import
// every sample's are NULL, and indexing a million NULLs cost each large import a second. A sort on either
// column therefore reads in two parts, the values by the index and the NULLs by id, NULLs first
// ascending and last descending as SQLite orders them.
bool partlyIndexed(int column) { return column == ColSpeedup || column == ColCluster; }

void bindKeyValue(db::Statement &st, int i, const QVariant &v)
{
    if (v.typeId() == QMetaType::Double)
        st.bind(i, v.toDouble());
    else if (v.typeId() == QMetaType::QString)
        st.bind(i, v.toString().toStdString());
    else
        st.bind(i, std::int64_t(v.toLongLong()));
}

void appendRows(db::Statement &st, QList<SampleRow> &out)
{
    while (st.step())
        out << sampleRow(st);
}

QList<SampleRow> partlyIndexedSamples(const db::Database &db, const SampleQuery &q, const PageStart &start, int limit)
{
    const std::string col = kSortColumns[sortColumn(q)];
    const bool asc = q.order == Qt::AscendingOrder;
    const char *dir = asc ? " ASC" : " DESC";
    const char *op = asc ? " > " : " < ";
    // Where the previous page ended: among the values, among the NULLs, or nowhere yet.
    const bool afterValue = start.keyset && start.lastValue.isValid();
    const bool afterNull = start.keyset && !start.lastValue.isValid();
    QList<SampleRow> out;
    out.reserve(limit);
    auto values = [&] {
        Where w = where(q);
        w.sql += (w.sql.empty() ? " WHERE " : " AND ") + col + " IS NOT NULL";
        if (afterValue)
            w.sql += " AND (" + col + ", s.id)" + op + "(?, ?)";
        db::Statement st = db.prepare(std::string("SELECT ") + kSampleColumns + " FROM samples s" + w.sql +
                                      " ORDER BY " + col + dir + ", s.id" + dir + " LIMIT " +
                                      std::to_string(limit - out.size()));
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
        db::Statement st = db.prepare(std::string("SELECT ") + kSampleColumns + " FROM samples s" + w.sql +
                                      " ORDER BY s.id" + dir + " LIMIT " + std::to_string(limit - out.size()));
        bindWhere(st, w);
        if (afterNull)
            st.bind(int(w.texts.size()) + 1, std::int64_t(start.lastId));
        appendRows(st, out);
    };
    if (asc) {
        if (!afterValue)
            nulls();
        if (out.size() < limit)
            values();
    } else {
        if (!afterNull)
            values();
        if (out.size() < limit)
            nulls();
    }
    return out;
}
} // namespace

PageStart nextPage(const SampleQuery &q, const QList<SampleRow> &loaded)
{
    PageStart p;
    p.offset = loaded.size();
    if (loaded.isEmpty())
        return p;
    const SampleRow &r = loaded.last();
    p.lastId = r.id;
    switch (q.sortColumn) {
    case ColId: p.lastValue = r.id; break;
    case ColName: p.lastValue = r.name; break;
    case ColStatus: p.lastValue = r.status; break;
    case ColSpeedup: p.lastValue = std::isnan(r.speedup) ? QVariant() : QVariant(r.speedup); break;
    case ColAttempt: p.lastValue = r.attempt >= 0 ? QVariant(qint64(r.attempt)) : QVariant(); break;
    case ColCluster: p.lastValue = r.cluster >= 0 ? QVariant(r.cluster) : QVariant(); break;
    case ColReview: p.lastValue = r.review; break;
    default: break; // the teacher model may be NULL or empty: OFFSET keeps that exact
    }
    // A NULL speedup or cluster continues by id among the NULLs.
    p.keyset = p.lastValue.isValid() || partlyIndexed(sortColumn(q));
    return p;
}

QList<SampleRow> samples(const db::Database &db, const SampleQuery &q, const PageStart &start, int limit)
{
    prepareConnection(db);
    if (partlyIndexed(sortColumn(q)) && (start.keyset || start.offset == 0))
        return partlyIndexedSamples(db, q, start, limit);
    Where w = where(q);
    std::string page = " LIMIT " + std::to_string(limit);
    if (start.keyset) {
        const char *op = q.order == Qt::AscendingOrder ? " > " : " < ";
        const std::string col = kSortColumns[sortColumn(q)];
        const std::string cond = q.sortColumn == ColId ? "s.id" + std::string(op) + "?"
                                                       : "(" + col + ", s.id)" + op + "(?, ?)";
        // In descending order NULLs come last in SQLite, so they follow the non-NULL keys.
        const bool nullsFollow = q.order == Qt::DescendingOrder && q.sortColumn != ColId;
        w.sql += (w.sql.empty() ? " WHERE " : " AND ") +
                 (nullsFollow ? "(" + cond + " OR " + col + " IS NULL)" : cond);
    } else {
        page += " OFFSET " + std::to_string(start.offset);
    }
    db::Statement st = db.prepare(std::string("SELECT ") + kSampleColumns + " FROM samples s" + w.sql + orderBy(q) + page);
    bindWhere(st, w);
    if (start.keyset) {
        int i = int(w.texts.size()) + 1;
        bindKeyValue(st, i++, start.lastValue);
        if (q.sortColumn != ColId)
            st.bind(i, std::int64_t(start.lastId));
    }
    QList<SampleRow> out;
    out.reserve(limit);
    appendRows(st, out);
    return out;
}

QList<QPair<qint64, QString>> matchingReviews(const db::Database &db, const SampleQuery &q)
{
    prepareConnection(db);
    const Where w = where(q);
    db::Statement st = db.prepare("SELECT s.id, s.review FROM samples s" + w.sql + orderBy(q));
    bindWhere(st, w);
    QList<QPair<qint64, QString>> out;
    while (st.step())
        out.append({st.int64(0), qs(st, 1)});
    return out;
}

QList<QPair<qint64, QString>> reviewsOf(const db::Database &db, const QList<qint64> &sampleIds)
{
    QList<QPair<qint64, QString>> out;
    db::Statement st = db.prepare("SELECT review FROM samples WHERE id = ?1");
    for (qint64 id : sampleIds) {
        st.reset();
        st.bind(1, std::int64_t(id));
        if (st.step())
            out.append({id, qs(st, 0)});
    }
    return out;
}

QList<ReviewEntry> history(const db::Database &db, qint64 sampleId)
{
    QList<ReviewEntry> out;
    db::Statement st = db.prepare("SELECT decision, reason, note, reviewer, created_at FROM reviews "
                                  "WHERE sample_id = ?1 ORDER BY id DESC");
    st.bind(1, std::int64_t(sampleId));
    while (st.step())
        out << ReviewEntry{sampleId, qs(st, 0), qs(st, 1), qs(st, 2), qs(st, 3), st.int64(4)};
    return out;
}

SampleDetail detail(const db::Database &db, qint64 sampleId)
{
    SampleDetail d;
    {
        db::Statement st = db.prepare(std::string("SELECT ") + kSampleColumns +
                                      ", t.name, p.code, p.reasoning, tp.reference_code FROM samples s "
                                      "JOIN tasks t ON t.id = s.task_id "
                                      "LEFT JOIN sample_payloads p ON p.sample_id = s.id "
                                      "LEFT JOIN task_payloads tp ON tp.task_id = s.task_id WHERE s.id = ?1");
        st.bind(1, std::int64_t(sampleId));
        if (!st.step())
            return d;
        d.row = sampleRow(st);
        const int next = kSampleColumnCount; // the columns after sampleRow's
        d.taskName = qs(st, next);
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
        st.bind(1, std::int64_t(sampleId));
        if (st.step()) {
            VerdictInfo &v = d.verdict;
            v.present = true;
            v.id = st.int64(0);
            v.status = qs(st, 1);
            v.stage = qs(st, 2);
            v.reasons = jsonList(qs(st, 3));
            v.message = qs(st, 4);
            v.device = qs(st, 5);
            v.interpreted = st.int64(6) != 0;
            v.kernelsLaunched = st.isNull(7) ? -1 : st.int64(7);
            v.customKernelShare = real(st, 8);
            v.speedup = real(st, 9);
            v.flags = jsonList(qs(st, 10));
            v.durationMs = real(st, 11);
            v.log = unpacked(st, 12);
            v.envJson = qs(st, 13);
            v.verifierVersion = qs(st, 14);
        }
    }
    if (d.verdict.present) {
        db::Statement st = db.prepare("SELECT shape_index, shape_json, seed, ok, max_abs, max_rel, mismatches, "
                                      "nonfinite_mismatches FROM verdict_checks WHERE verdict_id = ?1 "
                                      "ORDER BY shape_index, seed");
        st.bind(1, std::int64_t(d.verdict.id));
        while (st.step())
            d.verdict.checks << CheckRow{int(st.int64(0)), qs(st, 1), st.int64(2),   st.int64(3) != 0,
                                         real(st, 4),      real(st, 5), st.isNull(6) ? 0 : st.int64(6),
                                         st.isNull(7) ? 0 : st.int64(7)};
        db::Statement tt = db.prepare("SELECT shape_index, which, median_ms, std_ms, runs FROM verdict_timings "
                                      "WHERE verdict_id = ?1 ORDER BY shape_index, which");
        tt.bind(1, std::int64_t(d.verdict.id));
        while (tt.step())
            d.verdict.timings << TimingRow{int(tt.int64(0)), qs(tt, 1), real(tt, 2), real(tt, 3),
                                           tt.isNull(4) ? 0 : tt.int64(4)};
    }
    d.history = history(db, sampleId);
    return d;
}

QList<double> taskSpeedups(const db::Database &db, qint64 taskId)
{
    QList<double> out;
    db::Statement st =
        db.prepare("SELECT speedup FROM samples WHERE task_id = ?1 AND speedup IS NOT NULL ORDER BY speedup");
    st.bind(1, std::int64_t(taskId));
    while (st.step())
        out << st.real(0);
    return out;
}

namespace {
// Buckets in ratios a reviewer thinks in; the last one is where cheating usually hides.
constexpr double kEdges[] = {0.5, 0.8, 1.0, 1.25, 1.5, 2.0, 4.0, 10.0};
constexpr int kEdgeCount = sizeof(kEdges) / sizeof(kEdges[0]);
} // namespace

QStringList speedupBucketLabels()
{
    // Each bucket by its lower edge: short enough for a narrow chart.
    QStringList out{QStringLiteral("<0.5")};
    for (int i = 0; i < kEdgeCount - 1; ++i)
        out << QString::number(kEdges[i]);
    out << QStringLiteral("≥10");
    return out;
}

int speedupBucket(double speedup)
{
    int i = 0;
    while (i < kEdgeCount && speedup >= kEdges[i])
        ++i;
    return i;
}

QList<QPair<QString, qint64>> speedupHistogram(const db::Database &db)
{
    const QStringList labels = speedupBucketLabels();
    QList<QPair<QString, qint64>> out;
    for (int i = 0; i <= kEdgeCount; ++i) {
        std::string sql = "SELECT count(*) FROM samples WHERE speedup IS NOT NULL";
        if (i > 0)
            sql += " AND speedup >= " + std::to_string(kEdges[i - 1]);
        if (i < kEdgeCount)
            sql += " AND speedup < " + std::to_string(kEdges[i]);
        out.append({labels.at(i), db.queryInt(sql).value_or(0)});
    }
    return out;
}

QList<ClusterRow> clusters(const db::Database &db, qint64 taskId)
{
    QList<ClusterRow> out;
    db::Statement st = db.prepare("SELECT c.id, c.task_id, t.name, c.representative_id, c.size FROM clusters c "
                                  "LEFT JOIN tasks t ON t.id = c.task_id WHERE ?1 < 0 OR c.task_id = ?1 "
                                  "ORDER BY c.size DESC, c.id");
    st.bind(1, std::int64_t(taskId));
    while (st.step())
        out << ClusterRow{st.int64(0), st.isNull(1) ? -1 : st.int64(1), qs(st, 2),
                          st.isNull(3) ? -1 : st.int64(3), st.int64(4)};
    return out;
}

QList<ClusterMember> clusterMembers(const db::Database &db, qint64 clusterId)
{
    QList<ClusterMember> out;
    db::Statement st = db.prepare("SELECT m.sample_id, s.name, s.status, s.review, m.similarity, s.speedup, "
                                  "c.representative_id = m.sample_id FROM cluster_members m "
                                  "JOIN samples s ON s.id = m.sample_id JOIN clusters c ON c.id = m.cluster_id "
                                  "WHERE m.cluster_id = ?1 ORDER BY 7 DESC, m.similarity DESC, m.sample_id");
    st.bind(1, std::int64_t(clusterId));
    while (st.step())
        out << ClusterMember{st.int64(0), qs(st, 1),   qs(st, 2), qs(st, 3), real(st, 4), real(st, 5),
                             !st.isNull(6) && st.int64(6) != 0};
    return out;
}

} // namespace sieve::ui::queries
