#include "core/db/database.h"

#include <sqlite3.h>

#include <utility>

namespace sieve::db {

namespace {
[[noreturn]] void fail(sqlite3 *db, int rc, std::string_view context)
{
    if (isDamage(rc) && db) {
        const char *file = sqlite3_db_filename(db, "main");
        throw Error(damagedMessage(file && *file ? file : "the corpus",
                                   std::string(sqlite3_errmsg(db)) + ", in " + std::string(context)),
                    rc);
    }
    std::string msg(context);
    msg += ": ";
    msg += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    throw Error(msg, rc);
}
} // namespace

bool isDamage(int code)
{
    return (code & 0xff) == SQLITE_CORRUPT || (code & 0xff) == SQLITE_NOTADB;
}

std::string damagedMessage(const std::string &path, const std::string &detail)
{
    return "'" + path + "' is damaged (" + detail +
           "); Sieve does not read or write a damaged corpus. Recover what is readable into a new file with "
           "\"sqlite3 '" +
           path +
           "' .recover | sqlite3 recovered.sieve\" and check it with 'sieve-cli stats recovered.sieve "
           "--check', or import the corpus again from its sources";
}

Statement::Statement(sqlite3 *db, std::string_view sql)
{
    const int rc =
        sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr);
    if (rc != SQLITE_OK)
        fail(db, rc, std::string("prepare '") + std::string(sql.substr(0, 80)) + "'");
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement &&other) noexcept : m_stmt(std::exchange(other.m_stmt, nullptr)) {}

Statement &Statement::operator=(Statement &&other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
    }
    return *this;
}

void Statement::check(int rc) const
{
    if (rc != SQLITE_OK)
        fail(sqlite3_db_handle(m_stmt), rc, "bind");
}

Statement &Statement::bind(int index, std::int64_t value)
{
    check(sqlite3_bind_int64(m_stmt, index, value));
    return *this;
}

Statement &Statement::bind(int index, double value)
{
    check(sqlite3_bind_double(m_stmt, index, value));
    return *this;
}

Statement &Statement::bind(int index, std::string_view text)
{
    check(sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
    return *this;
}

Statement &Statement::bindBlob(int index, std::string_view bytes)
{
    check(sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT));
    return *this;
}

Statement &Statement::bindBlobNoCopy(int index, std::string_view bytes)
{
    check(sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(), SQLITE_STATIC));
    return *this;
}

Statement &Statement::bindTextNoCopy(int index, std::string_view text)
{
    check(sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8));
    return *this;
}

Statement &Statement::bindNull(int index)
{
    check(sqlite3_bind_null(m_stmt, index));
    return *this;
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    sqlite3 *db = sqlite3_db_handle(m_stmt);
    std::string context = "step '";
    context += std::string_view(sqlite3_sql(m_stmt)).substr(0, 80);
    context += "'";
    sqlite3_reset(m_stmt);
    fail(db, rc, context);
}

void Statement::run()
{
    while (step()) {
    }
    reset();
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}
std::int64_t Statement::int64(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}
double Statement::real(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

std::string_view Statement::textView(int column) const
{
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    return p ? std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string_view();
}

std::string Statement::text(int column) const
{
    return std::string(textView(column));
}

std::string_view Statement::blobView(int column) const
{
    const auto *p = static_cast<const char *>(sqlite3_column_blob(m_stmt, column));
    return p ? std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string_view();
}

std::string Statement::blob(int column) const
{
    return std::string(blobView(column));
}

std::optional<double> Statement::optReal(int column) const
{
    return isNull(column) ? std::nullopt : std::optional<double>(real(column));
}

std::optional<std::int64_t> Statement::optInt64(int column) const
{
    return isNull(column) ? std::nullopt : std::optional<std::int64_t>(int64(column));
}

int Statement::columnCount() const
{
    return sqlite3_column_count(m_stmt);
}
std::string Statement::columnName(int column) const
{
    return sqlite3_column_name(m_stmt, column);
}

namespace {
// SQLite counts every allocation in global statistics under one process-wide mutex, which each thread
// of an import (writer, checkpointer, read-only workers) then takes for every malloc; Sieve never reads
// those statistics. The setting must precede SQLite's initialisation, hence the first open.
void configureSqliteOnce()
{
    static const bool once = [] {
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
        return true;
    }();
    (void)once;
}
// "file:PATH?immutable=1" with the characters a URI path cannot hold escaped.
std::string immutableUri(const std::string &path)
{
    std::string uri = "file:";
    for (const char c : path) {
        if (c == '?' || c == '#' || c == '%' || static_cast<unsigned char>(c) < 0x21) {
            static const char *hex = "0123456789ABCDEF";
            uri += '%';
            uri += hex[(static_cast<unsigned char>(c) >> 4) & 15];
            uri += hex[static_cast<unsigned char>(c) & 15];
        } else {
            uri += c;
        }
    }
    return uri + "?immutable=1";
}
} // namespace

Database::Database(const std::string &path, Mode mode) : m_path(path)
{
    configureSqliteOnce();
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::Create:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    case Mode::Immutable:
        flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
        break;
    }
    const int rc =
        sqlite3_open_v2(mode == Mode::Immutable ? immutableUri(path).c_str() : path.c_str(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = "cannot open '" + path + "': " + (m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc));
        sqlite3_close(m_db);
        m_db = nullptr;
        throw Error(msg, rc);
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, 10000);
}

Database::~Database()
{
    sqlite3_close_v2(m_db);
}

Database::Database(Database &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_path(std::move(other.m_path))
{
}

Database &Database::operator=(Database &&other) noexcept
{
    if (this != &other) {
        sqlite3_close_v2(m_db);
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

void Database::exec(std::string_view sql)
{
    char *err = nullptr;
    const std::string s(sql);
    const int rc = sqlite3_exec(m_db, s.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errstr(rc);
        sqlite3_free(err);
        if (isDamage(rc))
            throw Error(damagedMessage(m_path, msg + ", in '" + s.substr(0, 80) + "'"), rc);
        throw Error("exec '" + s.substr(0, 80) + "': " + msg, rc);
    }
}

Statement Database::prepare(std::string_view sql) const
{
    return Statement(m_db, sql);
}
std::int64_t Database::lastInsertId() const
{
    return sqlite3_last_insert_rowid(m_db);
}
int Database::changes() const
{
    return sqlite3_changes(m_db);
}

std::optional<std::int64_t> Database::queryInt(std::string_view sql) const
{
    Statement st = prepare(sql);
    if (!st.step() || st.isNull(0))
        return std::nullopt;
    return st.int64(0);
}

std::optional<std::string> Database::queryText(std::string_view sql) const
{
    Statement st = prepare(sql);
    if (!st.step() || st.isNull(0))
        return std::nullopt;
    return st.text(0);
}

// Inside an open transaction a Transaction becomes a savepoint, so that an API that is atomic on its own
// (e.g. recording one review) can also be one step of a larger atomic change.
Transaction::Transaction(Database &db, bool immediate) : m_db(db), m_nested(sqlite3_get_autocommit(db.handle()) == 0)
{
    m_db.exec(m_nested ? "SAVEPOINT sieve_nested" : (immediate ? "BEGIN IMMEDIATE" : "BEGIN"));
}

Transaction::~Transaction()
{
    if (!m_done) {
        try {
            m_db.exec(m_nested ? "ROLLBACK TO sieve_nested; RELEASE sieve_nested" : "ROLLBACK");
        } catch (...) {
            // The connection may already have rolled back (e.g. after SQLITE_FULL); nothing more to do.
        }
    }
}

void Transaction::commit()
{
    m_db.exec(m_nested ? "RELEASE sieve_nested" : "COMMIT");
    m_done = true;
}

} // namespace sieve::db
