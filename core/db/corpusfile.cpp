#include "core/db/corpusfile.h"

#include <sqlite3.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace sieve::corpusfile {

namespace fs = std::filesystem;

namespace {

bool g_fullCheck = false;

std::uint32_t be32(const unsigned char *p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

[[noreturn]] void damaged(const std::string &path, const std::string &what, int code = SQLITE_CORRUPT)
{
    throw db::Error(db::damagedMessage(path, what), code);
}

// A -wal file with frames holds pages newer than the main file's: what the file says about itself is
// then incomplete, and only SQLite reading through the WAL sees the corpus as it is.
bool walHasFrames(const std::string &path)
{
    std::error_code ec;
    const auto size = fs::file_size(path + "-wal", ec);
    return !ec && size > 32; // a WAL header is 32 bytes
}

struct Header
{
    std::uint32_t pageSize = 0;
    std::uint32_t pages = 0; // 0 when the header's count is not valid
};

// Reads through SQLite's own descriptor of the file: opening and closing another one would drop the POSIX
// locks SQLite holds on it (fcntl locks belong to the process, not to a descriptor).
bool readAt(const db::Database &db, void *buf, int n, std::int64_t offset)
{
    sqlite3_file *f = nullptr;
    if (sqlite3_file_control(db.handle(), "main", SQLITE_FCNTL_FILE_POINTER, &f) != SQLITE_OK || !f || !f->pMethods)
        return false;
    return f->pMethods->xRead(f, buf, n, offset) == SQLITE_OK;
}

Header readHeader(const db::Database &db)
{
    const std::string &path = db.path();
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        throw db::Error("cannot read '" + path + "': " + ec.message(), SQLITE_CANTOPEN);
    Header h;
    if (size == 0)
        return h;
    std::array<unsigned char, 100> b{};
    if (size < b.size() || !readAt(db, b.data(), int(b.size()), 0))
        damaged(path, "the file is " + std::to_string(size) + " bytes, shorter than an SQLite header", SQLITE_NOTADB);
    if (std::memcmp(b.data(), "SQLite format 3", 16) != 0)
        damaged(path, "its first bytes are not an SQLite header: not a corpus, or overwritten", SQLITE_NOTADB);
    const std::uint32_t raw = (std::uint32_t(b[16]) << 8) | b[17];
    h.pageSize = raw == 1 ? 65536 : raw;
    if (h.pageSize < 512 || (h.pageSize & (h.pageSize - 1)) != 0 || b[21] != 64 || b[22] != 32 || b[23] != 32)
        damaged(path, "its SQLite header is overwritten (page size " + std::to_string(raw) + ")");
    // The page count is valid when the change counter equals the version-valid-for number (SQLite 3.7+).
    if (be32(&b[24]) == be32(&b[92]))
        h.pages = be32(&b[28]);
    if (h.pages && !walHasFrames(path) && std::uint64_t(h.pages) * h.pageSize > size)
        damaged(path, "the file is " + std::to_string(size) + " bytes, but its header counts " +
                          std::to_string(h.pages) + " pages of " + std::to_string(h.pageSize) +
                          " bytes: it was truncated");
    return h;
}

std::string reasonFor(int err)
{
    switch (err) {
    case EROFS:
        return "read-only file system";
    case EACCES:
        return "permission denied";
    case EPERM:
        return "operation not permitted: an immutable file (chattr +i)?";
    default:
        return std::strerror(err);
    }
}

// "quick_check" or "integrity_check": its first lines when the file is not ok, empty when it is.
std::string runCheck(const db::Database &db, const char *pragma)
{
    db::Statement st = db.prepare(std::string("PRAGMA ") + pragma + "(20)");
    std::string problems;
    int lines = 0;
    while (st.step()) {
        const std::string line = st.text(0);
        if (line == "ok")
            continue;
        if (lines++ < 3)
            problems += (problems.empty() ? "" : "; ") + line;
    }
    if (lines > 3)
        problems += "; and more";
    return problems;
}

// The root page of every table and index must be a b-tree page (types 2, 5, 10, 13), and lie in the
// file; read straight from the file when no WAL holds newer pages.
void probeRoots(const db::Database &db, const Header &h)
{
    std::vector<std::pair<std::string, std::int64_t>> roots;
    db::Statement st = db.prepare("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0");
    while (st.step())
        roots.emplace_back(st.text(0), st.int64(1));
    if (h.pageSize == 0 || walHasFrames(db.path()))
        return;
    for (const auto &[name, root] : roots) {
        if (h.pages && root > h.pages)
            damaged(db.path(), "the root page " + std::to_string(root) + " of '" + name + "' lies past its end");
        const std::uint64_t offset = std::uint64_t(root - 1) * h.pageSize + (root == 1 ? 100 : 0);
        char type = 0;
        if (!readAt(db, &type, 1, static_cast<std::int64_t>(offset)))
            damaged(db.path(), "the root page " + std::to_string(root) + " of '" + name + "' cannot be read");
        if (type != 2 && type != 5 && type != 10 && type != 13)
            damaged(db.path(), "the root page " + std::to_string(root) + " of '" + name + "' is overwritten");
    }
}

std::mutex g_checkedMutex;
std::set<std::pair<std::string, int>> g_checked; // (file, level) checked in this process

// The file by path and inode: a copy put in its place is checked again. Not its size or time, which this
// process's own writes and checkpoints change (a verify run opens its corpus three times).
std::string fileKey(const std::string &path)
{
    std::error_code ec;
    std::string key = fs::weakly_canonical(path, ec).string();
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) == 0)
        key += '|' + std::to_string(st.st_dev) + ':' + std::to_string(st.st_ino);
    return key;
}

} // namespace

void setFullCheck(bool on)
{
    g_fullCheck = on;
}

bool fullCheck()
{
    return g_fullCheck;
}

void checkHeader(const db::Database &db)
{
    readHeader(db);
}

std::string whyNotWritable(const std::string &path)
{
    if (::access(path.c_str(), W_OK) != 0)
        return reasonFor(errno);
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty())
        dir = ".";
    for (const char *suffix : {"-wal", "-shm"}) {
        const std::string side = path + suffix;
        if (::access(side.c_str(), F_OK) == 0) {
            if (::access(side.c_str(), W_OK) != 0)
                return reasonFor(errno) + " on '" + side + "'";
        } else if (::access(dir.c_str(), W_OK | X_OK) != 0) {
            return reasonFor(errno) + " on its folder, where SQLite keeps '" + side + "'";
        }
    }
    return {};
}

void requireWritable(const std::string &path)
{
    if (const std::string why = whyNotWritable(path); !why.empty())
        refuseWrite(path, why);
}

void refuseWrite(const std::string &path, const std::string &why)
{
    throw db::Error("'" + path + "' is read-only (" + why +
                        "): this command writes to the corpus. Copy the corpus somewhere writable and run it on "
                        "the copy; list, stats, select and export read it as it is",
                    SQLITE_READONLY);
}

bool isReadOnlyError(int code)
{
    const int primary = code & 0xff;
    return primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_PERM || primary == SQLITE_AUTH;
}

db::Database openForReading(const std::string &path)
{
    db::Database db(path, db::Database::Mode::ReadOnly);
    try {
        db.queryInt("SELECT count(*) FROM sqlite_master");
        return db;
    } catch (const db::Error &e) {
        if (!isReadOnlyError(e.code()))
            throw;
    }
    const std::string why = whyNotWritable(path);
    if (walHasFrames(path))
        throw db::Error("'" + path + "' has changes in '" + path +
                            "-wal' that were never merged into it, and SQLite cannot read them without writing '" +
                            path + "-shm' (" + (why.empty() ? std::string("refused") : why) +
                            "): let a user who can write its folder run any sieve-cli command on it once (that "
                            "merges them), or copy the corpus with its -wal file somewhere writable",
                        SQLITE_READONLY);
    db::Database immutable(path, db::Database::Mode::Immutable);
    immutable.queryInt("SELECT count(*) FROM sqlite_master");
    return immutable;
}

void checkIntegrity(const db::Database &db, bool forWriting)
{
    const int level = g_fullCheck ? 2 : forWriting ? 1 : 0;
    const std::string key = fileKey(db.path());
    {
        std::lock_guard lock(g_checkedMutex);
        if (g_checked.count({key, level}))
            return;
    }
    const Header h = readHeader(db);
    probeRoots(db, h);
    if (level > 0) {
        const char *pragma = level == 2 ? "integrity_check" : "quick_check";
        if (const std::string problems = runCheck(db, pragma); !problems.empty())
            damaged(db.path(), std::string(pragma) + " found: " + problems);
    }
    std::lock_guard lock(g_checkedMutex);
    for (int l = 0; l <= level; ++l)
        g_checked.insert({key, l});
}

} // namespace sieve::corpusfile
