#pragma once
// Runs sieve-cli as a child process: import, verify and export run there, out of the GUI's address
// space, and a cancel is a terminate. JSON lines on stdout are handed over as they arrive; the exit
// code is mapped to a named, translated message (see README "Exit codes").
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QSet>

namespace sieve::ui {

class CliProcess final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CliProcess)
public:
    explicit CliProcess(QObject *parent = nullptr);
    ~CliProcess() override;

    // SIEVE_CLI, else sieve-cli next to this executable, else the one on PATH.
    static QString locate();
    void setProgram(const QString &program) { m_program = program; }
    QString program() const { return m_program; }
    void setEnvironment(const QProcessEnvironment &env) { m_env = env; }

    void start(const QStringList &arguments);
    void cancel();
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    QString stderrText() const { return m_stderr; }
    QString stdoutText() const { return m_stdoutAll; }

    static QString exitMessage(int exitCode, QProcess::ExitStatus status);

Q_SIGNALS:
    void jsonLine(const QJsonObject &object);
    void textLine(const QString &line);
    void finished(int exitCode, const QString &message);

private:
    void readOut();

    QString m_program;
    QProcessEnvironment m_env;
    QProcess m_process;
    QByteArray m_buffer;
    QString m_stderr;
    QString m_stdoutAll;
    bool m_cancelled = false;
};

// Which commands the sieve-cli next to us offers (its overview lists them): the workbench only enables
// import, verify and export when the tool that does the work is there.
class CliCapabilities final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CliCapabilities)
public:
    explicit CliCapabilities(QObject *parent = nullptr);
    void probe(const QString &program);
    bool has(const QString &command) const { return m_commands.contains(command); }
    static QSet<QString> parseOverview(const QString &text);

Q_SIGNALS:
    void probed();

private:
    QSet<QString> m_commands;
    QProcess *m_process = nullptr;
};

} // namespace sieve::ui
