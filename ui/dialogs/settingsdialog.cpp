#include "ui/dialogs/settingsdialog.h"

#include "ui/main/language.h"
#include "ui/main/settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
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
      m_rtol16(tolerance(settings.rtolHalf.value())), m_seeds(new QSpinBox), m_timing(new QCheckBox),
      m_maxRuns(new QSpinBox), m_budget(new QSpinBox), m_cudaArch(new QComboBox),
      m_endpoint(new QLineEdit(settings.teacherEndpoint.value())),
      m_model(new QLineEdit(settings.teacherModel.value())), m_keyEnv(new QLineEdit(settings.teacherKeyEnv.value())),
      m_reviewer(new QLineEdit(settings.reviewer.value())), m_language(new QComboBox), m_verifyBox(new QGroupBox),
      m_timingBox(new QGroupBox), m_cudaBox(new QGroupBox), m_teacherBox(new QGroupBox), m_workbenchBox(new QGroupBox),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel))
{
    setObjectName(QStringLiteral("settingsDialog"));
    m_gpus->setObjectName(QStringLiteral("gpusEdit"));
    m_python->setObjectName(QStringLiteral("pythonEdit"));
    m_language->setObjectName(QStringLiteral("languageCombo"));
    m_cudaArch->setObjectName(QStringLiteral("cudaArchCombo"));
    m_buttons->setObjectName(QStringLiteral("settingsButtons"));
    m_seeds->setRange(5, 100); // the ladder's floor: at least 5 seeds
    m_seeds->setValue(settings.seeds.value());
    m_timing->setChecked(settings.timing.value());
    m_maxRuns->setRange(10, 100000); // the CLI's floor: the SEM estimate needs 10 runs
    m_maxRuns->setValue(settings.timingMaxRuns.value());
    m_budget->setRange(10, 600000);
    m_budget->setValue(settings.timingBudgetMs.value());
    // NVRTC 12/13 targets; any other sm_XX can be typed.
    m_cudaArch->setEditable(true);
    m_cudaArch->addItems({QStringLiteral("sm_75"), QStringLiteral("sm_80"), QStringLiteral("sm_86"),
                          QStringLiteral("sm_89"), QStringLiteral("sm_90"), QStringLiteral("sm_100"),
                          QStringLiteral("sm_120")});
    m_cudaArch->setCurrentText(settings.cudaArch.value());
    for (const auto &[code, name] : language::available())
        m_language->addItem(name, code);
    m_language->setCurrentIndex(std::max(0, m_language->findData(settings.language.value())));

    auto pair = [](QWidget *a, QWidget *b) {
        auto *w = new QWidget;
        auto *h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(a);
        h->addWidget(b);
        return w;
    };
    // Every row gets a label of its own (addRow with an empty text makes none), named after its field.
    auto row = [](QFormLayout *form, QWidget *field, const char *name) {
        if (field->objectName().isEmpty())
            field->setObjectName(QString::fromLatin1(name));
        auto *label = new QLabel;
        label->setObjectName(QString::fromLatin1(name) + QStringLiteral("Label"));
        label->setBuddy(field);
        form->addRow(label, field);
    };
    m_keyEnv->setObjectName(QStringLiteral("teacherKeyEnvEdit"));
    m_atol32->setObjectName(QStringLiteral("atolFp32Spin"));
    m_rtol32->setObjectName(QStringLiteral("rtolFp32Spin"));
    m_atol16->setObjectName(QStringLiteral("atolHalfSpin"));
    m_rtol16->setObjectName(QStringLiteral("rtolHalfSpin"));
    auto *vf = new QFormLayout(m_verifyBox);
    row(vf, m_gpus, "gpusEdit");
    row(vf, m_python, "pythonEdit");
    row(vf, pair(m_atol32, m_rtol32), "toleranceFp32");
    row(vf, pair(m_atol16, m_rtol16), "toleranceHalf");
    row(vf, m_seeds, "seedsSpin");
    auto *tf = new QFormLayout(m_timingBox);
    row(tf, m_timing, "timingCheck");
    row(tf, m_maxRuns, "maxRunsSpin");
    row(tf, m_budget, "budgetSpin");
    auto *cf = new QFormLayout(m_cudaBox);
    row(cf, m_cudaArch, "cudaArchCombo");
    auto *te = new QFormLayout(m_teacherBox);
    row(te, m_endpoint, "teacherEndpointEdit");
    row(te, m_model, "teacherModelEdit");
    row(te, m_keyEnv, "teacherKeyEnvEdit");
    auto *wf = new QFormLayout(m_workbenchBox);
    row(wf, m_reviewer, "reviewerEdit");
    row(wf, m_language, "languageCombo");

    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    for (QWidget *w : {m_verifyBox, m_timingBox, m_cudaBox, m_teacherBox, m_workbenchBox})
        layout->addWidget(w);
    layout->addWidget(m_buttons);
    retranslateUi();
}

void SettingsDialog::retranslateUi()
{
    setWindowTitle(tr("Settings"));
    m_gpus->setPlaceholderText(tr("all, cpu, or a list such as 0,1"));
    m_python->setPlaceholderText(tr("the default environment (setup.sh)"));
    m_endpoint->setPlaceholderText(tr("https://host:port/v1 (OpenAI chat completions)"));
    m_reviewer->setPlaceholderText(m_settings.effectiveReviewer());
    m_timing->setText(tr("Measure speed"));
    m_budget->setSuffix(tr(" ms"));
    m_verifyBox->setTitle(tr("Verification"));
    m_timingBox->setTitle(tr("Timing"));
    m_cudaBox->setTitle(tr("CUDA"));
    m_teacherBox->setTitle(tr("Teacher"));
    m_workbenchBox->setTitle(tr("Workbench"));
    m_language->setItemText(0, language::available().first().second);
    auto label = [](QGroupBox *box, int row, const QString &text) {
        auto *form = static_cast<QFormLayout *>(box->layout());
        if (auto *l = qobject_cast<QLabel *>(form->itemAt(row, QFormLayout::LabelRole)
                                                 ? form->itemAt(row, QFormLayout::LabelRole)->widget()
                                                 : nullptr))
            l->setText(text);
    };
    label(m_verifyBox, 0, tr("GPUs:"));
    label(m_verifyBox, 1, tr("Python (SIEVE_PYTHON):"));
    label(m_verifyBox, 2, tr("fp32 tolerance (abs., rel.):"));
    label(m_verifyBox, 3, tr("fp16/bf16 tolerance (abs., rel.):"));
    label(m_verifyBox, 4, tr("Seeds per shape:"));
    label(m_timingBox, 0, tr("Timing:"));
    label(m_timingBox, 1, tr("At most runs:"));
    label(m_timingBox, 2, tr("Time budget per sample:"));
    label(m_cudaBox, 0, tr("Architecture (PTX/SASS view):"));
    label(m_teacherBox, 0, tr("Endpoint:"));
    label(m_teacherBox, 1, tr("Model:"));
    label(m_teacherBox, 2, tr("API key variable:"));
    m_keyEnv->setToolTip(tr("Name of the environment variable holding the API key; the key itself is never stored."));
    label(m_workbenchBox, 0, tr("Reviewer name:"));
    label(m_workbenchBox, 1, tr("Language:"));
}

void SettingsDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
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
    m_settings.cudaArch.setValue(m_cudaArch->currentText().trimmed());
    m_settings.language.setValue(m_language->currentData().toString());
}

} // namespace sieve::ui
