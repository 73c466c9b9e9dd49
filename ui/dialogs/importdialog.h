#pragma once
// File › Import…: files or a KernelBench folder, and the format to read them as (the importer's own list,
// preset from what the first file looks like). The window runs `sieve-cli import DB --format F PATHS`.
#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QRadioButton;

namespace sieve::ui {

class ImportDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportDialog)
public:
    explicit ImportDialog(QWidget *parent = nullptr);
    enum class Source { Files, KernelBenchFolder };
    // What the Choose… button sets (tests call it directly instead of a file dialog).
    void setSource(Source source);
    void setPaths(const QStringList &paths);
    QStringList paths() const { return m_paths; }
    QString format() const;
    void setFormat(const QString &format);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void choose();
    void update();

    QRadioButton *m_files;
    QRadioButton *m_folder;
    QPlainTextEdit *m_list;
    QComboBox *m_format;
    QLabel *m_hint;
    QDialogButtonBox *m_buttons;
    QStringList m_paths;
};

} // namespace sieve::ui
