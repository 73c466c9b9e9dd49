#include "settingsdialog.h"

#include "language.h"
#include "settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sieve::ui {

namespace {
QDoubleSpinBox *tolerance(double value)
{
    auto *s = new QDoubleSpinBox;
    s->setDecimals(6);
    s->setRange(0.0, 1.0);
    s->setSingleStep(1e-4);
    s->setValue(value);
    return s;
}
} // namespace

SettingsDialog::SettingsDialog(Settings &settings, QWidget *parent)
    : QDialog(parent), m_settings(settings), m_gpus(new QLineEdit(settings.gpus.value())),
      m_python(new QLineEdit(settings.python.value())), m_atol32(tolerance(settings.atolFp32.value())),
      m_rtol32(tolerance(settings.rtolFp32.value())), m_atol16(tolerance(settings.atolHalf.value())),
      m_rtol16(tolerance(settings.rtolHalf.value())), m_seeds(new QSpinBox), m_timing(new QCheckBox(tr("Measure speed"))),
      m_maxRuns(new QSpinBox), m_budget(new QSpinBox), m_endpoint(new QLineEdit(settings.teacherEndpoint.value())),
      m_model(new QLineEdit(settings.teacherModel.value())), m_keyEnv(new QLineEdit(settings.teacherKeyEnv.value())),
      m_reviewer(new QLineEdit(settings.reviewer.value())),
      m_language(new QComboBox)
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    m_gpus->setObjectName(QStringLiteral("gpusEdit"));
    m_python->setObjectName(QStringLiteral("pythonEdit"));
    m_language->setObjectName(QStringLiteral("languageCombo"));
    m_gpus->setPlaceholderText(tr("all, cpu, or a list such as 0,1"));
    m_python->setPlaceholderText(tr("the default environment (setup.sh)"));
    m_endpoint->setPlaceholderText(tr("https://host:port/v1 (OpenAI chat completions)"));
    m_reviewer->setPlaceholderText(settings.effectiveReviewer());
    m_seeds->setRange(1, 100);
    m_seeds->setValue(settings.seeds.value());
    m_timing->setChecked(settings.timing.value());
    m_maxRuns->setRange(1, 100000);
    m_maxRuns->setValue(settings.timingMaxRuns.value());
    m_budget->setRange(10, 600000);
    m_budget->setSuffix(tr(" ms"));
    m_budget->setValue(settings.timingBudgetMs.value());
    for (const auto &[code, name] : language::available())
        m_language->addItem(name, code);
    m_language->setCurrentIndex(std::max(0, m_language->findData(settings.language.value())));

    auto *verify = new QGroupBox(tr("Verification"));
    auto *vf = new QFormLayout(verify);
    vf->addRow(tr("GPUs:"), m_gpus);
    vf->addRow(tr("Python (SIEVE_PYTHON):"), m_python);
    vf->addRow(tr("fp32 tolerance (abs., rel.):"), [&] {
        auto *w = new QWidget;
        auto *h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(m_atol32);
        h->addWidget(m_rtol32);
        return w;
    }());
    vf->addRow(tr("fp16/bf16 tolerance (abs., rel.):"), [&] {
        auto *w = new QWidget;
        auto *h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(m_atol16);
        h->addWidget(m_rtol16);
        return w;
    }());
    vf->addRow(tr("Seeds per shape:"), m_seeds);
    auto *timing = new QGroupBox(tr("Timing"));
    auto *tf = new QFormLayout(timing);
    tf->addRow(QString(), m_timing);
    tf->addRow(tr("At most runs:"), m_maxRuns);
    tf->addRow(tr("Time budget per sample:"), m_budget);
    auto *teacher = new QGroupBox(tr("Teacher"));
    auto *te = new QFormLayout(teacher);
    te->addRow(tr("Endpoint:"), m_endpoint);
    te->addRow(tr("Model:"), m_model);
    m_keyEnv->setObjectName(QStringLiteral("teacherKeyEnvEdit"));
    m_keyEnv->setToolTip(tr("Name of the environment variable holding the API key; the key itself is never stored."));
    te->addRow(tr("API key variable:"), m_keyEnv);
    auto *workbench = new QGroupBox(tr("Workbench"));
    auto *wf = new QFormLayout(workbench);
    wf->addRow(tr("Reviewer name:"), m_reviewer);
    wf->addRow(tr("Language:"), m_language);
    auto *note = new QLabel(tr("A new language applies the next time Sieve starts."));
    note->setStyleSheet(QStringLiteral("color: palette(mid)"));
    wf->addRow(QString(), note);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(verify);
    layout->addWidget(timing);
    layout->addWidget(teacher);
    layout->addWidget(workbench);
    layout->addWidget(buttons);
}

void SettingsDialog::apply()
{
    m_settings.gpus.setValue(m_gpus->text().trimmed());
    m_settings.python.setValue(m_python->text().trimmed());
    m_settings.atolFp32.setValue(m_atol32->value());
    m_settings.rtolFp32.setValue(m_rtol32->value());
    m_settings.atolHalf.setValue(m_atol16->value());
    m_settings.rtolHalf.setValue(m_rtol16->value());
    m_settings.seeds.setValue(m_seeds->value());
    m_settings.timing.setValue(m_timing->isChecked());
    m_settings.timingMaxRuns.setValue(m_maxRuns->value());
    m_settings.timingBudgetMs.setValue(m_budget->value());
    m_settings.teacherEndpoint.setValue(m_endpoint->text().trimmed());
    m_settings.teacherModel.setValue(m_model->text().trimmed());
    m_settings.teacherKeyEnv.setValue(m_keyEnv->text().trimmed());
    m_settings.reviewer.setValue(m_reviewer->text().trimmed());
    m_settings.language.setValue(m_language->currentData().toString());
}

} // namespace sieve::ui
