#pragma once
// Edits the settings registry: verification (GPUs, tolerances, timing, the Python environment), the
// teacher endpoint, the CUDA architecture of the PTX/SASS view, the reviewer's name and the language (which
// applies at once: OK or Apply installs the translation and every window retranslates itself).
#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QGroupBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace sieve::ui {

class Settings;

class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)
public:
    SettingsDialog(Settings &settings, QWidget *parent = nullptr);
    void apply();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();

    Settings &m_settings;
    QLineEdit *m_gpus;
    QLineEdit *m_python;
    QDoubleSpinBox *m_atol32;
    QDoubleSpinBox *m_rtol32;
    QDoubleSpinBox *m_atol16;
    QDoubleSpinBox *m_rtol16;
    QSpinBox *m_seeds;
    QCheckBox *m_timing;
    QSpinBox *m_maxRuns;
    QSpinBox *m_budget;
    QComboBox *m_cudaArch;
    QLineEdit *m_endpoint;
    QLineEdit *m_model;
    QLineEdit *m_keyEnv;
    QLineEdit *m_reviewer;
    QComboBox *m_language;
    QGroupBox *m_verifyBox;
    QGroupBox *m_timingBox;
    QGroupBox *m_cudaBox;
    QGroupBox *m_teacherBox;
    QGroupBox *m_workbenchBox;
    QDialogButtonBox *m_buttons;
};

} // namespace sieve::ui
