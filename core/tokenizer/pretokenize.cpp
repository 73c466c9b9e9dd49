#include "core/tokenizer/pretokenize.h"

#include "core/tokenizer/unicode.h"

#include <array>
#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sieve::tok {

namespace {

using unicode::classOf;
using unicode::decode;
constexpr std::uint8_t L = unicode::Letter, N = unicode::Number, S = unicode::Space;

const char *const kGpt2 = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
const char *const kLlama3 =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const char *const kQwen2 =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// Classes of ASCII, read once: code is mostly ASCII and this path must not leave the function.
const std::array<std::uint8_t, 128> kAscii = [] {
    std::array<std::uint8_t, 128> t{};
    for (char32_t c = 0; c < 128; ++c)
        t[c] = classOf(c);
    return t;
}();

struct Text
{
    std::string_view s;
    // Code point at i and its class; next receives the index after it.
    char32_t at(std::size_t i, std::size_t &next, std::uint8_t &cls) const
    {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b < 0x80) {
            next = i + 1;
            cls = kAscii[b];
            return b;
        }
        next = i;
        const char32_t c = decode(s, next);
        cls = classOf(c);
        return c;
    }
    // End of the run of code points whose class satisfies pred, starting at i.
    template <typename Pred> std::size_t run(std::size_t i, Pred pred) const
    {
        while (i < s.size()) {
            std::size_t next;
            std::uint8_t cls;
            const char32_t c = at(i, next, cls);
            if (!pred(c, cls))
                break;
            i = next;
        }
        return i;
    }
};

bool isOther(std::uint8_t cls)
{
    return (cls & (L | N | S)) == 0;
}

// Classes of every byte for the ASCII fast path: ASCII bytes carry their code point's class, the
// others only High (a non-ASCII code point starts or continues there: the general path decides).
constexpr std::uint8_t High = 0x80;
const std::array<std::uint8_t, 256> kByte = [] {
    std::array<std::uint8_t, 256> t{};
    for (int b = 0; b < 256; ++b)
        t[b] = b < 128 ? kAscii[b] : High;
    return t;
}();

// End of the run of ASCII letters from j (the first byte that is no ASCII letter, perhaps non-ASCII).
// Runs of letters are most of the text; a byte loop mispredicts its exit once per word, 16 bytes
// compared at once do not.
std::size_t asciiLetters(const unsigned char *p, std::size_t j, std::size_t n)
{
#if defined(__SSE2__)
    while (j + 16 <= n) {
        const __m128i x = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p + j)), _mm_set1_epi8(0x20));
        // Signed compares: bytes >= 0x80 are negative, so never letters.
        const __m128i letter =
            _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('a' - 1)), _mm_cmplt_epi8(x, _mm_set1_epi8('z' + 1)));
        const auto notLetter = static_cast<unsigned>(~_mm_movemask_epi8(letter)) & 0xFFFFu;
        if (notLetter)
            return j + static_cast<std::size_t>(std::countr_zero(notLetter));
        j += 16;
    }
#endif
    while (j < n && (kByte[p[j]] & L))
        ++j;
    return j;
}

// The Llama 3 / Qwen 2 match at i when it can be decided on ASCII alone, else 0 (then the general
// matcher below decides). Most pieces of code are ASCII; the general path decodes UTF-8 per code point.
inline std::size_t asciiLlama3(std::string_view s, std::size_t i, int maxDigits)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const std::size_t n = s.size();
    const unsigned b = p[i];
    const std::uint8_t c = kByte[b];
    if ((c & High) || b == '\'')
        return 0;
    // End of the run of bytes of class `want` from j, or 0 when a non-ASCII byte ends it.
    auto run = [&](std::size_t j, auto member) -> std::size_t {
        while (j < n && member(kByte[p[j]]))
            ++j;
        return j < n && p[j] >= 0x80 ? 0 : j;
    };
    auto letters = [&](std::size_t j) -> std::size_t {
        j = asciiLetters(p, j, n);
        return j < n && p[j] >= 0x80 ? 0 : j;
    };
    auto other = [](std::uint8_t k) { return (k & (L | N | S | High)) == 0; };
    auto newlines = [&](std::size_t j) {
        while (j < n && (p[j] == '\r' || p[j] == '\n'))
            ++j;
        return j;
    };
    if (c & L)
        return letters(i + 1);
    const std::uint8_t c2 = i + 1 < n ? kByte[p[i + 1]] : 0;
    if (c2 & High)
        return 0;
    if (b != '\r' && b != '\n' && !(c & N) && (c2 & L))
        return letters(i + 2);
    if (c & N) {
        std::size_t j = i + 1;
        for (int k = 1; k < maxDigits && j < n; ++k, ++j) {
            if (p[j] >= 0x80)
                return 0;
            if (!(kByte[p[j]] & N))
                break;
        }
        return j;
    }
    if (b == ' ' && i + 1 < n && other(c2)) {
        const std::size_t j = run(i + 2, other);
        return j ? newlines(j) : 0;
    }
    if (other(c)) {
        const std::size_t j = run(i + 1, other);
        return j ? newlines(j) : 0;
    }
    // \s*[\r\n]+ up to the last newline, else \s+(?!\S) (the run less its last space) or \s+.
    std::size_t end = i, afterNewline = 0;
    while (end < n && (kByte[p[end]] & S)) {
        if (p[end] == '\r' || p[end] == '\n')
            afterNewline = end + 1;
        ++end;
    }
    if (end < n && p[end] >= 0x80)
        return 0;
    if (afterNewline)
        return afterNewline;
    if (end == n)
        return end;
    return end - 1 > i ? end - 1 : end;
}

// 's 't 're 've 'm 'll 'd at i (s[i] == '\''); returns the end or 0. Case-insensitive matching also
// takes U+017F (long s), which folds to 's' — found by probing the library.
std::size_t contraction(std::string_view s, std::size_t i, bool caseInsensitive)
{
    const std::size_t j = i + 1;
    if (j >= s.size())
        return 0;
    auto lower = [&](std::size_t k) -> char {
        const char c = s[k];
        return caseInsensitive && c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    const char c1 = lower(j);
    if (c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd')
        return j + 1;
    if (caseInsensitive && j + 1 < s.size() && static_cast<unsigned char>(s[j]) == 0xC5 &&
        static_cast<unsigned char>(s[j + 1]) == 0xBF)
        return j + 2;
    if (j + 1 < s.size()) {
        const char c2 = lower(j + 1);
        if ((c1 == 'r' && c2 == 'e') || (c1 == 'v' && c2 == 'e') || (c1 == 'l' && c2 == 'l'))
            return j + 2;
    }
    return 0;
}

// \s+(?!\S)|\s+ at i (a whitespace code point): the run, less its last code point when more text
// follows and the run is longer than one. With newlines: \s*[\r\n]+ first, up to the last newline.
std::size_t whitespace(const Text &t, std::size_t i, bool newlineRule)
{
    std::size_t end = i, lastStart = i, afterNewline = 0;
    while (end < t.s.size()) {
        std::size_t next;
        std::uint8_t cls;
        const char32_t c = t.at(end, next, cls);
        if (!(cls & S))
            break;
        if (c == '\r' || c == '\n')
            afterNewline = next;
        lastStart = end;
        end = next;
    }
    if (newlineRule && afterNewline != 0)
        return afterNewline;
    if (end == t.s.size())
        return end;
    return lastStart > i ? lastStart : end;
}

std::size_t matchGpt2(const Text &t, std::size_t i)
{
    if (t.s[i] == '\'') {
        if (const std::size_t e = contraction(t.s, i, false))
            return e;
    }
    std::size_t n1, n2 = 0;
    std::uint8_t f1, f2 = 0;
    const char32_t c = t.at(i, n1, f1);
    if (c == ' ' && n1 < t.s.size())
        t.at(n1, n2, f2);
    auto letter = [](char32_t, std::uint8_t cls) { return (cls & L) != 0; };
    auto number = [](char32_t, std::uint8_t cls) { return (cls & N) != 0; };
    auto other = [](char32_t, std::uint8_t cls) { return isOther(cls); };
    if (n2 && (f2 & L))
        return t.run(n2, letter);
    if (f1 & L)
        return t.run(n1, letter);
    if (n2 && (f2 & N))
        return t.run(n2, number);
    if (f1 & N)
        return t.run(n1, number);
    if (n2 && isOther(f2))
        return t.run(n2, other);
    if (isOther(f1))
        return t.run(n1, other);
    return whitespace(t, i, false);
}

std::size_t matchLlama3(const Text &t, std::size_t i, int maxDigits)
{
    if (const std::size_t e = asciiLlama3(t.s, i, maxDigits))
        return e;
    if (t.s[i] == '\'') {
        if (const std::size_t e = contraction(t.s, i, true))
            return e;
    }
    std::size_t n1, n2 = 0;
    std::uint8_t f1, f2 = 0;
    const char32_t c = t.at(i, n1, f1);
    auto letter = [](char32_t, std::uint8_t cls) { return (cls & L) != 0; };
    auto other = [](char32_t, std::uint8_t cls) { return isOther(cls); };
    auto newline = [](char32_t cp, std::uint8_t) { return cp == '\r' || cp == '\n'; };
    if (f1 & L)
        return t.run(n1, letter);
    if (n1 < t.s.size())
        t.at(n1, n2, f2);
    if (c != '\r' && c != '\n' && !(f1 & N) && n2 && (f2 & L))
        return t.run(n2, letter);
    if (f1 & N) {
        std::size_t j = n1;
        for (int k = 1; k < maxDigits && j < t.s.size(); ++k) {
            std::size_t next;
            std::uint8_t cls;
            t.at(j, next, cls);
            if (!(cls & N))
                break;
            j = next;
        }
        return j;
    }
    if (c == ' ' && n2 && isOther(f2))
        return t.run(t.run(n2, other), newline);
    if (isOther(f1))
        return t.run(t.run(n1, other), newline);
    return whitespace(t, i, true);
}

} // namespace

std::optional<SplitPattern> recognisePattern(std::string_view regex)
{
    if (regex == kGpt2)
        return SplitPattern::Gpt2;
    if (regex == kLlama3)
        return SplitPattern::Llama3;
    if (regex == kQwen2)
        return SplitPattern::Qwen2;
    return std::nullopt;
}

const char *patternName(SplitPattern p)
{
    switch (p) {
    case SplitPattern::Gpt2:
        return "gpt2";
    case SplitPattern::Llama3:
        return "llama3";
    case SplitPattern::Qwen2:
        return "qwen2";
    }
    return "?";
}

std::string patternRegex(SplitPattern p)
{
    switch (p) {
    case SplitPattern::Gpt2:
        return kGpt2;
    case SplitPattern::Llama3:
        return kLlama3;
    case SplitPattern::Qwen2:
        return kQwen2;
    }
    return {};
}

std::size_t splitSome(SplitPattern p, std::string_view s, std::size_t i, std::size_t *ends, std::size_t capacity)
{
    const Text t{s};
    std::size_t k = 0;
    auto loop = [&](auto match) {
        for (; k < capacity && i < s.size(); ++k)
            ends[k] = i = match(i);
    };
    switch (p) {
    case SplitPattern::Gpt2:
        loop([&](std::size_t at) { return matchGpt2(t, at); });
        break;
    case SplitPattern::Llama3:
        loop([&](std::size_t at) { return matchLlama3(t, at, 3); });
        break;
    case SplitPattern::Qwen2:
        loop([&](std::size_t at) { return matchLlama3(t, at, 1); });
        break;
    }
    return k;
}

void splitPattern(SplitPattern p, std::string_view s, std::vector<std::string_view> &out)
{
    std::size_t ends[64];
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t k = splitSome(p, s, i, ends, 64);
        for (std::size_t j = 0; j < k; ++j) {
            out.push_back(s.substr(i, ends[j] - i));
            i = ends[j];
        }
    }
}

void splitDigits(bool individual, std::string_view s, std::vector<std::string_view> &out)
{
    std::size_t pieceStart = 0;
    bool inDigits = false;
    for (std::size_t i = 0; i < s.size();) {
        std::size_t next = i;
        const bool digit = (classOf(decode(s, next)) & N) != 0;
        if (i > pieceStart && (digit != inDigits || (digit && individual))) {
            out.push_back(s.substr(pieceStart, i - pieceStart));
            pieceStart = i;
        }
        inDigits = digit;
        i = next;
    }
    if (pieceStart < s.size())
        out.push_back(s.substr(pieceStart));
}

} // namespace sieve::tok
