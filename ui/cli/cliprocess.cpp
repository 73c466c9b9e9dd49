#include "ui/cli/cliprocess.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <sys/resource.h>

namespace sieve::ui {

CliProcess::CliProcess(QObject *parent)
    : QObject(parent), m_program(locate()), m_env(QProcessEnvironment::systemEnvironment())
{
    m_process.setObjectName(QStringLiteral("cliProcess"));
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &CliProcess::readOut);
    connect(&m_process, &QProcess::readyReadStandardError, this,
            [this] { m_stderr += QString::fromUtf8(m_process.readAllStandardError()); });
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readOut();
        if (!m_buffer.isEmpty()) {
            m_buffer += '\n';
            readOut();
        }
        Q_EMIT finished(m_cancelled ? 130 : code, m_cancelled ? tr("Cancelled.") : exitMessage(code, status));
    });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            Q_EMIT finished(-1, tr("Could not start %1: %2").arg(m_program, m_process.errorString()));
    });
}

CliProcess::~CliProcess()
{
    if (isRunning()) {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished(1000);
    }
}

QString CliProcess::locate()
{
    const QString env = qEnvironmentVariable("SIEVE_CLI");
    if (!env.isEmpty())
        return env;
    const QString sibling = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("sieve-cli"));
    if (QFileInfo(sibling).isExecutable())
        return sibling;
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("sieve-cli"));
    return onPath.isEmpty() ? QStringLiteral("sieve-cli") : onPath;
}

void CliProcess::start(const QStringList &arguments)
{
    m_buffer.clear();
    m_stderr.clear();
    m_stdoutAll.clear();
    m_cancelled = false;
    m_process.setProcessEnvironment(m_env);
    // Imports and verifications are batch work: below the workbench, so the window stays responsive on
    // a machine they keep busy. (Runs in the child between fork and exec.)
    m_process.setChildProcessModifier([] {
        errno = 0;
        const int current = getpriority(PRIO_PROCESS, 0);
        if (errno == 0)
            setpriority(PRIO_PROCESS, 0, std::min(current + 5, 19));
    });
    m_process.start(m_program, arguments);
}

void CliProcess::cancel()
{
    if (!isRunning())
        return;
    m_cancelled = true;
    // SIGTERM: the CLI saves what it has done and exits 130; kill only if it does not.
    m_process.terminate();
    QProcess *p = &m_process;
    QTimer::singleShot(5000, this, [p] {
        if (p->state() != QProcess::NotRunning)
            p->kill();
    });
}

void CliProcess::readOut()
{
    m_buffer += m_process.readAllStandardOutput();
    qsizetype nl;
    while ((nl = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(nl).trimmed();
        m_buffer.remove(0, nl + 1);
        if (line.isEmpty())
            continue;
        m_stdoutAll += QString::fromUtf8(line) + QLatin1Char('\n');
        if (line.startsWith('{')) {
            QJsonParseError error{};
            const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
            if (error.error == QJsonParseError::NoError && doc.isObject()) {
                Q_EMIT jsonLine(doc.object());
                continue;
            }
        }
        Q_EMIT textLine(QString::fromUtf8(line));
    }
}

QString CliProcess::exitMessage(int exitCode, QProcess::ExitStatus status)
{
    if (status == QProcess::CrashExit)
        return tr("sieve-cli crashed.");
    switch (exitCode) {
    case 0:
        return tr("Finished.");
    case 1:
        return tr("Failed: the command could not do its work.");
    case 2:
        return tr("Failed: sieve-cli did not understand the command line.");
    case 3:
        return tr("Finished, but some input records were rejected (see the report).");
    case 130:
        return tr("Interrupted; the work done so far is saved and can be resumed.");
    }
    return tr("sieve-cli exited with code %1.").arg(exitCode);
}

CliCapabilities::CliCapabilities(QObject *parent) : QObject(parent) {}

QSet<QString> CliCapabilities::parseOverview(const QString &text)
{
    QSet<QString> out;
    bool inCommands = false;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Commands:"))) {
            inCommands = true;
            continue;
        }
        if (!inCommands)
            continue;
        if (!line.startsWith(QLatin1String("  ")))
            break;
        const QString name = line.trimmed().section(QLatin1Char(' '), 0, 0);
        if (!name.isEmpty())
            out.insert(name);
    }
    return out;
}

void CliCapabilities::probe(const QString &program)
{
    delete m_process;
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    QProcess *p = m_process;
    connect(p, &QProcess::finished, this, [this, p] {
        m_commands = parseOverview(QString::fromUtf8(p->readAll()));
        Q_EMIT probed();
    });
    connect(p, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            m_commands.clear();
            Q_EMIT probed();
        }
    });
    p->start(program, {QStringLiteral("--help")});
}

} // namespace sieve::ui
