#include "gpu/verify/scratchdir.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sieve::gpu {

namespace {
constexpr const char *kPrefix = "sieve-scratch-";
constexpr const char *kOwnerFile = ".owner";
constexpr auto kOrphanAge = std::chrono::hours(1);

std::string parentOr(const std::string &parent)
{
    if (!parent.empty())
        return parent;
    std::error_code ec;
    const fs::path tmp = fs::temp_directory_path(ec);
    return ec ? std::string("/tmp") : tmp.string();
}

// True when nobody holds the folder's owner lock (or it has none and is old).
bool ownerGone(const fs::path &dir, const struct stat &st)
{
    const int fd = ::open((dir / kOwnerFile).c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        const auto age = std::chrono::system_clock::now() - std::chrono::system_clock::from_time_t(st.st_mtime);
        return errno == ENOENT && age > kOrphanAge;
    }
    const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    ::close(fd);
    return free;
}
} // namespace

int ScratchDir::removeStale(const std::string &parent)
{
    int removed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(parentOr(parent), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind(kPrefix, 0) != 0)
            continue;
        struct stat st
        {
        };
        if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid())
            continue;
        if (!ownerGone(it->path(), st))
            continue;
        std::error_code rmEc;
        fs::remove_all(it->path(), rmEc);
        removed += rmEc ? 0 : 1;
    }
    return removed;
}

ScratchDir::ScratchDir(const std::string &parent)
{
    const std::string base = parentOr(parent);
    removeStale(base);
    std::string dir = (fs::path(base) / (std::string(kPrefix) + "XXXXXX")).string();
    if (!::mkdtemp(dir.data()))
        throw std::runtime_error("cannot create a scratch folder under " + base + ": " + std::strerror(errno));
    m_path = dir;
    m_lockFd = ::open((fs::path(dir) / kOwnerFile).c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (m_lockFd < 0 || ::flock(m_lockFd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        std::error_code ec;
        fs::remove_all(dir, ec);
        throw std::runtime_error("cannot lock the scratch folder " + dir + ": " + std::strerror(err));
    }
    // Workers (and candidates) may run under other users and need to enter it.
    fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                             fs::perms::others_exec);
}

ScratchDir::~ScratchDir()
{
    std::error_code ec;
    fs::remove_all(m_path, ec);
    if (m_lockFd >= 0)
        ::close(m_lockFd);
}

} // namespace sieve::gpu
