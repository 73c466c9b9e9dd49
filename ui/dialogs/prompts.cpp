#include "ui/dialogs/prompts.h"

#include "ui/main/figures.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace sieve::ui {
// The translation context of these free functions.
class Prompts
{
    Q_DECLARE_TR_FUNCTIONS(sieve::ui::Prompts)
};
} // namespace sieve::ui

namespace sieve::ui::prompts {

RunChoice unfinishedRun(QWidget *parent, const QString &detail)
{
    QMessageBox box(QMessageBox::Question, Prompts::tr("Unfinished Verification"),
                    Prompts::tr("An earlier verification run of this corpus was stopped before it finished."),
                    QMessageBox::Cancel, parent);
    box.setObjectName(QStringLiteral("unfinishedRunPrompt"));
    box.setInformativeText(
        Prompts::tr("Resume it (it keeps its own selection), or abandon it and start the run you asked for?"));
    box.setDetailedText(detail);
    QPushButton *resume = box.addButton(Prompts::tr("&Resume"), QMessageBox::AcceptRole);
    QPushButton *fresh = box.addButton(Prompts::tr("Start a &New Run"), QMessageBox::AcceptRole);
    box.setDefaultButton(resume);
    box.exec();
    if (box.clickedButton() == resume)
        return RunChoice::Resume;
    return box.clickedButton() == fresh ? RunChoice::NewRun : RunChoice::Cancel;
}

bool migrate(QWidget *parent, const QString &path, int version, int current, const QString &backup)
{
    QMessageBox box(QMessageBox::Question, Prompts::tr("Update the Corpus?"),
                    Prompts::tr("%1 was made by an older Sieve (corpus version %2). To open it, Sieve updates it to "
                                "version %3.")
                        .arg(QFileInfo(path).fileName())
                        .arg(version)
                        .arg(current),
                    QMessageBox::Cancel, parent);
    box.setObjectName(QStringLiteral("migratePrompt"));
    box.setInformativeText(
        Prompts::tr("A copy of the file as it is now is kept as %1. Older Sieve versions cannot open "
                    "the updated file.")
            .arg(QFileInfo(backup).fileName()));
    QPushButton *update = box.addButton(Prompts::tr("&Update and Open"), QMessageBox::AcceptRole);
    box.setDefaultButton(update);
    box.exec();
    return box.clickedButton() == update;
}

bool largeRun(QWidget *parent, qint64 samples, const QString &estimate)
{
    QMessageBox box(QMessageBox::Question, Prompts::tr("Verify %1?").arg(figures::samples(samples)),
                    Prompts::tr("This run verifies %1.").arg(figures::samples(samples)), QMessageBox::Cancel, parent);
    box.setObjectName(QStringLiteral("largeRunPrompt"));
    box.setInformativeText(estimate + QStringLiteral("\n\n") +
                           Prompts::tr("It runs in the background; Verify › Cancel stops it and a later run resumes "
                                       "where it stopped."));
    QPushButton *start = box.addButton(Prompts::tr("&Start"), QMessageBox::AcceptRole);
    box.setDefaultButton(start);
    box.exec();
    return box.clickedButton() == start;
}

} // namespace sieve::ui::prompts
