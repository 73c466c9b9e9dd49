#include "ui/cli/verifyrunner.h"

#include "ui/cli/cliprocess.h"
#include "ui/data/corpustypes.h"
#include "ui/main/logging.h"
#include "ui/main/settings.h"

#include <QFileInfo>
#include <QJsonObject>

namespace sieve::ui {

VerifyRunner::VerifyRunner(const Settings &settings, QObject *parent)
    : QObject(parent), m_settings(settings), m_process(new CliProcess(this))
{
    connect(m_process, &CliProcess::jsonLine, this, [this](const QJsonObject &o) {
        const QString op = o.value(QLatin1String("op")).toString();
        if (op == QLatin1String("progress") || o.contains(QLatin1String("total"))) {
            m_total = o.value(QLatin1String("total")).toInteger(m_total);
            m_done = o.value(QLatin1String("done")).toInteger(m_done);
            Q_EMIT progress(m_done, m_total);
            return;
        }
        // sieve-cli verify --json names the sample's id "sample".
        const QJsonValue id = o.contains(QLatin1String("sample_id")) ? o.value(QLatin1String("sample_id"))
                                                                     : o.value(QLatin1String("sample"));
        if (!id.isDouble() || !o.contains(QLatin1String("status")))
            return;
        const QJsonValue speedup = o.value(QLatin1String("speedup"));
        ++m_done;
        Q_EMIT sampleVerified(id.toInteger(), o.value(QLatin1String("status")).toString(),
                              speedup.isDouble() ? speedup.toDouble() : kNoValue);
        Q_EMIT progress(m_done, m_total);
    });
    connect(m_process, &CliProcess::finished, this,
            [this](int code, const QString &message) { Q_EMIT finished(code == 0, message); });
}

bool VerifyRunner::hasGpu()
{
    // The driver's device nodes exist exactly when a GPU can be used; no CUDA call from the GUI process.
    static const bool present = QFileInfo::exists(QStringLiteral("/dev/nvidiactl"));
    return present;
}

QStringList VerifyRunner::arguments(const QString &corpus, const QList<qint64> &sampleIds, const Settings &settings)
{
    QStringList args{QStringLiteral("verify"), corpus, QStringLiteral("--json")};
    for (qint64 id : sampleIds)
        args << QStringLiteral("--sample") << QString::number(id);
    // Without --all the CLI verifies only the PENDING ones among them; a reviewer who picks samples
    // wants exactly those verified (again).
    if (!sampleIds.isEmpty())
        args << QStringLiteral("--all");
    // "cpu" (or no GPU on this machine) verifies through Triton's interpreter; verdicts say so.
    const QString gpus = settings.gpus.value();
    if (gpus == QLatin1String("cpu") || !hasGpu())
        args << QStringLiteral("--cpu");
    else if (!gpus.isEmpty() && gpus != QLatin1String("all"))
        args << QStringLiteral("--gpus") << gpus;
    if (!settings.timing.value())
        args << QStringLiteral("--no-timing");
    // The verification settings, as the CLI's own flags (the run records them in its parameters).
    auto real = [](double v) { return QString::number(v, 'g', 10); };
    args << QStringLiteral("--atol-fp32") << real(settings.atolFp32.value()) << QStringLiteral("--rtol-fp32")
         << real(settings.rtolFp32.value()) << QStringLiteral("--atol-half") << real(settings.atolHalf.value())
         << QStringLiteral("--rtol-half") << real(settings.rtolHalf.value()) << QStringLiteral("--seeds")
         << QString::number(settings.seeds.value());
    if (settings.timing.value())
        args << QStringLiteral("--timing-max-runs") << QString::number(settings.timingMaxRuns.value())
             << QStringLiteral("--timing-budget-ms") << QString::number(settings.timingBudgetMs.value());
    return args;
}

void VerifyRunner::start(const QString &corpus, const QList<qint64> &sampleIds)
{
    m_done = 0;
    m_total = sampleIds.size();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!m_settings.python.value().isEmpty())
        env.insert(QStringLiteral("SIEVE_PYTHON"), m_settings.python.value());
    m_process->setEnvironment(env);
    qCInfo(lcUi).noquote() << "verifying with" << m_process->program()
                           << arguments(corpus, sampleIds, m_settings).join(QLatin1Char(' '));
    m_process->start(arguments(corpus, sampleIds, m_settings));
}

void VerifyRunner::cancel()
{
    m_process->cancel();
}
bool VerifyRunner::isRunning() const
{
    return m_process->isRunning();
}

} // namespace sieve::ui
