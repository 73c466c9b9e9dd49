#pragma once
// AttemptVerifier over one long-lived `sieve-cli verify DB --serve --json` for the whole sampling run:
// sample ids go to its stdin as attempts are stored, verdicts come back as JSON lines on its stdout.
// One process, one verify lock, one set of warm workers (torch imported and Triton's JIT cache filled
// once, not per attempt), and `--parallel` candidates at once inside it, so that --verify-parallel N never
// meets the corpus's verify lock. The process starts at the first verify().
//
// A verifier that dies or cannot start is a fault of the harness, never of the attempt: failed() is
// emitted for the samples it had, the sampler stops resumably, and those samples stay stored without a
// verdict, to be verified (by a fresh verifier) when the run resumes. The killed verifier's run is
// abandoned by the next one (serve runs are never resumed), so it cannot block anything.
#include "net/attemptverifier.h"

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include <set>

namespace sieve::net {

class ServeVerifier final : public AttemptVerifier
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServeVerifier)
public:
    // `command`: program and arguments, "{db}" replaced (see defaultCommand()).
    ServeVerifier(QStringList command, QString dbPath, QObject *parent = nullptr);
    ~ServeVerifier() override;

    // sieve-cli itself: `verify {db} --serve --json --quiet --parallel P` plus `extraArgs`.
    static QStringList defaultCommand(const QString &cliPath, int parallel, const QStringList &extraArgs = {});

    // The verifier's environment (default: this process's); variables named like keys are removed.
    void setEnvironment(QProcessEnvironment env) { m_env = std::move(env); }

    void verify(qint64 sampleId) override;
    void cancel() override;

    // The verifier's pid while it runs (tests kill it), 0 otherwise; processes started so far.
    qint64 pid() const { return m_process ? m_process->processId() : 0; }
    int starts() const { return m_starts; }

private:
    void start();
    void onStdout();
    void onEnded(const QString &why);

    QStringList m_command;
    QString m_dbPath;
    QProcessEnvironment m_env = QProcessEnvironment::systemEnvironment();
    QProcess *m_process = nullptr;
    QByteArray m_partial;       // stdout after its last newline
    std::set<qint64> m_pending; // sent, no verdict yet
    int m_starts = 0;
    bool m_ending = false;    // inside onEnded()
    quint64 m_generation = 0; // bumped by cancel(): queued failures of before are dropped
};

} // namespace sieve::net
