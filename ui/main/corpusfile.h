#pragma once
// The corpus file's life cycle as the workbench sees it: the backup kept before a migration, and the
// database's errors said in a reviewer's terms (what is wrong and what to do), not SQLite's.
#include <QString>

namespace sieve::ui::corpusfile {

// Where the copy of a version-`version` corpus goes before it is migrated: "<path>.bak-v<version>",
// with "-2", "-3", ... appended when that name is taken.
QString backupPath(const QString &path, int version);
// Copies the corpus (and its -wal, if any) to backupPath(); the error in the user's terms, or empty.
QString backUp(const QString &path, int version, QString *backup);
// A message for a failed open of `path`, from the database's own text: not a corpus, damaged (with how to
// recover), locked (naming `holder` when known), newer.
QString openError(const QString &path, const QString &error, const QString &holder = QString());
// Who holds the corpus now: "sieve-cli import (process 1234)" while an import or a verification run holds
// its lock file (core/import/importlock.h, the verify lock), from /proc/locks; empty when nobody does.
QString lockHolder(const QString &path);
// Why this process cannot write `path` (read-only file or mount, no permission), in words; empty when it can.
QString whyReadOnly(const QString &path);

} // namespace sieve::ui::corpusfile
