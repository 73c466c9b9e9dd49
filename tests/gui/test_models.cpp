// Every item model of the workbench under QAbstractItemModelTester, fed from a real corpus.
#include "tests/gui/guitest.h"

#include "core/db/corpus.h"
#include "ui/clusters/clustermodels.h"
#include "ui/data/corpusqueries.h"
#include "ui/data/dbthread.h"
#include "ui/models/samplemodel.h"
#include "ui/models/taskfilterproxy.h"
#include "ui/models/taskmodel.h"

#include <QAbstractItemModelTester>

#include <cmath>

using namespace sieve;
using namespace sieve::ui;
using test::GuiCorpus;
using test::waitFor;

namespace {
struct OpenReader
{
    DbThread thread{QStringLiteral("test-reader")};
    QObject receiver;
    explicit OpenReader(const QString &path)
    {
        bool opened = false;
        QString error;
        thread.open(path, true, &receiver, [&](const QString &e) {
            error = e;
            opened = true;
        });
        EXPECT_TRUE(waitFor([&] { return opened; }));
        EXPECT_TRUE(error.isEmpty()) << error.toStdString();
    }
    template <typename Work> auto get(Work work)
    {
        using R = decltype(work(std::declval<const db::Database &>()));
        std::optional<R> result;
        thread.post(&receiver, work, [&](R r) { result = std::move(r); });
        EXPECT_TRUE(waitFor([&] { return result.has_value(); }));
        return *result;
    }
};
} // namespace

TEST(TaskModel, ServesCountsPerTask)
{
    GuiCorpus corpus;
    OpenReader reader(corpus.path);
    TaskModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTasks(reader.get([](const db::Database &db) { return queries::tasks(db); }));
    ASSERT_EQ(model.rowCount(), 3);
    // Sorted by name: matmul_bias, relu, softmax.
    EXPECT_EQ(model.index(1, TaskModel::ColName).data().toString(), QStringLiteral("relu"));
    EXPECT_EQ(model.index(1, TaskModel::ColSamples).data().toLongLong(), 4);
    EXPECT_EQ(model.index(1, TaskModel::ColPassed).data().toLongLong(), 2);
    EXPECT_EQ(model.index(1, 0).data(TaskModel::StateRole).toString(), QStringLiteral("solved"));
    EXPECT_EQ(model.categories(),
              (QStringList{QStringLiteral("activation"), QStringLiteral("gemm"), QStringLiteral("reduction")}));
}

TEST(TaskFilterProxy, FiltersByCategoryLevelAndState)
{
    GuiCorpus corpus;
    OpenReader reader(corpus.path);
    TaskModel model;
    TaskFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTasks(reader.get([](const db::Database &db) { return queries::tasks(db); }));
    EXPECT_EQ(proxy.rowCount(), 3);
    proxy.setLevel(2);
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.index(0, 0).data().toString(), QStringLiteral("matmul_bias"));
    proxy.setLevel(0);
    proxy.setCategory(QStringLiteral("reduction"));
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.index(0, 0).data().toString(), QStringLiteral("softmax"));
    proxy.setCategory({});
    proxy.setState(QStringLiteral("solved"));
    EXPECT_EQ(proxy.rowCount(), 3); // every task has a passing sample
    proxy.setState({});
    proxy.setNameFilter(QStringLiteral("MAX"));
    EXPECT_EQ(proxy.rowCount(), 1);
}

// Issue 32: task names sorted as text put 10 and 100 before 2 (KernelBench numbers its tasks).
TEST(TaskFilterProxy, SortsNamesInNaturalOrder)
{
    TaskModel model;
    TaskFilterProxy proxy;
    proxy.setSourceModel(&model);
    QList<TaskRow> rows;
    for (const char *name : {"level1_10_conv", "level1_2_relu", "level1_100_gemm", "Level1_11_norm", "level1_1_add"})
        rows << TaskRow{rows.size() + 1, QString::fromLatin1(name)};
    model.setTasks(rows);
    proxy.sort(TaskModel::ColName, Qt::AscendingOrder);
    QStringList names;
    for (int r = 0; r < proxy.rowCount(); ++r)
        names << proxy.index(r, TaskModel::ColName).data().toString();
    const QStringList natural{QStringLiteral("level1_1_add"), QStringLiteral("level1_2_relu"),
                              QStringLiteral("level1_10_conv"), QStringLiteral("Level1_11_norm"),
                              QStringLiteral("level1_100_gemm")};
    EXPECT_EQ(names, natural);
}

TEST(SampleModel, PagesRowsAndSortsAndFiltersInSql)
{
    GuiCorpus corpus;
    OpenReader reader(corpus.path);
    SampleModel model(&reader.thread);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setQuery({});
    ASSERT_TRUE(waitFor([&] { return model.rowCount() == 9 && model.totalCount() == 9; }));
    EXPECT_FALSE(model.canFetchMore({}));
    EXPECT_EQ(model.index(0, queries::ColId).data(SampleModel::IdRole).toLongLong(), 1);

    model.sort(queries::ColSpeedup, Qt::DescendingOrder);
    ASSERT_TRUE(waitFor([&] { return model.rowCount() == 9; }));
    EXPECT_EQ(model.index(0, 0).data(SampleModel::IdRole).toLongLong(), 8); // 12.5×
    EXPECT_EQ(model.index(1, 0).data(SampleModel::IdRole).toLongLong(), 2); // 2.1×
    EXPECT_EQ(model.index(0, queries::ColSpeedup).data().toString(), QStringLiteral("12.50×"));

    SampleQuery q = model.query();
    q.taskIds = {GuiCorpus::kRelu};
    q.status = QStringLiteral("PASS");
    model.setQuery(q);
    ASSERT_TRUE(waitFor([&] { return model.totalCount() == 2 && model.rowCount() == 2; }));
    EXPECT_EQ(model.index(0, queries::ColStatus).data().toString(), QStringLiteral("PASS"));

    q = {};
    q.text = QStringLiteral("70b");
    model.setQuery(q);
    ASSERT_TRUE(waitFor([&] { return model.totalCount() == 2 && model.rowCount() == 2; }));
}

TEST(SampleModel, LiveUpdatesChangeLoadedRows)
{
    GuiCorpus corpus;
    OpenReader reader(corpus.path);
    SampleModel model(&reader.thread);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setQuery({});
    ASSERT_TRUE(waitFor([&] { return model.rowCount() == 9; }));
    model.setStatus(4, QStringLiteral("PASS"), 1.5);
    model.setReview({4}, QStringLiteral("accepted"));
    const int row = model.rowOf(4);
    EXPECT_EQ(model.index(row, queries::ColStatus).data().toString(), QStringLiteral("PASS"));
    EXPECT_DOUBLE_EQ(model.index(row, 0).data(SampleModel::SpeedupRole).toDouble(), 1.5);
    EXPECT_EQ(model.index(row, 0).data(SampleModel::ReviewRole).toString(), QStringLiteral("accepted"));
}

TEST(ClusterModels, ListClustersAndMembersWithTheRepresentativeFirst)
{
    GuiCorpus corpus;
    OpenReader reader(corpus.path);
    ClusterModel clusters;
    ClusterMemberModel members;
    QAbstractItemModelTester t1(&clusters, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t2(&members, QAbstractItemModelTester::FailureReportingMode::Fatal);
    clusters.setClusters(reader.get([](const db::Database &db) { return queries::clusters(db, -1); }));
    ASSERT_EQ(clusters.rowCount(), 1);
    EXPECT_EQ(clusters.index(0, ClusterModel::ColSize).data().toLongLong(), 2);
    members.setMembers(reader.get([](const db::Database &db) { return queries::clusterMembers(db, 1); }));
    ASSERT_EQ(members.rowCount(), 2);
    EXPECT_EQ(members.index(0, 0).data(ClusterMemberModel::IdRole).toLongLong(), 2);
    EXPECT_TRUE(members.index(0, 0).data(ClusterMemberModel::RepresentativeRole).toBool());
    EXPECT_NEAR(members.index(1, 0).data(ClusterMemberModel::SimilarityRole).toDouble(), 0.91, 1e-9);
}

TEST(Queries, DetailCarriesCodeVerdictChecksTimingsAndEnvironment)
{
    GuiCorpus corpus;
    OpenReader reader(corpus.path);
    const SampleDetail d = reader.get([](const db::Database &db) { return queries::detail(db, 1); });
    EXPECT_TRUE(d.code.contains(QStringLiteral("@triton.jit")));
    EXPECT_TRUE(d.reference.contains(QStringLiteral("class Model")));
    EXPECT_EQ(d.taskName, QStringLiteral("relu"));
    ASSERT_TRUE(d.verdict.present);
    EXPECT_EQ(d.verdict.status, QStringLiteral("PASS"));
    EXPECT_EQ(d.verdict.checks.size(), 10);
    EXPECT_EQ(d.verdict.timings.size(), 6);
    EXPECT_EQ(d.verdict.kernelsLaunched, 3);
    EXPECT_TRUE(d.verdict.envJson.contains(QStringLiteral("torch")));
    const auto histogram = reader.get([](const db::Database &db) { return queries::speedupHistogram(db); });
    qint64 total = 0;
    for (const auto &b : histogram)
        total += b.second;
    EXPECT_EQ(total, 4);                   // four samples have a speedup
    EXPECT_EQ(histogram.last().second, 1); // 12.5× lands in the last bucket
}

TEST(Queries, KeysetPagesMatchOneBigQueryForEverySortOrder)
{
    GuiCorpus corpus;
    {
        Corpus c = Corpus::open(corpus.path.toStdString());
        // 600 more samples with repeated and missing speedups, attempts and clusters, so ties and NULLs occur.
        c.db().exec(
            "WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i+1 FROM n WHERE i < 609) "
            "INSERT INTO samples(id, sample_key, name, task_id, backend, origin, model, attempt, has_answer, "
            "status, speedup, cluster_id, created_at) SELECT i, 'k' || i, 'bulk-' || (i % 37), 1 + i % 3, "
            "'triton', 't', CASE WHEN i % 5 = 0 THEN NULL ELSE 'm' || (i % 4) END, "
            "CASE WHEN i % 7 = 0 THEN NULL ELSE i % 9 END, 1, 'PASS', "
            "CASE WHEN i % 3 = 0 THEN NULL ELSE (i % 11) / 4.0 END, CASE WHEN i % 4 = 0 THEN NULL ELSE i % 6 END, "
            "0 FROM n");
    }
    static const char *const columns[queries::kSortableColumns] = {"id",      "name",  "status",     "speedup",
                                                                   "attempt", "model", "cluster_id", "review"};
    OpenReader reader(corpus.path);
    for (int column = 0; column < queries::kSortableColumns; ++column)
        for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            SampleQuery q;
            q.sortColumn = column;
            q.order = order;
            const QList<SampleItem> all = reader.get(
                [q](const db::Database &db) { return queries::samples(db, q, queries::PageStart{}, 100000); });
            ASSERT_EQ(all.size(), 609);
            // The order SQLite gives one plain query (speedup and cluster are read in two parts).
            const QList<qint64> expected = reader.get([&](const db::Database &db) {
                const char *dir = order == Qt::AscendingOrder ? " ASC" : " DESC";
                db::Statement st =
                    db.prepare(std::string("SELECT id FROM samples ORDER BY ") + columns[column] + dir + ", id" + dir);
                QList<qint64> ids;
                while (st.step())
                    ids << st.int64(0);
                return ids;
            });
            for (int i = 0; i < all.size(); ++i)
                ASSERT_EQ(all[i].id, expected[i]) << "column " << column << " order " << order << " row " << i;
            const QList<SampleItem> paged = reader.get([q](const db::Database &db) {
                QList<SampleItem> out;
                for (;;) {
                    const QList<SampleItem> page = queries::samples(db, q, queries::nextPage(q, out), 7);
                    out += page;
                    if (page.size() < 7)
                        return out;
                }
            });
            ASSERT_EQ(paged.size(), all.size()) << "column " << column << " order " << order;
            for (int i = 0; i < all.size(); ++i)
                ASSERT_EQ(paged[i].id, all[i].id) << "column " << column << " order " << order << " row " << i;
        }
}
