#pragma once
// Edits the settings registry: verification (GPUs, tolerances, timing, the Python environment), the
// teacher endpoint, the reviewer's name and the language.
#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace sieve::ui {

class Settings;

class SettingsDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)
public:
    SettingsDialog(Settings &settings, QWidget *parent = nullptr);
    void apply();

private:
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
    QLineEdit *m_endpoint;
    QLineEdit *m_model;
    QLineEdit *m_keyEnv;
    QLineEdit *m_reviewer;
    QComboBox *m_language;
};

} // namespace sieve::ui
