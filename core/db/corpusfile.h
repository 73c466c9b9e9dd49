#pragma once
// A corpus file as users have it: on a read-only mount, owned by someone else, or damaged. Corpus::open
// goes through here, so that every command reads a file it may only read, says plainly why it cannot
// write one (never an SQLite message), and notices damage before it reads or writes: cheaply on every
// open, with SQLite's quick_check before any write, fully with `--check`.
#include "core/db/database.h"

#include <string>

namespace sieve::corpusfile {

// `sieve-cli ... --check`: every corpus this process opens gets SQLite's full integrity_check.
void setFullCheck(bool on);
bool fullCheck();

// Before the first statement: the header's magic and page size, and its page count against the file's
// size (a truncated file). Throws db::Error (SQLITE_NOTADB or SQLITE_CORRUPT, db::damagedMessage()).
// An empty file passes (SQLite reads it as an empty database).
void checkHeader(const db::Database &db);

// Why this process cannot write `path` and the -wal/-shm files SQLite keeps beside it ("read-only file
// system", "permission denied"...); empty when it can.
std::string whyNotWritable(const std::string &path);
// Throws db::Error (SQLITE_READONLY) naming the reason and what to do instead, when `path` cannot be
// written.
void requireWritable(const std::string &path);
[[noreturn]] void refuseWrite(const std::string &path, const std::string &why);
// True for the codes SQLite gives when a write or the -shm file is refused by the file system.
bool isReadOnlyError(int code);

// Opens `path` for reading. A WAL file in a folder this process cannot write has no -shm to share, so
// SQLite refuses to read it; without changes waiting in its -wal file it is then read as immutable.
// With such changes it throws db::Error (SQLITE_READONLY) saying how to get them merged.
db::Database openForReading(const std::string &path);

// After the open: reads the schema and probes the root page of every table and index (milliseconds);
// `forWriting` adds PRAGMA quick_check (every page: about 1.5 s for a 200,000-sample, 370 MB corpus), and
// fullCheck() PRAGMA integrity_check. Each at most once per file and level in a process. Throws
// db::Error (SQLITE_CORRUPT) naming what is damaged and how to recover.
void checkIntegrity(const db::Database &db, bool forWriting);

} // namespace sieve::corpusfile
