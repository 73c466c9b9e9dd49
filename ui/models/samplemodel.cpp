#include "ui/models/samplemodel.h"

#include "ui/data/dbthread.h"
#include "ui/main/language.h"
#include "ui/main/statusstyle.h"
#include "ui/review/reviewbar.h"

#include <cmath>

namespace sieve::ui {

SampleModel::SampleModel(DbThread *reader, QObject *parent) : QAbstractTableModel(parent), m_reader(reader)
{
    language::watchModel(this); // headers and composed cells follow a language switch
}

void SampleModel::clear()
{
    ++m_job;
    beginResetModel();
    m_rows.clear();
    m_rowOfId.clear();
    m_total = -1;
    m_fetching = false;
    m_exhausted = true;
    endResetModel();
}

void SampleModel::setQuery(const SampleQuery &query)
{
    clear();
    m_query = query;
    m_exhausted = false;
    // Rows first: they are what the reviewer waits for; the count follows on the same thread, unless
    // the count table already knows it.
    requestPage();
    requestCount();
}

namespace {
// Queries the status table can answer: at most a status filter over the whole corpus.
bool tableAnswers(const SampleQuery &q)
{
    return q.taskIds.isEmpty() && !q.tasksFiltered && q.review.isEmpty() && q.text.isEmpty() && q.codeText.isEmpty();
}

qint64 countIn(const QHash<QString, qint64> &counts, const QString &status)
{
    if (!status.isEmpty())
        return counts.value(status, 0);
    qint64 n = 0;
    for (qint64 c : counts)
        n += c;
    return n;
}
} // namespace

void SampleModel::requestCount()
{
    if (tableAnswers(m_query) && m_countsValid) {
        setTotal(countIn(m_statusCounts, m_query.status));
        return;
    }
    const quint64 job = m_job;
    m_reader->post(
        this, [q = m_query](const db::Database &db) { return queries::countSamples(db, q); },
        [this, job](qint64 count) {
            if (job == m_job)
                setTotal(count);
        });
}

void SampleModel::setTotal(qint64 count)
{
    m_total = count;
    Q_EMIT totalCountChanged(count);
}

void SampleModel::invalidateCounts()
{
    ++m_countsGeneration;
    m_countsValid = false;
}

void SampleModel::refreshCounts()
{
    const quint64 generation = m_countsGeneration;
    (m_countThread ? m_countThread : m_reader)
        ->post(
            this, [](const db::Database &db) { return queries::statusCounts(db); },
            [this, generation](QHash<QString, qint64> counts) {
                if (generation != m_countsGeneration)
                    return; // statuses changed while counting: stays stale until the next refresh
                m_statusCounts = std::move(counts);
                m_countsValid = true;
            });
}

void SampleModel::reopenTail()
{
    if (!m_exhausted || m_fetching)
        return;
    m_exhausted = false; // the next page starts after the last row shown: new rows that sort there
    requestPage();
}

void SampleModel::requestPage()
{
    if (m_fetching || m_exhausted)
        return;
    m_fetching = true;
    const quint64 job = m_job;
    m_reader->post(
        this,
        [q = m_query, start = queries::nextPage(m_query, m_rows)](const db::Database &db) {
            return queries::samples(db, q, start, kPageSize);
        },
        [this, job](QList<SampleItem> rows) {
            if (job != m_job)
                return;
            appendPage(std::move(rows));
        });
}

void SampleModel::appendPage(QList<SampleItem> rows)
{
    m_fetching = false;
    if (rows.size() < kPageSize)
        m_exhausted = true;
    if (!rows.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(rows.size()) - 1);
        for (SampleItem &r : rows) {
            m_rowOfId.insert(r.id, int(m_rows.size()));
            m_rows.append(std::move(r));
        }
        endInsertRows();
    }
    Q_EMIT pageLoaded(int(rows.size()));
}

void SampleModel::setReview(const QList<qint64> &ids, const QString &decision, const QString &reason,
                            const QString &reviewer)
{
    for (qint64 id : ids) {
        const int row = rowOf(id);
        if (row < 0)
            continue;
        SampleItem &r = m_rows[row];
        if (r.review == decision && (reason.isNull() || r.reason == reason))
            continue;
        r.review = decision;
        if (!reason.isNull()) {
            r.reason = reason;
            r.reviewer = reviewer;
        }
        Q_EMIT dataChanged(index(row, queries::ColReview), index(row, queries::ColReason));
    }
}

void SampleModel::setStatus(qint64 sampleId, const QString &status, double speedup)
{
    const int row = rowOf(sampleId);
    if (row < 0)
        return;
    m_rows[row].status = status;
    m_rows[row].speedup = speedup;
    Q_EMIT dataChanged(index(row, queries::ColStatus), index(row, queries::ColSpeedup));
}

int SampleModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int SampleModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : queries::ColCount;
}

namespace {
QString reasonLabel(const QString &code)
{
    if (code.isEmpty() || code == QLatin1String("undo"))
        return {};
    for (const ReviewBar::Reason &r : ReviewBar::reasons())
        if (r.code == code)
            return r.label;
    return code;
}
} // namespace

QVariant SampleModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SampleItem &r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case queries::ColId:
            return r.id;
        case queries::ColName:
            return r.name;
        case queries::ColStatus:
            return r.status;
        case queries::ColSpeedup:
            return std::isnan(r.speedup) ? QVariant() : QVariant(tr("%1×").arg(r.speedup, 0, 'f', 2));
        case queries::ColAttempt:
            return r.attempt >= 0 ? QVariant(r.attempt) : QVariant();
        case queries::ColModel:
            return r.model;
        case queries::ColCluster:
            return r.cluster >= 0 ? QVariant(r.cluster) : QVariant();
        case queries::ColReview:
            return reviewText(r.review);
        case queries::ColReviewer:
            return r.review.isEmpty() || r.review == QLatin1String("none") ? QString() : r.reviewer;
        case queries::ColReason:
            return r.review.isEmpty() || r.review == QLatin1String("none") ? QString() : reasonLabel(r.reason);
        }
        return {};
    case Qt::ToolTipRole: // the table elides long names in the middle; the whole name shows here
        return index.column() == queries::ColName ? QVariant(r.name) : QVariant();
    case Qt::ForegroundRole:
        if (index.column() == queries::ColStatus)
            return statusColor(r.status);
        if (index.column() == queries::ColReview) {
            const QColor c = reviewColor(r.review);
            return c.isValid() ? QVariant(c) : QVariant();
        }
        return {};
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case queries::ColId:
        case queries::ColSpeedup:
        case queries::ColAttempt:
        case queries::ColCluster:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case IdRole:
        return r.id;
    case StatusRole:
        return r.status;
    case SpeedupRole:
        return r.speedup;
    case AttemptRole:
        return r.attempt;
    case ModelRole:
        return r.model;
    case ClusterRole:
        return r.cluster;
    case ReviewRole:
        return r.review;
    case TaskIdRole:
        return r.taskId;
    case NameRole:
        return r.name;
    }
    return {};
}

QVariant SampleModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case queries::ColId:
        return tr("ID");
    case queries::ColName:
        return tr("Sample");
    case queries::ColStatus:
        return tr("Status");
    case queries::ColSpeedup:
        return tr("Speedup");
    case queries::ColAttempt:
        return tr("Attempt");
    case queries::ColModel:
        return tr("Teacher");
    case queries::ColCluster:
        return tr("Cluster");
    case queries::ColReview:
        return tr("Review");
    case queries::ColReviewer:
        return tr("Reviewer");
    case queries::ColReason:
        return tr("Reason");
    }
    return {};
}

QHash<int, QByteArray> SampleModel::roleNames() const
{
    auto names = QAbstractTableModel::roleNames();
    names.insert(IdRole, "sampleId");
    names.insert(StatusRole, "status");
    names.insert(SpeedupRole, "speedup");
    names.insert(AttemptRole, "attempt");
    names.insert(ModelRole, "model");
    names.insert(ClusterRole, "cluster");
    names.insert(ReviewRole, "review");
    names.insert(TaskIdRole, "taskId");
    names.insert(NameRole, "name");
    return names;
}

bool SampleModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_exhausted;
}

void SampleModel::fetchMore(const QModelIndex &parent)
{
    if (!parent.isValid())
        requestPage();
}

void SampleModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= queries::kSortableColumns)
        return;
    if (m_query.sortColumn == column && m_query.order == order && !m_rows.isEmpty())
        return;
    SampleQuery q = m_query;
    q.sortColumn = column;
    q.order = order;
    setQuery(q);
}

} // namespace sieve::ui
