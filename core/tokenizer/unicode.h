#pragma once
// Unicode data for the tokenizer: the code point classes its pre-tokenizer patterns use (\p{L},
// \p{N}, \s) and NFC. The tables in core/tokenizer/unicode.cpp are generated from the `tokenizers` library
// itself (tests/data/export/gen_unicode_tables.py), so the classes agree with its regex engine.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sieve::tok::unicode {

struct ClassRange
{
    char32_t first;
    char32_t last;
    std::uint8_t flags;
};
struct CccEntry
{
    char32_t cp;
    std::uint8_t ccc;
};
struct DecompEntry
{
    char32_t cp;
    std::uint16_t offset;
    std::uint8_t length;
};
struct ComposeEntry
{
    char32_t first;
    char32_t second;
    char32_t composite;
};
struct Range
{
    char32_t first;
    char32_t last;
};

extern const ClassRange kClassRanges[];
extern const std::size_t kClassRangeCount;
extern const CccEntry kCcc[];
extern const std::size_t kCccCount;
extern const char32_t kDecompData[];
extern const DecompEntry kDecomp[];
extern const std::size_t kDecompCount;
extern const ComposeEntry kCompose[];
extern const std::size_t kComposeCount;
extern const Range kNfcUnstable[];
extern const std::size_t kNfcUnstableCount;

// Word: a word character for single_word added tokens (the library checks them with Rust regex \w).
enum ClassFlag : std::uint8_t { Letter = 1, Number = 2, Space = 4, Word = 8 };

// Flags of a code point (0: none of them).
std::uint8_t classOf(char32_t cp);

// Decodes one code point at s[i], advancing i. Invalid bytes decode to U+FFFD and advance by one,
// which is what a lossy conversion to text would have produced before tokenization.
char32_t decode(std::string_view s, std::size_t &i);
void append(std::string &out, char32_t cp);

// Canonical composition (NFC) of UTF-8 text; text that NFC cannot change is returned unchanged fast.
std::string nfc(std::string_view text);
bool nfcMayChange(std::string_view text);

} // namespace sieve::tok::unicode
