#include "ui/main/corpusfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

namespace sieve::ui {
// The translation context of these free functions.
class CorpusFile
{
    Q_DECLARE_TR_FUNCTIONS(sieve::ui::CorpusFile)
};
} // namespace sieve::ui

namespace sieve::ui::corpusfile {

QString backupPath(const QString &path, int version)
{
    const QString base = QStringLiteral("%1.bak-v%2").arg(path).arg(version);
    QString candidate = base;
    for (int n = 2; QFileInfo::exists(candidate); ++n)
        candidate = QStringLiteral("%1-%2").arg(base).arg(n);
    return candidate;
}

QString backUp(const QString &path, int version, QString *backup)
{
    const QString target = backupPath(path, version);
    if (!QFile::copy(path, target))
        return CorpusFile::tr(
                   "Could not copy %1 to %2 before updating it; nothing was changed. Is the folder writable, "
                   "and is there room on the disk?")
            .arg(path, target);
    const QString wal = path + QStringLiteral("-wal");
    if (QFileInfo::exists(wal) && !QFile::copy(wal, target + QStringLiteral("-wal"))) {
        QFile::remove(target);
        return CorpusFile::tr("Could not copy %1 before updating the corpus; nothing was changed.").arg(wal);
    }
    if (backup)
        *backup = target;
    return {};
}

QString openError(const QString &path, const QString &error)
{
    const QString name = QFileInfo(path).fileName();
    const QString e = error.toLower();
    if (e.contains(QLatin1String("not a database")) || e.contains(QLatin1String("malformed")))
        return CorpusFile::tr("%1 is not a Sieve corpus, or it is damaged. Open a .sieve file made by Sieve.")
            .arg(name);
    if (e.contains(QLatin1String("locked")) || e.contains(QLatin1String("busy")))
        return CorpusFile::tr(
                   "%1 is in use by another program (an import or a verification run?). Open it again when that "
                   "has finished.")
            .arg(name);
    if (e.contains(QLatin1String("unable to open")) || e.contains(QLatin1String("readonly")) ||
        e.contains(QLatin1String("read-only")) || e.contains(QLatin1String("permission")))
        return CorpusFile::tr("%1 cannot be opened for writing. Check that the file and its folder are writable.")
            .arg(name);
    if (e.contains(QLatin1String("newer")))
        return CorpusFile::tr("%1 was written by a newer Sieve. Open it with that version.").arg(name) +
               QStringLiteral("\n\n") + error;
    return CorpusFile::tr("Cannot open %1: %2").arg(name, error);
}

} // namespace sieve::ui::corpusfile
