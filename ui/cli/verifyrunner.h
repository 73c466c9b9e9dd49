#pragma once
// Verification from the workbench: `sieve-cli verify DB --json` in a child process, its verdict lines
// parsed as they arrive so rows update live; cancel terminates it (the CLI keeps what it finished).
// This is the seam to the verification engine: when the engine is linked into the GUI, an in-process
// runner with the same signals can replace this one.
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

    // Empty ids: every pending sample.
    static QStringList arguments(const QString &corpus, const QList<qint64> &sampleIds, const Settings &settings);
    static bool hasGpu();
    void start(const QString &corpus, const QList<qint64> &sampleIds);
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void sampleVerified(qint64 sampleId, const QString &status, double speedup);
    void progress(qint64 done, qint64 total);
    void finished(bool ok, const QString &message);

private:
    const Settings &m_settings;
    CliProcess *m_process;
    qint64 m_done = 0;
    qint64 m_total = 0;
};

} // namespace sieve::ui
