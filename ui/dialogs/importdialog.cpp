#include "ui/dialogs/importdialog.h"

#include "core/import/importer.h"
#include "ui/cli/importformat.h"
#include "ui/main/figures.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace sieve::ui {

ImportDialog::ImportDialog(QWidget *parent)
    : QDialog(parent), m_files(new QRadioButton), m_folder(new QRadioButton), m_list(new QPlainTextEdit),
      m_format(new QComboBox), m_hint(new QLabel),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel))
{
    setObjectName(QStringLiteral("importDialog"));
    m_files->setObjectName(QStringLiteral("importFilesSource"));
    m_folder->setObjectName(QStringLiteral("importFolderSource"));
    m_list->setObjectName(QStringLiteral("importPaths"));
    m_format->setObjectName(QStringLiteral("importFormat"));
    m_hint->setObjectName(QStringLiteral("importHint"));
    m_files->setChecked(true);
    m_list->setReadOnly(true);
    m_list->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_list->setMaximumHeight(m_list->fontMetrics().lineSpacing() * 6 + 12);
    m_hint->setWordWrap(true);
    // The importer's own list of formats: one place names them (core/import/importer.h).
    for (ImportFormat f : allImportFormats()) {
        const QString name = QString::fromUtf8(importFormatName(f));
        m_format->addItem(name, name);
    }
    auto *choose = new QPushButton;
    choose->setObjectName(QStringLiteral("importChooseButton"));
    connect(choose, &QPushButton::clicked, this, &ImportDialog::choose);
    connect(m_files, &QRadioButton::toggled, this,
            [this](bool files) { setSource(files ? Source::Files : Source::KernelBenchFolder); });
    connect(m_format, &QComboBox::currentIndexChanged, this, &ImportDialog::update);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *source = new QHBoxLayout;
    source->addWidget(m_files);
    source->addWidget(m_folder);
    source->addStretch(1);
    source->addWidget(choose);
    auto *form = new QFormLayout;
    form->addRow(m_list);
    form->addRow(QStringLiteral("-"), m_format); // the label's text comes in retranslateUi
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(source);
    layout->addLayout(form);
    layout->addWidget(m_hint);
    layout->addWidget(m_buttons);
    retranslateUi();
    update();
}

void ImportDialog::retranslateUi()
{
    setWindowTitle(tr("Import Tasks and Samples"));
    m_files->setText(tr("&Files"));
    m_folder->setText(tr("A &KernelBench folder"));
    findChild<QPushButton *>(QStringLiteral("importChooseButton"))->setText(tr("&Choose…"));
    if (auto *form = findChild<QFormLayout *>())
        if (auto *label = qobject_cast<QLabel *>(form->labelForField(m_format)))
            label->setText(tr("F&ormat:"));
    m_list->setPlaceholderText(tr("Nothing chosen yet"));
    m_format->setToolTip(tr("How the files are read (docs/FORMATS.md); preset from the first file's columns"));
    update();
}

void ImportDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void ImportDialog::setSource(Source source)
{
    const bool folder = source == Source::KernelBenchFolder;
    {
        const QSignalBlocker block(m_files);
        m_files->setChecked(!folder);
        m_folder->setChecked(folder);
    }
    if (folder)
        setFormat(QStringLiteral("kernelbench")); // a folder is a KernelBench tree (levelN/ID_Name.py)
    m_format->setEnabled(!folder);
    setPaths({});
}

void ImportDialog::setPaths(const QStringList &paths)
{
    m_paths = paths;
    m_list->setPlainText(paths.join(QLatin1Char('\n')));
    if (!paths.isEmpty() && m_files->isChecked()) {
        const QString sniffed = importFormatOf(paths.first());
        if (!sniffed.isEmpty())
            setFormat(sniffed);
    }
    update();
}

QString ImportDialog::format() const
{
    return m_format->currentData().toString();
}

void ImportDialog::setFormat(const QString &format)
{
    const int i = m_format->findData(format);
    if (i >= 0)
        m_format->setCurrentIndex(i);
}

void ImportDialog::choose()
{
    if (m_folder->isChecked()) {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("KernelBench Folder"));
        if (!dir.isEmpty())
            setPaths({dir});
    } else {
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Import Tasks and Samples"), QString(), tr("Corpus records (*.jsonl *.json *.py);;All files (*)"));
        if (!files.isEmpty())
            setPaths(files);
    }
}

void ImportDialog::update()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_paths.isEmpty());
    if (m_paths.isEmpty())
        m_hint->setText(m_folder->isChecked() ? tr("Choose the root of a KernelBench checkout or a levelN folder.")
                                              : tr("Choose one or more files of one format."));
    else if (m_folder->isChecked())
        m_hint->setText(tr("Every levelN/ID_Name.py problem under the folder becomes a task."));
    else
        m_hint->setText(m_paths.size() == 1
                            ? tr("1 file, read as %1.").arg(format())
                            : tr("%1 files, read as %2.").arg(figures::number(m_paths.size()), format()));
}

} // namespace sieve::ui
