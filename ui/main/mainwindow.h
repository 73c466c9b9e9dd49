#pragma once
// The workbench window. It only composes the panes, the menus and the background pieces and wires
// them together; each pane owns its own behaviour.
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
class VerifyRunner;

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
    void importPaths(const QStringList &paths);
    void verifySamples(const QList<qint64> &ids); // empty: every pending sample
    void openSampler(); // Corpus › Sample from Teacher…: one modeless dialog per open corpus
    void setCliProgram(const QString &program);
    // Where errors go; tests replace the message box.
    void setErrorHandler(std::function<void(const QString &)> handler) { m_errorHandler = std::move(handler); }

    TaskPane *taskPane() const { return m_tasks; }
    SamplePane *samplePane() const { return m_samples; }
    DetailsPane *details() const { return m_details; }
    ClusterPage *clusterPage() const { return m_clusters; }
    StatsPage *statsPage() const { return m_stats; }
    QTabWidget *pages() const { return m_pages; }

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
    void runCli(const QString &what, const QStringList &arguments);

    Settings &m_settings;
    DbThread *m_reader;
    DbThread *m_writer;
    DbThread *m_aggregates; // task counts, statistics, histograms: slow scans kept off the paging thread
    QStackedWidget *m_stack;
    QTabWidget *m_pages;
    TaskPane *m_tasks;
    SamplePane *m_samples;
    DetailsPane *m_details;
    ClusterPage *m_clusters;
    StatsPage *m_stats;
    CliCapabilities *m_cli;
    CliProcess *m_cliJob;
    VerifyRunner *m_verify;
    QLabel *m_corpusLabel;
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
    QPointer<SamplerDialog> m_sampler;
    QString m_corpusPath;
    QString m_cliProgram;
    std::function<void(const QString &)> m_errorHandler;
    quint64 m_openJob = 0;
    quint64 m_taskJob = 0;
};

} // namespace sieve::ui
