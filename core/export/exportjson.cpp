#include "core/export/exportjson.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sieve {

namespace {

// Where the next byte at or after i that needs escaping is (a control character, '"' or '\\'), or
// s.size(). SSE2 (every x86-64) looks at 16 bytes per step: code has a newline every ~40 bytes.
std::size_t nextEscape(std::string_view s, std::size_t i)
{
#if defined(__SSE2__)
    const __m128i ctrlMax = _mm_set1_epi8(0x1F), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    for (; i + 16 <= s.size(); i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s.data() + i));
        const __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(v, ctrlMax), ctrlMax),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        if (const int mask = _mm_movemask_epi8(hit))
            return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
#endif
    for (; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == '"' || c == '\\')
            return i;
    }
    return s.size();
}

} // namespace

void OutBuffer::grow(std::size_t need)
{
    const std::size_t capacity = std::max({need, 2 * m_capacity, std::size_t(1) << 16});
    std::unique_ptr<char[]> data(new char[capacity]); // not zeroed: every byte is written before it is read
    if (m_size)
        std::memcpy(data.get(), m_data.get(), m_size);
    m_data = std::move(data);
    m_capacity = capacity;
}

void jsonString(OutBuffer &out, std::initializer_list<std::string_view> parts)
{
    std::size_t worst = 2;
    for (std::string_view s : parts)
        worst += 6 * s.size(); // "\u001f" for a control byte
    char *p = out.room(worst);
    *p++ = '"';
    for (std::string_view s : parts) {
        std::size_t start = 0;
        for (std::size_t i = nextEscape(s, 0); i < s.size(); i = nextEscape(s, i + 1)) {
            const auto c = static_cast<unsigned char>(s[i]);
            std::memcpy(p, s.data() + start, i - start);
            p += i - start;
            *p++ = '\\';
            switch (c) {
            case '"':
                *p++ = '"';
                break;
            case '\\':
                *p++ = '\\';
                break;
            case '\b':
                *p++ = 'b';
                break;
            case '\f':
                *p++ = 'f';
                break;
            case '\n':
                *p++ = 'n';
                break;
            case '\r':
                *p++ = 'r';
                break;
            case '\t':
                *p++ = 't';
                break;
            default: {
                static const char *hex = "0123456789abcdef";
                std::memcpy(p, "u00", 3);
                p += 3;
                *p++ = hex[c >> 4];
                *p++ = hex[c & 15];
            }
            }
            start = i + 1;
        }
        std::memcpy(p, s.data() + start, s.size() - start);
        p += s.size() - start;
    }
    *p++ = '"';
    out.setEnd(p);
}

void optString(OutBuffer &out, const std::optional<std::string> &s)
{
    if (s)
        jsonString(out, *s);
    else
        out += "null";
}

} // namespace sieve
