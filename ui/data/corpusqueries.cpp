#include "ui/data/corpusqueries.h"

#include "core/db/database.h"
#include "core/store/corpusbrowse.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace sieve::ui::queries {

// The SQL lives in core (core/corpusbrowse.h); this adapts its plain rows to the Qt value structs.
namespace browse = store::browse;

namespace {
QString qs(const std::optional<std::string> &s)
{
    return s ? QString::fromStdString(*s) : QString();
}
// Columns that core reads as plain strings ("" for NULL).
QString qs(const std::string &s)
{
    return s.empty() ? QString() : QString::fromStdString(s);
}
double real(const std::optional<double> &v)
{
    return v ? *v : kNoValue;
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

browse::SampleFilter filterOf(const SampleQuery &q)
{
    browse::SampleFilter f;
    f.taskIds.assign(q.taskIds.begin(), q.taskIds.end());
    f.tasksFiltered = q.tasksFiltered;
    f.status = q.status.toStdString();
    f.review = q.review.toStdString();
    f.text = q.text.toStdString();
    f.codeText = q.codeText.toStdString();
    f.judge = q.judge.toStdString();
    f.sortColumn = q.sortColumn;
    f.ascending = q.order == Qt::AscendingOrder;
    return f;
}

browse::PageStart pageOf(const PageStart &p)
{
    browse::PageStart s;
    s.offset = p.offset;
    s.keyset = p.keyset;
    s.lastId = p.lastId;
    const QVariant &v = p.lastValue;
    if (!v.isValid())
        s.lastValue = std::monostate();
    else if (v.typeId() == QMetaType::Double)
        s.lastValue = v.toDouble();
    else if (v.typeId() == QMetaType::QString)
        s.lastValue = v.toString().toStdString();
    else
        s.lastValue = std::int64_t(v.toLongLong());
    return s;
}

SampleItem itemOf(const store::SampleRow &r)
{
    SampleItem i;
    i.id = r.id;
    i.taskId = r.taskId;
    i.name = qs(r.name);
    i.status = qs(r.status);
    i.speedup = real(r.speedup);
    i.attempt = r.attempt ? int(*r.attempt) : -1;
    i.model = qs(r.model);
    i.cluster = r.cluster ? *r.cluster : -1;
    i.review = qs(r.review);
    i.backend = qs(r.backend);
    i.reviewer = qs(r.reviewer);
    i.reason = qs(r.reason);
    return i;
}

QList<QPair<qint64, QString>> reviewPairs(const std::vector<std::pair<std::int64_t, std::optional<std::string>>> &v)
{
    QList<QPair<qint64, QString>> out;
    for (const auto &[id, review] : v)
        out.append({id, qs(review)});
    return out;
}

ReviewEntry reviewOf(qint64 sampleId, const browse::ReviewRow &r)
{
    return ReviewEntry{sampleId, qs(r.decision), qs(r.reason), qs(r.note), qs(r.reviewer), r.createdAt};
}
} // namespace

static_assert(int(browse::SortId) == ColId && int(browse::SortName) == ColName &&
                  int(browse::SortStatus) == ColStatus && int(browse::SortSpeedup) == ColSpeedup &&
                  int(browse::SortAttempt) == ColAttempt && int(browse::SortModel) == ColModel &&
                  int(browse::SortCluster) == ColCluster && int(browse::SortReview) == ColReview &&
                  int(browse::kSortColumnCount) == kSortableColumns,
              "the sample table's sortable columns are core's sort columns");

QList<TaskRow> tasks(const db::Database &db)
{
    QList<TaskRow> out;
    for (const browse::TaskSummary &t : browse::tasks(db)) {
        TaskRow r;
        r.id = t.id;
        r.name = qs(t.name);
        r.level = t.level ? int(*t.level) : 0;
        r.category = qs(t.category);
        r.backend = qs(t.backend);
        r.samples = t.samples;
        r.passed = t.passed;
        r.pending = t.pending;
        r.accepted = t.accepted;
        r.rejected = t.rejected;
        out << r;
    }
    return out;
}

QStringList distinctStatuses(const db::Database &db)
{
    QStringList out;
    for (const auto &s : browse::distinctStatuses(db))
        out << qs(s);
    return out;
}

qint64 countSamples(const db::Database &db, const SampleQuery &q)
{
    return browse::countSamples(db, filterOf(q));
}

QHash<QString, qint64> statusCounts(const db::Database &db)
{
    QHash<QString, qint64> out;
    for (const auto &[status, n] : browse::statusCounts(db))
        out.insert(qs(status), n);
    return out;
}

PageStart nextPage(const SampleQuery &q, const QList<SampleItem> &loaded)
{
    PageStart p;
    p.offset = loaded.size();
    if (loaded.isEmpty())
        return p;
    const SampleItem &r = loaded.last();
    p.lastId = r.id;
    switch (q.sortColumn) {
    case ColId:
        p.lastValue = r.id;
        break;
    case ColName:
        p.lastValue = r.name;
        break;
    case ColStatus:
        p.lastValue = r.status;
        break;
    case ColSpeedup:
        p.lastValue = std::isnan(r.speedup) ? QVariant() : QVariant(r.speedup);
        break;
    case ColAttempt:
        p.lastValue = r.attempt >= 0 ? QVariant(qint64(r.attempt)) : QVariant();
        break;
    case ColCluster:
        p.lastValue = r.cluster >= 0 ? QVariant(r.cluster) : QVariant();
        break;
    case ColReview:
        p.lastValue = r.review;
        break;
    default:
        break; // the teacher model may be NULL or empty: OFFSET keeps that exact
    }
    // A NULL speedup or cluster continues by id among the NULLs.
    const int sort = q.sortColumn >= 0 && q.sortColumn < kSortableColumns ? q.sortColumn : 0;
    p.keyset = p.lastValue.isValid() || browse::partlyIndexed(sort);
    return p;
}

QList<SampleItem> samples(const db::Database &db, const SampleQuery &q, const PageStart &start, int limit)
{
    QList<SampleItem> out;
    out.reserve(limit);
    for (const store::SampleRow &r : browse::samples(db, filterOf(q), pageOf(start), limit))
        out << itemOf(r);
    return out;
}

QList<QPair<qint64, QString>> matchingReviews(const db::Database &db, const SampleQuery &q)
{
    return reviewPairs(browse::matchingReviews(db, filterOf(q)));
}

QList<QPair<qint64, QString>> reviewsOf(const db::Database &db, const QList<qint64> &sampleIds)
{
    return reviewPairs(browse::reviewsOf(db, std::vector<std::int64_t>(sampleIds.begin(), sampleIds.end())));
}

QList<ReviewEntry> history(const db::Database &db, qint64 sampleId)
{
    QList<ReviewEntry> out;
    for (const browse::ReviewRow &r : browse::history(db, sampleId))
        out << reviewOf(sampleId, r);
    return out;
}

SampleDetail detail(const db::Database &db, qint64 sampleId)
{
    SampleDetail d;
    const auto s = browse::detail(db, sampleId);
    if (!s)
        return d;
    d.row = itemOf(s->row);
    d.taskName = qs(s->taskName);
    d.code = qs(s->code);
    d.reasoning = qs(s->reasoning);
    d.reference = qs(s->reference);
    if (s->verdict) {
        const browse::NewestVerdict &n = *s->verdict;
        VerdictInfo &v = d.verdict;
        v.present = true;
        v.id = n.id;
        v.status = qs(n.status);
        v.stage = qs(n.stage);
        v.reasons = jsonList(qs(n.reasons));
        v.message = qs(n.message);
        v.device = qs(n.device);
        v.interpreted = n.interpreted;
        v.kernelsLaunched = n.kernelsLaunched.value_or(-1);
        v.customKernelShare = real(n.customKernelShare);
        v.speedup = real(n.speedup);
        v.flags = jsonList(qs(n.flags));
        v.durationMs = real(n.durationMs);
        v.log = qs(n.log);
        v.envJson = qs(n.envJson);
        v.verifierVersion = qs(n.verifierVersion);
        for (const browse::CheckRow &c : n.checks)
            v.checks << CheckRow{
                int(c.shapeIndex),        qs(c.shapeJson),        c.seed, c.ok, real(c.maxAbs), real(c.maxRel),
                c.mismatches.value_or(0), c.nonfinite.value_or(0)};
        for (const browse::TimingRow &t : n.timings)
            v.timings << TimingRow{int(t.shapeIndex), qs(t.which), real(t.medianMs), real(t.stdMs), t.runs.value_or(0)};
    }
    for (const browse::ReviewRow &r : s->history)
        d.history << reviewOf(sampleId, r);
    if (const auto &js = s->judge) {
        JudgeInfo &j = d.judge;
        j.present = true;
        j.verdict = qs(js->verdict);
        j.model = qs(js->model);
        j.rubric = qs(js->rubric);
        j.rubricHash = qs(js->rubricHash);
        j.confidence = real(js->confidence);
        j.summary = qs(js->details.value("summary", std::string()));
        j.error = qs(js->details.value("error", std::string()));
        for (const auto &x : js->details.value("delegated_to", nlohmann::json::array()))
            if (x.is_string())
                j.delegatedTo << qs(x.get<std::string>());
        for (const auto &l : js->details.value("lines", nlohmann::json::array())) {
            const auto number = l.value("line", nlohmann::json());
            j.lines << JudgeLine{number.is_number_integer() ? number.get<int>() : 0, qs(l.value("text", std::string())),
                                 qs(l.value("why", std::string())), l.value("matches", false)};
        }
    }
    if (const auto &tr = s->teacherReasoning) {
        TeacherReasoningInfo &t = d.teacherReasoning;
        t.present = true;
        t.text = qs(tr->reasoning);
        t.model = qs(tr->model);
        t.prompt = qs(tr->prompt);
        t.promptHash = qs(tr->promptHash);
        t.createdAt = tr->createdAt;
    }
    return d;
}

QList<double> taskSpeedups(const db::Database &db, qint64 taskId)
{
    QList<double> out;
    for (double v : browse::taskSpeedups(db, taskId))
        out << v;
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
        const std::optional<double> lo = i > 0 ? std::optional<double>(kEdges[i - 1]) : std::nullopt;
        const std::optional<double> hi = i < kEdgeCount ? std::optional<double>(kEdges[i]) : std::nullopt;
        out.append({labels.at(i), browse::countSpeedups(db, lo, hi)});
    }
    return out;
}

QList<ClusterRow> clusters(const db::Database &db, qint64 taskId)
{
    QList<ClusterRow> out;
    for (const browse::ClusterRow &c : browse::clusters(db, taskId))
        out << ClusterRow{c.id, c.taskId.value_or(-1), qs(c.taskName), c.representative.value_or(-1), c.size};
    return out;
}

QList<ClusterMember> clusterMembers(const db::Database &db, qint64 clusterId)
{
    QList<ClusterMember> out;
    for (const browse::ClusterMember &m : browse::clusterMembers(db, clusterId))
        out << ClusterMember{m.sampleId,         qs(m.name),      qs(m.status),    qs(m.review),
                             real(m.similarity), real(m.speedup), m.representative};
    return out;
}

} // namespace sieve::ui::queries
