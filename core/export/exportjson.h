#pragma once
// JSON text for the export's rows, written by hand into a byte buffer: strings exactly as nlohmann's
// dump() writes them (UTF-8 kept, control characters, '"' and '\\' escaped), because a DOM per row was
// a fifth of the export's time.
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace sieve {

// Export rows' output: a growable byte buffer written through a pointer. std::string's append per
// escaped piece (~15 million of them for 100,000 rows of code, a newline every ~40 bytes) cost more
// than the copying itself.
class OutBuffer
{
public:
    void clear() { m_size = 0; }
    std::string_view view() const { return {m_data.get(), m_size}; }
    // Room for `n` more bytes; write them at the pointer returned, then setEnd().
    char *room(std::size_t n)
    {
        if (m_size + n > m_capacity)
            grow(m_size + n);
        return m_data.get() + m_size;
    }
    void setEnd(const char *end) { m_size = static_cast<std::size_t>(end - m_data.get()); }
    OutBuffer &operator+=(std::string_view s)
    {
        char *p = room(s.size());
        std::memcpy(p, s.data(), s.size());
        m_size += s.size();
        return *this;
    }

private:
    void grow(std::size_t need);
    std::unique_ptr<char[]> m_data;
    std::size_t m_size = 0, m_capacity = 0;
};

// One JSON string made of the parts one after the other (quotes included).
void jsonString(OutBuffer &out, std::initializer_list<std::string_view> parts);
inline void jsonString(OutBuffer &out, std::string_view s)
{
    jsonString(out, {s});
}
// A JSON string, or null.
void optString(OutBuffer &out, const std::optional<std::string> &s);

} // namespace sieve
