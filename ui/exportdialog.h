#pragma once
// Export through `sieve-cli export`: a dry run first shows what the export would contain (its
// distribution); only then can the real export be started.
#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace sieve::ui {

class CliProcess;

class ExportDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportDialog)
public:
    ExportDialog(const QString &corpus, const QString &cliProgram, QWidget *parent = nullptr);
    static QStringList arguments(const QString &corpus, const QString &outDir, bool dryRun);
    void preview();
    void runExport();
    QTreeWidget *distribution() const { return m_tree; }

private:
    void setBusy(bool busy);
    void showResult(const QString &output);

    QString m_corpus;
    CliProcess *m_process;
    QLineEdit *m_outDir;
    QPushButton *m_preview;
    QPushButton *m_export;
    QTreeWidget *m_tree;
    QPlainTextEdit *m_log;
    QLabel *m_state;
    bool m_dryRun = true;
    bool m_previewed = false;
};

} // namespace sieve::ui
