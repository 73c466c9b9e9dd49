// Code point classes, UTF-8 and NFC for the tokenizer (tables in core/tokenizer/unicode.cpp).
#include "core/tokenizer/unicode.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace sieve::tok::unicode {

namespace {

// Classes of the Basic Multilingual Plane in one flat table: the pre-tokenizer asks for every code
// point of every row, and a binary search per character would dominate the export.
const std::array<std::uint8_t, 0x10000> &bmpTable()
{
    static const std::array<std::uint8_t, 0x10000> table = [] {
        std::array<std::uint8_t, 0x10000> t{};
        for (std::size_t i = 0; i < kClassRangeCount; ++i) {
            const ClassRange &r = kClassRanges[i];
            for (char32_t cp = r.first; cp <= r.last && cp < 0x10000; ++cp)
                t[cp] = r.flags;
        }
        return t;
    }();
    return table;
}

int cccOf(char32_t cp)
{
    const CccEntry *end = kCcc + kCccCount;
    const CccEntry *it = std::lower_bound(kCcc, end, cp, [](const CccEntry &e, char32_t c) { return e.cp < c; });
    return it != end && it->cp == cp ? it->ccc : 0;
}

bool unstable(char32_t cp)
{
    const Range *end = kNfcUnstable + kNfcUnstableCount;
    const Range *it = std::upper_bound(kNfcUnstable, end, cp, [](char32_t c, const Range &r) { return c < r.first; });
    return it != kNfcUnstable && cp <= (it - 1)->last;
}

constexpr char32_t SBase = 0xAC00, LBase = 0x1100, VBase = 0x1161, TBase = 0x11A7;
constexpr char32_t LCount = 19, VCount = 21, TCount = 28, NCount = VCount * TCount, SCount = LCount * NCount;

void decompose(char32_t cp, std::vector<char32_t> &out)
{
    if (cp >= SBase && cp < SBase + SCount) {
        const char32_t s = cp - SBase;
        out.push_back(LBase + s / NCount);
        out.push_back(VBase + (s % NCount) / TCount);
        if (s % TCount != 0)
            out.push_back(TBase + s % TCount);
        return;
    }
    const DecompEntry *end = kDecomp + kDecompCount;
    const DecompEntry *it =
        std::lower_bound(kDecomp, end, cp, [](const DecompEntry &e, char32_t c) { return e.cp < c; });
    if (it == end || it->cp != cp) {
        out.push_back(cp);
        return;
    }
    for (int k = 0; k < it->length; ++k)
        decompose(kDecompData[it->offset + k], out);
}

char32_t compose(char32_t a, char32_t b)
{
    if (a >= LBase && a < LBase + LCount && b >= VBase && b < VBase + VCount)
        return SBase + ((a - LBase) * VCount + (b - VBase)) * TCount;
    if (a >= SBase && a < SBase + SCount && (a - SBase) % TCount == 0 && b > TBase && b < TBase + TCount)
        return a + (b - TBase);
    const ComposeEntry *end = kCompose + kComposeCount;
    const ComposeEntry *it = std::lower_bound(kCompose, end, std::pair(a, b), [](const ComposeEntry &e, auto key) {
        return e.first < key.first || (e.first == key.first && e.second < key.second);
    });
    return it != end && it->first == a && it->second == b ? it->composite : 0;
}

} // namespace

std::uint8_t classOf(char32_t cp)
{
    if (cp < 0x10000)
        return bmpTable()[cp];
    const ClassRange *end = kClassRanges + kClassRangeCount;
    const ClassRange *it =
        std::upper_bound(kClassRanges, end, cp, [](char32_t c, const ClassRange &r) { return c < r.first; });
    return it != kClassRanges && cp <= (it - 1)->last ? (it - 1)->flags : 0;
}

char32_t decode(std::string_view s, std::size_t &i)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        ++i;
        return b0;
    }
    auto cont = [&](std::size_t k) {
        return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    };
    auto at = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + k]) & 0x3F); };
    if (b0 >= 0xC2 && b0 < 0xE0 && cont(1)) {
        const char32_t cp = ((b0 & 0x1Fu) << 6) | at(1);
        i += 2;
        return cp;
    }
    if (b0 >= 0xE0 && b0 < 0xF0 && cont(1) && cont(2)) {
        const char32_t cp = ((b0 & 0x0Fu) << 12) | (at(1) << 6) | at(2);
        if (cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF)) {
            i += 3;
            return cp;
        }
    }
    if (b0 >= 0xF0 && b0 < 0xF5 && cont(1) && cont(2) && cont(3)) {
        const char32_t cp = ((b0 & 0x07u) << 18) | (at(1) << 12) | (at(2) << 6) | at(3);
        if (cp >= 0x10000 && cp < 0x110000) {
            i += 4;
            return cp;
        }
    }
    ++i;
    return 0xFFFD;
}

void append(std::string &out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

bool nfcMayChange(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        // Eight ASCII bytes at a time (the scan is at a code point boundary here).
        std::uint64_t word;
        while (i + 8 <= text.size() && (std::memcpy(&word, text.data() + i, 8), (word & 0x8080808080808080ull) == 0))
            i += 8;
        if (i >= text.size())
            break;
        // Everything below U+0300 is stable under NFC (no combining marks, no decompositions that
        // recompose differently), which covers code and English prose without a table look-up.
        if (static_cast<unsigned char>(text[i]) < 0xCC) {
            const auto b = static_cast<unsigned char>(text[i]);
            i += (b >= 0xC2 && b < 0xCC) ? 2 : 1;
            continue;
        }
        if (unstable(decode(text, i)))
            return true;
    }
    return false;
}

std::string nfc(std::string_view text)
{
    if (!nfcMayChange(text))
        return std::string(text);
    std::vector<char32_t> d;
    d.reserve(text.size());
    for (std::size_t i = 0; i < text.size();)
        decompose(decode(text, i), d);
    // Canonical ordering: stable sort of each run of non-starters by combining class.
    for (std::size_t i = 0; i < d.size();) {
        if (cccOf(d[i]) == 0) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < d.size() && cccOf(d[j]) != 0)
            ++j;
        std::stable_sort(d.begin() + static_cast<std::ptrdiff_t>(i), d.begin() + static_cast<std::ptrdiff_t>(j),
                         [](char32_t a, char32_t b) { return cccOf(a) < cccOf(b); });
        i = j;
    }
    // Canonical composition (UAX #15).
    std::vector<char32_t> out;
    out.reserve(d.size());
    std::size_t starterPos = 0;
    int lastClass = -1;
    for (char32_t ch : d) {
        const int chClass = cccOf(ch);
        if (out.empty()) {
            out.push_back(ch);
            lastClass = chClass == 0 ? 0 : 256;
            starterPos = 0;
            continue;
        }
        const char32_t composite = compose(out[starterPos], ch);
        if (composite != 0 && (lastClass < chClass || lastClass == 0)) {
            out[starterPos] = composite;
            continue;
        }
        if (chClass == 0)
            starterPos = out.size();
        lastClass = chClass;
        out.push_back(ch);
    }
    std::string result;
    result.reserve(text.size());
    for (char32_t cp : out)
        append(result, cp);
    return result;
}

} // namespace sieve::tok::unicode
