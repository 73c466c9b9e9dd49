#pragma once
// The sample table. A corpus may hold a million samples, so the model pages rows in from SQLite on the
// database thread (canFetchMore/fetchMore) and sorts and filters in SQL; it never holds every row.
#include "ui/data/corpusqueries.h"
#include "ui/data/corpustypes.h"

#include <QAbstractTableModel>
#include <QHash>

namespace sieve::ui {

class DbThread;

class SampleModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SampleModel)
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        StatusRole,
        SpeedupRole,
        AttemptRole,
        ModelRole,
        ClusterRole,
        ReviewRole,
        TaskIdRole,
        NameRole,
    };
    Q_ENUM(Role)
    static constexpr int kPageSize = 256;

    SampleModel(DbThread *reader, QObject *parent = nullptr);

    void setQuery(const SampleQuery &query);
    const SampleQuery &query() const { return m_query; }
    void reload() { setQuery(m_query); }
    void clear();
    qint64 totalCount() const { return m_total; } // -1 until counted
    bool isLoading() const { return m_fetching; }
    const SampleItem &rowAt(int row) const { return m_rows.at(row); }
    int rowOf(qint64 sampleId) const { return m_rowOfId.value(sampleId, -1); }

    // The per-status count table: read by `refreshCounts` on the count thread (one walk of the status
    // index, so that it never delays a page on the reader), it answers status filters over the whole
    // corpus without a query. Any change to statuses the window learns of (a verdict, an import) makes
    // it stale until the next refresh; while stale, counts come from SQL on the reader as before.
    void setCountThread(DbThread *thread) { m_countThread = thread; }
    void invalidateCounts();
    void refreshCounts();
    bool countsCached() const { return m_countsValid; }
    // An import appends rows: let the view page in what arrived after the last page.
    void reopenTail();

    // Live updates from review and verification; rows not loaded yet pick the change up from SQL.
    // A review written: the decision, and (when given) the reason and reviewer the row shows.
    void setReview(const QList<qint64> &ids, const QString &decision, const QString &reason = QString(),
                   const QString &reviewer = QString());
    void setStatus(qint64 sampleId, const QString &status, double speedup);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QHash<int, QByteArray> roleNames() const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    void sort(int column, Qt::SortOrder order) override;

Q_SIGNALS:
    void pageLoaded(int rows);
    void totalCountChanged(qint64 count);

private:
    void requestPage();
    void requestCount();
    void setTotal(qint64 count);
    void appendPage(QList<SampleItem> rows);

    DbThread *m_reader;
    DbThread *m_countThread = nullptr; // null: the reader
    SampleQuery m_query;
    QList<SampleItem> m_rows;
    QHash<qint64, int> m_rowOfId;
    qint64 m_total = -1;
    QHash<QString, qint64> m_statusCounts;
    bool m_countsValid = false;
    quint64 m_countsGeneration = 0; // bumped by every known change; a refresh started before one is void
    quint64 m_job = 0;              // results of an older query are dropped
    bool m_fetching = false;
    bool m_exhausted = true;
};

} // namespace sieve::ui
