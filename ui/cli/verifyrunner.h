#pragma once
// Verification from the workbench: `sieve-cli verify DB --json` in a child process, its verdict lines
// parsed as they arrive so rows update live; cancel terminates it (the CLI keeps what it finished).
// This is the seam to the verification engine: when the engine is linked into the GUI, an in-process
// runner with the same signals can replace this one.
#include <QElapsedTimer>
#include <QMap>
#include <QObject>

namespace sieve::ui {

class CliProcess;
class Settings;

class VerifyRunner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerifyRunner)
public:
    VerifyRunner(const Settings &settings, QObject *parent = nullptr);
    CliProcess *process() const { return m_process; }

    // Empty ids: every pending sample. A cancelled run stays unfinished in the corpus; the CLI then wants
    // either the same command (resume) or --new-run (abandon it and start this one).
    enum class Run { Default, Resume, New };
    static QStringList arguments(const QString &corpus, const QList<qint64> &sampleIds, const Settings &settings,
                                 Run run = Run::Default);
    static bool hasGpu();
    // Samples per second assumed before any run has been timed here (docs/GUI.md): Triton's interpreter on a
    // few CPU cores, and one GPU.
    static constexpr double kDefaultCpuRate = 0.5;
    static constexpr double kDefaultGpuRate = 2.0;
    // "about 2 h 10 min (at 0.4 samples per second, the last run's rate)" for `samples` samples.
    static QString estimate(qint64 samples, const Settings &settings);
    // Samples per second of the run so far (0 until a verdict arrived).
    double rate() const;
    qint64 done() const { return m_done; }
    void start(const QString &corpus, const QList<qint64> &sampleIds, Run run = Run::Default);
    // "12 of 40 · 1.5 per second · about 19 s left" while running; the summary once finished.
    QString progressText() const;
    QString summaryText() const;
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void sampleVerified(qint64 sampleId, const QString &status, double speedup);
    void progress(qint64 done, qint64 total);
    void finished(bool ok, const QString &message);
    // The CLI refused because an earlier (cancelled) run is unfinished; `detail` is its own words.
    void unfinishedRunFound(const QString &corpus, const QList<qint64> &sampleIds, const QString &detail);

private:
    static QString durationText(double seconds);
    const Settings &m_settings;
    CliProcess *m_process;
    qint64 m_done = 0;
    qint64 m_total = 0;
    QElapsedTimer m_clock;
    QMap<QString, qint64> m_statuses;
    QString m_corpus;
    QList<qint64> m_ids;
};

} // namespace sieve::ui
