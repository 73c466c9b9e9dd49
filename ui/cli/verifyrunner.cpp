#include "ui/cli/verifyrunner.h"

#include "ui/cli/cliprocess.h"
#include "ui/data/corpustypes.h"
#include "ui/main/figures.h"
#include "ui/main/logging.h"
#include "ui/main/settings.h"

#include <QFileInfo>
#include <QJsonObject>
#include <QLocale>

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
        ++m_statuses[o.value(QLatin1String("status")).toString()];
        Q_EMIT sampleVerified(id.toInteger(), o.value(QLatin1String("status")).toString(),
                              speedup.isDouble() ? speedup.toDouble() : kNoValue);
        Q_EMIT progress(m_done, m_total);
    });
    connect(m_process, &CliProcess::finished, this, [this](int code, const QString &message) {
        const QString err = m_process->stderrText();
        const bool unfinished =
            code == 2 && err.contains(QLatin1String("unfinished")) && err.contains(QLatin1String("--new-run"));
        Q_EMIT finished(code == 0,
                        code == 0 || code == 130 ? summaryText() + QStringLiteral(" · ") + message : message);
        if (unfinished) {
            qsizetype at = err.lastIndexOf(QLatin1String("verification run"));
            Q_EMIT unfinishedRunFound(m_corpus, m_ids, err.mid(std::max<qsizetype>(0, at)).trimmed());
        }
    });
}

bool VerifyRunner::hasGpu()
{
    // The driver's device nodes exist exactly when a GPU can be used; no CUDA call from the GUI process.
    static const bool present = QFileInfo::exists(QStringLiteral("/dev/nvidiactl"));
    return present;
}

QStringList VerifyRunner::arguments(const QString &corpus, const QList<qint64> &sampleIds, const Settings &settings,
                                    Run run)
{
    QStringList args{QStringLiteral("verify"), corpus, QStringLiteral("--json")};
    if (run == Run::Resume)
        return args; // the unfinished run continues with its own selection and mode
    if (run == Run::New)
        args << QStringLiteral("--new-run");
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
    if (settings.policy.value() != QLatin1String("strict"))
        args << QStringLiteral("--policy") << settings.policy.value();
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

void VerifyRunner::start(const QString &corpus, const QList<qint64> &sampleIds, Run run)
{
    m_done = 0;
    m_total = run == Run::Resume ? 0 : sampleIds.size();
    m_statuses.clear();
    m_corpus = corpus;
    m_ids = sampleIds;
    m_clock.start();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!m_settings.python.value().isEmpty())
        env.insert(QStringLiteral("SIEVE_PYTHON"), m_settings.python.value());
    m_process->setEnvironment(env);
    const QStringList args = arguments(corpus, sampleIds, m_settings, run);
    qCInfo(lcUi).noquote() << "verifying with" << m_process->program() << args.join(QLatin1Char(' '));
    m_process->start(args);
}

double VerifyRunner::rate() const
{
    const double seconds = m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0.0;
    return seconds > 0.5 && m_done > 0 ? m_done / seconds : 0.0;
}

QString VerifyRunner::estimate(qint64 samples, const Settings &settings)
{
    const bool cpu = settings.gpus.value() == QLatin1String("cpu") || !hasGpu();
    const double last = settings.lastRate.value();
    const double rate = last > 0 ? last : cpu ? kDefaultCpuRate : kDefaultGpuRate;
    const QString rateText = QLocale().toString(rate, 'f', rate < 10 ? 2 : 0);
    return last > 0 ? tr("About %1 at the last run's rate (%2 samples per second).")
                          .arg(durationText(samples / rate), rateText)
                    : tr("About %1 at %2 samples per second, a typical rate %3 (no run has been timed here yet).")
                          .arg(durationText(samples / rate), rateText, cpu ? tr("on the CPU") : tr("on one GPU"));
}

QString VerifyRunner::progressText() const
{
    const double rate = this->rate();
    QString text = m_total > 0 ? tr("%1 of %2").arg(QLocale().toString(m_done), QLocale().toString(m_total))
                               : tr("%1 verified").arg(figures::samples(m_done));
    if (rate > 0)
        text += tr(" · %1 per second").arg(QLocale().toString(rate, 'f', rate < 10 ? 1 : 0));
    if (rate > 0 && m_total > m_done)
        text += tr(" · about %1 left").arg(durationText((m_total - m_done) / rate));
    return text;
}

QString VerifyRunner::summaryText() const
{
    QStringList parts;
    for (auto it = m_statuses.cbegin(); it != m_statuses.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(QLocale().toString(it.value()), it.key());
    const double seconds = m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0.0;
    return tr("%1 verified in %2").arg(figures::samples(m_done), durationText(seconds)) +
           (parts.isEmpty() ? QString() : QStringLiteral(": ") + parts.join(QStringLiteral(", ")));
}

QString VerifyRunner::durationText(double seconds)
{
    if (seconds < 90)
        return tr("%1 s").arg(qRound(seconds));
    if (seconds < 5400)
        return tr("%1 min").arg(qRound(seconds / 60));
    return tr("%1 h").arg(QLocale().toString(seconds / 3600, 'f', 1));
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
