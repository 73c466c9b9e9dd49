#include "net/serveverifier.h"

#include <nlohmann/json.hpp>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace sieve::net {

ServeVerifier::ServeVerifier(QStringList command, QString dbPath, QObject *parent)
    : AttemptVerifier(parent), m_command(std::move(command)), m_dbPath(std::move(dbPath))
{
}

ServeVerifier::~ServeVerifier()
{
    if (!m_process)
        return;
    disconnect(m_process, nullptr, this, nullptr);
    // End of input: the verifier finishes what it has (nothing, at the end of a run) and exits.
    m_process->closeWriteChannel();
    if (!m_process->waitForFinished(m_pending.empty() ? 15000 : 0)) {
        m_process->terminate();
        if (!m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
}

QStringList ServeVerifier::defaultCommand(const QString &cliPath, int parallel, const QStringList &extraArgs)
{
    QStringList c{cliPath,
                  QStringLiteral("verify"),
                  QStringLiteral("{db}"),
                  QStringLiteral("--serve"),
                  QStringLiteral("--json"),
                  QStringLiteral("--quiet"),
                  QStringLiteral("--parallel"),
                  QString::number(std::max(1, parallel))};
    return c + extraArgs;
}

void ServeVerifier::start()
{
    m_partial.clear();
    QStringList args = m_command.mid(1);
    for (QString &a : args)
        a.replace(QLatin1String("{db}"), m_dbPath);
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    // Candidate code must never see the endpoint's key: the verifier gets no key variables.
    QProcessEnvironment env = m_env;
    for (const QString &k : env.keys())
        if (k.contains(QLatin1String("API_KEY")) || k.contains(QLatin1String("TOKEN")))
            env.remove(k);
    m_process->setProcessEnvironment(env);
    QProcess *p = m_process;
    connect(p, &QProcess::readyReadStandardOutput, this, &ServeVerifier::onStdout);
    connect(p, &QProcess::finished, this, [this, p](int code, QProcess::ExitStatus st) {
        if (p != m_process)
            return;
        onEnded(QStringLiteral("exit %1%2")
                    .arg(code)
                    .arg(st == QProcess::CrashExit ? QStringLiteral(", crashed") : QString()));
    });
    connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
        if (p == m_process && e == QProcess::FailedToStart)
            onEnded(QStringLiteral("cannot start %1: %2").arg(m_command.value(0), p->errorString()));
    });
    // A sampler killed with SIGKILL cannot stop its verifier: the kernel does, so that the verifier does not
    // go on holding the corpus's verify lock against the resume (it leaves its run interrupted).
    m_process->setChildProcessModifier([parent = ::getpid()] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) // the sampler died before the line above
            ::raise(SIGTERM);
    });
    ++m_starts;
    m_process->start(m_command.value(0), args);
}

void ServeVerifier::verify(qint64 sampleId)
{
    if (m_command.isEmpty()) {
        Q_EMIT failed(sampleId, QStringLiteral("no verifier command"));
        return;
    }
    if (m_ending) { // a verdict of the verifier that just ended led here: it fails with the others
        m_pending.insert(sampleId);
        return;
    }
    m_pending.insert(sampleId);
    if (!m_process)
        start(); // may fail at once (errorOccurred inside start()): onEnded() then failed the sample
    if (m_process)
        m_process->write(QByteArray::number(sampleId) + '\n'); // buffered until the process has started
}

void ServeVerifier::onStdout()
{
    if (!m_process)
        return;
    m_partial += m_process->readAllStandardOutput();
    for (qsizetype nl; (nl = m_partial.indexOf('\n')) >= 0;) {
        const QByteArray line = m_partial.left(nl);
        m_partial.remove(0, nl + 1);
        const nlohmann::json j = nlohmann::json::parse(line.constBegin(), line.constEnd(), nullptr, false);
        if (!j.is_object() || !j.contains("sample") || !j["sample"].is_number_integer())
            continue; // the summary, or a line of another kind
        const qint64 id = j["sample"].get<qint64>();
        if (!m_pending.erase(id))
            continue;
        if (j.contains("status") && j["status"].is_string())
            Q_EMIT verified(id, QString::fromStdString(j["status"].get<std::string>()));
        else
            Q_EMIT failed(id, QStringLiteral("the verifier could not verify sample %1: %2")
                                  .arg(id)
                                  .arg(QString::fromStdString(j.value("error", std::string("?")))));
    }
}

void ServeVerifier::onEnded(const QString &why)
{
    if (!m_process)
        return;
    m_ending = true;
    onStdout(); // the verdicts it printed before it ended
    m_ending = false;
    QProcess *p = m_process;
    m_process = nullptr;
    if (!p)
        return;
    p->deleteLater();
    if (m_pending.empty())
        return;
    const QString tail = QString::fromUtf8(p->readAllStandardError().right(600)).trimmed();
    const std::set<qint64> pending = std::move(m_pending);
    m_pending.clear();
    // From the event loop: this may run inside verify() (a verifier that cannot start fails in start()).
    for (qint64 id : pending) {
        const QString message = QStringLiteral("the verifier (%1) ended (%2) before its verdict for sample %3; the "
                                               "sample stays unverified and is verified when the run resumes: %4")
                                    .arg(m_command.join(QLatin1Char(' ')), why)
                                    .arg(id)
                                    .arg(tail);
        QMetaObject::invokeMethod(
            this,
            [this, id, message, generation = m_generation] {
                if (generation == m_generation) // no signal after cancel()
                    Q_EMIT failed(id, message);
            },
            Qt::QueuedConnection);
    }
}

void ServeVerifier::cancel()
{
    ++m_generation;
    const bool idle = m_pending.empty();
    m_pending.clear();
    if (!m_process)
        return;
    QProcess *p = m_process;
    m_process = nullptr;
    disconnect(p, nullptr, this, nullptr);
    if (idle) {
        p->closeWriteChannel(); // nothing in flight: end of input lets its run finish
        if (!p->waitForFinished(15000))
            p->terminate();
    } else {
        p->terminate(); // sieve-cli verify stops its workers and leaves its run interrupted
    }
    if (!p->waitForFinished(5000)) {
        p->kill();
        p->waitForFinished(2000);
    }
    p->deleteLater();
}

} // namespace sieve::net
