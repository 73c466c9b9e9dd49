#include "ui/main/corpusfile.h"

#include "core/db/corpusfile.h"
#include "core/import/importlock.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

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

QString openError(const QString &path, const QString &error, const QString &holder)
{
    const QString name = QFileInfo(path).fileName();
    const QString e = error.toLower();
    if (e.contains(QLatin1String("not an sqlite header")) ||
        e.contains(QLatin1String("shorter than an sqlite header")) || e.contains(QLatin1String("not a sieve corpus")) ||
        e.contains(QLatin1String("file is not a database")))
        return CorpusFile::tr("%1 is not a corpus: it is not a file Sieve made. Open a .sieve file, or make one with "
                              "File › New Corpus and import into it. (If it was a corpus, it has been overwritten.)")
            .arg(name);
    if (e.contains(QLatin1String("is damaged")) || e.contains(QLatin1String("malformed")) ||
        e.contains(QLatin1String("corrupt"))) {
        // The detail between "is damaged (" and "); Sieve" names what is wrong (core/db/database.cpp).
        QString detail;
        const qsizetype at = error.indexOf(QLatin1String("is damaged ("));
        if (at >= 0) {
            const qsizetype from = at + 12;
            detail = error.mid(from, error.indexOf(QLatin1String("); Sieve"), from) - from);
        }
        return CorpusFile::tr("%1 is damaged%2. Sieve neither reads nor writes a damaged corpus, so nothing was "
                              "changed.\n\nTo save what is readable: sqlite3 '%3' .recover | sqlite3 recovered.sieve, "
                              "then open recovered.sieve; or import the corpus again from its sources.")
            .arg(name, detail.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(detail), path);
    }
    if (e.contains(QLatin1String("locked")) || e.contains(QLatin1String("busy"))) {
        if (!holder.isEmpty())
            return CorpusFile::tr("%1 is in use by %2. Open it again when that has finished.").arg(name, holder);
        return CorpusFile::tr(
                   "%1 is in use by another program (an import or a verification run?). Open it again when that "
                   "has finished.")
            .arg(name);
    }
    if (e.contains(QLatin1String("unable to open")) || e.contains(QLatin1String("readonly")) ||
        e.contains(QLatin1String("read-only")) || e.contains(QLatin1String("permission")))
        return CorpusFile::tr("%1 cannot be opened for writing. Check that the file and its folder are writable.")
            .arg(name);
    if (e.contains(QLatin1String("newer")))
        return CorpusFile::tr("%1 was written by a newer Sieve. Open it with that version.").arg(name) +
               QStringLiteral("\n\n") + error;
    return CorpusFile::tr("Cannot open %1: %2").arg(name, error);
}

namespace {
// The process holding an flock(2) on `lockFile`, or 0 when none does (or it cannot be told).
qint64 flockHolder(const QString &lockFile)
{
    const QByteArray file = QFile::encodeName(lockFile);
    const int fd = ::open(file.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    // A shared lock is refused while an exclusive one is held, by any process (this one included).
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
    if (!held)
        ::flock(fd, LOCK_UN);
    struct stat st
    {
    };
    const bool stated = ::fstat(fd, &st) == 0;
    ::close(fd);
    if (!held)
        return 0;
    if (!stated)
        return -1;
    // "1: FLOCK  ADVISORY  WRITE 1234 fd:00:5678 0 EOF": the holder's pid and the file's inode.
    QFile locks(QStringLiteral("/proc/locks"));
    if (locks.open(QIODevice::ReadOnly))
        for (const QByteArray &line : locks.readAll().split('\n')) {
            const QList<QByteArray> f = line.simplified().split(' ');
            if (f.size() >= 6 && f.at(1) == "FLOCK" && f.at(5).split(':').value(2).toULongLong() == st.st_ino)
                return f.at(4).toLongLong();
        }
    return -1;
}

QString programOf(qint64 pid)
{
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!cmdline.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> args = cmdline.readAll().split('\0');
    QString program = QFileInfo(QString::fromLocal8Bit(args.value(0))).fileName();
    if (program == QLatin1String("sieve-cli") && args.size() > 1)
        program += QLatin1Char(' ') + QString::fromLocal8Bit(args.at(1));
    return program;
}
} // namespace

QString lockHolder(const QString &path)
{
    const std::string p = path.toStdString();
    const QList<QPair<QString, QString>> locks{
        {QString::fromStdString(ImportLock::lockPath(p)), CorpusFile::tr("an import")},
        {path + QStringLiteral(".verify-lock"), CorpusFile::tr("a verification run")}};
    for (const auto &[file, what] : locks) {
        const qint64 pid = flockHolder(file);
        if (pid == 0)
            continue;
        const QString program = pid > 0 ? programOf(pid) : QString();
        if (program.isEmpty())
            return what;
        return CorpusFile::tr("%1 (%2, process %3)").arg(what, program).arg(pid);
    }
    return {};
}

QString whyReadOnly(const QString &path)
{
    return QString::fromStdString(sieve::corpusfile::whyNotWritable(path.toStdString()));
}

} // namespace sieve::ui::corpusfile
