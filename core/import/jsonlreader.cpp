#include "core/import/jsonlreader.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace sieve {

namespace {
constexpr std::size_t kChunk = std::size_t(1) << 20;
static_assert(JsonlReader::kPadding >= simdjson::SIMDJSON_PADDING);
} // namespace

JsonlReader::JsonlReader(const std::string &path, std::size_t maxLine) : m_path(path), m_maxLine(maxLine)
{
    // O_NONBLOCK: opening a FIFO without a writer would wait forever. Only regular files are read (a
    // FIFO, socket or device is refused); the flag is cleared again for the reads.
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (m_fd < 0)
        throw std::runtime_error("cannot open: " + std::string(std::strerror(errno)));
    struct stat st
    {
    };
    if (::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const bool dir = S_ISDIR(st.st_mode);
        ::close(m_fd);
        m_fd = -1;
        throw std::runtime_error(dir ? "is a directory, not a JSON Lines file"
                                     : "not a regular file (a FIFO, socket or device); only files are imported");
    }
    m_fileSize = static_cast<std::uint64_t>(st.st_size);
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) & ~O_NONBLOCK);
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(m_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    m_capacity = std::min(kChunk, m_maxLine + 1);
    m_buf.reset(new char[m_capacity + kPadding]);
}

JsonlReader::~JsonlReader()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

// Moves the unread tail to the front, grows the buffer when a line does not fit (up to the limit),
// and reads more. Returns false when nothing more could be read.
bool JsonlReader::fill()
{
    if (m_eof)
        return false;
    if (m_begin > 0) {
        std::memmove(m_buf.get(), m_buf.get() + m_begin, m_end - m_begin);
        m_end -= m_begin;
        m_begin = 0;
    }
    if (m_end == m_capacity) {
        const std::size_t limit = m_maxLine + 1; // one byte more than a line may hold, to see it is too long
        if (m_capacity >= limit)
            return false;
        const std::size_t grown = std::min(limit, m_capacity * 2);
        std::unique_ptr<char[]> bigger(new char[grown + kPadding]);
        std::memcpy(bigger.get(), m_buf.get(), m_end);
        m_buf = std::move(bigger);
        m_capacity = grown;
    }
    for (;;) {
        const ssize_t n = ::read(m_fd, m_buf.get() + m_end, m_capacity - m_end);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            throw std::runtime_error("read error: " + std::string(std::strerror(errno)));
        }
        if (n == 0) {
            m_eof = true;
            return false;
        }
        m_end += static_cast<std::size_t>(n);
        return true;
    }
}

bool JsonlReader::next(Line &line)
{
    std::size_t scanned = 0; // bytes of the current line already searched for '\n'
    for (;;) {
        const std::size_t avail = m_end - m_begin;
        const char *start = m_buf.get() + m_begin;
        const char *nl =
            avail > scanned ? static_cast<const char *>(std::memchr(start + scanned, '\n', avail - scanned)) : nullptr;
        std::size_t len = 0;
        if (nl) {
            len = static_cast<std::size_t>(nl - start);
        } else {
            scanned = avail;
            if (avail > m_maxLine) {
                skipLongLine(line);
                return true;
            }
            if (fill())
                continue;
            if (avail == 0)
                return false;
            len = avail; // the last line has no newline
        }
        ++m_lineNo;
        const std::size_t used = len + (nl ? 1 : 0);
        m_consumed += used;
        m_begin += used;
        std::size_t textLen = len;
        if (textLen > 0 && start[textLen - 1] == '\r')
            --textLen;
        line.text = std::string_view(start, textLen);
        line.number = m_lineNo;
        line.error = LineError::None;
        line.badOffset = 0;
        if (textLen > m_maxLine) {
            line.text = {};
            line.error = LineError::TooLong;
        } else if (!simdjson::validate_utf8(start, textLen)) {
            line.error = LineError::InvalidUtf8;
            line.badOffset = firstInvalidUtf8(line.text);
        }
        return true;
    }
}

// Drops the over-long line held in the buffer and the rest of it up to the next newline.
void JsonlReader::skipLongLine(Line &line)
{
    ++m_lineNo;
    std::uint64_t dropped = m_end - m_begin;
    m_begin = m_end = 0;
    while (fill()) {
        const char *p = static_cast<const char *>(std::memchr(m_buf.get(), '\n', m_end));
        if (p) {
            const std::size_t n = static_cast<std::size_t>(p - m_buf.get()) + 1;
            dropped += n;
            m_begin = n;
            break;
        }
        dropped += m_end;
        m_begin = m_end = 0;
    }
    m_consumed += dropped;
    line = Line{{}, m_lineNo, LineError::TooLong, 0};
}

std::size_t firstInvalidUtf8(std::string_view text)
{
    const auto *s = reinterpret_cast<const unsigned char *>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char c = s[i];
        std::size_t extra = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + extra >= n)
            return i;
        for (std::size_t k = 1; k <= extra; ++k) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        const bool overlong = (extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += extra + 1;
    }
    return n;
}

} // namespace sieve
