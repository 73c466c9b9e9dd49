#pragma once
// Teacher sampling from the workbench (Corpus › Sample from Teacher…): the settings of `sieve-cli sample`,
// a Start/Stop button and live progress (tasks done, requests in flight, attempts, passes, retries,
// errors) driven by net::Sampler's signals. The run works on the GUI event loop: requests are
// asynchronous and each stored reply is one short transaction. Endpoint, model and the name of the
// API key's environment variable come from the typed settings registry; the key itself is read from
// that variable when a run starts and is never shown, logged or stored.
#include <QDialog>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace sieve::net {
class ProcessVerifier;
class Sampler;
struct SamplerProgress;
struct SamplerSummary;
} // namespace sieve::net

namespace sieve::ui {

class Settings;

class SamplerDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SamplerDialog)
public:
    // `cliProgram` verifies first-pass attempts (`sieve-cli verify DB --sample ID --json`).
    SamplerDialog(QString dbPath, QString cliProgram, Settings &settings, QWidget *parent = nullptr);
    ~SamplerDialog() override;

    QString dbPath() const { return m_dbPath; }
    bool running() const;

Q_SIGNALS:
    // Samples were stored during a run (at most every two seconds): task counts may be refreshed.
    void samplesStored();
    // A run that stored samples ended: everything showing samples should reload.
    void samplesAdded();
    // A run ended (finished, failed or stopped); `state` is the run's state.
    void runEnded(const QString &state);

private:
    void start();
    void stop();
    void onProgress(const sieve::net::SamplerProgress &p);
    void onFinished(const sieve::net::SamplerSummary &s);
    void log(const QString &line);
    void setEditable(bool on);
    void reject() override;

    QString m_dbPath;
    QString m_cliProgram;
    Settings &m_settings;
    QLineEdit *m_endpoint, *m_model, *m_keyEnv, *m_extra, *m_runId;
    QComboBox *m_mode;
    QSpinBox *m_k, *m_attempts, *m_maxTokens, *m_concurrency, *m_maxFailures;
    QDoubleSpinBox *m_temperature, *m_rate;
    QCheckBox *m_stream;
    QProgressBar *m_bar;
    QLabel *m_tasks, *m_inFlight, *m_attemptsDone, *m_verifying, *m_passed, *m_retries, *m_errors;
    QLabel *m_status;
    QPlainTextEdit *m_log;
    QPushButton *m_startStop;
    QTimer *m_storedSignal;
    quint64 m_storedSeen = 0;
    std::unique_ptr<net::ProcessVerifier> m_verifier;
    std::unique_ptr<net::Sampler> m_sampler;
};

} // namespace sieve::ui
