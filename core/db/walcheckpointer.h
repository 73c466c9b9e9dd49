#pragma once
// Moves a bulk writer's WAL checkpoints onto a thread and a connection of their own.
//
// SQLite checkpoints on the committing thread: with synchronous=NORMAL each one fsyncs the WAL and the
// database file, and during a large import the single writer sat in those fsyncs for a large share of
// the wall time while the cores idled. While a WalCheckpointer lives, the writer's connection does not
// checkpoint by itself: every commit wakes a background thread that runs a PASSIVE checkpoint (it never
// blocks the writer, which keeps appending to the WAL). A WAL can only start over from its beginning
// when all of it has been copied back, which a checkpoint running behind a busy writer never sees, so
// once the WAL holds `maxWalPages` the writer waits for the background run and checkpoints the rest
// itself; the next transaction then rewinds the WAL. Durability is unchanged: same synchronous level,
// same fsyncs, only on another thread.
#include "core/db/database.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace sieve::db {

class WalCheckpointer
{
public:
    // `writer` must be in WAL mode and outlive this object; `restoreAutoCheckpoint` is the page count
    // SQLite's own automatic checkpoint gets back afterwards.
    WalCheckpointer(Database &writer, int maxWalPages, int restoreAutoCheckpoint);
    ~WalCheckpointer();
    WalCheckpointer(const WalCheckpointer &) = delete;
    WalCheckpointer &operator=(const WalCheckpointer &) = delete;

    // Checkpoints run on the background thread (for tests and the benchmark's report).
    std::uint64_t backgroundRuns() const;
    std::uint64_t writerRuns() const;

private:
    static int onCommit(void *self, sqlite3 *db, const char *schema, int walPages);
    void run();

    Database &m_writer;
    Database m_own;
    const int m_maxWalPages;
    const int m_restore;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_pending = false;
    bool m_busy = false;
    bool m_stop = false;
    std::uint64_t m_backgroundRuns = 0;
    std::uint64_t m_writerRuns = 0;
    std::thread m_thread;
};

} // namespace sieve::db
