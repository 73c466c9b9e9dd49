#pragma once
// Hand-written matchers for the pre-tokenizer regexes that byte-level BPE tokenizers ship. A general
// regex engine (std::regex has no \p{..}) would be slower than the BPE itself; these follow the
// leftmost-first alternation of the patterns step by step, with the code point classes read out of
// the tokenizers library (core/tokenizer/unicode.cpp), and are checked against it in test_tokenizer.cpp.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sieve::tok {

enum class SplitPattern {
    Gpt2,   // 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
    Llama3, // (?i:'s|...)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
    Qwen2,  // as Llama3 with \p{N} (one digit per piece)
};

// The pattern a tokenizer.json regex string is, or nullopt when it is none of the known ones.
std::optional<SplitPattern> recognisePattern(std::string_view regex);
const char *patternName(SplitPattern p);
std::string patternRegex(SplitPattern p);

// Appends the pieces of s to out, as Split(pattern, behavior=Isolated): every match and every gap.
void splitPattern(SplitPattern p, std::string_view s, std::vector<std::string_view> &out);
// The same in batches, for callers that need no list: writes the ends of up to `capacity` pieces
// from s[i] on into ends and returns how many (0 only when i == s.size()).
std::size_t splitSome(SplitPattern p, std::string_view s, std::size_t i, std::size_t *ends, std::size_t capacity);
// Digits pre-tokenizer: runs of \p{N} (or single ones when individual) apart from the rest.
void splitDigits(bool individual, std::string_view s, std::vector<std::string_view> &out);

} // namespace sieve::tok
