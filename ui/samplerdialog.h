#pragma once
// Teacher sampling from the workbench: the settings of `sieve-cli sample`, a Start/Stop button and live
// progress (tasks done, requests in flight, retries, passes) driven by net::Sampler's signals. The run
// works on the GUI event loop: requests are asynchronous and each stored reply is one short transaction.
#include <QDialog>
#include <QPointer>

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

namespace sieve::net {
class ProcessVerifier;
class Sampler;
struct SamplerProgress;
struct SamplerSummary;
} // namespace sieve::net

namespace sieve::ui {

class SamplerDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SamplerDialog)
public:
    explicit SamplerDialog(QString dbPath, QWidget *parent = nullptr);
    ~SamplerDialog() override;

    // Key from the settings (the caller's typed settings registry); used when the variable is unset.
    void setApiKeyFromSettings(const QByteArray &key) { m_settingsKey = key; }
    bool running() const;

Q_SIGNALS:
    // New samples were stored (the main window refreshes its models).
    void samplesAdded();

private:
    void start();
    void stop();
    void onProgress(const sieve::net::SamplerProgress &p);
    void onFinished(const sieve::net::SamplerSummary &s);
    void log(const QString &line);
    void setEditable(bool on);
    void reject() override;

    QString m_dbPath;
    QByteArray m_settingsKey;
    QLineEdit *m_endpoint, *m_model, *m_keyEnv, *m_extra, *m_runId;
    QComboBox *m_mode;
    QSpinBox *m_k, *m_attempts, *m_maxTokens, *m_concurrency;
    QDoubleSpinBox *m_temperature, *m_rate;
    QCheckBox *m_stream;
    QProgressBar *m_bar;
    QLabel *m_status;
    QPlainTextEdit *m_log;
    QPushButton *m_startStop;
    std::unique_ptr<net::ProcessVerifier> m_verifier;
    std::unique_ptr<net::Sampler> m_sampler;
};

} // namespace sieve::ui
