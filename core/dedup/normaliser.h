#pragma once
// Normalises kernel source for dedup: comments, docstrings and whitespace go; local identifiers are
// renamed v0, v1, ... in order of appearance while API names (tl.*, torch.*, CUDA built-ins, keywords,
// attribute names) stay; numbers are bucketed so that block sizes 512 and 1024 collide; strings become
// STR. Two samples that differ only cosmetically normalise to the same token stream. A second, canonical
// stream inlines single-use temporaries and puts independent statements in a canonical order before
// the renaming (normaliser_restructure.h): samples that also differ by such restructuring get the same
// canonical hash.
#include "core/dedup/normaliser_restructure.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {

enum class CodeLanguage {
    Auto,   // Python when the text looks like Python (import/def/class lines), otherwise CUDA C++
    Python, // Python and Triton; CUDA sources inside string literals (load_inline) are lexed as CUDA
    Cuda,   // CUDA C++
};

struct NormalisedCode
{
    std::vector<std::uint64_t> tokens; // one 64-bit hash per normalised token, in source order
    std::uint64_t canonical = 0;       // hash of the canonical (restructured) token stream
    std::string text;                  // the normalised tokens as text (only when asked for)
    std::string canonicalText;         // the canonical stream as text (only when asked for)
};

// Reusable per thread: keeps its rename table between calls to avoid allocations. Not thread-safe.
class CodeNormaliser
{
public:
    CodeNormaliser();
    // Replaces out's contents. With wantText, out.text holds a readable rendering of the tokens.
    void normalise(std::string_view source, CodeLanguage language, NormalisedCode &out, bool wantText = false);
    NormalisedCode normalise(std::string_view source, CodeLanguage language = CodeLanguage::Auto, bool wantText = true);

    static CodeLanguage detect(std::string_view source);
    // Maps a samples.backend value ("triton", "cuda", ...) to a language hint; Auto when unsure.
    static CodeLanguage fromBackend(std::string_view backend);

private:
    struct State;
    // Open-addressed identifier-hash -> index table, cleared in O(1) by bumping the epoch.
    class NameTable
    {
    public:
        NameTable();
        // The name's index, adding it with the next index when new; `added` tells which.
        std::uint32_t intern(std::uint64_t key, bool &added);
        bool find(std::uint64_t key, std::uint32_t &index) const;
        void clear();
        std::uint32_t size() const { return m_count; }

    private:
        void grow();
        std::vector<std::uint64_t> m_keys;
        std::vector<std::uint32_t> m_vals, m_stamp;
        std::uint32_t m_epoch = 1, m_count = 0;
    };
    enum class Scope { Local, Global };

    void lexPython(std::string_view src, State &st);
    void lexCuda(std::string_view src, State &st);
    // Emits a local identifier, resolved to one of the function's own names (numbered v0, v1, ... once
    // restructured, restarting with each function so that two functions reusing a parameter name stay
    // independent) or a module-level name (g0, g1, ...: kernels, helpers, globals, self.* members,
    // shared by all functions).
    void emitLocal(std::uint64_t identHash, Scope scope, State &st);
    void newFunctionScope(State &st);
    // Numbers the names of m_raw's tokens taken in this order: mixes their hashes into *hash and renders
    // them into text, each when not null.
    void number(const std::vector<std::uint32_t> &order, std::uint64_t *hash, std::string *text);
    // The hash of v<index> or g<index>.
    std::uint64_t nameHash(bool global, std::uint32_t index);

    NameTable m_locals, m_globals;
    NameTable m_cudaFunctions;                  // functions at the top of C++ source (a load_inline string's)
    NameTable m_ids;                            // a dense id per name; a local's key includes its function
    std::vector<std::uint32_t> m_number;        // number(): a name's index, by dense id
    std::vector<std::uint64_t> m_nameHashes[2]; // the hashes of v0, v1, ... and g0, g1, ...
    std::vector<normaliser_restructure::RawToken> m_raw;
    std::vector<std::string_view> m_texts; // per raw token, with wantText
    std::vector<std::uint32_t> m_order;
    normaliser_restructure::Restructurer m_restructurer;
};

namespace normaliser_tokens {
// Hash of a token's normalised text, as stored in NormalisedCode::tokens.
std::uint64_t hashText(std::string_view text);
} // namespace normaliser_tokens

} // namespace sieve
