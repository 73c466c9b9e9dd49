#include "mainwindow.h"

#include "cliprocess.h"
#include "clusterpage.h"
#include "corpusqueries.h"
#include "dbthread.h"
#include "logging.h"
#include "detailspane.h"
#include "exportdialog.h"
#include "reviewbar.h"
#include "samplemodel.h"
#include "samplepane.h"
#include "samplerdialog.h"
#include "settings.h"
#include "settingsdialog.h"
#include "statspage.h"
#include "taskmodel.h"
#include "taskpane.h"
#include "verifyrunner.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
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
      m_stats(new StatsPage(m_aggregates)),
      m_cli(new CliCapabilities(this)), m_cliJob(new CliProcess(this)), m_verify(new VerifyRunner(settings, this)),
      m_corpusLabel(new QLabel), m_progress(new QProgressBar), m_cancel(new QToolButton),
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
    connect(split, &QSplitter::splitterMoved, this, [this, split] { m_settings.reviewSplitter.setValue(split->saveState()); });
    m_pages->addTab(split, tr("Review"));
    m_pages->addTab(m_clusters, tr("Clusters"));
    m_pages->addTab(m_stats, tr("Statistics"));

    auto *welcome = new QLabel(tr("<h2>Sieve</h2><p>Open a corpus with <b>File › Open</b> (Ctrl+O),<br>"
                                  "or drop a corpus file onto this window.</p>"));
    welcome->setObjectName(QStringLiteral("welcomeLabel"));
    welcome->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(welcome);
    m_stack->addWidget(m_pages);
    setCentralWidget(m_stack);

    m_errorHandler = [this](const QString &message) { QMessageBox::warning(this, tr("Sieve"), message); };
    m_samples->reviewBar()->setReviewer(settings.effectiveReviewer());
    connect(&settings, &Settings::changed, this, [this](const QString &key) {
        if (key == m_settings.reviewer.key())
            m_samples->reviewBar()->setReviewer(m_settings.effectiveReviewer());
    });

    // Details follow the selection, coalesced so that holding J does not queue a load per row.
    auto *detailDelay = new QTimer(this);
    detailDelay->setSingleShot(true);
    detailDelay->setInterval(30);
    connect(detailDelay, &QTimer::timeout, this, [this] { m_details->showSamples(m_samples->selectedSampleIds()); });
    connect(m_samples, &SamplePane::selectionChanged, detailDelay, qOverload<>(&QTimer::start));
    connect(m_tasks, &TaskPane::selectionChanged, m_samples, &SamplePane::setTasks);
    connect(m_clusters, &ClusterPage::compareRequested, this, [this](const QList<qint64> &ids) {
        m_pages->setCurrentIndex(ReviewPage);
        m_details->setCurrentIndex(DetailsPane::CodeTab);
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
        taskRefresh->start();
    });
    connect(m_pages, &QTabWidget::currentChanged, this, [this](int page) {
        if (m_corpusPath.isEmpty())
            return;
        if (page == StatisticsPage)
            m_stats->refresh();
        else if (page == ClustersPage)
            m_clusters->refresh();
    });
    for (DbThread *t : {m_reader, m_writer, m_aggregates})
        connect(t, &DbThread::failed, this, &MainWindow::showError);

    connect(m_verify, &VerifyRunner::sampleVerified, m_samples->model(), &SampleModel::setStatus);
    connect(m_verify, &VerifyRunner::progress, this, [this](qint64 done, qint64 total) {
        m_progress->setRange(0, total > 0 ? int(total) : 0);
        m_progress->setValue(int(done));
    });
    connect(m_verify, &VerifyRunner::finished, this, [this](bool, const QString &message) {
        m_progress->hide();
        m_cancel->hide();
        statusBar()->showMessage(tr("Verification: %1").arg(message), 10000);
        updateActions();
        m_details->refresh();
        reloadTasks();
    });
    connect(m_cliJob, &CliProcess::finished, this, [this](int code, const QString &message) {
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
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Corpus…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Corpus"), QString(),
                                                          tr("Sieve corpora (*.sieve *.db *.sqlite);;All files (*)"));
        if (!path.isEmpty())
            openCorpus(path);
    });
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    m_importAction = file->addAction(tr("&Import…"), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Import Tasks and Samples"));
        if (!paths.isEmpty())
            importPaths(paths);
    });
    m_importAction->setObjectName(QStringLiteral("importAction"));
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_exportAction = file->addAction(tr("&Export…"), this, [this] {
        ExportDialog dialog(m_corpusPath, m_cliProgram, this);
        dialog.exec();
    });
    m_exportAction->setObjectName(QStringLiteral("exportAction"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    m_closeAction = file->addAction(tr("&Close Corpus"), this, &MainWindow::closeCorpus);
    m_closeAction->setShortcut(QKeySequence::Close);
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    QUndoStack *undo = m_samples->reviewBar()->undoStack();
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undoAction = undo->createUndoAction(this, tr("&Undo"));
    undoAction->setObjectName(QStringLiteral("undoAction"));
    undoAction->setShortcut(QKeySequence::Undo);
    QAction *redoAction = undo->createRedoAction(this, tr("&Redo"));
    redoAction->setObjectName(QStringLiteral("redoAction"));
    redoAction->setShortcut(QKeySequence::Redo);
    edit->addAction(undoAction);
    edit->addAction(redoAction);
    edit->addSeparator();
    QAction *prefs = edit->addAction(tr("&Settings…"), this, [this] {
        SettingsDialog dialog(m_settings, this);
        dialog.exec();
    });
    prefs->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    prefs->setMenuRole(QAction::PreferencesRole);

    QMenu *review = menuBar()->addMenu(tr("&Review"));
    const QList<QAction *> reviewActions = m_samples->reviewBar()->reviewActions();
    review->addActions(reviewActions.mid(0, 4));
    QMenu *reasons = review->addMenu(tr("Reason"));
    for (QAction *a : m_samples->reviewBar()->actions())
        if (a->objectName().startsWith(QLatin1String("reasonAction")))
            reasons->addAction(a);
    review->addSeparator();
    review->addActions(reviewActions.mid(4));

    QMenu *verify = menuBar()->addMenu(tr("V&erify"));
    m_verifySelectedAction = verify->addAction(tr("Verify &Selected"), this,
                                               [this] { verifySamples(m_samples->selectedSampleIds()); });
    m_verifySelectedAction->setObjectName(QStringLiteral("verifySelectedAction"));
    m_verifySelectedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_verifyPendingAction = verify->addAction(tr("Verify All &Pending"), this, [this] { verifySamples({}); });
    m_verifyPendingAction->setObjectName(QStringLiteral("verifyPendingAction"));
    m_cancelAction = verify->addAction(tr("&Cancel"), this, [this] {
        m_verify->cancel();
        m_cliJob->cancel();
    });
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));

    QMenu *corpus = menuBar()->addMenu(tr("&Corpus"));
    m_sampleAction = corpus->addAction(tr("Sample from &Teacher…"), this, &MainWindow::openSampler);
    m_sampleAction->setObjectName(QStringLiteral("sampleTeacherAction"));
    m_sampleAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    const QStringList names{tr("&Review"), tr("&Clusters"), tr("&Statistics")};
    for (int i = 0; i < names.size(); ++i) {
        QAction *a = view->addAction(names.at(i), this, [this, i] { m_pages->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(QKeyCombination(Qt::ControlModifier, Qt::Key(Qt::Key_1 + i))));
    }
    view->addSeparator();
    QAction *refresh = view->addAction(tr("Re&fresh"), this, &MainWindow::onOpened);
    refresh->setShortcut(QKeySequence::Refresh);

    auto *steps = new QDockWidget(tr("Review Steps"), this);
    steps->setObjectName(QStringLiteral("reviewStepsDock"));
    auto *undoView = new QUndoView(undo, steps);
    undoView->setObjectName(QStringLiteral("undoView"));
    undoView->setEmptyLabel(tr("<opened corpus>"));
    steps->setWidget(undoView);
    addDockWidget(Qt::RightDockWidgetArea, steps);
    steps->hide();
    view->addAction(steps->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Sieve"), this, [this] {
        QMessageBox::about(this, tr("About Sieve"),
                           tr("<h3>Sieve %1</h3><p>A workbench for curating SFT corpora of GPU kernels.</p>")
                               .arg(QStringLiteral(SIEVE_VERSION)));
    });
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
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    statusBar()->addPermanentWidget(m_corpusLabel);
}

void MainWindow::updateActions()
{
    const bool open = !m_corpusPath.isEmpty();
    const bool busy = m_cliJob->isRunning() || m_verify->isRunning();
    auto gate = [&](QAction *a, const char *command) {
        const bool available = m_cli->has(QString::fromLatin1(command));
        a->setEnabled(open && available && !busy);
        // Say why it is off rather than offering a panel that cannot work.
        a->setToolTip(available ? QString() : tr("Needs a sieve-cli with the '%1' command").arg(QString::fromLatin1(command)));
    };
    gate(m_importAction, "import");
    gate(m_exportAction, "export");
    gate(m_verifySelectedAction, "verify");
    gate(m_verifyPendingAction, "verify");
    m_cancelAction->setEnabled(busy);
    m_sampleAction->setEnabled(open); // sampling runs in this process; only first-pass calls sieve-cli verify
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
    const quint64 job = ++m_openJob;
    statusBar()->showMessage(tr("Opening %1…").arg(path));
    // The writer opens first: it migrates an older file before the read-only reader looks at it.
    m_writer->open(path, false, this, [this, path, job](const QString &error) {
        if (job != m_openJob)
            return;
        if (!error.isEmpty()) {
            statusBar()->clearMessage();
            showError(tr("Cannot open %1: %2").arg(path, error));
            Q_EMIT corpusFailed(error);
            return;
        }
        m_reader->open(path, true, this, [this, path, job](const QString &readError) {
            if (job != m_openJob)
                return;
            if (!readError.isEmpty()) {
                showError(tr("Cannot open %1: %2").arg(path, readError));
                Q_EMIT corpusFailed(readError);
                return;
            }
            m_corpusPath = path;
            m_aggregates->open(path, true, this, [this, job](const QString &aggError) {
                if (job == m_openJob && !aggError.isEmpty())
                    showError(aggError);
            });
            m_settings.addRecentCorpus(path);
            updateRecentMenu();
            setWindowTitle(tr("%1 — Sieve").arg(QFileInfo(path).fileName()));
            m_corpusLabel->setText(QFileInfo(path).absoluteFilePath());
            m_samples->reviewBar()->undoStack()->clear();
            m_stack->setCurrentIndex(1);
            statusBar()->clearMessage();
            onOpened();
            updateActions();
            Q_EMIT corpusOpened(path);
        });
    });
    return true;
}

void MainWindow::closeCorpus()
{
    ++m_openJob;
    m_reader->close();
    m_writer->close();
    m_aggregates->close();
    m_corpusPath.clear();
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
    m_aggregates->post(
        this, [](const db::Database &db) { return queries::tasks(db); },
        [this, job](QList<TaskRow> rows) {
            if (job != m_taskJob)
                return;
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

void MainWindow::importPaths(const QStringList &paths)
{
    if (m_corpusPath.isEmpty() || paths.isEmpty() || !m_cli->has(QStringLiteral("import")))
        return;
    runCli(tr("Importing %n file(s)…", nullptr, int(paths.size())),
           QStringList{QStringLiteral("import"), m_corpusPath} + paths);
}

void MainWindow::verifySamples(const QList<qint64> &ids)
{
    if (m_corpusPath.isEmpty() || m_verify->isRunning() || !m_cli->has(QStringLiteral("verify")))
        return;
    m_progress->setRange(0, ids.isEmpty() ? 0 : int(ids.size()));
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    statusBar()->showMessage(tr("Verifying…"));
    m_verify->start(m_corpusPath, ids);
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
