#pragma once
// Export through `sieve-cli export`: the options of the CLI (format, reasoning, split, selection recipe,
// speedup bar, preference pairs, token budget), a dry run that shows what the export would contain (its counts and
// distribution), and only then the real export, with exactly the options that were previewed.
#include <QDialog>
#include <QJsonObject>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace sieve::ui {

class CliProcess;

// What `sieve-cli export` is asked for; defaults are the CLI's.
struct ExportOptions
{
    QString format = QStringLiteral("messages"); // prompt-completion, chat-prompt-completion, preference(-text)
    QString reasoning = QStringLiteral("think"); // field, none
    double validationFraction = 0.2;
    QString require = QStringLiteral("passed"); // accepted, passed-and-accepted
    bool allInCluster = false;
    int maxPerTask = 0;            // 0: no limit
    double minSpeedup = 0;         // 0: no speedup bar
    int maxPairsPerTask = 4;       // preference formats; 0: no cap
    bool hostileNegatives = false; // preference formats
    double easyFraction = 1.0;     // 1: every easy task
    QStringList quotas;            // F=V:N
    int maxTokens = 0;             // 0: no budget
    QString tokenizer;             // tokenizer.json, needed with a budget
    QStringList tags;              // backend, target, difficulty, level, category
    int seed = 0;
};

class ExportDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportDialog)
public:
    ExportDialog(const QString &corpus, const QString &cliProgram, QWidget *parent = nullptr);
    static QStringList arguments(const QString &corpus, const QString &outDir, const ExportOptions &options,
                                 bool dryRun);
    // Empty when the options can be run; otherwise what to fix, naming the field.
    static QString problem(const ExportOptions &options);
    // The manifest the CLI printed (pretty-printed JSON, possibly after other lines); empty when none.
    static QJsonObject manifestOf(const QString &output);
    ExportOptions options() const;
    void preview();
    void runExport();
    QTreeWidget *distribution() const { return m_tree; }

private:
    void setBusy(bool busy);
    void invalidate();
    void showResult(const QString &output);

    QString m_corpus;
    CliProcess *m_process;
    QLineEdit *m_outDir;
    QComboBox *m_format;
    QComboBox *m_reasoning;
    QDoubleSpinBox *m_split;
    QComboBox *m_require;
    QCheckBox *m_allInCluster;
    QSpinBox *m_maxPerTask;
    QDoubleSpinBox *m_minSpeedup;
    QSpinBox *m_maxPairs;
    QCheckBox *m_hostileNegatives;
    QDoubleSpinBox *m_easyFraction;
    QLineEdit *m_quotas;
    QSpinBox *m_maxTokens;
    QLineEdit *m_tokenizer;
    QList<QCheckBox *> m_tags;
    QSpinBox *m_seed;
    QPushButton *m_preview;
    QPushButton *m_export;
    QLabel *m_summary;
    QTreeWidget *m_tree;
    QPlainTextEdit *m_log;
    QLabel *m_state;
    bool m_dryRun = true;
    bool m_previewed = false;
};

} // namespace sieve::ui
