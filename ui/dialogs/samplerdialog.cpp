#include "ui/dialogs/samplerdialog.h"

#include "net/processverifier.h"
#include "net/sampler.h"
#include "ui/cli/verifyrunner.h"
#include "ui/main/settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcessEnvironment>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

namespace sieve::ui {

namespace {
constexpr auto kDefaultEndpoint = "http://127.0.0.1:8000/v1";
constexpr auto kDefaultKeyEnv = "OPENAI_API_KEY";
constexpr int kStoredSignalMs = 2000; // task counts follow a run without a query per reply
} // namespace

SamplerDialog::SamplerDialog(QString dbPath, QString cliProgram, Settings &settings, QWidget *parent)
    : QDialog(parent), m_dbPath(std::move(dbPath)), m_cliProgram(std::move(cliProgram)), m_settings(settings),
      m_storedSignal(new QTimer(this))
{
    setObjectName(QStringLiteral("samplerDialog"));
    setWindowTitle(tr("Sample from Teacher"));
    auto *form = new QFormLayout;
    auto named = [](QWidget *w, const char *name) {
        w->setObjectName(QLatin1String(name));
        return w;
    };
    const QString endpoint = settings.teacherEndpoint.value();
    m_endpoint = new QLineEdit(endpoint.isEmpty() ? QLatin1String(kDefaultEndpoint) : endpoint);
    m_endpoint->setToolTip(tr("Base URL of an OpenAI-compatible server (vLLM, SGLang, a hosted API), "
                              "or its full …/chat/completions URL."));
    m_model = new QLineEdit(settings.teacherModel.value());
    const QString keyEnv = settings.teacherKeyEnv.value();
    m_keyEnv = new QLineEdit(keyEnv.isEmpty() ? QLatin1String(kDefaultKeyEnv) : keyEnv);
    m_keyEnv->setToolTip(tr("Name of the environment variable holding the API key. The key is sent to the "
                            "endpoint only; it is never shown, logged or stored in the corpus."));
    m_mode = new QComboBox;
    m_mode->addItem(tr("Stop at first pass (verify each attempt)"), QStringLiteral("first-pass"));
    m_mode->addItem(tr("Keep all samples"), QStringLiteral("keep-all"));
    m_k = new QSpinBox;
    m_k->setRange(1, 1024);
    m_attempts = new QSpinBox;
    m_attempts->setRange(1, 1024);
    m_attempts->setValue(16);
    m_temperature = new QDoubleSpinBox;
    m_temperature->setRange(0, 2);
    m_temperature->setSingleStep(0.1);
    m_temperature->setValue(1.0);
    m_maxTokens = new QSpinBox;
    m_maxTokens->setRange(0, 1 << 20);
    m_maxTokens->setSpecialValueText(tr("endpoint default"));
    m_concurrency = new QSpinBox;
    m_concurrency->setRange(1, 1024);
    m_concurrency->setValue(8);
    m_rate = new QDoubleSpinBox;
    m_rate->setRange(0, 10000);
    m_rate->setSpecialValueText(tr("unlimited"));
    m_maxFailures = new QSpinBox;
    m_maxFailures->setRange(1, 1000);
    m_maxFailures->setValue(8);
    m_stream = new QCheckBox(tr("Stream replies"));
    m_extra = new QLineEdit;
    m_extra->setPlaceholderText(QStringLiteral(R"({"reasoning_effort": "max"})"));
    m_runId = new QLineEdit;
    m_runId->setPlaceholderText(tr("new run (the same name resumes a run)"));
    form->addRow(tr("Endpoint:"), named(m_endpoint, "samplerEndpoint"));
    form->addRow(tr("Model:"), named(m_model, "samplerModel"));
    form->addRow(tr("API key variable:"), named(m_keyEnv, "samplerKeyEnv"));
    form->addRow(tr("Mode:"), named(m_mode, "samplerMode"));
    form->addRow(tr("Samples per task (keep all):"), named(m_k, "samplerK"));
    form->addRow(tr("Attempts per task (first pass):"), named(m_attempts, "samplerAttempts"));
    form->addRow(tr("Temperature:"), named(m_temperature, "samplerTemperature"));
    form->addRow(tr("Max tokens:"), named(m_maxTokens, "samplerMaxTokens"));
    form->addRow(tr("Requests in flight:"), named(m_concurrency, "samplerConcurrency"));
    form->addRow(tr("Requests per second:"), named(m_rate, "samplerRate"));
    form->addRow(tr("Errors in a row that stop the run:"), named(m_maxFailures, "samplerMaxFailures"));
    form->addRow(tr("Streaming:"), named(m_stream, "samplerStream"));
    form->addRow(tr("Extra body fields (JSON):"), named(m_extra, "samplerExtra"));
    form->addRow(tr("Run:"), named(m_runId, "samplerRunId"));

    auto *live = new QGroupBox(tr("Progress"));
    auto *grid = new QGridLayout(live);
    auto value = [&](const QString &label, const char *name, int row, int column) {
        auto *v = new QLabel(QStringLiteral("–"));
        v->setObjectName(QLatin1String(name));
        v->setTextInteractionFlags(Qt::TextSelectableByMouse);
        grid->addWidget(new QLabel(label), row, column * 2);
        grid->addWidget(v, row, column * 2 + 1);
        return v;
    };
    m_tasks = value(tr("Tasks done:"), "samplerTasksDone", 0, 0);
    m_inFlight = value(tr("Requests in flight:"), "samplerInFlight", 1, 0);
    m_attemptsDone = value(tr("Attempts stored:"), "samplerAttemptsDone", 2, 0);
    m_verifying = value(tr("Verifying:"), "samplerVerifying", 3, 0);
    m_passed = value(tr("Tasks passed:"), "samplerPassed", 0, 1);
    m_retries = value(tr("Retries:"), "samplerRetries", 1, 1);
    m_errors = value(tr("Errors in a row:"), "samplerErrors", 2, 1);
    m_bar = new QProgressBar;
    m_bar->setObjectName(QStringLiteral("samplerProgress"));
    grid->addWidget(m_bar, 4, 0, 1, 4);
    m_status = new QLabel(tr("Not started."));
    m_status->setObjectName(QStringLiteral("samplerStatus"));
    m_status->setWordWrap(true);
    grid->addWidget(m_status, 5, 0, 1, 4);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("samplerLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_startStop = buttons->addButton(tr("Start"), QDialogButtonBox::ActionRole);
    m_startStop->setObjectName(QStringLiteral("samplerStartStop"));
    connect(m_startStop, &QPushButton::clicked, this, [this] { running() ? stop() : start(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &SamplerDialog::reject);

    m_storedSignal->setSingleShot(true);
    m_storedSignal->setInterval(kStoredSignalMs);
    connect(m_storedSignal, &QTimer::timeout, this, &SamplerDialog::samplesStored);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(live);
    layout->addWidget(m_log, 1);
    layout->addWidget(buttons);
}

SamplerDialog::~SamplerDialog()
{
    // Destroyed mid-run (the main window closes): the run is left 'interrupted', resumable, and nothing of
    // this half-destroyed dialog (or of the window that owns it) reacts to its end.
    if (m_sampler) {
        disconnect(m_sampler.get(), nullptr, this, nullptr);
        m_sampler->cancel();
    }
}

bool SamplerDialog::running() const
{
    return m_sampler != nullptr;
}

void SamplerDialog::log(const QString &line)
{
    m_log->appendPlainText(line);
}

void SamplerDialog::setEditable(bool on)
{
    for (QWidget *w : std::initializer_list<QWidget *>{m_endpoint, m_model, m_keyEnv, m_mode, m_k, m_attempts,
                                                       m_temperature, m_maxTokens, m_concurrency, m_rate, m_maxFailures,
                                                       m_stream, m_extra, m_runId})
        w->setEnabled(on);
    m_startStop->setText(on ? tr("Start") : tr("Stop"));
}

void SamplerDialog::start()
{
    net::SamplerOptions o;
    o.dbPath = m_dbPath.toStdString();
    o.client.endpoint = QUrl(m_endpoint->text().trimmed(), QUrl::StrictMode);
    if (!o.client.endpoint.isValid() ||
        (o.client.endpoint.scheme() != QLatin1String("http") && o.client.endpoint.scheme() != QLatin1String("https"))) {
        QMessageBox::warning(this, windowTitle(), tr("The endpoint must be an http:// or https:// URL."));
        return;
    }
    o.model = m_model->text().trimmed().toStdString();
    if (o.model.empty()) {
        QMessageBox::warning(this, windowTitle(), tr("Enter the model name the endpoint serves."));
        return;
    }
    if (!m_extra->text().trimmed().isEmpty()) {
        o.extra = nlohmann::json::parse(m_extra->text().toStdString(), nullptr, false);
        if (o.extra.is_discarded() || !o.extra.is_object()) {
            QMessageBox::warning(this, windowTitle(), tr("Extra body fields must be a JSON object."));
            return;
        }
    }
    const QString keyEnv = m_keyEnv->text().trimmed();
    m_settings.teacherEndpoint.setValue(m_endpoint->text().trimmed());
    m_settings.teacherModel.setValue(m_model->text().trimmed());
    m_settings.teacherKeyEnv.setValue(keyEnv);
    if (!keyEnv.isEmpty())
        o.client.apiKey = qgetenv(keyEnv.toLocal8Bit().constData());
    if (o.client.apiKey.isEmpty())
        log(tr("$%1 is not set; requests carry no API key.").arg(keyEnv));
    o.client.concurrency = m_concurrency->value();
    o.client.rate = m_rate->value();
    o.client.maxFailures = m_maxFailures->value();
    o.mode = m_mode->currentData().toString() == QLatin1String("keep-all") ? net::SampleMode::KeepAll
                                                                           : net::SampleMode::FirstPass;
    o.k = m_k->value();
    o.attempts = m_attempts->value();
    o.temperature = m_temperature->value();
    if (m_maxTokens->value() > 0)
        o.maxTokens = m_maxTokens->value();
    o.stream = m_stream->isChecked();
    o.runName = m_runId->text().trimmed().toStdString();

    if (o.mode == net::SampleMode::FirstPass && QStandardPaths::findExecutable(m_cliProgram).isEmpty()) {
        // Said before the first request: otherwise the run would stop at its first verification.
        log(tr("Stopping at the first pass verifies every attempt with sieve-cli, which was not found (%1). "
               "Keep all samples instead, or install sieve-cli next to the workbench.")
                .arg(m_cliProgram));
        return;
    }
    if (o.mode == net::SampleMode::FirstPass) {
        // The verify flags the Verify menu uses (--cpu without a GPU, --gpus, --no-timing), one sample each.
        QStringList cmd = QStringList{m_cliProgram} + VerifyRunner::arguments(QStringLiteral("{db}"), {}, m_settings) +
                          QStringList{QStringLiteral("--sample"), QStringLiteral("{sample}")};
        m_verifier = std::make_unique<net::ProcessVerifier>(
            cmd, m_dbPath, 1, [this](qint64 id) { return m_sampler->store()->verifiedStatus(id); });
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!m_settings.python.value().isEmpty())
            env.insert(QStringLiteral("SIEVE_PYTHON"), m_settings.python.value());
        m_verifier->setEnvironment(env);
    }
    m_sampler = std::make_unique<net::Sampler>(o, m_verifier.get());
    connect(m_sampler.get(), &net::Sampler::started, this, [this](qint64, const QString &name, bool resumed) {
        m_runId->setText(name);
        log(resumed ? tr("Resuming run %1.").arg(name) : tr("Started run %1.").arg(name));
    });
    connect(m_sampler.get(), &net::Sampler::progressChanged, this, &SamplerDialog::onProgress);
    connect(m_sampler.get(), &net::Sampler::notice, this, &SamplerDialog::log);
    connect(m_sampler.get(), &net::Sampler::finished, this, &SamplerDialog::onFinished);
    setEditable(false);
    m_storedSeen = 0;
    m_status->setText(tr("Running…"));
    try {
        m_sampler->start();
    } catch (const std::exception &e) {
        log(tr("Cannot start: %1").arg(QString::fromUtf8(e.what())));
        m_status->setText(tr("Not started."));
        m_sampler.reset();
        m_verifier.reset();
        setEditable(true);
    }
}

void SamplerDialog::stop()
{
    if (m_sampler)
        m_sampler->cancel();
}

void SamplerDialog::onProgress(const net::SamplerProgress &p)
{
    m_bar->setRange(0, std::max(1, p.tasksTotal));
    m_bar->setValue(p.tasksDone);
    m_tasks->setText(tr("%1 of %2").arg(p.tasksDone).arg(p.tasksTotal));
    m_inFlight->setText(tr("%1 (%2 waiting)").arg(p.inFlight).arg(p.queued));
    m_attemptsDone->setText(
        tr("%1 (%2 this session, %3 requests)").arg(p.samplesStored).arg(p.storedThisSession).arg(p.requests));
    m_verifying->setText(QString::number(p.verifying));
    m_passed->setText(QString::number(p.tasksPassed));
    m_retries->setText(QString::number(p.retries));
    m_errors->setText(tr("%1 (the run stops at %2)").arg(p.failuresInRow).arg(m_maxFailures->value()));
    if (p.storedThisSession > m_storedSeen) {
        m_storedSeen = p.storedThisSession;
        if (!m_storedSignal->isActive())
            m_storedSignal->start();
    }
}

void SamplerDialog::onFinished(const net::SamplerSummary &s)
{
    onProgress(s.progress);
    m_storedSignal->stop();
    if (s.state == QLatin1String("finished")) {
        m_status->setText(tr("Run %1 finished in %2 s.").arg(s.runName).arg(s.wallSeconds, 0, 'f', 1));
        log(tr("Run %1 finished.").arg(s.runName));
    } else if (s.state == QLatin1String("interrupted")) {
        m_status->setText(tr("Run %1 stopped.").arg(s.runName));
        log(tr("Run %1 stopped; start it again with the same name to resume.").arg(s.runName));
    } else {
        m_status->setText(tr("Run %1 failed.").arg(s.runName));
        log(tr("Run %1 failed: %2. Fix the cause and start the same run again to resume.").arg(s.runName, s.error));
    }
    // Deleting the sampler from inside its own signal is not safe: let the event loop do it.
    m_sampler.release()->deleteLater();
    if (m_verifier)
        m_verifier.release()->deleteLater();
    setEditable(true);
    if (s.progress.storedThisSession > 0)
        Q_EMIT samplesAdded();
    Q_EMIT runEnded(s.state);
}

void SamplerDialog::reject()
{
    if (running()) {
        const auto answer =
            QMessageBox::question(this, windowTitle(), tr("A run is in progress. Stop it? It can be resumed later."));
        if (answer != QMessageBox::Yes)
            return;
        m_sampler->cancel();
    }
    QDialog::reject();
}

} // namespace sieve::ui
