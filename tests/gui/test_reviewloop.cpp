// Issue 32: what the reviewer sees is what the keys judge, and the layout holds still. Each test
// drives the real window (offscreen) through one of the reproduced bugs.
#include "tests/gui/workbench.h"

#include "ui/cli/verifyrunner.h"
#include "ui/clusters/clustermodels.h"
#include "ui/clusters/clusterpage.h"
#include "ui/compare/comparisonview.h"
#include "ui/data/corpusqueries.h"
#include "ui/dialogs/importdialog.h"
#include "ui/dialogs/prompts.h"
#include "ui/panes/detailspane.h"
#include "ui/panes/samplepane.h"
#include "ui/panes/taskpane.h"
#include "ui/review/reviewbar.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>

using namespace sieve;
using namespace sieve::ui;
using test::GuiCorpus;
using test::waitFor;

namespace {
class ReviewLoop : public test::Workbench
{
protected:
    DetailsPane *details() { return window->details(); }
    ReviewBar *reviewBar() { return window->samplePane()->reviewBar(); }
    // Waits until the details pane has loaded exactly these samples.
    bool shows(const QList<qint64> &ids)
    {
        return waitFor([&] {
            if (details()->sampleIds() != ids || details()->details().size() != ids.size())
                return false;
            for (int i = 0; i < ids.size(); ++i)
                if (details()->details().at(i).row.id != ids.at(i))
                    return false;
            return true;
        });
    }
    void writeSql(const std::string &sql)
    {
        Corpus c = Corpus::open(corpus.path.toStdString());
        c.db().exec(sql);
    }
    qint64 reviewed() { return dbInt("SELECT count(*) FROM samples WHERE review IN ('accepted','rejected')"); }
};
} // namespace

// Bug 4: with four rows selected and three shown, A accepted all four without a word.
TEST_F(ReviewLoop, MoreSelectedThanShownAsksBeforeActing)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({0, 1, 2, 3});
    ASSERT_TRUE(shows({1, 2, 3}));
    int asked = 0;
    int askedShown = -1;
    bool answer = false;
    reviewBar()->setConfirmHidden([&](int selected, int shown, const QString &) {
        asked = selected;
        askedShown = shown;
        return answer;
    });
    QTest::keyClick(sampleView(), Qt::Key_A);
    EXPECT_EQ(asked, 4);
    EXPECT_EQ(askedShown, 3);
    QTest::qWait(200);
    EXPECT_EQ(reviewed(), 0) << "declined: nothing may change";

    answer = true;
    QTest::keyClick(sampleView(), Qt::Key_A);
    ASSERT_TRUE(waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE review='accepted'") == 4; }));
}

// Bug 3 (clusters): Compare Selected showed members 1 and 2 while the table highlighted 3, and A accepted 3.
TEST_F(ReviewLoop, CompareFromClustersIsWhatTheKeysActOn)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluMismatch)});
    ASSERT_TRUE(shows({GuiCorpus::kReluMismatch}));

    auto compareBothMembers = [this] {
        window->pages()->setCurrentIndex(MainWindow::ClustersPage);
        auto *members = find<QTableView>("clusterMemberView");
        QTest::qWait(300); // the page reloads its clusters when shown
        ASSERT_TRUE(waitFor([&] { return members->model()->rowCount() == 2; }));
        members->selectAll();
        ASSERT_TRUE(find<QPushButton>("compareMembersButton")->isEnabled());
        QTest::mouseClick(find<QPushButton>("compareMembersButton"), Qt::LeftButton);
        ASSERT_EQ(window->pages()->currentIndex(), MainWindow::ReviewPage);
    };
    compareBothMembers();
    ASSERT_TRUE(shows({1, 2})); // in the table's order
    // The table holds both members: it shows them selected, and nothing else.
    QList<qint64> selected = window->samplePane()->selectedSampleIds();
    std::sort(selected.begin(), selected.end());
    EXPECT_EQ(selected, (QList<qint64>{1, 2}));
    QTest::keyClick(sampleView(), Qt::Key_A);
    ASSERT_TRUE(waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE review='accepted'") == 2; }));
    EXPECT_EQ(dbValue("SELECT review FROM samples WHERE id=3"), QStringLiteral("none"));

    // Under a task that holds neither member, the table shows no selection and R rejects the members.
    pickTask(QStringLiteral("softmax"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 2; }));
    selectRows({0});
    ASSERT_TRUE(shows({8}));
    compareBothMembers();
    ASSERT_TRUE(shows({2, 1})); // the cluster's order: the representative first
    EXPECT_TRUE(window->samplePane()->selectedSampleIds().isEmpty());
    QTest::keyClick(sampleView(), Qt::Key_R);
    QTest::keyClick(sampleView(), Qt::Key_4); // the reason: duplicate
    ASSERT_TRUE(waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE review='rejected'") == 2; }));
    EXPECT_EQ(dbValue("SELECT review FROM samples WHERE id=8"), QStringLiteral("none"));
}

// Bug 3 (filter): after a filter change the pane kept the old sample, and A then did nothing without a word.
TEST_F(ReviewLoop, AFilterChangeClearsTheShownSampleAndASaysWhyItDidNothing)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluFast)});
    ASSERT_TRUE(shows({GuiCorpus::kReluFast}));
    auto *status = find<QComboBox>("statusFilter");
    ASSERT_TRUE(waitFor([&] { return status->findData(QStringLiteral("PENDING")) > 0; }));
    status->setCurrentIndex(status->findData(QStringLiteral("PENDING")));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 1; }));
    EXPECT_TRUE(details()->targetIds().isEmpty());
    EXPECT_EQ(details()->comparison()->editorCount(), 0);
    QTest::keyClick(sampleView(), Qt::Key_A);
    QTest::qWait(200);
    EXPECT_EQ(reviewed(), 0);
    EXPECT_TRUE(window->statusBar()->currentMessage().contains(QStringLiteral("No sample is shown")))
        << window->statusBar()->currentMessage().toStdString();
}

// Bugs 3 and 7: another corpus started with the old sample in the pane and the old task and filters set.
TEST_F(ReviewLoop, AnotherCorpusStartsWithoutTheOldSampleTaskOrFilters)
{
    pickTask(QStringLiteral("softmax"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 2; }));
    find<QLineEdit>("sampleSearch")->setText(QStringLiteral("softmax"));
    find<QLineEdit>("taskSearch")->setText(QStringLiteral("soft"));
    QTest::qWait(400); // the sample search applies after a pause in typing
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 2; }));
    selectRows({0});
    ASSERT_TRUE(shows({8}));

    GuiCorpus other;
    ASSERT_TRUE(window->openCorpus(other.path));
    ASSERT_TRUE(waitFor([&] { return window->corpusPath() == other.path; }));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 9; }))
        << "every sample of the new corpus shows: " << samples()->totalCount();
    EXPECT_TRUE(details()->targetIds().isEmpty());
    EXPECT_EQ(details()->comparison()->editorCount(), 0);
    EXPECT_TRUE(find<QLineEdit>("sampleSearch")->text().isEmpty());
    EXPECT_TRUE(find<QLineEdit>("taskSearch")->text().isEmpty());
    EXPECT_TRUE(window->taskPane()->selectedTaskIds().isEmpty());
    ASSERT_TRUE(waitFor([this] { return taskView()->model()->rowCount() == 3; }));
}

// Bug 1: a long sample name and a ten-row selection made the window 1,507 and 2,417 px wide at 1280x800.
TEST_F(ReviewLoop, TheWindowStaysWithinTheScreenUnderLongNamesAndManySelectedRows)
{
    const std::string longName(180, 'k');
    writeSql("UPDATE samples SET name = 'kernelbench_level2_" + longName + "_attempt_1' WHERE id = 1");
    for (int id = 10; id <= 12; ++id)
        writeSql("INSERT INTO samples(id, sample_key, name, task_id, backend, origin, model, attempt, has_answer, "
                 "status, created_at) SELECT " +
                 std::to_string(id) + ", 'x" + std::to_string(id) + "', 'kernelbench_" + longName + "_" +
                 std::to_string(id) + "', task_id, backend, origin, model, " + std::to_string(id) +
                 ", 1, 'PENDING', created_at FROM samples WHERE id = 1;"
                 "INSERT INTO sample_payloads(sample_id, code, reasoning) SELECT " +
                 std::to_string(id) + ", code, reasoning FROM sample_payloads WHERE sample_id = 1");
    window->resize(1280, 800);
    QTest::qWait(50);
    ASSERT_EQ(window->width(), 1280);
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 7; }));

    selectRows({rowOfSample(1)});
    ASSERT_TRUE(shows({1}));
    QTest::qWait(50);
    EXPECT_LE(window->width(), 1280);
    EXPECT_LE(window->minimumSizeHint().width(), 1280);

    // Ten rows of the whole corpus (no task chosen).
    taskView()->selectionModel()->clearSelection();
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 12; }));
    selectRows({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    ASSERT_EQ(details()->targetIds().size(), 10);
    ASSERT_TRUE(waitFor([&] { return details()->details().size() == 3; }));
    details()->comparison()->setReferenceVisible(true);
    QTest::qWait(50);
    EXPECT_LE(window->width(), 1280);
    EXPECT_LE(window->minimumSizeHint().width(), 1280);
    // The name is cut in the middle, whole in the tooltip.
    EXPECT_TRUE(samples()
                    ->index(rowOfSample(1), queries::ColName)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("kernelbench_level2_")));
    test::screenshot(window.get(), QStringLiteral("32-long-names-1280"));
}

// Bug 2: pane widths jumped on every selection change (task pane 295 -> 205 px).
TEST_F(ReviewLoop, SplitterSizesChangeOnlyWhenDragged)
{
    auto *split = find<QSplitter>("reviewSplitter");
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    QTest::qWait(50);
    const QList<int> before = split->sizes();
    for (const QList<int> &rows : QList<QList<int>>{{0}, {0, 1, 2}, {0, 1, 2, 3}, {3}, {1, 2}}) {
        selectRows(rows);
        QList<qint64> ids;
        for (int r : rows.mid(0, 3))
            ids << samples()->index(r, 0).data(SampleModel::IdRole).toLongLong();
        ASSERT_TRUE(shows(ids));
        QTest::qWait(30);
        EXPECT_EQ(split->sizes(), before) << "after selecting " << rows.size() << " row(s)";
    }
    // A drag is remembered through the settings registry.
    split->setSizes({200, 500, 800});
    Q_EMIT split->splitterMoved(split->sizes().at(0), 1);
    EXPECT_EQ(settings->reviewSplitter.value(), split->saveState());
}

// What to build 1: a key gives the comparison the whole window, and gives the panes back.
TEST_F(ReviewLoop, AKeyMaximisesTheComparisonAndAcceptStillWorks)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({0});
    ASSERT_TRUE(shows({1}));
    const int narrow = details()->width();
    auto *maximise = window->findChild<QAction *>(QStringLiteral("maximiseComparisonAction"));
    ASSERT_NE(maximise, nullptr);
    QTest::keySequence(window.get(), maximise->shortcut());
    EXPECT_TRUE(window->taskPane()->isHidden());
    EXPECT_TRUE(window->samplePane()->isHidden());
    QTest::qWait(30);
    EXPECT_GT(details()->width(), narrow + 400);
    test::screenshot(window.get(), QStringLiteral("32-comparison-maximised"));
    QTest::keyClick(details(), Qt::Key_A);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") == QStringLiteral("accepted"); }));
    QTest::keySequence(window.get(), maximise->shortcut());
    EXPECT_FALSE(window->taskPane()->isHidden());
    EXPECT_FALSE(window->samplePane()->isHidden());
}

// Bug 6: "Accept All Matching" turned manual rejections into accepts without a word.
TEST_F(ReviewLoop, BulkAcceptSaysHowManyHumanDecisionsItChangesAndCanSpareThem)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluMismatch)});
    ASSERT_TRUE(shows({GuiCorpus::kReluMismatch}));
    QTest::keyClick(sampleView(), Qt::Key_R);
    QTest::keyClick(sampleView(), Qt::Key_1);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=3") == QStringLiteral("rejected"); }));

    BulkPlan asked;
    BulkChoice answer = BulkChoice::Cancel;
    reviewBar()->setConfirmBulk([&](const BulkPlan &plan) {
        asked = plan;
        return answer;
    });
    window->findChild<QAction *>(QStringLiteral("acceptMatchingAction"))->trigger();
    ASSERT_TRUE(waitFor([&] { return asked.total > 0; }));
    EXPECT_EQ(asked.total, 4);
    EXPECT_EQ(asked.overriding, 1);
    EXPECT_EQ(asked.unreviewed, 3);
    QTest::qWait(200);
    EXPECT_EQ(dbInt("SELECT count(*) FROM samples WHERE review='accepted'"), 0) << "cancelled";

    answer = BulkChoice::OnlyUnreviewed;
    window->findChild<QAction *>(QStringLiteral("acceptMatchingAction"))->trigger();
    ASSERT_TRUE(waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE review='accepted'") == 3; }));
    EXPECT_EQ(dbValue("SELECT review FROM samples WHERE id=3"), QStringLiteral("rejected"));
}

// Bug 6: "Keep Representative" rejected FAIL_MISMATCH members as "duplicate", and people's accepts without asking.
TEST_F(ReviewLoop, KeepingAChosenMemberRejectsFailuresAsIncorrectAndAsksBeforeOverridingAnAccept)
{
    writeSql("INSERT INTO cluster_members VALUES(3, 1, 0.85); UPDATE clusters SET size = 3 WHERE id = 1");
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(2)});
    ASSERT_TRUE(shows({2}));
    QTest::keyClick(sampleView(), Qt::Key_A); // a person accepts the cluster's representative
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=2") == QStringLiteral("accepted"); }));

    BulkPlan asked;
    reviewBar()->setConfirmBulk([&](const BulkPlan &plan) {
        asked = plan;
        return BulkChoice::All;
    });
    window->pages()->setCurrentIndex(MainWindow::ClustersPage);
    auto *members = find<QTableView>("clusterMemberView");
    QTest::qWait(300);
    ASSERT_TRUE(waitFor([&] { return members->model()->rowCount() == 3; }));
    for (int r = 0; r < 3; ++r)
        if (members->model()->index(r, 0).data(ClusterMemberModel::IdRole).toLongLong() == 1)
            members->selectRow(r); // the reviewer keeps sample 1 instead
    auto *keep = find<QPushButton>("keepRepresentativeButton");
    EXPECT_TRUE(keep->text().contains(QStringLiteral("#1")));
    QTest::mouseClick(keep, Qt::LeftButton);
    ASSERT_TRUE(waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE review='rejected'") == 2; }));
    EXPECT_EQ(asked.overriding, 1);
    EXPECT_NE(dbValue("SELECT review FROM samples WHERE id=1"), QStringLiteral("rejected"));
    EXPECT_EQ(dbValue("SELECT reason FROM reviews WHERE sample_id=2 ORDER BY id DESC LIMIT 1"),
              QStringLiteral("duplicate"));
    EXPECT_EQ(dbValue("SELECT reason FROM reviews WHERE sample_id=3 ORDER BY id DESC LIMIT 1"),
              QStringLiteral("incorrect"));
    // One step on the history: undo gives the person's accept back.
    auto *undo = window->findChild<QUndoStack *>(QStringLiteral("reviewUndoStack"));
    ASSERT_EQ(undo->count(), 2);
    undo->undo();
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=2") == QStringLiteral("accepted"); }));
    ASSERT_TRUE(waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=3") == QStringLiteral("none"); }));
}

// Bug 5: after a cancelled "Verify All Pending", "Verify Selected" always failed: the CLI wants the
// unfinished run resumed or --new-run, and the workbench offered neither.
TEST_F(ReviewLoop, VerifySelectedAfterACancelledRunOffersResumeOrANewRun)
{
    // A stand-in sieve-cli that answers as the real one does while a run is unfinished
    // (gpu/cli/verify.cpp): an explicit selection is refused with exit 2 unless --new-run is given.
    const QString script = dir.filePath(QStringLiteral("fake-verify"));
    const QString argsLog = dir.filePath(QStringLiteral("fake-verify.args"));
    QFile f(script);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral(
                "#!/bin/sh\n"
                "if [ \"$1\" = \"--help\" ]; then printf 'Commands:\\n  verify   verifies\\n'; exit 0; fi\n"
                "echo \"$@\" >> '%1'\n"
                "case \" $* \" in\n"
                "  *' --new-run '*) echo '{\"sample\":4,\"status\":\"PASS\",\"speedup\":1.5}'; exit 0;;\n"
                "  *' --sample '*) echo \"sieve-cli: verification run 3 is unfinished (cpu, policy strict, selection "
                "{}); run 'sieve-cli verify $2' to resume it, or add --new-run to start a different one\" >&2; "
                "exit 2;;\n"
                "  *) echo '{\"sample\":7,\"status\":\"FAIL_COMPILE\"}'; exit 0;;\n"
                "esac\n")
                .arg(argsLog)
                .toUtf8());
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    window->setCliProgram(script);
    auto *verify = window->findChild<QAction *>(QStringLiteral("verifySelectedAction"));
    ASSERT_TRUE(waitFor([&] { return verify->isEnabled(); }));
    QString detail;
    RunChoice answer = RunChoice::NewRun;
    window->setRunChoice([&](const QString &d) {
        detail = d;
        return answer;
    });
    auto lines = [&] {
        QFile log(argsLog);
        return log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()).trimmed().split(QLatin1Char('\n'))
                                             : QStringList();
    };

    selectRows({rowOfSample(4)});
    verify->trigger();
    ASSERT_TRUE(waitFor([&] {
        const int row = rowOfSample(4);
        return row >= 0 && samples()->index(row, 0).data(SampleModel::StatusRole).toString() == QStringLiteral("PASS");
    }));
    EXPECT_TRUE(detail.contains(QStringLiteral("unfinished"))) << detail.toStdString();
    ASSERT_EQ(lines().size(), 2);
    EXPECT_TRUE(lines().at(1).contains(QStringLiteral("--new-run"))) << lines().at(1).toStdString();
    EXPECT_TRUE(lines().at(1).contains(QStringLiteral("--sample 4"))) << lines().at(1).toStdString();
    ASSERT_TRUE(waitFor([&] { return verify->isEnabled(); }));

    // Resume: the same command without a selection (the run keeps its own); the end says what it did.
    answer = RunChoice::Resume;
    verify->trigger();
    ASSERT_TRUE(waitFor([&] { return lines().size() == 4 && verify->isEnabled(); }));
    EXPECT_FALSE(lines().at(3).contains(QStringLiteral("--sample"))) << lines().at(3).toStdString();
    EXPECT_FALSE(lines().at(3).contains(QStringLiteral("--new-run")));
    EXPECT_TRUE(window->statusBar()->currentMessage().contains(QStringLiteral("verified")))
        << window->statusBar()->currentMessage().toStdString();
    EXPECT_TRUE(window->statusBar()->currentMessage().contains(QStringLiteral("1 FAIL_COMPILE")));
}

// Bug 8: File › Open left the session's reviews in the -wal file of the corpus it left.
TEST_F(ReviewLoop, OpeningAnotherCorpusCheckpointsTheOneLeft)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({0});
    QTest::keyClick(sampleView(), Qt::Key_A);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") == QStringLiteral("accepted"); }));

    GuiCorpus other;
    ASSERT_TRUE(window->openCorpus(other.path));
    ASSERT_TRUE(waitFor([&] { return window->corpusPath() == other.path; }));
    // A user copies the .sieve file alone: the review is in it.
    const QString copy = dir.filePath(QStringLiteral("copy.sieve"));
    ASSERT_TRUE(waitFor([&] {
        QFile::remove(copy);
        QFile::copy(corpus.path, copy);
        try {
            Corpus c = Corpus::open(copy.toStdString(), true);
            return c.db().queryText("SELECT review FROM samples WHERE id=1").value_or("") == "accepted";
        } catch (const std::exception &) {
            return false;
        }
    }));
}

// Bug 9: an older corpus was migrated in place without asking and without a backup.
TEST_F(ReviewLoop, AnOlderCorpusAsksBeforeItIsUpdatedAndKeepsACopy)
{
    const QString old = dir.filePath(QStringLiteral("old.sieve"));
    ASSERT_TRUE(QFile::copy(QStringLiteral(SIEVE_TEST_DATA "/schema/v5.sieve"), old));
    QFile(old).setPermissions(QFile(old).permissions() | QFileDevice::WriteOwner);
    const QByteArray before = [&] {
        QFile f(old);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }();
    int askedVersion = -1;
    QString askedBackup;
    bool answer = false;
    window->setMigrateChoice([&](const QString &, int version, const QString &backup) {
        askedVersion = version;
        askedBackup = backup;
        return answer;
    });
    EXPECT_FALSE(window->openCorpus(old));
    EXPECT_EQ(askedVersion, 5);
    EXPECT_EQ(window->corpusPath(), corpus.path) << "declined: the open corpus stays";
    QFile unchanged(old);
    ASSERT_TRUE(unchanged.open(QIODevice::ReadOnly));
    EXPECT_EQ(unchanged.readAll(), before) << "declined: the file is left as it is";
    EXPECT_FALSE(QFile::exists(askedBackup));

    answer = true;
    ASSERT_TRUE(window->openCorpus(old));
    ASSERT_TRUE(waitFor([&] { return window->corpusPath() == old; }));
    EXPECT_EQ(askedBackup, old + QStringLiteral(".bak-v5"));
    QFile backup(askedBackup);
    ASSERT_TRUE(backup.open(QIODevice::ReadOnly));
    EXPECT_EQ(backup.readAll(), before);
    EXPECT_EQ(Corpus::open(old.toStdString(), true).schemaVersion(), Corpus::kSchemaVersion);
}

// What to build 6: File › New Corpus; errors in the user's terms.
TEST_F(ReviewLoop, NewCorpusCreatesAndOpensAnEmptyOneAndANonCorpusIsNamedSo)
{
    const QString fresh = dir.filePath(QStringLiteral("fresh.sieve"));
    ASSERT_NE(window->findChild<QAction *>(QStringLiteral("newCorpusAction")), nullptr);
    window->newCorpus(fresh);
    ASSERT_TRUE(waitFor([&] { return window->corpusPath() == fresh; }));
    ASSERT_TRUE(waitFor([this] { return taskView()->model()->rowCount() == 0; }));

    const QString junk = dir.filePath(QStringLiteral("junk.sieve"));
    QFile f(junk);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(8192, 'x'));
    f.close();
    errors.clear();
    window->openCorpus(junk);
    ASSERT_TRUE(waitFor([&] { return !errors.isEmpty(); }));
    EXPECT_TRUE(errors.first().contains(QStringLiteral("not a corpus"))) << errors.first().toStdString();
    EXPECT_FALSE(errors.first().contains(QStringLiteral("PRAGMA"))) << errors.first().toStdString();
}

// What to build 3 and bug 10: the core loop in focus mode, counted in keys. Accept = 1 key, reject with a
// reason = 2 keys, a note = 1 key + text + Enter; no tab switch; undo returns to the undone sample.
TEST_F(ReviewLoop, FocusModeAcceptsInOneKeyAndRejectsWithAReasonInTwo)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({0});
    ASSERT_TRUE(shows({1}));
    QTest::keySequence(window.get(),
                       window->findChild<QAction *>(QStringLiteral("maximiseComparisonAction"))->shortcut());
    ASSERT_TRUE(details()->comparison()->isReferenceVisible());
    int keys = 0;
    auto press = [&](Qt::Key key) {
        ++keys;
        QWidget *w = QApplication::focusWidget();
        QTest::keyClick(w && w->isVisible() ? w : static_cast<QWidget *>(details()), key);
    };

    press(Qt::Key_A);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") == QStringLiteral("accepted"); }));
    EXPECT_EQ(keys, 1);
    ASSERT_TRUE(shows({2})) << "moved on to the next unreviewed sample";

    keys = 0;
    press(Qt::Key_R);
    EXPECT_TRUE(reviewBar()->awaitingReason()) << "a rejection asks why";
    EXPECT_EQ(dbValue("SELECT review FROM samples WHERE id=2"), QStringLiteral("none"));
    press(Qt::Key_2);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=2") == QStringLiteral("rejected"); }));
    EXPECT_EQ(keys, 2);
    EXPECT_EQ(dbValue("SELECT reason FROM reviews WHERE sample_id=2 ORDER BY id DESC LIMIT 1"), QStringLiteral("sham"));
    ASSERT_TRUE(shows({3}));
    // The verdict line is in the code column's header: status, reason and the message's first line.
    QString header;
    for (QLabel *l : details()->comparison()->findChildren<QLabel *>(QStringLiteral("columnHeader")))
        if (l->text().startsWith(QStringLiteral("relu-a3")))
            header = l->text();
    EXPECT_TRUE(header.contains(QStringLiteral("FAIL_MISMATCH"))) << header.toStdString();
    EXPECT_TRUE(header.contains(QStringLiteral("Output differs from the reference"))) << header.toStdString();

    keys = 0;
    press(Qt::Key_N);
    ASSERT_EQ(QApplication::focusWidget(), reviewBar()->noteEdit());
    QTest::keyClicks(reviewBar()->noteEdit(), QStringLiteral("wrong on shape 0"));
    press(Qt::Key_Return);
    EXPECT_EQ(keys, 2);
    EXPECT_NE(QApplication::focusWidget(), reviewBar()->noteEdit()) << "Enter leaves the note field";
    press(Qt::Key_R);
    press(Qt::Key_1);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=3") == QStringLiteral("rejected"); }));
    EXPECT_EQ(dbValue("SELECT note FROM reviews WHERE sample_id=3 ORDER BY id DESC LIMIT 1"),
              QStringLiteral("wrong on shape 0"));
    EXPECT_EQ(details()->currentIndex(), DetailsPane::CodeTab) << "no tab switch";
    test::screenshot(window.get(), QStringLiteral("32-focus-mode"));

    // Undo goes back to the sample whose decision it takes back.
    ASSERT_TRUE(shows({4}));
    QTest::keySequence(window.get(), window->findChild<QAction *>(QStringLiteral("undoAction"))->shortcut());
    ASSERT_TRUE(waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=3") == QStringLiteral("none"); }));
    EXPECT_TRUE(shows({3}));
}

// Issue 32's pictures: focus mode, the comparison maximised, verification under way and the migration
// prompt, at 1280x800 and 2560x1400, in English and German, under <build>/screenshots/.
TEST_F(ReviewLoop, Screenshots)
{
    const QString script = dir.filePath(QStringLiteral("slow-verify"));
    QFile f(script);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("#!/bin/sh\n"
            "if [ \"$1\" = \"--help\" ]; then printf 'Commands:\\n  verify   verifies\\n'; exit 0; fi\n"
            "echo '{\"sample\":4,\"status\":\"PASS\",\"speedup\":1.2}'; sleep 1\n"
            "echo '{\"sample\":7,\"status\":\"FAIL_COMPILE\"}'; sleep 5\n");
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    window->setCliProgram(script);
    auto *verify = window->findChild<QAction *>(QStringLiteral("verifySelectedAction"));
    ASSERT_TRUE(waitFor([&] { return verify->isEnabled(); }));
    auto *maximise = window->findChild<QAction *>(QStringLiteral("maximiseComparisonAction"));
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));

    for (const QString &lang : {QStringLiteral("en"), QStringLiteral("de")}) {
        settings->language.setValue(lang);
        QTest::qWait(50);
        for (const QSize &size : {QSize(1280, 800), QSize(2560, 1400)}) {
            const QString tag = QStringLiteral("32-%1-%2x%3-").arg(lang).arg(size.width()).arg(size.height());
            window->resize(size);
            selectRows({rowOfSample(GuiCorpus::kReluMismatch)});
            ASSERT_TRUE(shows({GuiCorpus::kReluMismatch}));
            maximise->setChecked(true);
            test::screenshot(window.get(), tag + QStringLiteral("focus-mode"));
            selectRows({0, 1, 2});
            ASSERT_TRUE(shows({1, 2, 3}));
            test::screenshot(window.get(), tag + QStringLiteral("comparison-maximised"));
            maximise->setChecked(false);
            EXPECT_LE(window->width(), size.width());

            // The views of the review loop's surroundings (issue 32): empty filter, CPU timing, cluster page.
            auto *search = find<QLineEdit>("sampleSearch");
            search->setText(QStringLiteral("no-such-sample"));
            ASSERT_TRUE(waitFor([&] { return !find<QLabel>("sampleEmptyLabel")->isHidden(); }));
            test::screenshot(window.get(), tag + QStringLiteral("empty-filter"));
            search->clear();
            ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
            selectRows({rowOfSample(GuiCorpus::kReluMismatch)});
            ASSERT_TRUE(shows({GuiCorpus::kReluMismatch}));
            details()->setCurrentIndex(DetailsPane::TimingTab);
            test::screenshot(window.get(), tag + QStringLiteral("cpu-timing"));
            details()->setCurrentIndex(DetailsPane::CodeTab);
            window->pages()->setCurrentIndex(MainWindow::ClustersPage);
            ASSERT_TRUE(waitFor([&] { return window->clusterPage()->representativeCode() != nullptr; }));
            test::screenshot(window.get(), tag + QStringLiteral("cluster-representative"));
            window->pages()->setCurrentIndex(MainWindow::ReviewPage);

            window->verifySamples({4, 7});
            ASSERT_TRUE(waitFor(
                [&] { return window->findChild<QProgressBar *>(QStringLiteral("jobProgress"))->value() >= 1; }, 15000));
            test::screenshot(window.get(), tag + QStringLiteral("verification-progress"));
            window->findChild<QAction *>(QStringLiteral("cancelAction"))->trigger();
            ASSERT_TRUE(waitFor([&] { return verify->isEnabled(); }, 10000));
        }
        // The migration prompt, as the reviewer sees it (the real message box, closed after its picture).
        QTimer::singleShot(300, [&] {
            if (QWidget *box = QApplication::activeModalWidget()) {
                test::screenshot(box, QStringLiteral("32-%1-migration-prompt").arg(lang));
                box->close();
            }
        });
        prompts::migrate(window.get(), corpus.path, 5, Corpus::kSchemaVersion, corpus.path + QStringLiteral(".bak-v5"));
        // The confirmation before a large run, the shortcuts overlay and the import dialog.
        QTimer::singleShot(300, [&] {
            if (QWidget *box = QApplication::activeModalWidget()) {
                test::screenshot(box, QStringLiteral("32-%1-large-run-prompt").arg(lang));
                box->close();
            }
        });
        prompts::largeRun(window.get(), 3382, VerifyRunner::estimate(3382, *settings));
        window->findChild<QAction *>(QStringLiteral("shortcutsAction"))->trigger();
        QWidget *keys = window->findChild<QWidget *>(QStringLiteral("shortcutsDialog"));
        ASSERT_NE(keys, nullptr);
        test::screenshot(keys, QStringLiteral("32-%1-shortcuts").arg(lang));
        keys->close();
        ImportDialog import(window.get());
        import.setPaths({QStringLiteral(SIEVE_TEST_DATA "/import/kernelbook.jsonl")});
        import.show();
        test::screenshot(&import, QStringLiteral("32-%1-import-dialog").arg(lang));
        import.close();
        QTest::qWait(50);
    }
    settings->language.setValue(QStringLiteral("en"));
    QTest::qWait(50);
}
