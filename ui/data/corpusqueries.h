#pragma once
// The read queries behind the workbench. They run on the database thread (see DbThread) and return
// value structs; nothing here touches a widget. The SQL is core's (core/corpusbrowse.h): this layer
// converts between its plain types and the Qt value structs of corpustypes.h.
#include "ui/data/corpustypes.h"

#include <QHash>
#include <QPair>
#include <QVariant>

namespace sieve::db {
class Database;
}

namespace sieve::ui::queries {

// Columns of the sample table; the order is the one the view shows.
enum SampleColumn {
    ColId,
    ColName,
    ColStatus,
    ColSpeedup,
    ColAttempt,
    ColModel,
    ColCluster,
    ColReview,
    ColReviewer,
    ColReason,
    ColCount
};
// The columns a sort can use (kept by an index each); the latest review's reviewer and reason are read
// per row of a page and do not sort.
constexpr int kSortableColumns = ColReviewer;

QList<TaskRow> tasks(const db::Database &db);
QStringList distinctStatuses(const db::Database &db);
qint64 countSamples(const db::Database &db, const SampleQuery &q);
// Samples per status over the whole corpus: one walk of the status index, no cheaper than a plain
// count(*), and it answers the total and every status filter at once.
QHash<QString, qint64> statusCounts(const db::Database &db);
// Where the next page starts: after the last row of the previous one (keyset paging, which costs the
// same on page 1 and page 4,000) or, when that row's sort value is NULL, at an OFFSET (by id among the
// NULLs for speedup and cluster, which are read in two parts).
struct PageStart
{
    qint64 offset = 0;
    bool keyset = false;
    QVariant lastValue; // the sort column's value in the previous page's last row
    qint64 lastId = 0;
};
PageStart nextPage(const SampleQuery &q, const QList<SampleItem> &loaded);
QList<SampleItem> samples(const db::Database &db, const SampleQuery &q, const PageStart &start, int limit);
// Every sample the query matches with its current review decision (bulk review on a filter).
QList<QPair<qint64, QString>> matchingReviews(const db::Database &db, const SampleQuery &q);
// The reviews the database holds for these samples (after a failed write, to show them again).
QList<QPair<qint64, QString>> reviewsOf(const db::Database &db, const QList<qint64> &sampleIds);
SampleDetail detail(const db::Database &db, qint64 sampleId);
QList<ReviewEntry> history(const db::Database &db, qint64 sampleId);
QList<double> taskSpeedups(const db::Database &db, qint64 taskId);
// Speedups of every sample in fixed buckets (labels and counts), counted by SQL over the index.
QList<QPair<QString, qint64>> speedupHistogram(const db::Database &db);
// The buckets of the histograms, shared by the SQL count and by in-memory per-task spreads.
QStringList speedupBucketLabels();
int speedupBucket(double speedup);
QList<ClusterRow> clusters(const db::Database &db, qint64 taskId); // taskId < 0: all
QList<ClusterMember> clusterMembers(const db::Database &db, qint64 clusterId);

} // namespace sieve::ui::queries
