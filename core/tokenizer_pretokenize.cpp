#include "tokenizer_pretokenize.h"

#include "tokenizer_unicode.h"

#include <array>

namespace sieve::tok {

namespace {

using unicode::classOf;
using unicode::decode;
constexpr std::uint8_t L = unicode::Letter, N = unicode::Number, S = unicode::Space;

const char *const kGpt2 = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
const char *const kLlama3 = R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const char *const kQwen2 = R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// Classes of ASCII, read once: code is mostly ASCII and this path must not leave the function.
const std::array<std::uint8_t, 128> kAscii = [] {
    std::array<std::uint8_t, 128> t{};
    for (char32_t c = 0; c < 128; ++c)
        t[c] = classOf(c);
    return t;
}();

struct Text {
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

bool isOther(std::uint8_t cls) { return (cls & (L | N | S)) == 0; }

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

void splitPattern(SplitPattern p, std::string_view s, std::vector<std::string_view> &out)
{
    const Text t{s};
    for (std::size_t i = 0; i < s.size();) {
        std::size_t end = 0;
        switch (p) {
        case SplitPattern::Gpt2:
            end = matchGpt2(t, i);
            break;
        case SplitPattern::Llama3:
            end = matchLlama3(t, i, 3);
            break;
        case SplitPattern::Qwen2:
            end = matchLlama3(t, i, 1);
            break;
        }
        out.push_back(s.substr(i, end - i));
        i = end;
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
