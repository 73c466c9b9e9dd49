#pragma once
// One bulk import at a time per corpus. A large import drops the key index and checks keys in memory
// against the rows that were there when it started (core/import/importwriter.h); a second import running
// meanwhile would check against the same stale picture, and both would write the rows they share. So
// every import holds an exclusive flock(2) on `<corpus>.import-lock` while it writes: the kernel drops
// it when the process dies, kill -9 included, so a killed import never blocks the next one.
// Openers use importRunning() to leave the dropped indices to the import that will rebuild them.
#include <functional>
#include <string>

namespace sieve {

class ImportLock
{
public:
    // Takes the lock for `dbPath`, waiting while another import holds it; `onWait` is called once when it
    // has to wait, `cancelled` is polled meanwhile. An in-memory corpus (empty path, ":memory:") needs none.
    // Throws std::runtime_error when the lock file cannot be created or the wait was cancelled.
    ImportLock(const std::string &dbPath, const std::function<void()> &onWait = {},
               const std::function<bool()> &cancelled = {});
    ~ImportLock();
    ImportLock(const ImportLock &) = delete;
    ImportLock &operator=(const ImportLock &) = delete;

    static std::string lockPath(const std::string &dbPath) { return dbPath + ".import-lock"; }

private:
    int m_fd = -1;
};

// True while some process (this one included) holds the import lock of `dbPath`.
bool importRunning(const std::string &dbPath);

} // namespace sieve
