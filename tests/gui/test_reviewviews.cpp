// Issue 32 (the views around the review loop) and issue 34 point 4 (read-only corpora in the GUI): each
// test drives the real window (offscreen) on a real corpus file and fails without its change.
#include "tests/gui/workbench.h"

#include "core/import/importlock.h"
#include "ui/clusters/clustermodels.h"
#include "ui/clusters/clusterpage.h"
#include "ui/dialogs/importdialog.h"
#include "ui/dialogs/shortcutsdialog.h"
#include "ui/editors/codeeditor.h"
#include "ui/main/emptystate.h"
#include "ui/main/figures.h"
#include "ui/models/taskmodel.h"
#include "ui/panes/detailspane.h"
#include "ui/panes/samplepane.h"
#include "ui/review/reviewbar.h"
#include "ui/stats/chart.h"
#include "ui/verdict/timingpanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QStatusBar>
#include <QTabBar>
#include <QTreeWidget>

#include <unistd.h>

using namespace sieve;
using namespace sieve::ui;
using test::GuiCorpus;
using test::waitFor;

namespace {
class ReviewViews : public test::Workbench
{
protected:
    QLabel *label(const char *name) { return find<QLabel>(name); }
    QString progressText() { return label("reviewProgressLabel")->text(); }
    // Every (command, keys) row of the shortcuts overlay.
    QStringList overlayRows(ShortcutsDialog *dialog)
    {
        QStringList rows;
        for (int g = 0; g < dialog->view()->topLevelItemCount(); ++g)
            for (int i = 0; i < dialog->view()->topLevelItem(g)->childCount(); ++i) {
                const QTreeWidgetItem *item = dialog->view()->topLevelItem(g)->child(i);
                rows << item->text(0) + QStringLiteral(" = ") + item->text(1);
            }
        return rows;
    }
    QString copyCorpus(const QString &name)
    {
        const QString copy = dir.filePath(name);
        QFile::remove(copy);
        EXPECT_TRUE(QFile::copy(corpus.path, copy));
        return copy;
    }
    bool openAndWait(const QString &path)
    {
        bool opened = false;
        auto c = QObject::connect(window.get(), &MainWindow::corpusOpened, window.get(), [&] { opened = true; });
        const bool started = window->openCorpus(path);
        const bool ok = started && waitFor([&] { return opened; }, 10000);
        QObject::disconnect(c);
        return ok;
    }
};

QString plain(QString text)
{
    return text.remove(QLatin1Char('&'));
}
} // namespace

// Help › Keyboard Shortcuts lists what the actions themselves carry: a new action shows up without anyone
// writing it into a list, and every shortcut of the window is there.
TEST_F(ReviewViews, TheShortcutsOverlayListsEveryShortcutFromTheActions)
{
    auto *open = window->findChild<QAction *>(QStringLiteral("shortcutsAction"));
    ASSERT_NE(open, nullptr);
    open->trigger();
    auto *dialog = window->findChild<ShortcutsDialog *>(QStringLiteral("shortcutsDialog"));
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    QStringList rows = overlayRows(dialog);
    for (QAction *a : window->findChildren<QAction *>()) {
        if (a->shortcut().isEmpty() || a->text().isEmpty())
            continue;
        const QString row = plain(a->text()) + QStringLiteral(" = ");
        EXPECT_TRUE(std::any_of(rows.cbegin(), rows.cend(), [&](const QString &r) { return r.startsWith(row); }))
            << row.toStdString();
    }
    EXPECT_TRUE(rows.contains(QStringLiteral("Accept = A"))) << rows.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(rows.contains(QStringLiteral("Maximise Comparison = Ctrl+Shift+M")));

    auto *probe = new QAction(QStringLiteral("Probe Command"), window.get());
    probe->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P));
    open->trigger();
    rows = overlayRows(dialog);
    EXPECT_TRUE(rows.contains(QStringLiteral("Probe Command = Ctrl+Alt+P")));
    test::screenshot(dialog, QStringLiteral("32-shortcuts"));
}

// Reviewed / accepted / rejected / to do: overall in the status bar and per task in the task list, after
// each decision; figures with thousands separators and "1 sample", not "1 sample(s)".
TEST_F(ReviewViews, ReviewProgressFollowsEachDecision)
{
    ASSERT_TRUE(waitFor([&] { return !progressText().isEmpty(); }));
    EXPECT_EQ(progressText(), QStringLiteral("0 of 9 reviewed · 0 accepted · 0 rejected · 9 to do"));
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluFast)});
    QTest::keyClick(sampleView(), Qt::Key_A);
    EXPECT_TRUE(waitFor([&] { return progressText().startsWith(QStringLiteral("1 of 9 reviewed · 1 accepted")); }))
        << progressText().toStdString();
    selectRows({rowOfSample(GuiCorpus::kReluMismatch)});
    QTest::keyClick(sampleView(), Qt::Key_R);
    QTest::keyClick(sampleView(), Qt::Key_1); // the first reason
    EXPECT_TRUE(waitFor([&] {
        return progressText() == QStringLiteral("2 of 9 reviewed · 1 accepted · 1 rejected · 7 to do");
    })) << progressText().toStdString();
    // Per task: the relu row says 2 of its 4 are reviewed, and its tooltip the rest.
    QAbstractItemModel *tasks = taskView()->model();
    QModelIndex relu;
    for (int r = 0; r < tasks->rowCount(); ++r)
        if (tasks->index(r, 0).data().toString() == QStringLiteral("relu"))
            relu = tasks->index(r, TaskModel::ColReviewed);
    ASSERT_TRUE(relu.isValid());
    EXPECT_FALSE(taskView()->isColumnHidden(TaskModel::ColReviewed));
    EXPECT_EQ(relu.data().toString(), QStringLiteral("2/4"));
    EXPECT_TRUE(relu.siblingAtColumn(0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("2 of 4 reviewed · 1 accepted · 1 rejected · 2 to do")));

    EXPECT_EQ(figures::samples(1), QStringLiteral("1 sample"));
    EXPECT_EQ(figures::rows(1), QStringLiteral("1 row"));
    EXPECT_EQ(figures::rows(2), QStringLiteral("2 rows"));
    EXPECT_EQ(figures::samples(12345), QStringLiteral("12,345 samples"));
    EXPECT_TRUE(find<QLabel>("taskCount")->text().contains(QStringLiteral("9 samples")));
    // In the language shown, at once.
    settings->language.setValue(QStringLiteral("de"));
    EXPECT_TRUE(waitFor([&] { return progressText().startsWith(QStringLiteral("2 von 9 begutachtet")); }))
        << progressText().toStdString();
    settings->language.setValue(QStringLiteral("en"));
    EXPECT_TRUE(waitFor([&] { return progressText().startsWith(QStringLiteral("2 of 9 reviewed")); }));
}

// Every view that can be empty says why and what to do; a filter that matches nothing offers to clear it.
TEST_F(ReviewViews, EmptyViewsSayWhyAndAFilterThatMatchesNothingCanBeCleared)
{
    auto *taskEmpty = find<EmptyState>("taskEmptyLabel");
    auto *sampleEmpty = find<EmptyState>("sampleEmptyLabel");
    EXPECT_TRUE(taskEmpty->isHidden());
    find<QLineEdit>("taskSearch")->setText(QStringLiteral("no-such-task"));
    ASSERT_TRUE(waitFor([&] { return !taskEmpty->isHidden(); }));
    EXPECT_TRUE(taskEmpty->text().contains(QStringLiteral("No task matches the filter")));
    Q_EMIT taskEmpty->linkActivated(QStringLiteral("#clear"));
    EXPECT_TRUE(find<QLineEdit>("taskSearch")->text().isEmpty());
    EXPECT_TRUE(waitFor([&] { return taskView()->model()->rowCount() == 3 && taskEmpty->isHidden(); }));

    find<QLineEdit>("sampleSearch")->setText(QStringLiteral("no-such-sample"));
    ASSERT_TRUE(waitFor([&] { return !sampleEmpty->isHidden(); }));
    EXPECT_TRUE(sampleEmpty->text().contains(QStringLiteral("No sample matches the filter")));
    EXPECT_TRUE(sampleEmpty->text().contains(QStringLiteral("Clear filter")));
    test::screenshot(window.get(), QStringLiteral("32-empty-filter"));
    Q_EMIT sampleEmpty->linkActivated(QStringLiteral("#clear"));
    EXPECT_TRUE(find<QLineEdit>("sampleSearch")->text().isEmpty());
    EXPECT_TRUE(waitFor([&] { return samples()->rowCount() == 9 && sampleEmpty->isHidden(); }));

    // A sample with no verdict: the timing tab says so instead of drawing empty axes.
    selectRows({rowOfSample(GuiCorpus::kReluPending)});
    auto *noTimings = find<EmptyState>("noTimingsLabel");
    ASSERT_TRUE(waitFor([&] { return !noTimings->isHidden(); }));
    EXPECT_TRUE(noTimings->text().contains(QStringLiteral("not been verified yet")));

    // A corpus without tasks (a new one) says how to fill it.
    window->newCorpus(dir.filePath(QStringLiteral("empty.sieve")));
    ASSERT_TRUE(waitFor([&] { return window->corpusPath().endsWith(QStringLiteral("empty.sieve")); }));
    EXPECT_TRUE(waitFor([&] { return !taskEmpty->isHidden() && taskEmpty->text().contains(QStringLiteral("Import")); }))
        << taskEmpty->text().toStdString();
    EXPECT_TRUE(waitFor([&] { return !sampleEmpty->isHidden(); }));
    EXPECT_TRUE(sampleEmpty->text().contains(QStringLiteral("No samples in this corpus")));
    // No corpus at all: the welcome page says so.
    window->closeCorpus();
    EXPECT_TRUE(label("welcomeLabel")->text().contains(QStringLiteral("No corpus is open")));
}

// A CPU verdict: the timing tab says there is no GPU timing (no empty axes), the proof-of-work line does
// not speak of GPU time, and the PTX/SASS tab is off for Triton samples, saying why.
TEST_F(ReviewViews, CpuVerdictsAndTritonSamplesShowWhatTheyHave)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluMismatch)}); // verified on the CPU, no timings
    ASSERT_TRUE(waitFor([&] { return label("verdictStatus")->text().contains(QStringLiteral("FAIL_MISMATCH")); }));
    window->details()->setCurrentIndex(DetailsPane::TimingTab);
    auto *panel = find<TimingPanel>("timingPanel");
    auto *noTimings = find<EmptyState>("noTimingsLabel");
    EXPECT_FALSE(noTimings->isHidden());
    EXPECT_TRUE(noTimings->text().contains(QStringLiteral("no GPU timing"))) << noTimings->text().toStdString();
    EXPECT_TRUE(panel->perShapeChart()->isHidden());
    EXPECT_FALSE(label("verdictProof")->text().contains(QStringLiteral("GPU")))
        << label("verdictProof")->text().toStdString();
    EXPECT_TRUE(label("verdictProof")->text().contains(QStringLiteral("CPU")));
    test::screenshot(window.get(), QStringLiteral("32-cpu-timing"));

    DetailsPane *details = window->details();
    EXPECT_FALSE(details->isTabEnabled(DetailsPane::PtxTab));
    EXPECT_TRUE(details->tabToolTip(DetailsPane::PtxTab).contains(QStringLiteral("CUDA samples only")));
    // A CUDA sample: the tab is there.
    pickTask(QStringLiteral("matmul_bias"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 3; }));
    selectRows({0});
    EXPECT_TRUE(waitFor([&] { return details->isTabEnabled(DetailsPane::PtxTab); }));
}

// File › Import…: a KernelBench folder, or files with the format chosen from the importer's own list; it
// runs the real sieve-cli import and the tasks arrive.
TEST_F(ReviewViews, ImportAFolderOrFilesWithTheFormatChosen)
{
    window->setCliProgram(QStringLiteral(SIEVE_CLI_PATH));
    auto *action = window->findChild<QAction *>(QStringLiteral("importAction"));
    ASSERT_TRUE(waitFor([&] { return action->isEnabled(); }, 15000));
    action->trigger();
    auto *dialog = window->findChild<ImportDialog *>(QStringLiteral("importDialog"));
    ASSERT_NE(dialog, nullptr);
    auto *format = dialog->findChild<QComboBox *>(QStringLiteral("importFormat"));
    QStringList formats;
    for (int i = 0; i < format->count(); ++i)
        formats << format->itemData(i).toString();
    EXPECT_EQ(formats, (QStringList{QStringLiteral("kernelbench"), QStringLiteral("kernelbook"),
                                    QStringLiteral("cuda-archive"), QStringLiteral("sieve")}));
    // Files: the format is preset from the first record, and the reviewer may change it.
    dialog->setPaths({QStringLiteral(SIEVE_TEST_DATA "/import/kernelbook.jsonl")});
    EXPECT_EQ(dialog->format(), QStringLiteral("kernelbook"));
    // A KernelBench folder: its format is kernelbench.
    dialog->setSource(ImportDialog::Source::KernelBenchFolder);
    EXPECT_FALSE(format->isEnabled());
    dialog->setPaths({QStringLiteral(SIEVE_TEST_DATA "/import/kernelbench")});
    EXPECT_EQ(dialog->format(), QStringLiteral("kernelbench"));
    test::screenshot(dialog, QStringLiteral("32-import-dialog"));
    int code = -1;
    QObject::connect(window.get(), &MainWindow::cliFinished, window.get(), [&](int c) { code = c; });
    dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
    ASSERT_TRUE(waitFor([&] { return code >= 0; }, 60000));
    EXPECT_EQ(code, 0) << errors.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(dbInt("SELECT count(*) FROM tasks"), 6);
    EXPECT_TRUE(waitFor([&] { return taskView()->model()->rowCount() == 6; }));
}

// The Verify menu: the policy reaches the CLI, Check Tasks runs `tasks check`, a large run asks first with
// an estimate, and the run's summary stays in view after it ends.
TEST_F(ReviewViews, VerifyMenuHasPolicyTaskCheckAConfirmationAndASummary)
{
    const QString cli = test::fakeCli(dir, {QStringLiteral("verify"), QStringLiteral("tasks")},
                                      QStringLiteral("{\"sample\":4,\"status\":\"PASS\",\"speedup\":1.5}\n"
                                                     "{\"sample\":7,\"status\":\"FAIL_COMPILE\"}\n"));
    const QString argsFile = dir.filePath(QStringLiteral("fake-cli.out.args"));
    auto args = [&] {
        QFile f(argsFile);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
    };
    window->setCliProgram(cli);
    auto *pending = window->findChild<QAction *>(QStringLiteral("verifyPendingAction"));
    ASSERT_TRUE(waitFor([&] { return pending->isEnabled(); }));

    // More samples than the threshold: asked, with the count and an estimate; "no" starts nothing.
    settings->confirmRunAbove.setValue(2);
    settings->lastRate.setValue(0.0);
    qint64 asked = -1;
    QString estimate;
    bool answer = false;
    window->setConfirmRun([&](qint64 n, const QString &e) {
        asked = n;
        estimate = e;
        return answer;
    });
    pending->trigger();
    ASSERT_TRUE(waitFor([&] { return asked >= 0; }));
    EXPECT_EQ(asked, 3); // samples 4, 7 and 9 are pending
    EXPECT_TRUE(estimate.contains(QStringLiteral("typical rate"))) << estimate.toStdString();
    QTest::qWait(300);
    EXPECT_TRUE(args().isEmpty());

    // The policy chosen in the menu reaches the CLI; "yes" starts the run; the summary stays.
    window->findChild<QAction *>(QStringLiteral("policyAction-kernelbench"))->trigger();
    EXPECT_EQ(settings->policy.value(), QStringLiteral("kernelbench"));
    answer = true;
    pending->trigger();
    auto *summary = label("runSummaryLabel");
    ASSERT_TRUE(waitFor([&] { return summary->isVisible(); }, 10000));
    EXPECT_TRUE(args().contains(QStringLiteral("--policy kernelbench"))) << args().toStdString();
    EXPECT_TRUE(summary->text().contains(QStringLiteral("2 samples verified"))) << summary->text().toStdString();
    EXPECT_TRUE(summary->text().contains(QStringLiteral("1 PASS")));
    EXPECT_TRUE(summary->text().contains(QStringLiteral("1 FAIL_COMPILE")));

    // The next estimate uses this run's rate.
    settings->lastRate.setValue(4.0);
    asked = -1;
    answer = false;
    pending->trigger();
    ASSERT_TRUE(waitFor([&] { return asked >= 0; }));
    EXPECT_TRUE(estimate.contains(QStringLiteral("last run's rate"))) << estimate.toStdString();

    // Verify › Check Tasks runs the CLI's task check on this corpus.
    auto *check = window->findChild<QAction *>(QStringLiteral("checkTasksAction"));
    ASSERT_TRUE(waitFor([&] { return check->isEnabled(); }));
    int code = -1;
    QObject::connect(window.get(), &MainWindow::cliFinished, window.get(), [&](int c) { code = c; });
    check->trigger();
    ASSERT_TRUE(waitFor([&] { return code >= 0; }, 10000));
    EXPECT_TRUE(args().startsWith(QStringLiteral("tasks check ") + corpus.path)) << args().toStdString();
}

// Errors in the user's terms: a file that is not a corpus, a damaged corpus (with how to recover), and a
// corpus another process is writing, said at once with who it is.
TEST_F(ReviewViews, OpenErrorsSayWhatIsWrongAndWhoHoldsALockedCorpus)
{
    const QString text = dir.filePath(QStringLiteral("notes.sieve"));
    {
        QFile f(text);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(8192, 'x'));
    }
    errors.clear();
    window->openCorpus(text);
    ASSERT_TRUE(waitFor([&] { return !errors.isEmpty(); }));
    EXPECT_TRUE(errors.first().contains(QStringLiteral("is not a corpus"))) << errors.first().toStdString();

    // Damaged: the page count in the header says more pages than the file has (a truncated copy).
    const QString damaged = copyCorpus(QStringLiteral("damaged.sieve"));
    {
        QFile f(damaged);
        ASSERT_TRUE(f.open(QIODevice::ReadWrite));
        ASSERT_TRUE(f.resize(f.size() / 2));
    }
    errors.clear();
    window->openCorpus(damaged);
    ASSERT_TRUE(waitFor([&] { return !errors.isEmpty(); }));
    EXPECT_TRUE(errors.first().contains(QStringLiteral("damaged.sieve is damaged"))) << errors.first().toStdString();
    EXPECT_TRUE(errors.first().contains(QStringLiteral(".recover")));
    EXPECT_FALSE(errors.first().contains(QStringLiteral("SQLITE")));
    EXPECT_FALSE(errors.first().contains(QStringLiteral("PRAGMA")));

    // In use: an import holds the corpus's lock. The window says so before the open finishes.
    const QString busy = copyCorpus(QStringLiteral("busy.sieve"));
    {
        const ImportLock lock(busy.toStdString());
        ASSERT_TRUE(window->openCorpus(busy));
        const QString said = window->statusBar()->currentMessage();
        EXPECT_TRUE(said.contains(QStringLiteral("in use by an import"))) << said.toStdString();
        EXPECT_TRUE(said.contains(QStringLiteral("process %1").arg(::getpid()))) << said.toStdString();
        ASSERT_TRUE(waitFor([&] { return window->corpusPath() == busy; }));
        auto *banner = label("corpusBanner");
        EXPECT_TRUE(banner->isVisible());
        EXPECT_TRUE(banner->text().contains(QStringLiteral("In use by an import")));
    }
}

// The cluster page: the reviewer picks the member to keep and reads its code before deciding.
TEST_F(ReviewViews, TheClusterPageShowsTheCodeOfTheMemberToKeep)
{
    window->pages()->setCurrentIndex(MainWindow::ClustersPage);
    ClusterPage *page = window->clusterPage();
    auto *members = find<QTableView>("clusterMemberView");
    ASSERT_TRUE(waitFor([&] { return members->model()->rowCount() == 2; }));
    // The cluster's own representative (2) first, with its code.
    ASSERT_TRUE(waitFor([&] { return page->representativeCode() != nullptr; }));
    EXPECT_EQ(page->shownRepresentative(), 2);
    EXPECT_TRUE(label("representativeLabel")->text().contains(QStringLiteral("#2")));
    const QString code2 = page->representativeCode()->text();
    EXPECT_FALSE(code2.isEmpty());
    // The reviewer chooses sample 1: the label and the code follow.
    for (int r = 0; r < 2; ++r)
        if (members->model()->index(r, 0).data(ClusterMemberModel::IdRole).toLongLong() == 1)
            members->selectRow(r);
    ASSERT_TRUE(waitFor([&] { return page->representativeCode() && page->representativeCode()->text() != code2; }));
    EXPECT_EQ(page->shownRepresentative(), 1);
    EXPECT_TRUE(page->representativeCode()->text().contains(QStringLiteral("tl.maximum")));
    EXPECT_TRUE(label("representativeLabel")->text().contains(QStringLiteral("#1 relu-a1")));
    EXPECT_TRUE(find<QPushButton>("keepRepresentativeButton")->text().contains(QStringLiteral("#1")));
    test::screenshot(window.get(), QStringLiteral("32-cluster-representative"));
}

// Issue 34 point 4: a corpus this process cannot write opens read-only. Browsing works; reviewing,
// importing and verifying are off, and a banner says why.
TEST_F(ReviewViews, AReadOnlyCorpusOpensForBrowsingWithWritesOff)
{
    const QString path = copyCorpus(QStringLiteral("readonly.sieve"));
    // Root may write any file; an immutable one it may not (ext4, xfs: chattr +i).
    if (QProcess::execute(QStringLiteral("chattr"), {QStringLiteral("+i"), path}) != 0)
        GTEST_SKIP() << "chattr +i is not possible here";
    auto release = qScopeGuard([&] { QProcess::execute(QStringLiteral("chattr"), {QStringLiteral("-i"), path}); });
    ASSERT_TRUE(openAndWait(path)) << errors.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(errors.isEmpty()) << errors.join(QLatin1Char('\n')).toStdString();
    EXPECT_FALSE(window->readOnlyReason().isEmpty());
    auto *banner = label("corpusBanner");
    EXPECT_TRUE(banner->isVisible());
    EXPECT_TRUE(banner->text().contains(QStringLiteral("Read-only"))) << banner->text().toStdString();
    EXPECT_TRUE(banner->text().contains(QStringLiteral("not permitted"))) << banner->text().toStdString();
    // Browsing: tasks, samples and a sample's code.
    ASSERT_TRUE(waitFor([this] { return taskView()->model()->rowCount() == 3; }));
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluFast)});
    ASSERT_TRUE(waitFor([&] { return window->details()->details().size() == 1; }));
    // Writing: off, and an attempt says why.
    auto *accept = window->findChild<QAction *>(QStringLiteral("acceptAction"));
    EXPECT_FALSE(accept->isEnabled());
    for (const char *name :
         {"importAction", "verifySelectedAction", "verifyPendingAction", "checkTasksAction", "sampleTeacherAction"})
        EXPECT_FALSE(window->findChild<QAction *>(QString::fromLatin1(name))->isEnabled()) << name;
    EXPECT_TRUE(window->findChild<QAction *>(QStringLiteral("exportAction"))->isEnabled() ||
                window->findChild<QAction *>(QStringLiteral("exportAction"))
                    ->toolTip()
                    .contains(QStringLiteral("sieve-cli"))); // export reads only
    window->samplePane()->reviewBar()->decide(QStringLiteral("accepted"));
    QTest::qWait(300);
    EXPECT_TRUE(window->statusBar()->currentMessage().contains(QStringLiteral("read-only")));
    Corpus c = Corpus::open(path.toStdString(), true);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM reviews").value_or(-1), 0);
    test::screenshot(window.get(), QStringLiteral("34-read-only"));
    settings->language.setValue(QStringLiteral("de"));
    EXPECT_TRUE(waitFor([&] { return banner->text().contains(QStringLiteral("Schreibgeschützt")); }))
        << banner->text().toStdString();
    test::screenshot(window.get(), QStringLiteral("34-de-read-only"));
    settings->language.setValue(QStringLiteral("en"));
    // Another, writable corpus: everything is on again.
    ASSERT_TRUE(openAndWait(corpus.path));
    EXPECT_TRUE(window->readOnlyReason().isEmpty());
    EXPECT_FALSE(banner->isVisible());
    EXPECT_TRUE(accept->isEnabled());
}

// A review made while another process writes the corpus waits for the database; the status bar says so
// at once (not after the database's 10 s wait), naming the process, and the review is saved after it.
TEST_F(ReviewViews, AReviewWaitingForAnotherWriterSaysSoAtOnceAndWho)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluFast)});
    // Another process holds the write lock for three seconds (as an import's batch does), under the
    // import lock that names it.
    const ImportLock lock(corpus.path.toStdString());
    QProcess writer;
    writer.start(QStringLiteral("python3"), {QStringLiteral("-c"),
                                             QStringLiteral("import sqlite3, sys, time\n"
                                                            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                                                            "c.execute('BEGIN EXCLUSIVE')\n"
                                                            "c.execute('UPDATE samples SET review = review')\n"
                                                            "print('held', flush=True)\n"
                                                            "time.sleep(3)\n"
                                                            "c.execute('COMMIT')\n"),
                                             corpus.path});
    ASSERT_TRUE(writer.waitForReadyRead(10000)) << writer.readAllStandardError().toStdString();
    QElapsedTimer clock;
    clock.start();
    QTest::keyClick(sampleView(), Qt::Key_A);
    ASSERT_TRUE(waitFor(
        [&] { return window->statusBar()->currentMessage().contains(QStringLiteral("waits for an import")); }, 2500))
        << window->statusBar()->currentMessage().toStdString();
    EXPECT_LT(clock.elapsed(), 2000);
    EXPECT_TRUE(window->statusBar()->currentMessage().contains(QStringLiteral("process %1").arg(::getpid())));
    ASSERT_TRUE(writer.waitForFinished(10000));
    EXPECT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") == QStringLiteral("accepted"); }, 10000));
    EXPECT_TRUE(errors.isEmpty()) << errors.join(QLatin1Char('\n')).toStdString();
}
