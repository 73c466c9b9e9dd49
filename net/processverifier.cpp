#include "net/processverifier.h"

#include <QProcess>

namespace sieve::net {

ProcessVerifier::ProcessVerifier(QStringList command, QString dbPath, int parallel,
                                 std::function<std::optional<std::string>(qint64)> statusOf, QObject *parent)
    : AttemptVerifier(parent), m_command(std::move(command)), m_dbPath(std::move(dbPath)),
      m_parallel(std::max(1, parallel)), m_statusOf(std::move(statusOf))
{
}

ProcessVerifier::~ProcessVerifier()
{
    cancel();
}

QStringList ProcessVerifier::defaultCommand(const QString &cliPath, const QStringList &extraArgs)
{
    QStringList c{cliPath,
                  QStringLiteral("verify"),
                  QStringLiteral("{db}"),
                  QStringLiteral("--sample"),
                  QStringLiteral("{sample}"),
                  QStringLiteral("--json")};
    return c + extraArgs;
}

void ProcessVerifier::verify(qint64 sampleId)
{
    m_queue.push_back(sampleId);
    pump();
}

void ProcessVerifier::pump()
{
    while (!m_queue.empty() && static_cast<int>(m_running.size()) < m_parallel && !m_command.isEmpty()) {
        const qint64 id = m_queue.front();
        m_queue.pop_front();
        QStringList args = m_command.mid(1);
        for (QString &a : args) {
            a.replace(QLatin1String("{db}"), m_dbPath);
            a.replace(QLatin1String("{sample}"), QString::number(id));
        }
        auto *p = new QProcess(this);
        p->setProcessChannelMode(QProcess::SeparateChannels);
        // Candidate code must never see the endpoint's key: the verifier gets no key variables.
        QProcessEnvironment env = m_env;
        for (const QString &k : env.keys())
            if (k.contains(QLatin1String("API_KEY")) || k.contains(QLatin1String("TOKEN")))
                env.remove(k);
        p->setProcessEnvironment(env);
        connect(p, &QProcess::finished, this, [this, id, p](int code, QProcess::ExitStatus st) {
            onFinished(id, p, code, st == QProcess::CrashExit);
        });
        connect(p, &QProcess::errorOccurred, this, [this, id, p](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart)
                onFinished(id, p, -1, true);
        });
        m_running[id] = p;
        p->start(m_command.front(), args);
    }
}

void ProcessVerifier::onFinished(qint64 sampleId, QProcess *process, int exitCode, bool crashed)
{
    auto it = m_running.find(sampleId);
    if (it == m_running.end() || it->second != process)
        return;
    m_running.erase(it);
    process->deleteLater();
    const std::optional<std::string> status = m_statusOf(sampleId);
    if (status) {
        Q_EMIT verified(sampleId, QString::fromStdString(*status));
    } else {
        QString tail = QString::fromUtf8(process->readAllStandardError().right(600)).trimmed();
        if (process->error() == QProcess::FailedToStart)
            tail = QStringLiteral("cannot start %1: %2").arg(m_command.front(), process->errorString());
        Q_EMIT failed(sampleId, QStringLiteral("the verifier (%1) left no verdict for sample %2 (exit %3%4): %5")
                                    .arg(m_command.join(QLatin1Char(' ')))
                                    .arg(sampleId)
                                    .arg(exitCode)
                                    .arg(crashed ? QStringLiteral(", crashed") : QString())
                                    .arg(tail));
    }
    pump();
}

void ProcessVerifier::cancel()
{
    m_queue.clear();
    auto running = std::move(m_running);
    m_running.clear();
    for (auto &[id, p] : running) {
        disconnect(p, nullptr, this, nullptr);
        p->kill();
        p->waitForFinished(2000);
        p->deleteLater();
    }
}

} // namespace sieve::net
