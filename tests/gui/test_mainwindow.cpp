// The real main window, driven by object name: open a corpus, pick a task, compare samples, review by
// keyboard with undo and redo, follow a log link, verify and export through the sieve-cli seam.
#include "tests/gui/workbench.h"

#include "core/db/corpus.h"
#include "gpu/nvrtc/nvrtclibrary.h"
#include "ui/cli/verifyrunner.h"
#include "ui/compare/comparisonview.h"
#include "ui/compare/ptxview.h"
#include "ui/dialogs/settingsdialog.h"
#include "ui/editors/codeeditor.h"
#include "ui/main/language.h"
#include "ui/main/mainwindow.h"
#include "ui/main/settings.h"
#include "ui/models/samplemodel.h"
#include "ui/models/taskmodel.h"
#include "ui/panes/detailspane.h"
#include "ui/panes/taskpane.h"
#include "ui/review/reviewbar.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>
#include <QTranslator>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>

using namespace sieve;
using namespace sieve::ui;
using test::GuiCorpus;
using test::waitFor;
using test::Workbench;

TEST_F(Workbench, OpensTheCorpusAndListsTasksAndSamples)
{
    QAbstractItemModelTester tester(taskView()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 9 && samples()->rowCount() == 9; }));
    EXPECT_TRUE(window->windowTitle().contains(QStringLiteral("test.sieve")));
    EXPECT_TRUE(find<QLabel>("taskCount")->text().contains(QStringLiteral("3")));
    EXPECT_TRUE(errors.isEmpty()) << errors.join(QLatin1Char('\n')).toStdString();
    test::screenshot(window.get(), QStringLiteral("01-opened"));
}

TEST_F(Workbench, PickingATaskShowsItsSamples)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 4 && samples()->rowCount() == 4; }));
    for (int r = 0; r < 4; ++r)
        EXPECT_EQ(samples()->index(r, 0).data(SampleModel::TaskIdRole).toLongLong(), GuiCorpus::kRelu);
}

TEST_F(Workbench, ComparesTwoSamplesSideBySideWithDiffMarkersAndReference)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluFast), rowOfSample(GuiCorpus::kReluFaster)});
    auto *comparison = find<ComparisonView>("comparisonView");
    ASSERT_TRUE(waitFor([&] { return comparison->editorCount() == 2; }));
    CodeEditor *a = comparison->editor(0);
    CodeEditor *b = comparison->editor(1);
    EXPECT_EQ(a->language(), QStringLiteral("python"));
    // The two variants differ in the load, the select and the launch lines.
    EXPECT_EQ(a->changedLines(), (QList<int>{9, 10, 17}));
    EXPECT_EQ(b->changedLines(), (QList<int>{9, 10, 17}));
    EXPECT_TRUE(find<QLabel>("diffSummary")->text().contains(QStringLiteral("3")));

    // Scrolling one scrolls the other.
    a->setFirstVisibleLine(5);
    EXPECT_EQ(b->firstVisibleLine(), a->firstVisibleLine());

    QTest::mouseClick(find<QWidget>("referenceButton"), Qt::LeftButton);
    ASSERT_NE(comparison->referenceEditor(), nullptr);
    EXPECT_TRUE(comparison->referenceEditor()->text().contains(QStringLiteral("class Model(nn.Module)")));
    test::screenshot(window.get(), QStringLiteral("02-compare"));
}

TEST_F(Workbench, BareCudaOpensInTheCudaEditor)
{
    pickTask(QStringLiteral("matmul_bias"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 3; }));
    selectRows({0});
    auto *comparison = find<ComparisonView>("comparisonView");
    ASSERT_TRUE(waitFor([&] { return comparison->editorCount() == 1; }));
    EXPECT_EQ(comparison->editor(0)->language(), QStringLiteral("cuda"));
}

TEST_F(Workbench, PtxViewShowsResourcesAndPtxForComparedCudaSamples)
{
    std::string why;
    if (!gpu::NvrtcLibrary::get(&why))
        GTEST_SKIP() << "no NVRTC: " << why;
    auto *ptx = find<PtxView>("ptxView");
    ptx->setCacheDir(dir.filePath(QStringLiteral("nvrtc-cache")));
    EXPECT_EQ(ptx->arch(), QStringLiteral("sm_90")); // the setting's default
    pickTask(QStringLiteral("matmul_bias"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 3; }));
    selectRows({0, 1});
    ASSERT_TRUE(waitFor([this] { return window->details()->details().size() == 2; }));
    EXPECT_TRUE(ptx->hasCuda());
    window->details()->setCurrentIndex(DetailsPane::PtxTab); // compiling starts when the view is shown
    ASSERT_TRUE(
        waitFor([&] { return !ptx->isBusy() && !find<QPlainTextEdit>("ptxText1")->toPlainText().isEmpty(); }, 30000));
    for (const char *column : {"0", "1"}) {
        const QByteArray suffix(column);
        auto *table = find<QTableWidget>(QByteArray("ptxResources" + suffix).constData());
        ASSERT_EQ(table->rowCount(), 1) << column;
        EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("matmul_bias"));
        EXPECT_TRUE(table->item(0, 0)->toolTip().startsWith(QStringLiteral("matmul_bias(float const*")));
        EXPECT_GT(table->item(0, 1)->text().toInt(), 0) << "registers";
        EXPECT_TRUE(find<QPlainTextEdit>(QByteArray("ptxText" + suffix).constData())
                        ->toPlainText()
                        .contains(QStringLiteral(".entry _Z11matmul_bias")));
        EXPECT_FALSE(find<QPlainTextEdit>(QByteArray("sassText" + suffix).constData())
                         ->toPlainText()
                         .isEmpty()); // SASS, or why not
    }
    EXPECT_TRUE(find<QLabel>("ptxHead0")->text().contains(QStringLiteral("sm_90")));
    // B tiles through shared memory, A does not: B's figure differs and is marked against A's.
    auto *a = find<QTableWidget>("ptxResources0");
    auto *b = find<QTableWidget>("ptxResources1");
    EXPECT_EQ(a->item(0, 5)->text(), QStringLiteral("0"));
    EXPECT_EQ(b->item(0, 5)->text(), QStringLiteral("2048"));
    EXPECT_TRUE(b->item(0, 5)->font().bold());
    EXPECT_EQ(b->item(0, 5)->toolTip(), QStringLiteral("A: 0"));
    EXPECT_FALSE(a->item(0, 5)->font().bold());
    test::screenshot(window.get(), QStringLiteral("10-ptx"));

    // Another architecture from the settings recompiles (PTX .target follows it).
    settings->cudaArch.setValue(QStringLiteral("sm_80"));
    ASSERT_TRUE(waitFor(
        [&] {
            return !ptx->isBusy() &&
                   find<QPlainTextEdit>("ptxText0")->toPlainText().contains(QStringLiteral(".target sm_80"));
        },
        30000));

    // A Triton sample has no CUDA: the view says so instead of compiling.
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({0});
    ASSERT_TRUE(waitFor([&] { return window->details()->details().size() == 1 && !ptx->hasCuda(); }));
    EXPECT_EQ(find<QTableWidget>("ptxResources0")->rowCount(), 0);
}

TEST_F(Workbench, VerdictLogLinksJumpIntoTheCode)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluMismatch)});
    auto *details = find<QTabWidget>("detailsTabs");
    auto *status = find<QLabel>("verdictStatus");
    ASSERT_TRUE(waitFor([&] { return status->text().contains(QStringLiteral("FAIL_MISMATCH")); }));
    EXPECT_TRUE(find<QLabel>("verdictReasons")->text().contains(QStringLiteral("MISMATCH")));
    EXPECT_EQ(find<QTreeWidget>("verdictChecks")->topLevelItemCount(), 10);
    EXPECT_GT(find<QTreeWidget>("verdictEnvironment")->topLevelItemCount(), 2);
    auto *log = find<QTextBrowser>("verdictLog");
    EXPECT_TRUE(log->toHtml().contains(QStringLiteral("line:12")));
    EXPECT_FALSE(log->toHtml().contains(QStringLiteral("line:1751"))); // torch's frame is no link into the answer
    details->setCurrentIndex(DetailsPane::VerdictTab);
    test::screenshot(window.get(), QStringLiteral("03-verdict"));

    Q_EMIT log->anchorClicked(QUrl(QStringLiteral("line:12")));
    EXPECT_EQ(details->currentIndex(), int(DetailsPane::CodeTab));
    EXPECT_EQ(find<ComparisonView>("comparisonView")->editor(0)->jumpLine(), 12);
}

TEST_F(Workbench, TimingAndStatisticsAndClustersShowWhatTheCorpusHolds)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluFast)});
    auto *details = find<QTabWidget>("detailsTabs");
    ASSERT_TRUE(
        waitFor([&] { return !find<QLabel>("verdictStatus")->text().contains(QStringLiteral("Not verified")); }));
    details->setCurrentIndex(DetailsPane::TimingTab);
    QTest::qWait(50);
    test::screenshot(window.get(), QStringLiteral("04-timing"));

    window->pages()->setCurrentIndex(MainWindow::StatisticsPage);
    auto *tree = find<QTreeWidget>("statsTree");
    ASSERT_TRUE(waitFor([&] { return tree->topLevelItemCount() > 3; }));
    EXPECT_FALSE(tree->findItems(QStringLiteral("By status"), Qt::MatchExactly).isEmpty());
    test::screenshot(window.get(), QStringLiteral("05-statistics"));

    window->pages()->setCurrentIndex(MainWindow::ClustersPage);
    auto *members = find<QTableView>("clusterMemberView");
    ASSERT_TRUE(waitFor([&] { return members->model()->rowCount() == 2; }));
    members->selectAll();
    auto *compare = find<QWidget>("compareMembersButton");
    EXPECT_TRUE(compare->isEnabled());
    test::screenshot(window.get(), QStringLiteral("06-clusters"));
    QTest::mouseClick(compare, Qt::LeftButton);
    EXPECT_EQ(window->pages()->currentIndex(), int(MainWindow::ReviewPage));
    ASSERT_TRUE(waitFor([&] { return find<ComparisonView>("comparisonView")->editorCount() == 2; }));
}

TEST_F(Workbench, AcceptAndRejectByKeyboardThenUndoAndRedo)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({0}); // sample 1
    QTest::keyClick(sampleView(), Qt::Key_A);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") == QStringLiteral("accepted"); }));
    // A moved on to the next unreviewed sample (2); pick reason 2 and reject it.
    EXPECT_EQ(sampleView()->currentIndex().data(SampleModel::IdRole).toLongLong(), 2);
    QTest::keyClick(sampleView(), Qt::Key_2);
    EXPECT_EQ(find<QComboBox>("reasonCombo")->currentData().toString(), QStringLiteral("sham"));
    QTest::keyClick(sampleView(), Qt::Key_R);
    EXPECT_EQ(window->findChild<QUndoStack *>(QStringLiteral("reviewUndoStack"))->count(), 2);
    EXPECT_EQ(sampleView()->selectionModel()->selectedRows().size(), 1);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=2") == QStringLiteral("rejected"); }));
    EXPECT_EQ(dbValue("SELECT reason FROM reviews WHERE sample_id=2 ORDER BY id DESC LIMIT 1"), QStringLiteral("sham"));
    EXPECT_EQ(dbValue("SELECT reviewer FROM reviews WHERE sample_id=2 ORDER BY id DESC LIMIT 1"),
              QStringLiteral("tester"));
    EXPECT_EQ(samples()->index(rowOfSample(2), 0).data(SampleModel::ReviewRole).toString(), QStringLiteral("rejected"));

    QTest::keySequence(sampleView(), window->findChild<QAction *>(QStringLiteral("undoAction"))->shortcut());
    ASSERT_TRUE(waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=2") == QStringLiteral("none"); }));
    // Undo appends; the history keeps all three steps.
    EXPECT_EQ(dbInt("SELECT count(*) FROM reviews"), 3);
    EXPECT_EQ(dbValue("SELECT review FROM samples WHERE id=1"), QStringLiteral("accepted"));
    // Redo by its platform shortcut (Ctrl+Shift+Z or Ctrl+Y).
    QTest::keySequence(sampleView(), window->findChild<QAction *>(QStringLiteral("redoAction"))->shortcut());
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=2") == QStringLiteral("rejected"); }));
    EXPECT_EQ(dbInt("SELECT count(*) FROM reviews"), 4);

    // The history tab of sample 2 lists who decided what.
    selectRows({rowOfSample(2)});
    auto *history = find<QTreeWidget>("historyView");
    ASSERT_TRUE(waitFor([&] { return history->topLevelItemCount() == 3; }));
    EXPECT_EQ(history->topLevelItem(0)->text(1), QStringLiteral("tester"));
    find<QTabWidget>("detailsTabs")->setCurrentIndex(DetailsPane::HistoryTab);
    test::screenshot(window.get(), QStringLiteral("07-history"));
}

TEST_F(Workbench, NextUnreviewedSkipsReviewedSamples)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    samples()->setReview({2, 3}, QStringLiteral("accepted"));
    selectRows({0});
    QTest::keyClick(sampleView(), Qt::Key_J);
    EXPECT_EQ(sampleView()->currentIndex().data(SampleModel::IdRole).toLongLong(), 4);
    QTest::keyClick(sampleView(), Qt::Key_K);
    EXPECT_EQ(sampleView()->currentIndex().data(SampleModel::IdRole).toLongLong(), 1);
}

TEST_F(Workbench, BulkRejectOnASelectionIsOneUndoStep)
{
    pickTask(QStringLiteral("matmul_bias"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 3; }));
    sampleView()->setFocus();
    sampleView()->selectAll();
    QTest::keyClick(sampleView(), Qt::Key_R);
    QTest::keyClick(sampleView(), Qt::Key_1); // R asks for a reason: incorrect output
    ASSERT_TRUE(
        waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE task_id=2 AND review='rejected'") == 3; }));
    auto *undo = window->findChild<QUndoStack *>(QStringLiteral("reviewUndoStack"));
    ASSERT_NE(undo, nullptr);
    EXPECT_EQ(undo->count(), 1);
    undo->undo();
    ASSERT_TRUE(waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE task_id=2 AND review='none'") == 3; }));
}

TEST_F(Workbench, AcceptAllMatchingTheFilterAsksFirst)
{
    auto *status = find<QComboBox>("statusFilter");
    ASSERT_TRUE(waitFor([&] { return status->findData(QStringLiteral("PENDING")) > 0; }));
    status->setCurrentIndex(status->findData(QStringLiteral("PENDING")));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 3; }));
    qint64 asked = -1;
    auto *bar = window->findChild<QWidget *>(QStringLiteral("reviewBar"));
    ASSERT_NE(bar, nullptr);
    static_cast<ReviewBar *>(bar)->setConfirmBulk([&](const BulkPlan &plan) {
        asked = plan.total;
        return BulkChoice::All;
    });
    window->findChild<QAction *>(QStringLiteral("acceptMatchingAction"))->trigger();
    ASSERT_TRUE(waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE review='accepted'") == 3; }));
    EXPECT_EQ(asked, 3);
    EXPECT_EQ(dbInt("SELECT count(*) FROM samples WHERE status='PENDING' AND review='accepted'"), 3);
}

TEST_F(Workbench, VerifyRunsTheCliAndUpdatesRowsLive)
{
    // A stand-in sieve-cli: the workbench's side of the protocol is real (QProcess, JSON lines).
    const QString cli =
        test::fakeCli(dir, {QStringLiteral("verify")},
                      QStringLiteral("{\"op\":\"progress\",\"done\":0,\"total\":1}\n"
                                     "{\"op\":\"verdict\",\"sample_id\":4,\"status\":\"PASS\",\"speedup\":1.75}\n"));
    window->setCliProgram(cli);
    auto *verify = window->findChild<QAction *>(QStringLiteral("verifySelectedAction"));
    ASSERT_TRUE(waitFor([&] { return verify->isEnabled(); }));
    EXPECT_FALSE(window->findChild<QAction *>(QStringLiteral("importAction"))->isEnabled()); // no import command
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(4)});
    verify->trigger();
    ASSERT_TRUE(waitFor([&] {
        return samples()->index(rowOfSample(4), 0).data(SampleModel::StatusRole).toString() == QStringLiteral("PASS");
    }));
    EXPECT_DOUBLE_EQ(samples()->index(rowOfSample(4), 0).data(SampleModel::SpeedupRole).toDouble(), 1.75);
    QFile args(dir.filePath(QStringLiteral("fake-cli.out.args")));
    ASSERT_TRUE(waitFor([&] { return args.exists(); }));
    args.open(QIODevice::ReadOnly);
    EXPECT_TRUE(QString::fromUtf8(args.readAll())
                    .trimmed()
                    .startsWith(QStringLiteral("verify %1 --json --sample 4 --all%2 --atol-fp32 ")
                                    .arg(corpus.path, VerifyRunner::hasGpu() ? QString() : QStringLiteral(" --cpu"))));
}

TEST_F(Workbench, StatusFilterCountsComeFromTheCountTableUntilAVerdictMakesItStale)
{
    ASSERT_TRUE(waitFor([this] { return samples()->countsCached(); }));
    auto *status = find<QComboBox>("statusFilter");
    ASSERT_TRUE(waitFor([&] { return status->findData(QStringLiteral("PASS")) > 0; }));
    // Answered at once, before any query: the count is there in the same turn of the event loop.
    status->setCurrentIndex(status->findData(QStringLiteral("PASS")));
    EXPECT_EQ(samples()->totalCount(), 4);
    status->setCurrentIndex(status->findData(QStringLiteral("PENDING")));
    EXPECT_EQ(samples()->totalCount(), 3);
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 3; }));

    // A verdict changes a status: the table is stale and the count comes from SQL again.
    const QString cli = test::fakeCli(dir, {QStringLiteral("verify")},
                                      QStringLiteral("{\"sample\":4,\"status\":\"PASS\",\"speedup\":1.5}\n"));
    window->setCliProgram(cli);
    auto *verify = window->findChild<QAction *>(QStringLiteral("verifySelectedAction"));
    ASSERT_TRUE(waitFor([&] { return verify->isEnabled(); }));
    selectRows({rowOfSample(4)});
    verify->trigger();
    ASSERT_TRUE(waitFor([&] { return !samples()->countsCached(); }));
    status->setCurrentIndex(status->findData(QStringLiteral("PASS")));
    EXPECT_EQ(samples()->totalCount(), -1);                             // counting in SQL
    ASSERT_TRUE(waitFor([&] { return samples()->totalCount() == 4; })); // the fake CLI wrote nothing
}

TEST_F(Workbench, GermanTranslationCoversTheMenus)
{
    QTranslator de;
    ASSERT_TRUE(de.load(QStringLiteral(":/i18n/sieve_de.qm")));
    QApplication::installTranslator(&de);
    Settings s(dir.filePath(QStringLiteral("de.ini")));
    MainWindow german(s);
    QStringList menus;
    for (QAction *a : german.menuBar()->actions())
        menus << a->text();
    EXPECT_TRUE(menus.contains(QStringLiteral("&Datei"))) << menus.join(QLatin1Char(' ')).toStdString();
    german.resize(1200, 700);
    german.show();
    ASSERT_TRUE(german.openCorpus(corpus.path));
    ASSERT_TRUE(waitFor([&] { return german.taskPane()->model()->rowCount() == 3; }));
    QTest::qWait(100);
    test::screenshot(&german, QStringLiteral("09-german"));
    QApplication::removeTranslator(&de);
}

TEST_F(Workbench, LanguageSwitchInTheSettingsTakesEffectAtOnce)
{
    auto menuTitles = [this] {
        QStringList menus;
        for (QAction *a : window->menuBar()->actions())
            menus << a->text();
        return menus;
    };
    auto *search = find<QLineEdit>("sampleSearch");
    auto *reference = find<QToolButton>("referenceButton");
    const int teacher = queries::ColModel;
    ASSERT_TRUE(menuTitles().contains(QStringLiteral("&File")));
    EXPECT_EQ(search->placeholderText(), QStringLiteral("Filter by sample or teacher"));

    // The settings dialog's Apply: the window, the panes, the model headers and the dialog itself switch.
    SettingsDialog dialog(*settings, window.get());
    auto *combo = dialog.findChild<QComboBox *>(QStringLiteral("languageCombo"));
    combo->setCurrentIndex(combo->findData(QStringLiteral("de")));
    dialog.findChild<QDialogButtonBox *>(QStringLiteral("settingsButtons"))->button(QDialogButtonBox::Apply)->click();
    EXPECT_EQ(language::current(), QStringLiteral("de"));
    // Qt posts LanguageChange to the windows: it arrives with the next turn of the event loop.
    EXPECT_TRUE(waitFor([&] { return menuTitles().contains(QStringLiteral("&Datei")); }))
        << menuTitles().join(QLatin1Char(' ')).toStdString();
    EXPECT_EQ(search->placeholderText(), QStringLiteral("Nach Probe oder Lehrermodell filtern"));
    EXPECT_EQ(find<QComboBox>("statusFilter")->itemText(0), QStringLiteral("Jeder Status"));
    EXPECT_EQ(samples()->headerData(teacher, Qt::Horizontal, Qt::DisplayRole).toString(),
              QStringLiteral("Lehrermodell"));
    EXPECT_EQ(reference->text(), QStringLiteral("Referenz"));
    EXPECT_EQ(dialog.windowTitle(), QStringLiteral("Einstellungen"));
    test::screenshot(window.get(), QStringLiteral("11-german-live"));

    // And back: nothing stays German.
    combo->setCurrentIndex(combo->findData(QStringLiteral("en")));
    dialog.apply();
    EXPECT_EQ(language::current(), QStringLiteral("en"));
    EXPECT_TRUE(waitFor([&] { return menuTitles().contains(QStringLiteral("&File")); }))
        << menuTitles().join(QLatin1Char(' ')).toStdString();
    EXPECT_EQ(search->placeholderText(), QStringLiteral("Filter by sample or teacher"));
    EXPECT_EQ(find<QComboBox>("statusFilter")->itemText(0), QStringLiteral("Any status"));
    EXPECT_EQ(samples()->headerData(teacher, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Teacher"));
    EXPECT_EQ(reference->text(), QStringLiteral("Reference"));
    EXPECT_EQ(dialog.windowTitle(), QStringLiteral("Settings"));
}
