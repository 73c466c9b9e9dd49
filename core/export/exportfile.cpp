#include "core/export/exportfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace sieve {

namespace {
std::string errnoText()
{
    return std::strerror(errno);
}
} // namespace

ExportFile::ExportFile(std::filesystem::path path) : m_path(std::move(path)), m_partial(m_path.string() + ".partial")
{
    m_fd = ::open(m_partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0)
        throw std::runtime_error("cannot write '" + m_partial.string() + "': " + errnoText());
}

ExportFile::~ExportFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (!m_committed) {
        std::error_code ec; // nothing to report from a destructor; the error that got us here is thrown
        std::filesystem::remove(m_partial, ec);
    }
}

void ExportFile::write(std::string_view data)
{
    if (m_fd < 0)
        throw std::logic_error("ExportFile::write after finish");
    m_sha.update(data);
    m_bytes += data.size();
    while (!data.empty()) {
        const ssize_t n = ::write(m_fd, data.data(), data.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error("writing '" + m_partial.string() + "' failed: " + errnoText());
        data.remove_prefix(static_cast<std::size_t>(n));
    }
}

std::string ExportFile::finish()
{
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0)
        throw std::runtime_error("writing '" + m_partial.string() + "' failed: " + errnoText());
    return m_sha.finishHex();
}

void ExportFile::commit()
{
    std::error_code ec;
    std::filesystem::rename(m_partial, m_path, ec);
    if (ec)
        throw std::runtime_error("cannot rename '" + m_partial.string() + "' to '" + m_path.filename().string() +
                                 "': " + ec.message());
    m_committed = true;
}

} // namespace sieve
