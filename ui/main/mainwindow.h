#pragma once
// The workbench window. It only composes the panes, the menus and the background pieces and wires
// them together; each pane owns its own behaviour.
#include "ui/cli/verifyrunner.h"
#include "ui/data/corpustypes.h"
#include "ui/dialogs/prompts.h"

#include <QMainWindow>
#include <QPointer>

#include <functional>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QToolButton;
class QUndoView;

namespace sieve::ui {

class CliCapabilities;
class CliProcess;
class ClusterPage;
class DbThread;
class DetailsPane;
class SamplePane;
class SamplerDialog;
class Settings;
class StatsPage;
class TaskPane;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)
public:
    enum Page { ReviewPage, ClustersPage, StatisticsPage };
    explicit MainWindow(Settings &settings, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens in the background; corpusOpened or corpusFailed follows. False when the file is missing.
    bool openCorpus(const QString &path);
    void closeCorpus();
    QString corpusPath() const { return m_corpusPath; }
    // `format` empty: sniffed from the first path (ui/cli/importformat.h).
    void importPaths(const QStringList &paths, const QString &format = QString());
    // Empty ids: every pending sample.
    void verifySamples(const QList<qint64> &ids, VerifyRunner::Run run = VerifyRunner::Run::Default);
    void openSampler(); // Corpus › Sample from Teacher…: one modeless dialog per open corpus
    void setCliProgram(const QString &program);
    // Where errors go; tests replace the message box.
    void setErrorHandler(std::function<void(const QString &)> handler) { m_errorHandler = std::move(handler); }
    // After a cancelled run: resume it, start a new one or leave it; tests replace the message box.
    void setRunChoice(std::function<RunChoice(const QString &detail)> choice) { m_runChoice = std::move(choice); }
    // Before an older corpus is updated (a copy kept at `backup`); tests replace the message box.
    void setMigrateChoice(std::function<bool(const QString &path, int version, const QString &backup)> choice)
    {
        m_migrateChoice = std::move(choice);
    }
    // Before a run of more samples than the confirm-above setting: the count and an estimate; tests replace it.
    void setConfirmRun(std::function<bool(qint64 samples, const QString &estimate)> confirm)
    {
        m_confirmRun = std::move(confirm);
    }
    // Why the open corpus is read-only (review, import and verification are off); empty when it is not.
    QString readOnlyReason() const { return m_readOnly; }
    // File › New Corpus: creates an empty corpus at `path` and opens it.
    void newCorpus(const QString &path);

    TaskPane *taskPane() const { return m_tasks; }
    SamplePane *samplePane() const { return m_samples; }
    DetailsPane *details() const { return m_details; }
    ClusterPage *clusterPage() const { return m_clusters; }
    StatsPage *statsPage() const { return m_stats; }
    QTabWidget *pages() const { return m_pages; }
    // The comparison takes the whole Review page: the task and sample panes hide (and come back).
    void setComparisonMaximised(bool on);

Q_SIGNALS:
    void corpusOpened(const QString &path);
    void corpusFailed(const QString &message);
    void tasksLoaded();
    void cliFinished(int exitCode, const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void retranslateUi();
    // Remembers the untranslated text of a menu, an action or a dock so a language switch can redo it.
    template <typename T> T *named(T *object, const char *source);
    void buildMenus();
    void buildStatusBar();
    void onOpened();
    void reloadTasks();
    void updateActions();
    void updateRecentMenu();
    void showError(const QString &message);
    void checkpoint(); // the writer moves the -wal file's pages into the corpus file
    void runCli(const QString &what, const QStringList &arguments);
    void startVerify(const QList<qint64> &ids, VerifyRunner::Run run);
    void showBanner(const QString &html);
    void updateCorpusState(); // read-only mode and the banner, from m_whyReadOnly and m_openedInUse // above the pages:
                              // read-only mode, a corpus in use; empty hides it
    void updateReviewProgress(const QList<TaskRow> &rows);

    Settings &m_settings;
    DbThread *m_reader;
    DbThread *m_writer;
    DbThread *m_aggregates; // task counts, statistics, histograms: slow scans kept off the paging thread
    QStackedWidget *m_stack;
    QTabWidget *m_pages;
    QAction *m_maximiseAction = nullptr;
    TaskPane *m_tasks;
    SamplePane *m_samples;
    DetailsPane *m_details;
    ClusterPage *m_clusters;
    StatsPage *m_stats;
    CliCapabilities *m_cli;
    CliProcess *m_cliJob;
    VerifyRunner *m_verify;
    QLabel *m_corpusLabel;
    QLabel *m_reviewProgress;
    QLabel *m_runSummary;
    QLabel *m_banner;
    QProgressBar *m_progress;
    QToolButton *m_cancel;
    QMenu *m_recentMenu = nullptr;
    QLabel *m_welcome = nullptr;
    QTimer *m_importTick = nullptr;
    QUndoView *m_undoView = nullptr;
    QList<QPair<QPointer<QObject>, const char *>> m_texts;
    std::function<void()> m_undoTexts;
    QAction *m_importAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_closeAction = nullptr;
    QAction *m_verifySelectedAction = nullptr;
    QAction *m_verifyPendingAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_sampleAction = nullptr;
    QAction *m_checkTasksAction = nullptr;
    QMenu *m_policyMenu = nullptr;
    QPointer<SamplerDialog> m_sampler;
    QString m_corpusPath;
    QString m_cliProgram;
    std::function<void(const QString &)> m_errorHandler;
    std::function<RunChoice(const QString &)> m_runChoice;
    std::function<bool(const QString &, int, const QString &)> m_migrateChoice;
    std::function<bool(qint64, const QString &)> m_confirmRun;
    QString m_readOnly;         // what an attempt to write is told, in the language shown
    QString m_whyReadOnly;      // corpusfile::whyReadOnly() at open
    bool m_openedInUse = false; // another process held the corpus's import or verify lock at open
    QList<TaskRow> m_taskRows;  // the review progress's figures, again after a language switch
    QString m_lastRun;          // the last run's summary
    quint64 m_openJob = 0;
    quint64 m_taskJob = 0;
};

} // namespace sieve::ui
