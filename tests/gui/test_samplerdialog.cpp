// Corpus › Sample from Teacher… as a user runs it: the dialog opens from the menu with the teacher settings
// filled in, a keep-all run against the OpenAI-compatible test server (tests/net/fakeserver.h, served on
// this thread's event loop) stores samples while the counters move, an endpoint error that echoes the key
// is retried and redacted, and the sample list reloads at the end; Stop leaves the run resumable.
#include "tests/gui/guitest.h"

#include "core/db/corpus.h"
#include "tests/net/fakeserver.h"
#include "ui/dialogs/samplerdialog.h"
#include "ui/main/mainwindow.h"
#include "ui/main/settings.h"
#include "ui/models/samplemodel.h"
#include "ui/models/taskmodel.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace sieve;
using namespace sieve::ui;
using test::FakeAction;
using test::FakeServer;
using test::GuiCorpus;
using test::waitFor;

namespace {

constexpr char kKey[] = "sk-gui-K3Y-must-stay-hidden";

class SamplerWorkbench : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_NE(server.listen(), 0);
        qputenv("SIEVE_GUI_TEST_KEY", kKey);
        settings = std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini")));
        settings->teacherEndpoint.setValue(QString::fromUtf8(server.baseUrl()));
        settings->teacherModel.setValue(QStringLiteral("teacher-test"));
        settings->teacherKeyEnv.setValue(QStringLiteral("SIEVE_GUI_TEST_KEY"));
        window = std::make_unique<MainWindow>(*settings);
        window->setErrorHandler([this](const QString &m) { errors << m; });
        window->resize(1500, 900);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        ASSERT_TRUE(window->openCorpus(corpus.path));
        ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 9; }));
    }
    void TearDown() override { qunsetenv("SIEVE_GUI_TEST_KEY"); }

    template <typename T> T *find(QObject *in, const char *name)
    {
        T *w = in->findChild<T *>(QString::fromLatin1(name));
        EXPECT_NE(w, nullptr) << name;
        return w;
    }
    SampleModel *samples() { return static_cast<SampleModel *>(find<QTableView>(window.get(), "sampleView")->model()); }
    qint64 taskSampleCounts()
    {
        QAbstractItemModel *m = find<QTreeView>(window.get(), "taskView")->model();
        qint64 n = 0;
        for (int r = 0; r < m->rowCount(); ++r)
            n += m->index(r, 0).data(TaskModel::SamplesRole).toLongLong();
        return n;
    }
    qint64 dbInt(const std::string &sql)
    {
        Corpus c = Corpus::open(corpus.path.toStdString(), true);
        return c.db().queryInt(sql).value_or(-1);
    }
    QString dbText(const std::string &sql)
    {
        Corpus c = Corpus::open(corpus.path.toStdString(), true);
        return QString::fromStdString(c.db().queryText(sql).value_or("<null>"));
    }
    // Opens the dialog the way a user does: through the Corpus menu's action.
    SamplerDialog *openFromMenu()
    {
        QAction *action = nullptr;
        QString menuTitle;
        for (QAction *top : window->menuBar()->actions())
            if (top->menu())
                for (QAction *a : top->menu()->actions())
                    if (a->objectName() == QLatin1String("sampleTeacherAction")) {
                        action = a;
                        menuTitle = top->text();
                    }
        EXPECT_NE(action, nullptr) << "no Sample from Teacher action in the menus";
        if (!action)
            return nullptr;
        EXPECT_EQ(menuTitle, QStringLiteral("&Corpus"));
        EXPECT_EQ(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_T));
        EXPECT_TRUE(action->isEnabled());
        action->trigger();
        auto *d = window->findChild<SamplerDialog *>(QStringLiteral("samplerDialog"));
        EXPECT_NE(d, nullptr);
        if (d) {
            EXPECT_TRUE(QTest::qWaitForWindowExposed(d));
        }
        return d;
    }

    QTemporaryDir dir;
    GuiCorpus corpus;
    FakeServer server;
    std::unique_ptr<Settings> settings;
    std::unique_ptr<MainWindow> window;
    QStringList errors;
};

} // namespace

TEST_F(SamplerWorkbench, KeepAllRunFromTheMenuStoresSamplesAndRefreshesTheView)
{
    SamplerDialog *d = openFromMenu();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(find<QLineEdit>(d, "samplerEndpoint")->text(), QString::fromUtf8(server.baseUrl()));
    EXPECT_EQ(find<QLineEdit>(d, "samplerModel")->text(), QStringLiteral("teacher-test"));
    EXPECT_EQ(find<QLineEdit>(d, "samplerKeyEnv")->text(), QStringLiteral("SIEVE_GUI_TEST_KEY"));
    auto *mode = find<QComboBox>(d, "samplerMode");
    mode->setCurrentIndex(mode->findData(QStringLiteral("keep-all")));
    find<QSpinBox>(d, "samplerK")->setValue(2);
    find<QSpinBox>(d, "samplerConcurrency")->setValue(4);
    find<QLineEdit>(d, "samplerRunId")->setText(QStringLiteral("gui-run"));
    // A hostile endpoint error that repeats the Authorization header: retried, and the key redacted.
    server.script({FakeAction{FakeAction::EchoAuth}});

    QSignalSpy ended(d, &SamplerDialog::runEnded);
    auto *startStop = find<QPushButton>(d, "samplerStartStop");
    QTest::mouseClick(startStop, Qt::LeftButton);
    EXPECT_EQ(startStop->text(), QStringLiteral("Stop"));
    EXPECT_FALSE(find<QLineEdit>(d, "samplerEndpoint")->isEnabled());
    ASSERT_TRUE(waitFor([&] { return ended.count() == 1; }, 30000))
        << find<QPlainTextEdit>(d, "samplerLog")->toPlainText().toStdString();
    EXPECT_EQ(ended.at(0).at(0).toString(), QStringLiteral("finished"));
    EXPECT_EQ(startStop->text(), QStringLiteral("Start"));

    // The live counters end on the run's totals.
    EXPECT_EQ(find<QLabel>(d, "samplerTasksDone")->text(), QStringLiteral("3 of 3"));
    EXPECT_TRUE(
        find<QLabel>(d, "samplerAttemptsDone")->text().startsWith(QStringLiteral("6 (6 this session, 7 requests)")))
        << find<QLabel>(d, "samplerAttemptsDone")->text().toStdString();
    EXPECT_EQ(find<QLabel>(d, "samplerRetries")->text(), QStringLiteral("1"));
    EXPECT_TRUE(find<QLabel>(d, "samplerErrors")->text().startsWith(QStringLiteral("0 ")));
    EXPECT_TRUE(find<QLabel>(d, "samplerStatus")->text().contains(QStringLiteral("finished")));
    const QString logText = find<QPlainTextEdit>(d, "samplerLog")->toPlainText();
    EXPECT_TRUE(logText.contains(QStringLiteral("[redacted]"))) << logText.toStdString();
    EXPECT_FALSE(logText.contains(QLatin1String(kKey)));
    EXPECT_EQ(server.requests().value(0).authorization, QByteArray("Bearer ") + kKey);

    // Six teacher samples landed in the corpus under the run, with the model of the settings.
    EXPECT_EQ(dbInt("SELECT count(*) FROM samples WHERE origin='teacher' AND model='teacher-test'"), 6);
    EXPECT_EQ(
        dbInt("SELECT count(*) FROM sample_run_items i JOIN sample_runs r ON r.id=i.run_id WHERE r.name='gui-run'"), 6);
    EXPECT_EQ(dbText("SELECT state FROM sample_runs WHERE name='gui-run'"), QStringLiteral("finished"));
    EXPECT_FALSE(dbText("SELECT params_json || endpoint || ifnull(stats_json,'') FROM sample_runs")
                     .contains(QLatin1String(kKey)));
    // ... and the workbench shows them without a manual refresh.
    EXPECT_TRUE(waitFor([this] { return samples()->totalCount() == 15 && taskSampleCounts() == 15; }))
        << samples()->totalCount() << " samples listed, " << taskSampleCounts() << " counted on tasks";
    // What the user typed stays in the settings registry for the next run.
    EXPECT_EQ(settings->teacherModel.value(), QStringLiteral("teacher-test"));
    EXPECT_TRUE(errors.isEmpty()) << errors.join(QLatin1Char('\n')).toStdString();
    test::screenshot(d, QStringLiteral("sampler-finished"));
}

TEST_F(SamplerWorkbench, StopLeavesTheRunResumable)
{
    server.setLatencyMs(20000); // the teacher "thinks" longer than the test waits
    SamplerDialog *d = openFromMenu();
    ASSERT_NE(d, nullptr);
    auto *mode = find<QComboBox>(d, "samplerMode");
    mode->setCurrentIndex(mode->findData(QStringLiteral("keep-all")));
    find<QLineEdit>(d, "samplerRunId")->setText(QStringLiteral("stopped-run"));
    QSignalSpy ended(d, &SamplerDialog::runEnded);
    auto *startStop = find<QPushButton>(d, "samplerStartStop");
    QTest::mouseClick(startStop, Qt::LeftButton);
    ASSERT_TRUE(waitFor([&] { return server.received() == 3; }));
    ASSERT_TRUE(waitFor([&] { return find<QLabel>(d, "samplerInFlight")->text().startsWith(QStringLiteral("3 ")); }))
        << find<QLabel>(d, "samplerInFlight")->text().toStdString();
    QTest::mouseClick(startStop, Qt::LeftButton);
    ASSERT_TRUE(waitFor([&] { return ended.count() == 1; }));
    EXPECT_EQ(ended.at(0).at(0).toString(), QStringLiteral("interrupted"));
    EXPECT_EQ(startStop->text(), QStringLiteral("Start"));
    EXPECT_TRUE(find<QLineEdit>(d, "samplerRunId")->isEnabled());
    EXPECT_TRUE(find<QPlainTextEdit>(d, "samplerLog")->toPlainText().contains(QStringLiteral("resume")));
    EXPECT_EQ(dbText("SELECT state FROM sample_runs WHERE name='stopped-run'"), QStringLiteral("interrupted"));
    EXPECT_EQ(dbInt("SELECT count(*) FROM samples WHERE origin='teacher' AND model='teacher-test'"), 0);
}

TEST_F(SamplerWorkbench, FirstPassFromTheDialogVerifiesEachAttemptThroughTheCli)
{
    // A stand-in for sieve-cli that records its arguments and gives the verdict where the real verifier
    // does (tests/net/test_firstpass_verify.cpp runs the real one): attempt 2 passes.
    const QString args = dir.filePath(QStringLiteral("verify-args.txt"));
    const QString script = dir.filePath(QStringLiteral("fake-verify-cli"));
    QFile f(script);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral("#!/usr/bin/env python3\n"
                           "import sqlite3, sys\n"
                           "a = sys.argv[1:]\n"
                           "if a[:1] == ['--help']:\n"
                           "    print('Usage: sieve-cli COMMAND\\n\\nCommands:\\n  verify   verifies samples')\n"
                           "    sys.exit(0)\n"
                           "open('%1', 'a').write(' '.join(a) + '\\n')\n"
                           "sid = int(a[a.index('--sample') + 1])\n"
                           "c = sqlite3.connect(a[1], timeout=30)\n"
                           "att = c.execute('SELECT attempt FROM samples WHERE id=?', (sid,)).fetchone()[0]\n"
                           "c.execute('UPDATE samples SET status=? WHERE id=?', ('PASS' if att == 2 else "
                           "'FAIL_MISMATCH', sid))\n"
                           "c.commit()\n")
                .arg(args)
                .toUtf8());
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeUser);
    window->setCliProgram(script);

    SamplerDialog *d = openFromMenu();
    ASSERT_NE(d, nullptr);
    auto *mode = find<QComboBox>(d, "samplerMode");
    EXPECT_EQ(mode->currentData().toString(), QStringLiteral("first-pass"));
    find<QSpinBox>(d, "samplerAttempts")->setValue(3);
    find<QLineEdit>(d, "samplerRunId")->setText(QStringLiteral("gui-first-pass"));
    QSignalSpy ended(d, &SamplerDialog::runEnded);
    QTest::mouseClick(find<QPushButton>(d, "samplerStartStop"), Qt::LeftButton);
    ASSERT_TRUE(waitFor([&] { return ended.count() == 1; }, 60000))
        << find<QPlainTextEdit>(d, "samplerLog")->toPlainText().toStdString();
    EXPECT_EQ(ended.at(0).at(0).toString(), QStringLiteral("finished"))
        << find<QPlainTextEdit>(d, "samplerLog")->toPlainText().toStdString();
    // Three tasks, each failed once and passed at attempt 2: six requests, six verifications, no third try.
    EXPECT_EQ(server.received(), 6u);
    EXPECT_EQ(find<QLabel>(d, "samplerPassed")->text(), QStringLiteral("3"));
    EXPECT_EQ(find<QLabel>(d, "samplerTasksDone")->text(), QStringLiteral("3 of 3"));
    EXPECT_EQ(dbInt("SELECT count(*) FROM sample_run_items i JOIN sample_runs r ON r.id=i.run_id "
                    "WHERE r.name='gui-first-pass' AND i.attempt=2 AND i.status='PASS'"),
              3);
    EXPECT_EQ(dbInt("SELECT count(*) FROM sample_run_items WHERE attempt=3"), 0);
    QFile recorded(args);
    ASSERT_TRUE(recorded.open(QIODevice::ReadOnly));
    const QStringList calls = QString::fromUtf8(recorded.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(calls.size(), 6);
    // The corpus path and the sample id are filled in; the flags are the Verify menu's.
    EXPECT_TRUE(calls.first().startsWith(QStringLiteral("verify ") + corpus.path + QStringLiteral(" --json")))
        << calls.first().toStdString();
    EXPECT_TRUE(calls.first().contains(QStringLiteral("--sample ")));
    EXPECT_FALSE(calls.first().contains(QStringLiteral("{sample}")));
    EXPECT_TRUE(waitFor([this] { return samples()->totalCount() == 15; }));
}

TEST_F(SamplerWorkbench, ClosingTheWindowMidRunLeavesTheRunResumable)
{
    // One reply is stored (so the end of the run has samples to announce), two are still "thinking".
    server.script({FakeAction{FakeAction::Ok}, FakeAction{FakeAction::Slow, 200, {}, {}, 20000},
                   FakeAction{FakeAction::Slow, 200, {}, {}, 20000}});
    SamplerDialog *d = openFromMenu();
    ASSERT_NE(d, nullptr);
    auto *mode = find<QComboBox>(d, "samplerMode");
    mode->setCurrentIndex(mode->findData(QStringLiteral("keep-all")));
    find<QLineEdit>(d, "samplerRunId")->setText(QStringLiteral("closed-run"));
    QTest::mouseClick(find<QPushButton>(d, "samplerStartStop"), Qt::LeftButton);
    ASSERT_TRUE(waitFor([&] {
        return server.received() == 3 &&
               find<QLabel>(d, "samplerAttemptsDone")->text().startsWith(QStringLiteral("1 "));
    }));
    window->close();
    window.reset(); // the dialog goes with its window, mid-run; the window must not hear of the run's end
    EXPECT_EQ(dbText("SELECT state FROM sample_runs WHERE name='closed-run'"), QStringLiteral("interrupted"));
    EXPECT_EQ(dbInt("SELECT count(*) FROM samples WHERE origin='teacher' AND model='teacher-test'"), 1);
}

TEST_F(SamplerWorkbench, FirstPassWithoutSieveCliSaysSoAndSendsNothing)
{
    window->setCliProgram(dir.filePath(QStringLiteral("no-such-sieve-cli")));
    SamplerDialog *d = openFromMenu();
    ASSERT_NE(d, nullptr);
    QTest::mouseClick(find<QPushButton>(d, "samplerStartStop"), Qt::LeftButton);
    EXPECT_FALSE(d->running());
    EXPECT_EQ(find<QPushButton>(d, "samplerStartStop")->text(), QStringLiteral("Start"));
    EXPECT_TRUE(find<QPlainTextEdit>(d, "samplerLog")->toPlainText().contains(QStringLiteral("no-such-sieve-cli")));
    QTest::qWait(100);
    EXPECT_EQ(server.received(), 0u);
    EXPECT_EQ(dbInt("SELECT count(*) FROM sample_runs"), 0);
}
