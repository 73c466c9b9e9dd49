#include "ui/main/mainwindow.h"

#include "core/db/corpus.h"
#include "ui/cli/cliprocess.h"
#include "ui/cli/importformat.h"
#include "ui/cli/verifyrunner.h"
#include "ui/clusters/clusterpage.h"
#include "ui/compare/comparisonview.h"
#include "ui/compare/ptxview.h"
#include "ui/data/corpusqueries.h"
#include "ui/data/dbthread.h"
#include "ui/dialogs/exportdialog.h"
#include "ui/dialogs/importdialog.h"
#include "ui/dialogs/prompts.h"
#include "ui/dialogs/samplerdialog.h"
#include "ui/dialogs/settingsdialog.h"
#include "ui/dialogs/shortcutsdialog.h"
#include "ui/main/corpusfile.h"
#include "ui/main/figures.h"
#include "ui/main/language.h"
#include "ui/main/logging.h"
#include "ui/main/settings.h"
#include "ui/models/samplemodel.h"
#include "ui/models/taskmodel.h"
#include "ui/panes/detailspane.h"
#include "ui/panes/samplepane.h"
#include "ui/panes/taskpane.h"
#include "ui/review/reviewbar.h"
#include "ui/review/reviewcommand.h"
#include "ui/stats/statspage.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>

namespace sieve::ui {

namespace {
bool looksLikeCorpus(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("sieve") || suffix == QLatin1String("db") || suffix == QLatin1String("sqlite");
}
} // namespace

MainWindow::MainWindow(Settings &settings, QWidget *parent)
    : QMainWindow(parent), m_settings(settings), m_reader(new DbThread(QStringLiteral("sieve-db-reader"), this)),
      m_writer(new DbThread(QStringLiteral("sieve-db-writer"), this)),
      m_aggregates(new DbThread(QStringLiteral("sieve-db-aggregates"), this)), m_stack(new QStackedWidget),
      m_pages(new QTabWidget), m_tasks(new TaskPane), m_samples(new SamplePane(m_reader, m_writer)),
      m_details(new DetailsPane(m_reader, m_aggregates)), m_clusters(new ClusterPage(m_reader)),
      m_stats(new StatsPage(m_aggregates)), m_cli(new CliCapabilities(this)), m_cliJob(new CliProcess(this)),
      m_verify(new VerifyRunner(settings, this)), m_corpusLabel(new QLabel), m_reviewProgress(new QLabel),
      m_runSummary(new QLabel), m_banner(new QLabel), m_progress(new QProgressBar), m_cancel(new QToolButton),
      m_cliProgram(CliProcess::locate())
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(tr("Sieve"));
    setAcceptDrops(true);
    m_pages->setObjectName(QStringLiteral("pages"));
    m_stack->setObjectName(QStringLiteral("stack"));
    m_pages->setDocumentMode(true);

    auto *split = new QSplitter(Qt::Horizontal);
    split->setObjectName(QStringLiteral("reviewSplitter"));
    split->addWidget(m_tasks);
    split->addWidget(m_samples);
    split->addWidget(m_details);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 4);
    split->setStretchFactor(2, 6);
    split->setSizes({270, 560, 670});
    if (!settings.reviewSplitter.value().isEmpty())
        split->restoreState(settings.reviewSplitter.value());
    // Sizes change only when the reviewer drags a handle (the panes' size hints are bounded), and persist.
    split->setChildrenCollapsible(false);
    connect(split, &QSplitter::splitterMoved, this, [this, split] {
        if (!m_tasks->isHidden())
            m_settings.reviewSplitter.setValue(split->saveState());
    });
    // The review controls sit under the whole page, so they stay in view when the comparison is maximised.
    auto *reviewPage = new QWidget;
    reviewPage->setObjectName(QStringLiteral("reviewPage"));
    auto *reviewLayout = new QVBoxLayout(reviewPage);
    reviewLayout->setContentsMargins(0, 0, 0, 0);
    reviewLayout->setSpacing(0);
    reviewLayout->addWidget(split, 1);
    m_samples->layout()->removeWidget(m_samples->reviewBar());
    reviewLayout->addWidget(m_samples->reviewBar());
    m_pages->addTab(reviewPage, QString());
    m_pages->addTab(m_clusters, QString());
    m_pages->addTab(m_stats, QString());

    auto *welcome = m_welcome = new QLabel;
    welcome->setObjectName(QStringLiteral("welcomeLabel"));
    welcome->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(welcome);
    // Above the pages: why the corpus is read-only, or who else is writing it.
    auto *pagesHolder = new QWidget;
    auto *pagesLayout = new QVBoxLayout(pagesHolder);
    pagesLayout->setContentsMargins(0, 0, 0, 0);
    pagesLayout->setSpacing(0);
    m_banner->setObjectName(QStringLiteral("corpusBanner"));
    m_banner->setWordWrap(true);
    m_banner->setMargin(6);
    m_banner->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the window
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #533f03; }"));
    m_banner->hide();
    pagesLayout->addWidget(m_banner);
    pagesLayout->addWidget(m_pages, 1);
    m_stack->addWidget(pagesHolder);
    setCentralWidget(m_stack);

    m_errorHandler = [this](const QString &message) { QMessageBox::warning(this, tr("Sieve"), message); };
    m_samples->reviewBar()->setReviewer(settings.effectiveReviewer());
    m_samples->setSettings(&m_settings);
    m_details->ptxView()->setArch(settings.cudaArch.value());
    connect(&settings, &Settings::changed, this, [this](const QString &key) {
        if (key == m_settings.reviewer.key())
            m_samples->reviewBar()->setReviewer(m_settings.effectiveReviewer());
        else if (key == m_settings.cudaArch.key())
            m_details->ptxView()->setArch(m_settings.cudaArch.value());
        else if (key == m_settings.policy.key() && m_policyMenu)
            for (QAction *a : m_policyMenu->actions())
                a->setChecked(a->data().toString() == m_settings.policy.value());
        else if (key == m_settings.language.key())
            language::install(*QCoreApplication::instance(), m_settings.language.value()); // LanguageChange follows
    });

    // One source of truth for the sample under review: the details pane takes the table's selection at
    // once (it coalesces its own loads), and A and R act on what the pane was given.
    connect(m_samples, &SamplePane::selectionChanged, m_details, &DetailsPane::showSamples);
    m_samples->reviewBar()->setTarget([this] {
        return ReviewTarget{m_details->targetIds(), int(m_details->sampleIds().size())};
    });
    connect(m_samples->reviewBar(), &ReviewBar::notice, this,
            [this](const QString &message) { statusBar()->showMessage(message, 5000); });
    connect(m_tasks, &TaskPane::selectionChanged, m_samples, &SamplePane::setTasks);
    connect(m_clusters, &ClusterPage::rejectDuplicatesRequested, this,
            [this](qint64 representative, qint64 cluster, const QList<ClusterMember> &others) {
                // The reason a person would give: a member that fails verification is incorrect first.
                QList<BulkItem> items;
                for (const ClusterMember &m : others)
                    items << BulkItem{m.sampleId, m.review,
                                      m.status.startsWith(QLatin1String("FAIL")) ? QStringLiteral("incorrect")
                                                                                 : QStringLiteral("duplicate")};
                m_samples->reviewBar()->decideBulk(
                    items, QStringLiteral("rejected"),
                    tr("duplicate of #%1 (cluster %2)").arg(representative).arg(cluster));
            });
    connect(m_clusters, &ClusterPage::compareRequested, this, [this](const QList<qint64> &ids) {
        if (ids.isEmpty())
            return;
        m_pages->setCurrentIndex(ReviewPage);
        m_details->setCurrentIndex(DetailsPane::CodeTab);
        // The table shows the compared members selected when it holds them; otherwise it shows no
        // selection at all, never another sample than the one A and R would act on.
        if (!m_samples->selectSamples(ids))
            m_details->showSamples(ids);
    });
    auto *taskRefresh = new QTimer(this);
    taskRefresh->setSingleShot(true);
    taskRefresh->setInterval(1000); // counts per task follow reviews without a query per keystroke
    connect(taskRefresh, &QTimer::timeout, this, &MainWindow::reloadTasks);
    connect(m_samples->reviewBar(), &ReviewBar::reviewsWritten, this, [this, taskRefresh](const QList<qint64> &ids) {
        for (qint64 id : ids)
            if (m_details->sampleIds().contains(id)) {
                m_details->refresh();
                break;
            }
        m_clusters->reloadMembers(); // a cluster's duplicates may have been rejected (or that undone)
        taskRefresh->start();
    });
    // Another process writing the corpus holds a review up to the database's wait: say so at once, and who.
    connect(m_samples->reviewBar(), &ReviewBar::writeWaiting, this, [this] {
        const QString holder = corpusfile::lockHolder(m_corpusPath);
        statusBar()->showMessage(
            holder.isEmpty() ? tr("Saving the review waits: another program is writing to the corpus…")
                             : tr("Saving the review waits for %1, which is writing to the corpus…").arg(holder),
            15000);
    });
    connect(m_samples->reviewBar(), &ReviewBar::writeFailed, this, [this](const QString &message) {
        const QString holder = corpusfile::lockHolder(m_corpusPath);
        const QString m = message.toLower();
        if (!holder.isEmpty() && (m.contains(QLatin1String("locked")) || m.contains(QLatin1String("busy"))))
            showError(message + QStringLiteral("\n\n") +
                      tr("The corpus is in use by %1; review again when it has finished.").arg(holder));
        else
            showError(message);
    });
    connect(m_pages, &QTabWidget::currentChanged, this, [this](int page) {
        // A, R, J, K and 1–9 decide on the Review page's selection: not while another page is shown.
        m_samples->reviewBar()->setActive(page == ReviewPage);
        if (m_corpusPath.isEmpty())
            return;
        if (page == StatisticsPage)
            m_stats->refresh();
        else if (page == ClustersPage)
            m_clusters->refresh();
    });
    for (DbThread *t : {m_reader, m_writer, m_aggregates})
        connect(t, &DbThread::failed, this, &MainWindow::showError);

    // While jobs change the corpus the per-status count table is stale (counts come from SQL); it is read
    // again at most every two seconds, off the GUI thread. Rows update from the job's own lines.
    auto *countsRefresh = new QTimer(this);
    countsRefresh->setSingleShot(true);
    countsRefresh->setInterval(2000);
    connect(countsRefresh, &QTimer::timeout, m_samples->model(), &SampleModel::refreshCounts);
    m_samples->model()->setCountThread(m_aggregates);
    connect(m_verify, &VerifyRunner::sampleVerified, this,
            [this, countsRefresh](qint64 id, const QString &status, double speedup) {
                m_samples->model()->setStatus(id, status, speedup);
                m_samples->model()->invalidateCounts();
                if (!countsRefresh->isActive())
                    countsRefresh->start();
            });
    // An import appends rows: the table pages in what arrived after its last row once a second.
    m_importTick = new QTimer(this);
    m_importTick->setInterval(1000);
    connect(m_importTick, &QTimer::timeout, this, [this] {
        m_samples->model()->invalidateCounts();
        m_samples->model()->reopenTail();
    });
    connect(m_verify, &VerifyRunner::progress, this, [this](qint64 done, qint64 total) {
        m_progress->setRange(0, total > 0 ? int(total) : 0);
        m_progress->setValue(int(done));
        statusBar()->showMessage(tr("Verifying: %1").arg(m_verify->progressText()));
    });
    // Queued: the choice starts another run, not from inside the finished process's own signal.
    connect(
        m_verify, &VerifyRunner::unfinishedRunFound, this,
        [this](const QString &corpus, const QList<qint64> &ids, const QString &detail) {
            if (corpus != m_corpusPath)
                return;
            const RunChoice choice = m_runChoice(detail);
            if (choice == RunChoice::Cancel)
                return;
            verifySamples(ids, choice == RunChoice::Resume ? VerifyRunner::Run::Resume : VerifyRunner::Run::New);
        },
        Qt::QueuedConnection);
    m_runChoice = [this](const QString &detail) { return prompts::unfinishedRun(this, detail); };
    m_confirmRun = [this](qint64 samples, const QString &estimate) {
        return prompts::largeRun(this, samples, estimate);
    };
    m_migrateChoice = [this](const QString &path, int version, const QString &backup) {
        return prompts::migrate(this, path, version, Corpus::kSchemaVersion, backup);
    };
    connect(m_verify, &VerifyRunner::finished, this, [this](bool, const QString &message) {
        m_progress->hide();
        m_cancel->hide();
        statusBar()->showMessage(tr("Verification: %1").arg(message), 30000);
        // The end-of-run summary stays in view until the next run; its rate estimates the next large run.
        m_lastRun = message;
        m_runSummary->setText(tr("Last run: %1").arg(message));
        m_runSummary->setToolTip(m_runSummary->text());
        m_runSummary->show();
        if (m_verify->done() >= 3 && m_verify->rate() > 0)
            m_settings.lastRate.setValue(m_verify->rate());
        updateActions();
        m_details->refresh();
        reloadTasks();
    });
    connect(m_cliJob, &CliProcess::finished, this, [this](int code, const QString &message) {
        m_importTick->stop();
        m_progress->hide();
        m_cancel->hide();
        statusBar()->showMessage(message, 10000);
        if (code != 0 && code != 130)
            showError(message + QStringLiteral("\n\n") + m_cliJob->stderrText().right(2000));
        updateActions();
        if (!m_corpusPath.isEmpty())
            onOpened(); // an import changes everything the panes show
        Q_EMIT cliFinished(code, message);
    });
    connect(m_cli, &CliCapabilities::probed, this, &MainWindow::updateActions);

    buildMenus();
    buildStatusBar();
    if (!settings.windowGeometry.value().isEmpty())
        restoreGeometry(settings.windowGeometry.value());
    else
        resize(1480, 900);
    restoreState(settings.windowState.value());
    setCliProgram(m_cliProgram);
    retranslateUi();
}

template <typename T> T *MainWindow::named(T *object, const char *source)
{
    m_texts.append({object, source});
    return object;
}

void MainWindow::retranslateUi()
{
    for (const auto &[object, source] : std::as_const(m_texts)) {
        if (!object)
            continue;
        const QString text = tr(source);
        if (auto *menu = qobject_cast<QMenu *>(object))
            menu->setTitle(text);
        else if (auto *action = qobject_cast<QAction *>(object))
            action->setText(text);
        else if (auto *widget = qobject_cast<QWidget *>(object))
            widget->setWindowTitle(text);
    }
    m_undoTexts();
    m_undoView->setEmptyLabel(tr("<opened corpus>"));
    m_pages->setTabText(ReviewPage, tr("Review"));
    m_pages->setTabText(ClustersPage, tr("Clusters"));
    m_pages->setTabText(StatisticsPage, tr("Statistics"));
    m_welcome->setText(tr("<h2>Sieve</h2><p>No corpus is open.</p><p>Open one with <b>File › Open</b> (Ctrl+O), "
                          "make a new one with <b>File › New Corpus</b> (Ctrl+N),<br>"
                          "or drop a corpus file onto this window.</p>"));
    setWindowTitle(m_corpusPath.isEmpty() ? tr("Sieve") : tr("%1 — Sieve").arg(QFileInfo(m_corpusPath).fileName()));
    updateActions(); // the tooltips that say why an action is off
    if (!m_corpusPath.isEmpty())
        updateReviewProgress(m_taskRows);
    if (!m_lastRun.isEmpty())
        m_runSummary->setText(tr("Last run: %1").arg(m_lastRun));
    if (!m_corpusPath.isEmpty())
        updateCorpusState();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

MainWindow::~MainWindow() = default;

void MainWindow::setCliProgram(const QString &program)
{
    m_cliProgram = program;
    m_cliJob->setProgram(program);
    m_verify->process()->setProgram(program);
    m_cli->probe(program);
}

void MainWindow::buildMenus()
{
    QMenu *file = named(menuBar()->addMenu(QString()), QT_TR_NOOP("&File"));
    QAction *create = named(file->addAction(QString(), this,
                                            [this] {
                                                QString path = QFileDialog::getSaveFileName(
                                                    this, tr("New Corpus"), QString(), tr("Sieve corpora (*.sieve)"));
                                                if (path.isEmpty())
                                                    return;
                                                if (QFileInfo(path).suffix().isEmpty())
                                                    path += QStringLiteral(".sieve");
                                                newCorpus(path);
                                            }),
                            QT_TR_NOOP("&New Corpus…"));
    create->setObjectName(QStringLiteral("newCorpusAction"));
    create->setShortcut(QKeySequence::New);
    QAction *open = named(file->addAction(QString(), this,
                                          [this] {
                                              const QString path = QFileDialog::getOpenFileName(
                                                  this, tr("Open Corpus"), QString(),
                                                  tr("Sieve corpora (*.sieve *.db *.sqlite);;All files (*)"));
                                              if (!path.isEmpty())
                                                  openCorpus(path);
                                          }),
                          QT_TR_NOOP("&Open Corpus…"));
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = named(file->addMenu(QString()), QT_TR_NOOP("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    m_importAction = named(file->addAction(QString(), this,
                                           [this] {
                                               // Window-modal without a nested event loop: tests fill it in.
                                               auto *dialog = new ImportDialog(this);
                                               dialog->setAttribute(Qt::WA_DeleteOnClose);
                                               connect(dialog, &QDialog::accepted, this, [this, dialog] {
                                                   importPaths(dialog->paths(), dialog->format());
                                               });
                                               dialog->open();
                                           }),
                           QT_TR_NOOP("&Import…"));
    m_importAction->setObjectName(QStringLiteral("importAction"));
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_exportAction = named(file->addAction(QString(), this,
                                           [this] {
                                               ExportDialog dialog(m_corpusPath, m_cliProgram, this);
                                               dialog.exec();
                                           }),
                           QT_TR_NOOP("&Export…"));
    m_exportAction->setObjectName(QStringLiteral("exportAction"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    m_closeAction = named(file->addAction(QString(), this, &MainWindow::closeCorpus), QT_TR_NOOP("&Close Corpus"));
    m_closeAction->setShortcut(QKeySequence::Close);
    named(file->addAction(QString(), this, &QWidget::close), QT_TR_NOOP("&Quit"))->setShortcut(QKeySequence::Quit);

    QUndoStack *undo = m_samples->reviewBar()->undoStack();
    QMenu *edit = named(menuBar()->addMenu(QString()), QT_TR_NOOP("&Edit"));
    // Our own undo and redo actions rather than QUndoStack's: those fix their text prefix at creation,
    // so they could not follow a language switch.
    auto *undoAction = new QAction(this);
    undoAction->setObjectName(QStringLiteral("undoAction"));
    undoAction->setShortcut(QKeySequence::Undo);
    undoAction->setEnabled(undo->canUndo());
    connect(undoAction, &QAction::triggered, undo, &QUndoStack::undo);
    connect(undo, &QUndoStack::canUndoChanged, undoAction, &QAction::setEnabled);
    auto *redoAction = new QAction(this);
    redoAction->setObjectName(QStringLiteral("redoAction"));
    redoAction->setShortcut(QKeySequence::Redo);
    redoAction->setEnabled(undo->canRedo());
    connect(redoAction, &QAction::triggered, undo, &QUndoStack::redo);
    connect(undo, &QUndoStack::canRedoChanged, redoAction, &QAction::setEnabled);
    // The texts come with the signals: the stack also announces them from its destructor, when it can
    // no longer be asked.
    auto undoText = [undoAction](const QString &text) {
        undoAction->setText(text.isEmpty() ? tr("&Undo") : tr("&Undo %1").arg(text));
    };
    auto redoText = [redoAction](const QString &text) {
        redoAction->setText(text.isEmpty() ? tr("&Redo") : tr("&Redo %1").arg(text));
    };
    connect(undo, &QUndoStack::undoTextChanged, undoAction, undoText);
    connect(undo, &QUndoStack::redoTextChanged, redoAction, redoText);
    m_undoTexts = [undo, undoText, redoText] {
        undoText(undo->undoText());
        redoText(undo->redoText());
    };
    edit->addAction(undoAction);
    edit->addAction(redoAction);
    edit->addSeparator();
    QAction *prefs = named(edit->addAction(QString(), this,
                                           [this] {
                                               SettingsDialog dialog(m_settings, this);
                                               dialog.exec();
                                           }),
                           QT_TR_NOOP("&Settings…"));
    prefs->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    prefs->setMenuRole(QAction::PreferencesRole);

    QMenu *review = named(menuBar()->addMenu(QString()), QT_TR_NOOP("&Review"));
    const QList<QAction *> reviewActions = m_samples->reviewBar()->reviewActions();
    review->addActions(reviewActions.mid(0, 4));
    QMenu *reasons = named(review->addMenu(QString()), QT_TR_NOOP("Reason"));
    for (QAction *a : m_samples->reviewBar()->actions())
        if (a->objectName().startsWith(QLatin1String("reasonAction")))
            reasons->addAction(a);
    review->addSeparator();
    review->addActions(reviewActions.mid(4));

    QMenu *verify = named(menuBar()->addMenu(QString()), QT_TR_NOOP("V&erify"));
    m_verifySelectedAction =
        named(verify->addAction(QString(), this, [this] { verifySamples(m_samples->selectedSampleIds()); }),
              QT_TR_NOOP("Verify &Selected"));
    m_verifySelectedAction->setObjectName(QStringLiteral("verifySelectedAction"));
    m_verifySelectedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_verifyPendingAction =
        named(verify->addAction(QString(), this, [this] { verifySamples({}); }), QT_TR_NOOP("Verify All &Pending"));
    m_verifyPendingAction->setObjectName(QStringLiteral("verifyPendingAction"));
    m_cancelAction = named(verify->addAction(QString(), this,
                                             [this] {
                                                 m_verify->cancel();
                                                 m_cliJob->cancel();
                                             }),
                           QT_TR_NOOP("&Cancel"));
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    verify->addSeparator();
    m_policyMenu = named(verify->addMenu(QString()), QT_TR_NOOP("&Policy"));
    m_policyMenu->setObjectName(QStringLiteral("policyMenu"));
    auto *policies = new QActionGroup(m_policyMenu);
    const std::pair<const char *, const char *> policyNames[] = {
        {"strict", QT_TR_NOOP("&Strict: every op of the forward in the sample's own kernels")},
        {"kernelbench", QT_TR_NOOP("&KernelBench: a torch core op may stay, the rest in own kernels")}};
    for (const auto &[policy, text] : policyNames) {
        QAction *a = named(m_policyMenu->addAction(QString()), text);
        a->setObjectName(QStringLiteral("policyAction-%1").arg(QLatin1String(policy)));
        a->setData(QString::fromLatin1(policy));
        a->setCheckable(true);
        a->setChecked(m_settings.policy.value() == QLatin1String(policy));
        policies->addAction(a);
        connect(a, &QAction::triggered, this, [this, a] { m_settings.policy.setValue(a->data().toString()); });
    }
    m_checkTasksAction =
        named(verify->addAction(QString(), this,
                                [this] {
                                    QStringList args{QStringLiteral("tasks"), QStringLiteral("check"), m_corpusPath};
                                    if (m_settings.gpus.value() == QLatin1String("cpu") || !VerifyRunner::hasGpu())
                                        args << QStringLiteral("--cpu");
                                    runCli(tr("Checking the tasks' references…"), args);
                                }),
              QT_TR_NOOP("Check &Tasks"));
    m_checkTasksAction->setObjectName(QStringLiteral("checkTasksAction"));

    QMenu *corpus = named(menuBar()->addMenu(QString()), QT_TR_NOOP("&Corpus"));
    m_sampleAction =
        named(corpus->addAction(QString(), this, &MainWindow::openSampler), QT_TR_NOOP("Sample from &Teacher…"));
    m_sampleAction->setObjectName(QStringLiteral("sampleTeacherAction"));
    m_sampleAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));

    QMenu *view = named(menuBar()->addMenu(QString()), QT_TR_NOOP("&View"));
    const char *const names[] = {QT_TR_NOOP("&Review"), QT_TR_NOOP("&Clusters"), QT_TR_NOOP("&Statistics")};
    for (int i = 0; i < 3; ++i) {
        QAction *a = named(view->addAction(QString(), this, [this, i] { m_pages->setCurrentIndex(i); }), names[i]);
        a->setShortcut(QKeySequence(QKeyCombination(Qt::ControlModifier, Qt::Key(Qt::Key_1 + i))));
    }
    view->addSeparator();
    m_maximiseAction = named(view->addAction(QString()), QT_TR_NOOP("&Maximise Comparison"));
    m_maximiseAction->setObjectName(QStringLiteral("maximiseComparisonAction"));
    m_maximiseAction->setCheckable(true);
    m_maximiseAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    connect(m_maximiseAction, &QAction::toggled, this, &MainWindow::setComparisonMaximised);
    QAction *refresh = named(view->addAction(QString(), this, &MainWindow::onOpened), QT_TR_NOOP("Re&fresh"));
    refresh->setShortcut(QKeySequence::Refresh);

    auto *steps = named(new QDockWidget(this), QT_TR_NOOP("Review Steps"));
    steps->setObjectName(QStringLiteral("reviewStepsDock"));
    auto *undoView = new QUndoView(undo, steps);
    undoView->setObjectName(QStringLiteral("undoView"));
    m_undoView = undoView;
    steps->setWidget(undoView);
    addDockWidget(Qt::RightDockWidgetArea, steps);
    steps->hide();
    view->addAction(steps->toggleViewAction());

    QMenu *help = named(menuBar()->addMenu(QString()), QT_TR_NOOP("&Help"));
    QAction *keys = named(help->addAction(QString(), this,
                                          [this] {
                                              // Read from the actions each time: the list is what works now.
                                              auto *dialog = findChild<ShortcutsDialog *>();
                                              if (!dialog)
                                                  dialog = new ShortcutsDialog(this);
                                              dialog->reload();
                                              dialog->show();
                                              dialog->raise();
                                          }),
                          QT_TR_NOOP("&Keyboard Shortcuts"));
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    named(help->addAction(QString(), this,
                          [this] {
                              QMessageBox::about(
                                  this, tr("About Sieve"),
                                  tr("<h3>Sieve %1</h3><p>A workbench for curating SFT corpora of GPU kernels.</p>")
                                      .arg(QStringLiteral(SIEVE_VERSION)));
                          }),
          QT_TR_NOOP("&About Sieve"));
    updateRecentMenu();
    updateActions();
}

void MainWindow::buildStatusBar()
{
    m_corpusLabel->setObjectName(QStringLiteral("corpusLabel"));
    m_progress->setObjectName(QStringLiteral("jobProgress"));
    m_progress->setMaximumWidth(220);
    m_progress->hide();
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setDefaultAction(m_cancelAction);
    m_cancel->hide();
    m_reviewProgress->setObjectName(QStringLiteral("reviewProgressLabel"));
    m_runSummary->setObjectName(QStringLiteral("runSummaryLabel"));
    m_runSummary->setMaximumWidth(420);
    m_runSummary->hide();
    statusBar()->addPermanentWidget(m_runSummary);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    statusBar()->addPermanentWidget(m_reviewProgress);
    statusBar()->addPermanentWidget(m_corpusLabel);
}

void MainWindow::updateActions()
{
    const bool open = !m_corpusPath.isEmpty();
    const bool busy = m_cliJob->isRunning() || m_verify->isRunning();
    const bool writable = m_readOnly.isEmpty();
    auto gate = [&](QAction *a, const char *command, bool writes) {
        const bool available = m_cli->has(QString::fromLatin1(command));
        a->setEnabled(open && available && !busy && (writable || !writes));
        // Say why it is off rather than offering a panel that cannot work.
        a->setToolTip(!available ? tr("Needs a sieve-cli with the '%1' command").arg(QString::fromLatin1(command))
                      : writes && !writable ? m_readOnly
                                            : QString());
    };
    gate(m_importAction, "import", true);
    gate(m_exportAction, "export", false);
    gate(m_verifySelectedAction, "verify", true);
    gate(m_verifyPendingAction, "verify", true);
    gate(m_checkTasksAction, "tasks", true);
    m_cancelAction->setEnabled(busy);
    // Sampling runs in this process (only first-pass calls sieve-cli verify); it stores what it samples.
    m_sampleAction->setEnabled(open && writable);
    m_sampleAction->setToolTip(writable ? QString() : m_readOnly);
    m_closeAction->setEnabled(open);
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_settings.recentCorpora.value();
    for (const QString &path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openCorpus(path); })->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

bool MainWindow::openCorpus(const QString &path)
{
    if (!QFileInfo::exists(path)) {
        showError(tr("The corpus %1 does not exist.").arg(path));
        return false;
    }
    // An older file is updated (in place, for good) only when the reviewer agrees, and a copy is kept
    // first. Reading the version is one small read; the update itself runs on the writer's thread.
    int version = Corpus::kSchemaVersion;
    try {
        version = Corpus::open(path.toStdString(), true, true).schemaVersion();
    } catch (const std::exception &) {
        // Not a corpus, locked, ...: the writer's open below says what in the user's terms.
    }
    // A file this process cannot write (read-only file or mount, someone else's) opens read-only: browsing
    // works, everything that writes is off and a banner says why (issue 34).
    const QString whyReadOnly = corpusfile::whyReadOnly(path);
    if (!whyReadOnly.isEmpty() && version < Corpus::kSchemaVersion) {
        showError(tr("%1 was made by an older Sieve (corpus version %2) and cannot be updated here: it is read-only "
                     "(%3). Copy it somewhere writable and open the copy.")
                      .arg(QFileInfo(path).fileName())
                      .arg(version)
                      .arg(whyReadOnly));
        return false;
    }
    // Another process writing it (an import, a verification run) is said at once, with who it is, rather
    // than after the database's own wait.
    const QString holder = corpusfile::lockHolder(path);
    if (version < Corpus::kSchemaVersion) {
        if (!m_migrateChoice(path, version, corpusfile::backupPath(path, version))) {
            statusBar()->showMessage(tr("%1 was not opened: it was left as it is.").arg(path), 10000);
            return false;
        }
        QString backup;
        const QString error = corpusfile::backUp(path, version, &backup);
        if (!error.isEmpty()) {
            showError(error);
            return false;
        }
        qCInfo(lcUi).noquote() << "kept" << backup << "before updating" << path << "from version" << version;
    }
    // The corpus left behind: this session's writes move from its -wal file into the file itself, so a
    // copy of the .sieve file alone holds the reviews (the read-only connections cannot do it on close).
    if (!m_corpusPath.isEmpty())
        checkpoint();
    const quint64 job = ++m_openJob;
    statusBar()->showMessage(holder.isEmpty() ? tr("Opening %1…").arg(path)
                                              : tr("Opening %1, which is in use by %2…").arg(path, holder));
    // The writer opens first: it migrates an older file before the read-only reader looks at it.
    const bool readOnly = !whyReadOnly.isEmpty();
    m_writer->open(path, readOnly, this, [this, path, job, holder, whyReadOnly](const QString &error) {
        if (job != m_openJob)
            return;
        if (!error.isEmpty()) {
            statusBar()->clearMessage();
            showError(corpusfile::openError(path, error, holder.isEmpty() ? corpusfile::lockHolder(path) : holder));
            Q_EMIT corpusFailed(error);
            return;
        }
        m_reader->open(path, true, this, [this, path, job, holder, whyReadOnly](const QString &readError) {
            if (job != m_openJob)
                return;
            if (!readError.isEmpty()) {
                showError(corpusfile::openError(path, readError, holder));
                Q_EMIT corpusFailed(readError);
                return;
            }
            m_corpusPath = path;
            m_whyReadOnly = whyReadOnly;
            m_openedInUse = !holder.isEmpty();
            updateCorpusState();
            m_aggregates->open(path, true, this, [this, job](const QString &aggError) {
                if (job == m_openJob && !aggError.isEmpty())
                    showError(aggError);
            });
            m_settings.addRecentCorpus(path);
            updateRecentMenu();
            setWindowTitle(tr("%1 — Sieve").arg(QFileInfo(path).fileName()));
            m_corpusLabel->setText(QFileInfo(path).absoluteFilePath());
            m_samples->reviewBar()->undoStack()->clear();
            // Nothing of the corpus left behind carries over: not its sample, its task or its filters.
            m_details->clear();
            m_tasks->resetFilters();
            m_samples->resetFilters();
            m_stack->setCurrentIndex(1);
            statusBar()->clearMessage();
            onOpened();
            updateActions();
            Q_EMIT corpusOpened(path);
        });
    });
    return true;
}

void MainWindow::setComparisonMaximised(bool on)
{
    // Focus mode: the code, the task's reference, the verdict line in each column's header and the review
    // controls on one screen.
    m_tasks->setHidden(on);
    m_samples->setHidden(on);
    if (on) {
        m_pages->setCurrentIndex(ReviewPage);
        m_details->setCurrentIndex(DetailsPane::CodeTab);
        m_details->comparison()->setReferenceVisible(true);
    }
    const QSignalBlocker block(m_maximiseAction);
    m_maximiseAction->setChecked(on);
}

void MainWindow::checkpoint()
{
    m_writer->post(
        this, [](db::Database &db) { db.exec("PRAGMA wal_checkpoint(TRUNCATE)"); }, [] {});
}

void MainWindow::newCorpus(const QString &path)
{
    if (QFileInfo::exists(path)) {
        showError(tr("%1 exists already: choose another name, or open it with File › Open.").arg(path));
        return;
    }
    try {
        Corpus::create(path.toStdString());
    } catch (const std::exception &e) {
        showError(tr("Could not create %1: %2").arg(path, QString::fromStdString(e.what())));
        return;
    }
    openCorpus(path);
}

void MainWindow::closeCorpus()
{
    ++m_openJob;
    if (!m_corpusPath.isEmpty())
        checkpoint();
    m_reader->close();
    m_writer->close();
    m_aggregates->close();
    m_corpusPath.clear();
    m_readOnly.clear();
    m_whyReadOnly.clear();
    m_openedInUse = false;
    m_samples->reviewBar()->setReadOnly({});
    showBanner({});
    m_reviewProgress->clear();
    m_taskRows.clear();
    m_samples->reviewBar()->undoStack()->clear();
    m_samples->model()->clear();
    m_tasks->model()->setTasks({});
    m_details->clear();
    m_stack->setCurrentIndex(0);
    m_corpusLabel->clear();
    setWindowTitle(tr("Sieve"));
    updateActions();
}

void MainWindow::onOpened()
{
    // Another file, an import or a refresh: read the count table again, first in the aggregates' queue.
    m_samples->model()->invalidateCounts();
    m_samples->model()->refreshCounts();
    m_samples->setTasks(m_tasks->selectedTaskIds());
    m_reader->post(
        this, [](const db::Database &db) { return queries::distinctStatuses(db); },
        [this](QStringList statuses) { m_samples->setStatuses(statuses); });
    reloadTasks();
    m_details->refreshCorpusCharts();
    m_details->refresh();
    if (m_pages->currentIndex() == StatisticsPage)
        m_stats->refresh();
    if (m_pages->currentIndex() == ClustersPage)
        m_clusters->refresh();
}

void MainWindow::reloadTasks()
{
    const quint64 job = ++m_taskJob;
    m_tasks->setLoading(true); // a large corpus takes seconds: say so rather than "0 tasks"
    m_aggregates->post(
        this, [](const db::Database &db) { return queries::tasks(db); },
        [this, job](QList<TaskRow> rows) {
            if (job != m_taskJob)
                return;
            updateReviewProgress(rows);
            m_tasks->setTasks(std::move(rows));
            Q_EMIT tasksLoaded();
        });
}

void MainWindow::runCli(const QString &what, const QStringList &arguments)
{
    qCInfo(lcUi).noquote() << "running" << m_cliProgram << arguments.join(QLatin1Char(' '));
    statusBar()->showMessage(what);
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancel->show();
    m_cliJob->start(arguments);
    updateActions();
}

void MainWindow::updateReviewProgress(const QList<TaskRow> &rows)
{
    m_taskRows = rows;
    figures::ReviewProgress all;
    for (const TaskRow &t : rows) {
        all.samples += t.samples;
        all.accepted += t.accepted;
        all.rejected += t.rejected;
    }
    m_reviewProgress->setText(figures::progress(all));
}

void MainWindow::updateCorpusState()
{
    // Composed here (not at open) so that a language switch says it again in the new language.
    m_readOnly = m_whyReadOnly.isEmpty()
                     ? QString()
                     : tr("%1 is read-only (%2): reviews, imports and verification are off. To review it, copy it "
                          "somewhere writable and open the copy.")
                           .arg(QFileInfo(m_corpusPath).fileName(), m_whyReadOnly);
    m_samples->reviewBar()->setReadOnly(m_readOnly);
    const QString holder = m_openedInUse ? corpusfile::lockHolder(m_corpusPath) : QString();
    if (!m_readOnly.isEmpty())
        showBanner(tr("<b>Read-only.</b> %1").arg(m_readOnly.toHtmlEscaped()));
    else if (!holder.isEmpty())
        showBanner(tr("<b>In use by %1.</b> What it writes shows after it has finished (View › Refresh); "
                      "reviews made meanwhile wait for it.")
                       .arg(holder.toHtmlEscaped()));
    else
        showBanner({});
    updateActions();
}

void MainWindow::showBanner(const QString &html)
{
    m_banner->setText(html);
    m_banner->setVisible(!html.isEmpty());
}

void MainWindow::importPaths(const QStringList &paths, const QString &chosenFormat)
{
    if (m_corpusPath.isEmpty() || paths.isEmpty() || !m_cli->has(QStringLiteral("import")))
        return;
    if (!m_readOnly.isEmpty()) {
        showError(m_readOnly);
        return;
    }
    const QString format = chosenFormat.isEmpty() ? importFormatOf(paths.first()) : chosenFormat;
    if (chosenFormat.isEmpty())
        for (const QString &path : paths)
            if (importFormatOf(path) != format) {
                showError(tr("Import one format at a time: %1 is not %2.").arg(path, format));
                return;
            }
    runCli(paths.size() == 1 ? tr("Importing %1 as %2…").arg(QFileInfo(paths.first()).fileName(), format)
                             : tr("Importing %1 files as %2…").arg(figures::number(paths.size()), format),
           QStringList{QStringLiteral("import"), m_corpusPath, QStringLiteral("--format"), format} + paths);
    m_importTick->start();
}

void MainWindow::verifySamples(const QList<qint64> &ids, VerifyRunner::Run run)
{
    if (m_corpusPath.isEmpty() || m_verify->isRunning() || !m_cli->has(QStringLiteral("verify")))
        return;
    if (!m_readOnly.isEmpty()) {
        showError(m_readOnly);
        return;
    }
    // A resumed run was asked for already; a small one starts at once; a large one asks with an estimate.
    const qint64 above = m_settings.confirmRunAbove.value();
    auto confirmed = [this, above](qint64 n) {
        return n <= above || m_confirmRun(n, VerifyRunner::estimate(n, m_settings));
    };
    if (run == VerifyRunner::Run::Resume || !ids.isEmpty()) {
        if (run == VerifyRunner::Run::Resume || confirmed(ids.size()))
            startVerify(ids, run);
        return;
    }
    // Every pending sample: counted off the GUI thread first.
    const quint64 job = m_openJob;
    m_reader->post(
        this,
        [](const db::Database &db) {
            SampleQuery q;
            q.status = QStringLiteral("PENDING");
            return queries::countSamples(db, q);
        },
        [this, job, run, confirmed](qint64 pending) {
            if (job != m_openJob || m_verify->isRunning())
                return;
            if (pending == 0) {
                statusBar()->showMessage(tr("Nothing to verify: no sample is pending."), 10000);
                return;
            }
            if (confirmed(pending))
                startVerify({}, run);
        });
}

void MainWindow::startVerify(const QList<qint64> &ids, VerifyRunner::Run run)
{
    m_progress->setRange(0, ids.isEmpty() ? 0 : int(ids.size()));
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    statusBar()->showMessage(tr("Verifying…"));
    m_verify->start(m_corpusPath, ids, run);
    updateActions();
}

void MainWindow::openSampler()
{
    if (m_corpusPath.isEmpty())
        return;
    if (m_sampler && m_sampler->dbPath() != m_corpusPath && !m_sampler->running())
        delete m_sampler;
    if (!m_sampler) {
        m_sampler = new SamplerDialog(m_corpusPath, m_cliProgram, m_settings, this);
        // Counts follow the run; the sample list reloads when it ends (not under a reviewer's hands).
        connect(m_sampler, &SamplerDialog::samplesStored, this, [this] {
            if (m_sampler && m_sampler->dbPath() == m_corpusPath)
                reloadTasks();
        });
        connect(m_sampler, &SamplerDialog::samplesAdded, this, [this] {
            if (m_sampler && m_sampler->dbPath() == m_corpusPath)
                onOpened();
        });
    }
    m_sampler->show();
    m_sampler->raise();
    m_sampler->activateWindow();
}

void MainWindow::showError(const QString &message)
{
    qCWarning(lcUi).noquote() << message;
    statusBar()->showMessage(message, 10000);
    if (m_errorHandler)
        m_errorHandler(message);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_settings.windowGeometry.setValue(saveGeometry());
    m_settings.windowState.setValue(saveState());
    m_settings.sync();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList files;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            files << url.toLocalFile();
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    // A corpus file opens; anything else is imported into the open corpus.
    if (files.size() == 1 && looksLikeCorpus(files.first()))
        openCorpus(files.first());
    else
        importPaths(files);
}

} // namespace sieve::ui
