#include "exportdialog.h"

#include "cliprocess.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sieve::ui {

namespace {
void addJson(QTreeWidget *tree, QTreeWidgetItem *parent, const QString &key, const QJsonValue &v)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
    item->setText(0, key);
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            addJson(tree, item, it.key(), it.value());
        item->setExpanded(true);
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            addJson(tree, item, QString::number(i), a.at(i));
    } else {
        item->setText(1, v.toVariant().toString());
    }
}
} // namespace

ExportDialog::ExportDialog(const QString &corpus, const QString &cliProgram, QWidget *parent)
    : QDialog(parent), m_corpus(corpus), m_process(new CliProcess(this)), m_outDir(new QLineEdit),
      m_preview(new QPushButton(tr("&Preview"))), m_export(new QPushButton(tr("&Export"))), m_tree(new QTreeWidget),
      m_log(new QPlainTextEdit), m_state(new QLabel)
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export SFT Data"));
    m_process->setProgram(cliProgram);
    m_outDir->setObjectName(QStringLiteral("exportOutDir"));
    m_preview->setObjectName(QStringLiteral("exportPreviewButton"));
    m_export->setObjectName(QStringLiteral("exportRunButton"));
    m_tree->setObjectName(QStringLiteral("exportDistribution"));
    m_tree->setHeaderLabels({tr("Figure"), tr("Value")});
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("Messages from sieve-cli appear here."));
    m_export->setEnabled(false);

    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export Into"), m_outDir->text());
        if (!dir.isEmpty())
            m_outDir->setText(dir);
    });
    connect(m_outDir, &QLineEdit::textChanged, this, [this] {
        m_previewed = false;
        m_export->setEnabled(false);
    });
    connect(m_preview, &QPushButton::clicked, this, &ExportDialog::preview);
    connect(m_export, &QPushButton::clicked, this, &ExportDialog::runExport);
    connect(m_process, &CliProcess::textLine, m_log, &QPlainTextEdit::appendPlainText);
    connect(m_process, &CliProcess::finished, this, [this](int code, const QString &message) {
        setBusy(false);
        m_log->appendPlainText(m_process->stderrText().trimmed());
        m_state->setText(message);
        if (code != 0)
            return;
        if (m_dryRun) {
            showResult(m_process->stdoutText());
            m_previewed = true;
            m_export->setEnabled(true);
        } else {
            showResult(m_process->stdoutText());
        }
    });

    auto *dirRow = new QHBoxLayout;
    dirRow->addWidget(m_outDir, 1);
    dirRow->addWidget(browse);
    auto *form = new QFormLayout;
    form->addRow(tr("Output folder:"), dirRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_preview, QDialogButtonBox::ActionRole);
    buttons->addButton(m_export, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("What the export will contain (from a dry run):")));
    layout->addWidget(m_tree, 2);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_state);
    layout->addWidget(buttons);
    resize(640, 560);
}

QStringList ExportDialog::arguments(const QString &corpus, const QString &outDir, bool dryRun)
{
    QStringList args{QStringLiteral("export"), corpus, QStringLiteral("--out"), outDir, QStringLiteral("--json")};
    if (dryRun)
        args << QStringLiteral("--dry-run");
    return args;
}

void ExportDialog::setBusy(bool busy)
{
    m_preview->setEnabled(!busy);
    m_export->setEnabled(!busy && m_previewed);
    m_outDir->setEnabled(!busy);
}

void ExportDialog::preview()
{
    if (m_outDir->text().isEmpty()) {
        m_state->setText(tr("Choose an output folder first."));
        return;
    }
    m_dryRun = true;
    m_tree->clear();
    m_state->setText(tr("Running a dry run…"));
    setBusy(true);
    m_process->start(arguments(m_corpus, m_outDir->text(), true));
}

void ExportDialog::runExport()
{
    m_dryRun = false;
    m_state->setText(tr("Exporting…"));
    setBusy(true);
    m_process->start(arguments(m_corpus, m_outDir->text(), false));
}

void ExportDialog::showResult(const QString &output)
{
    m_tree->clear();
    // The last JSON object the CLI printed is its summary (counts by split, level, backend...).
    const QStringList lines = output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        const QJsonDocument doc = QJsonDocument::fromJson(it->toUtf8());
        if (doc.isObject()) {
            const QJsonObject o = doc.object();
            for (auto k = o.begin(); k != o.end(); ++k)
                addJson(m_tree, nullptr, k.key(), k.value());
            m_tree->resizeColumnToContents(0);
            return;
        }
    }
    m_log->appendPlainText(output);
}

} // namespace sieve::ui
