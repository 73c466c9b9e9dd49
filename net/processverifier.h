#pragma once
// AttemptVerifier over a command line: by default `sieve-cli verify DB --sample ID --json`, one process
// per sample, `parallel` at a time. The verdict is read back from the corpus (the verifier writes it
// there; the command's stdout is not parsed, so its --json format can change freely).
//
// Lead: once the VerificationEngine (branch `verifier`) is on main, an in-process implementation can
// keep one engine and its warm workers for the whole run instead of a process per sample.
#include "net/attemptverifier.h"

#include <QProcessEnvironment>
#include <QStringList>

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>

class QProcess;

namespace sieve::net {

class ProcessVerifier final : public AttemptVerifier
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProcessVerifier)
public:
    // `command`: program and arguments; "{db}" and "{sample}" in arguments are replaced.
    // `statusOf`: reads the sample's verdict from the corpus after the process ended.
    ProcessVerifier(QStringList command, QString dbPath, int parallel,
                    std::function<std::optional<std::string>(qint64)> statusOf, QObject *parent = nullptr);
    ~ProcessVerifier() override;

    // sieve-cli itself, `verify {db} --sample {sample} --json`, plus `extraArgs`.
    static QStringList defaultCommand(const QString &cliPath, const QStringList &extraArgs = {});

    // The verifier's environment (default: this process's); variables named like keys are still removed.
    void setEnvironment(QProcessEnvironment env) { m_env = std::move(env); }

    void verify(qint64 sampleId) override;
    void cancel() override;

private:
    void pump();
    void onFinished(qint64 sampleId, QProcess *process, int exitCode, bool crashed);

    QStringList m_command;
    QString m_dbPath;
    int m_parallel;
    std::function<std::optional<std::string>(qint64)> m_statusOf;
    QProcessEnvironment m_env = QProcessEnvironment::systemEnvironment();
    std::deque<qint64> m_queue;
    std::map<qint64, QProcess *> m_running;
};

} // namespace sieve::net
