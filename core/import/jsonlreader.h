#pragma once
// Reads a JSON Lines file one line at a time in constant memory (a buffer that grows only up to the
// line limit). Lines over the limit are skipped to their end and reported, so one bad record cannot
// make an import hold a whole file in memory. Each line is validated as UTF-8.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace sieve {

class JsonlReader
{
public:
    static constexpr std::size_t kMaxLine = std::size_t(16) << 20; // 16 MiB
    // Bytes after each line that may be read (not used): simdjson parses in place with this padding.
    static constexpr std::size_t kPadding = 64;

    enum class LineError { None, TooLong, InvalidUtf8 };
    struct Line
    {
        std::string_view text;    // without the newline (and without a trailing '\r')
        std::uint64_t number = 0; // 1-based
        LineError error = LineError::None;
        std::size_t badOffset = 0; // InvalidUtf8: offset of the first invalid byte in text
    };

    // Throws std::runtime_error naming the file and the system's reason when it cannot be opened.
    explicit JsonlReader(const std::string &path, std::size_t maxLine = kMaxLine);
    ~JsonlReader();
    JsonlReader(const JsonlReader &) = delete;
    JsonlReader &operator=(const JsonlReader &) = delete;

    // Fills `line` with the next line; false at the end of the file. The text stays valid (and is
    // followed by kPadding readable bytes) until the next call. Throws std::runtime_error on a read error.
    bool next(Line &line);

    std::uint64_t bytesConsumed() const { return m_consumed; }
    std::uint64_t fileSize() const { return m_fileSize; }

private:
    bool fill();
    void skipLongLine(Line &line);
    int m_fd = -1;
    std::string m_path;
    std::size_t m_maxLine;
    std::unique_ptr<char[]> m_buf;
    std::size_t m_capacity = 0; // usable bytes; kPadding more are allocated
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    bool m_eof = false;
    std::uint64_t m_lineNo = 0;
    std::uint64_t m_consumed = 0;
    std::uint64_t m_fileSize = 0;
};

// Offset of the first byte that breaks UTF-8 in text, or text.size() when it is valid.
std::size_t firstInvalidUtf8(std::string_view text);

} // namespace sieve
