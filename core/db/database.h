#pragma once
// A small RAII layer over the sqlite3 C API: prepared statements, transactions that roll back unless
// committed. No Qt, so the verifier and the CLI can use it on GPU hosts.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace sieve::db {

// `code` is SQLite's (extended) result code, or 0 for errors of our own. A file that SQLite finds
// damaged (SQLITE_CORRUPT, SQLITE_NOTADB) gets a message that names it and says how to recover it.
class Error : public std::runtime_error
{
public:
    Error(const std::string &what, int code) : std::runtime_error(what), m_code(code) {}
    int code() const { return m_code; }

private:
    int m_code;
};

// True for SQLite's codes that mean the file is damaged or not a database.
bool isDamage(int code);
// The text for a damaged file: what SQLite found (`detail`) and how to recover what is readable.
std::string damagedMessage(const std::string &path, const std::string &detail);

class Statement
{
public:
    Statement() = default;
    Statement(sqlite3 *db, std::string_view sql);
    ~Statement();
    Statement(Statement &&other) noexcept;
    Statement &operator=(Statement &&other) noexcept;
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    // Binding is 1-based as in sqlite; each returns *this so calls chain.
    Statement &bind(int index, std::int64_t value);
    Statement &bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement &bind(int index, double value);
    Statement &bind(int index, std::string_view text);
    Statement &bind(int index, const char *text) { return bind(index, std::string_view(text)); }
    Statement &bind(int index, const std::string &text) { return bind(index, std::string_view(text)); }
    Statement &bindBlob(int index, std::string_view bytes);
    // Without SQLite's copy: `bytes` must stay valid until the statement is reset (hot insert loops).
    Statement &bindBlobNoCopy(int index, std::string_view bytes);
    Statement &bindTextNoCopy(int index, std::string_view text);
    Statement &bindNull(int index);
    template <typename T> Statement &bind(int index, const std::optional<T> &value)
    {
        return value ? bind(index, *value) : bindNull(index);
    }

    // Returns true while a row is available; false when done. Throws on error.
    bool step();
    // Runs to completion (for statements that return no rows).
    void run();
    void reset();

    bool isNull(int column) const;
    std::int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    std::string_view textView(int column) const; // valid until the next step/reset
    std::string blob(int column) const;
    std::string_view blobView(int column) const; // valid until the next step/reset
    std::optional<double> optReal(int column) const;
    std::optional<std::int64_t> optInt64(int column) const;
    int columnCount() const;
    std::string columnName(int column) const;

    sqlite3_stmt *handle() const { return m_stmt; }

private:
    void check(int rc) const;
    sqlite3_stmt *m_stmt = nullptr;
};

class Database
{
public:
    // Immutable: read-only without the -wal/-shm files (SQLite's immutable=1), for a file in a folder this
    // process cannot write that has no changes in a -wal (core/db/corpusfile.h decides).
    enum class Mode { ReadWrite, ReadOnly, Create, Immutable };
    Database() = default;
    Database(const std::string &path, Mode mode);
    ~Database();
    Database(Database &&other) noexcept;
    Database &operator=(Database &&other) noexcept;
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    void exec(std::string_view sql);
    Statement prepare(std::string_view sql) const;
    std::int64_t lastInsertId() const;
    int changes() const;
    // A single value from a query that returns one row; nullopt when there is no row.
    std::optional<std::int64_t> queryInt(std::string_view sql) const;
    std::optional<std::string> queryText(std::string_view sql) const;
    const std::string &path() const { return m_path; }
    sqlite3 *handle() const { return m_db; }
    bool isOpen() const { return m_db != nullptr; }

private:
    sqlite3 *m_db = nullptr;
    std::string m_path;
};

// Rolls back in the destructor unless commit() was called. Nested in an open transaction it is a
// savepoint: its rollback undoes only its own work.
class Transaction
{
public:
    explicit Transaction(Database &db, bool immediate = true);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit();

private:
    Database &m_db;
    bool m_nested;
    bool m_done = false;
};

} // namespace sieve::db
