#include "core/db/walcheckpointer.h"

#include <sqlite3.h>

#include <string>

namespace sieve::db {

WalCheckpointer::WalCheckpointer(Database &writer, int maxWalPages, int restoreAutoCheckpoint)
    : m_writer(writer), m_own(writer.path(), Database::Mode::ReadWrite), m_maxWalPages(maxWalPages),
      m_restore(restoreAutoCheckpoint)
{
    // The same durability as the writer's connection (Corpus::configure): WAL synced before a
    // checkpoint copies it back, the database file after.
    m_own.exec("PRAGMA synchronous=NORMAL");
    // Replaces SQLite's automatic checkpoint, which is itself a WAL hook.
    sqlite3_wal_hook(m_writer.handle(), &WalCheckpointer::onCommit, this);
    m_thread = std::thread([this] { run(); });
}

WalCheckpointer::~WalCheckpointer()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
    // Back to SQLite's own hook and threshold.
    sqlite3_wal_autocheckpoint(m_writer.handle(), m_restore);
}

std::uint64_t WalCheckpointer::backgroundRuns() const
{
    std::lock_guard lock(m_mutex);
    return m_backgroundRuns;
}

std::uint64_t WalCheckpointer::writerRuns() const
{
    std::lock_guard lock(m_mutex);
    return m_writerRuns;
}

int WalCheckpointer::onCommit(void *self, sqlite3 *db, const char *schema, int walPages)
{
    auto *c = static_cast<WalCheckpointer *>(self);
    std::unique_lock lock(c->m_mutex);
    if (walPages < c->m_maxWalPages) {
        c->m_pending = true;
        lock.unlock();
        c->m_cv.notify_all();
        return SQLITE_OK;
    }
    // Let the background run finish, then copy back the last transactions here, so that all of the WAL
    // is in the database file when the next transaction starts and the WAL can rewind.
    c->m_cv.wait(lock, [c] { return !c->m_busy; });
    c->m_pending = false;
    ++c->m_writerRuns;
    lock.unlock();
    // A failure here (a reader holding an old snapshot) only means the WAL keeps growing for now.
    sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    return SQLITE_OK;
}

void WalCheckpointer::run()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_cv.wait(lock, [this] { return m_pending || m_stop; });
        if (m_stop)
            return;
        m_pending = false;
        m_busy = true;
        ++m_backgroundRuns;
        lock.unlock();
        sqlite3_wal_checkpoint_v2(m_own.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        lock.lock();
        m_busy = false;
        m_cv.notify_all();
    }
}

} // namespace sieve::db
