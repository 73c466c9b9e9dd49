#pragma once
// What the verifier found for one sample: status, failing stage, reason codes, message, the log with
// links into the code, max error per shape and seed, proof-of-work figures and the environment.
#include "ui/data/corpustypes.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QTextBrowser;
class QTreeWidget;

class QFormLayout;

namespace sieve::ui {

class VerdictPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerdictPanel)
public:
    explicit VerdictPanel(QWidget *parent = nullptr);
    void showVerdict(const VerdictInfo &verdict);
    void clear();

Q_SIGNALS:
    void lineActivated(int line); // 1-based line of the sample's code

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    QFormLayout *m_form = nullptr;
    QLabel *m_status;
    QLabel *m_reasons;
    QLabel *m_message;
    QLabel *m_proof;
    QTabWidget *m_tabs;
    QTextBrowser *m_log;
    QTreeWidget *m_checks;
    QTreeWidget *m_env;
};

} // namespace sieve::ui
