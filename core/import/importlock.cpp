#include "core/import/importlock.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace sieve {

namespace {
bool inMemory(const std::string &dbPath)
{
    return dbPath.empty() || dbPath == ":memory:";
}
} // namespace

ImportLock::ImportLock(const std::string &dbPath, const std::function<void()> &onWait,
                       const std::function<bool()> &cancelled)
{
    if (inMemory(dbPath))
        return;
    const std::string path = lockPath(dbPath);
    m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0)
        throw std::runtime_error("cannot create the import lock '" + path + "': " + std::strerror(errno));
    bool told = false;
    while (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            const int err = errno;
            ::close(m_fd);
            throw std::runtime_error("cannot lock '" + path + "': " + std::strerror(err));
        }
        if (cancelled && cancelled()) {
            ::close(m_fd);
            throw std::runtime_error("cancelled while waiting for another import of '" + dbPath + "' to finish");
        }
        if (!told && onWait) {
            told = true;
            onWait();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

ImportLock::~ImportLock()
{
    if (m_fd >= 0)
        ::close(m_fd); // releases the flock
}

bool importRunning(const std::string &dbPath)
{
    if (inMemory(dbPath))
        return false;
    const int fd = ::open(ImportLock::lockPath(dbPath).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false; // no import ever ran here
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return held;
}

} // namespace sieve
