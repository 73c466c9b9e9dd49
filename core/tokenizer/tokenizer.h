#pragma once
// A byte-level BPE tokenizer read from a Hugging Face tokenizer.json, for token budgets at export.
// It reproduces the `tokenizers` library's encode(text, add_special_tokens=False) for the tokenizers
// that GPT-2, Llama 3, Qwen 2 and their kin ship:
//   model       BPE with merges (strings "a b" or pairs), ignore_merges, unk_token/fuse_unk;
//   normalizer  none or NFC (alone or in a Sequence);
//   pre-tokenizer ByteLevel (add_prefix_space, use_regex), Split with one of the known regexes
//               (GPT-2, Llama 3 / cl100k, Qwen 2), Digits, or a Sequence of those ending in ByteLevel;
//   added tokens (special or not; single_word, lstrip, rstrip, normalized).
// Anything else fails at load with an error naming the field: a wrong count must never pass silently.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {

class TokenizerError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

class Tokenizer
{
public:
    // Throws TokenizerError naming the file and the unsupported or malformed field.
    static Tokenizer fromFile(const std::string &path);
    static Tokenizer fromJson(std::string_view json, const std::string &origin = "tokenizer.json");

    Tokenizer(Tokenizer &&) noexcept;
    Tokenizer &operator=(Tokenizer &&) noexcept;
    ~Tokenizer();

    // Token ids of text, as tokenizers' encode(text, add_special_tokens=False).ids.
    std::vector<std::uint32_t> encode(std::string_view text) const;
    // The same count without building the id list. Not thread-safe: both share a word cache.
    std::size_t count(std::string_view text) const;

    // An independent copy (own word cache) for another thread.
    Tokenizer clone() const;

    // "gpt2", "llama3", "qwen2" ...: what the pre-tokenizer was recognised as, for the manifest.
    std::string description() const;
    std::size_t vocabSize() const;

private:
    struct Impl;
    explicit Tokenizer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace sieve
