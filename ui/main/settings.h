#pragma once
// The typed settings registry: every setting is declared once here with its key and default, and
// changes are announced through one signal. Nothing else in ui/ calls QSettings.
#include <QByteArray>
#include <QObject>
#include <QSettings>
#include <QStringList>

#include <memory>

namespace sieve::ui {

class Settings;

template <typename T> class Setting
{
public:
    Setting(Settings *owner, const char *key, T defaultValue);
    T value() const;
    void setValue(const T &value);
    void reset();
    QString key() const { return m_key; }
    const T &defaultValue() const { return m_default; }

private:
    Settings *m_owner;
    QString m_key;
    T m_default;
};

class Settings final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Settings)
public:
    // Without a file: the platform's place for "Sieve/Sieve". Tests pass a file of their own.
    explicit Settings(const QString &iniFile = {}, QObject *parent = nullptr);
    ~Settings() override;

    // Verification
    Setting<QString> gpus{this, "verify/gpus", QStringLiteral("all")};
    Setting<QString> python{this, "verify/python", QString()}; // SIEVE_PYTHON; empty: the default venv
    Setting<double> atolFp32{this, "verify/atol_fp32", 1e-4};
    Setting<double> rtolFp32{this, "verify/rtol_fp32", 1e-4};
    Setting<double> atolHalf{this, "verify/atol_half", 1e-2};
    Setting<double> rtolHalf{this, "verify/rtol_half", 1e-2};
    Setting<int> seeds{this, "verify/seeds", 5};
    Setting<bool> timing{this, "timing/enabled", true};
    Setting<int> timingMaxRuns{this, "timing/max_runs", 200};
    Setting<int> timingBudgetMs{this, "timing/budget_ms", 2000};
    // Stage 0's rule for partial answers: "strict" or "kernelbench" (sieve-cli verify --policy).
    Setting<QString> policy{this, "verify/policy", QStringLiteral("strict")};
    // Runs of more samples than this ask first, with an estimate from the last run's rate (samples per
    // second; 0: none yet, then VerifyRunner::kDefaultRate).
    Setting<int> confirmRunAbove{this, "verify/confirm_above", 200};
    Setting<double> lastRate{this, "verify/last_rate", 0.0};
    // CUDA answers: the architecture NVRTC compiles for in the PTX/SASS view.
    Setting<QString> cudaArch{this, "cuda/arch", QStringLiteral("sm_90")};
    // Teacher
    Setting<QString> teacherEndpoint{this, "teacher/endpoint", QString()};
    Setting<QString> teacherModel{this, "teacher/model", QString()};
    // The name of the environment variable that holds the key; the key itself is never stored.
    Setting<QString> teacherKeyEnv{this, "teacher/api_key_env", QStringLiteral("OPENAI_API_KEY")};
    // Workbench
    Setting<QString> language{this, "ui/language", QString()}; // empty: the system's
    Setting<QString> reviewer{this, "review/reviewer", QString()};
    Setting<QStringList> recentCorpora{this, "ui/recent_corpora", QStringList()};
    Setting<QByteArray> windowGeometry{this, "ui/window_geometry", QByteArray()};
    Setting<QByteArray> windowState{this, "ui/window_state", QByteArray()};
    Setting<QByteArray> reviewSplitter{this, "ui/review_splitter", QByteArray()};
    // The sample table's saved views: a JSON array of {name, status, review, text, sort, order, header}.
    Setting<QByteArray> savedViews{this, "review/saved_views", QByteArray()};

    void addRecentCorpus(const QString &path);
    QString effectiveReviewer() const;
    void sync() { m_store->sync(); }
    QSettings &store() { return *m_store; }

Q_SIGNALS:
    void changed(const QString &key);

private:
    std::unique_ptr<QSettings> m_store;
};

template <typename T>
Setting<T>::Setting(Settings *owner, const char *key, T defaultValue)
    : m_owner(owner), m_key(QString::fromLatin1(key)), m_default(std::move(defaultValue))
{
}

template <typename T> T Setting<T>::value() const
{
    const QVariant v = m_owner->store().value(m_key);
    return v.isValid() && v.canConvert<T>() ? v.value<T>() : m_default;
}

template <typename T> void Setting<T>::setValue(const T &value)
{
    if (value == this->value())
        return;
    m_owner->store().setValue(m_key, QVariant::fromValue(value));
    Q_EMIT m_owner->changed(m_key);
}

template <typename T> void Setting<T>::reset()
{
    m_owner->store().remove(m_key);
    Q_EMIT m_owner->changed(m_key);
}

} // namespace sieve::ui
