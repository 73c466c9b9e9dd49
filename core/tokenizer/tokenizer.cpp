#include "core/tokenizer/tokenizer.h"

#include "core/tokenizer/pretokenize.h"
#include "core/tokenizer/unicode.h"

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <optional>
#include <queue>
#include <sstream>
#include <unordered_map>

namespace sieve {

namespace {

using json = nlohmann::json;

struct StringHash
{
    using is_transparent = void;
    // XXH3 is several times faster than std::hash on the short pieces the word cache sees.
    std::size_t operator()(std::string_view s) const { return XXH3_64bits(s.data(), s.size()); }
};
template <typename V> using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

// GPT-2's reversible map from bytes to printable code points, which byte-level vocabularies are
// written in.
std::array<char32_t, 256> bytesToUnicode()
{
    std::array<char32_t, 256> map{};
    std::array<bool, 256> direct{};
    for (int b = '!'; b <= '~'; ++b)
        direct[b] = true;
    for (int b = 0xA1; b <= 0xAC; ++b)
        direct[b] = true;
    for (int b = 0xAE; b <= 0xFF; ++b)
        direct[b] = true;
    char32_t n = 0;
    for (int b = 0; b < 256; ++b)
        map[b] = direct[b] ? static_cast<char32_t>(b) : 256 + n++;
    return map;
}

struct PreStep
{
    enum Kind { Split, Digits, ByteLevel } kind;
    tok::SplitPattern pattern = tok::SplitPattern::Gpt2;
    bool individualDigits = false;
    bool addPrefixSpace = false;
    bool useRegex = false;
};

struct AddedToken
{
    std::string content;
    std::uint32_t id = 0;
    bool singleWord = false, lstrip = false, rstrip = false, normalized = false;
};

// Merge rules (a, b) -> (rank, merged id) in one flat open-addressing table: looked up for every
// adjacent pair of every word the cache has not seen, where std::unordered_map's node chasing showed.
class MergeTable
{
public:
    struct Rule
    {
        std::uint32_t rank, id;
    };
    void insertOrAssign(std::uint32_t a, std::uint32_t b, Rule rule)
    {
        if ((m_count + 1) * 2 > m_slots.size())
            grow();
        Slot &s = m_slots[find(key(a, b))];
        if (s.key == kEmpty)
            ++m_count;
        s = {key(a, b), rule};
    }
    const Rule *find(std::uint32_t a, std::uint32_t b) const
    {
        if (m_slots.empty())
            return nullptr;
        const Slot &s = m_slots[find(key(a, b))];
        return s.key == kEmpty ? nullptr : &s.rule;
    }
    std::size_t size() const { return m_count; }

private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t(0); // ids are below 2^32 - 1
    struct Slot
    {
        std::uint64_t key = kEmpty;
        Rule rule{};
    };
    static std::uint64_t key(std::uint32_t a, std::uint32_t b) { return (std::uint64_t(a) << 32) | b; }
    std::size_t find(std::uint64_t k) const
    {
        const std::size_t mask = m_slots.size() - 1;
        std::size_t i = static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> 32) & mask;
        while (m_slots[i].key != kEmpty && m_slots[i].key != k)
            i = (i + 1) & mask;
        return i;
    }
    void grow()
    {
        std::vector<Slot> old = std::move(m_slots);
        m_slots.assign(std::max<std::size_t>(64, old.size() * 2), Slot{});
        for (const Slot &s : old)
            if (s.key != kEmpty)
                m_slots[find(s.key)] = s;
    }
    std::vector<Slot> m_slots;
    std::size_t m_count = 0;
};

// Word cache for pieces of up to 15 bytes (nearly all of them). The key is the piece's bytes in two
// zero-padded words with the length in the last byte, compared without memcmp and hashed with two
// multiplies; the slot keeps the token count in that byte's high nibble. 4-way set-associative, a set
// being one 64-byte cache line, with a first-in-first-out victim per set, so a stream of one-off
// pieces evicts old ones a set at a time instead of the whole cache being cleared.
class ShortWordCache
{
public:
    static constexpr std::size_t kMaxBytes = 15;
    struct Key
    {
        std::uint64_t lo, hi; // bytes 0-7; bytes 8-14 and the length in the top byte
    };
    // The key of a piece of 1 to kMaxBytes bytes; bufferEnd (>= the piece's end) says how far past
    // the piece reading is allowed.
    static Key keyOf(std::string_view piece, const char *bufferEnd)
    {
        Key k{0, 0};
        const std::size_t len = piece.size();
        if constexpr (std::endian::native == std::endian::little) {
            if (bufferEnd - piece.data() >= 16) {
                // One unaligned 16-byte load, then the bytes past the piece are masked off.
                // Branch-free: piece lengths vary from one piece to the next, a branch on them
                // would mispredict.
                std::memcpy(&k.lo, piece.data(), 8);
                std::memcpy(&k.hi, piece.data() + 8, 8);
                const std::size_t loBytes = std::min<std::size_t>(len, 8),
                                  hiBytes = len - loBytes; // 1..8, 0..7
                k.lo &= ~std::uint64_t(0) >> (64 - 8 * loBytes);
                k.hi &= (std::uint64_t(1) << (8 * hiBytes)) - 1;
                k.hi |= std::uint64_t(len) << 56;
                return k;
            }
            // Near the buffer's end: loads that stay inside the piece, overlapping where it is short
            // (not bytes stored one by one and read back as words, which stalls store forwarding).
            const auto *p = reinterpret_cast<const unsigned char *>(piece.data());
            auto load = [](const unsigned char *at, std::size_t bytes) {
                std::uint64_t v = 0;
                std::memcpy(&v, at, bytes);
                return v;
            };
            if (len >= 8) {
                k.lo = load(p, 8);
                k.hi = len > 8 ? load(p + len - 8, 8) >> (8 * (16 - len)) : 0;
            } else if (len >= 4) {
                k.lo = load(p, 4) | (load(p + len - 4, 4) << (8 * (len - 4)));
            } else {
                k.lo = std::uint64_t(p[0]) | (std::uint64_t(p[len / 2]) << (8 * (len / 2))) |
                       (std::uint64_t(p[len - 1]) << (8 * (len - 1)));
            }
            k.hi |= std::uint64_t(len) << 56;
            return k;
        }
        unsigned char bytes[16] = {};
        std::memcpy(bytes, piece.data(), len);
        bytes[15] = static_cast<unsigned char>(len);
        std::memcpy(&k.lo, bytes, 8);
        std::memcpy(&k.hi, bytes + 8, 8);
        return k;
    }
    ShortWordCache() : m_sets(kSets), m_ids(kSets * kWays * kIdStride), m_victim(kSets) {}
    static std::size_t setOf(const Key &k)
    {
        const std::uint64_t h = (k.lo ^ (k.hi * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
        return static_cast<std::size_t>(h >> (64 - kSetBits));
    }
    // Ids and their number, or nullptr when the piece is not cached.
    const std::uint32_t *find(const Key &k, std::size_t &n) const { return find(k, setOf(k), n); }
    const std::uint32_t *find(const Key &k, std::size_t set, std::size_t &n) const
    {
        const Set &s = m_sets[set];
        for (std::size_t w = 0; w < kWays; ++w) {
            if (s.lo[w] == k.lo && (s.hi[w] & kKeyBits) == k.hi) {
                n = static_cast<std::size_t>(s.hi[w] >> kCountShift);
                return &m_ids[(set * kWays + w) * kIdStride];
            }
        }
        return nullptr;
    }
    // ids.size() <= kMaxBytes: a byte-level piece has at most one token per byte.
    const std::uint32_t *insert(const Key &k, const std::vector<std::uint32_t> &ids)
    {
        const std::size_t set = setOf(k);
        Set &s = m_sets[set];
        std::size_t w = 0;
        while (w < kWays && s.hi[w] != 0) // an empty way: a key always has its length set
            ++w;
        if (w == kWays) {
            w = m_victim[set];
            m_victim[set] = static_cast<std::uint8_t>((w + 1) % kWays);
        }
        s.lo[w] = k.lo;
        s.hi[w] = k.hi | (std::uint64_t(ids.size()) << kCountShift);
        const std::size_t slot = set * kWays + w;
        std::copy(ids.begin(), ids.end(), m_ids.begin() + static_cast<std::ptrdiff_t>(slot * kIdStride));
        return &m_ids[slot * kIdStride];
    }

private:
    static constexpr std::size_t kWays = 4, kSetBits = 12, kSets = std::size_t(1) << kSetBits, kIdStride = 16;
    // The length (1..15) takes the top byte's low nibble, the count (<= 15) its high one.
    static constexpr int kCountShift = 60;
    static constexpr std::uint64_t kKeyBits = ~(std::uint64_t(0xF) << kCountShift);
    struct alignas(64) Set
    {
        std::uint64_t lo[kWays] = {}, hi[kWays] = {};
    };
    std::vector<Set> m_sets;
    std::vector<std::uint32_t> m_ids;
    std::vector<std::uint8_t> m_victim;
};

// Vocabulary entries of up to ShortWordCache::kMaxBytes bytes by their cache key, for ignore_merges:
// a piece the cache misses is first looked up whole, with the key already computed.
class ShortVocab
{
public:
    using Key = ShortWordCache::Key;
    void build(const std::vector<std::pair<std::string_view, std::uint32_t>> &entries)
    {
        m_keys.assign(std::bit_ceil(std::max<std::size_t>(16, entries.size() * 2)), Key{0, 0});
        m_ids.assign(m_keys.size(), 0);
        for (const auto &[bytes, id] : entries) {
            const Key k = ShortWordCache::keyOf(bytes, bytes.data() + bytes.size());
            const std::size_t i = slotOf(k);
            m_keys[i] = k;
            m_ids[i] = id;
        }
    }
    std::optional<std::uint32_t> find(const Key &k) const
    {
        if (m_keys.empty())
            return std::nullopt;
        const std::size_t i = slotOf(k);
        return m_keys[i].hi != 0 ? std::optional(m_ids[i]) : std::nullopt;
    }

private:
    // The key's slot, or the empty one where it would go (a key's hi holds its length: never 0).
    std::size_t slotOf(const Key &k) const
    {
        const std::size_t mask = m_keys.size() - 1;
        std::size_t i =
            static_cast<std::size_t>(((k.lo ^ (k.hi * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull) >> 40) & mask;
        while (m_keys[i].hi != 0 && (m_keys[i].lo != k.lo || m_keys[i].hi != k.hi))
            i = (i + 1) & mask;
        return i;
    }
    std::vector<Key> m_keys;
    std::vector<std::uint32_t> m_ids;
};

// Words of up to this many symbols merge by scanning their pairs (mergeShort), longer ones with a heap.
constexpr std::size_t kShortWord = 32;

struct Merge
{
    std::uint32_t rank;
    std::uint32_t pos;
    std::uint32_t newId;
    bool operator<(const Merge &o) const // max-heap order: lowest rank, then leftmost, on top
    {
        return rank != o.rank ? rank > o.rank : pos > o.pos;
    }
};

struct Symbol
{
    std::uint32_t id;
    std::int32_t prev, next;
    bool removed;
};

class Fail
{
public:
    explicit Fail(std::string origin) : m_origin(std::move(origin)) {}
    [[noreturn]] void operator()(const std::string &field, const std::string &what) const
    {
        throw TokenizerError(m_origin + ": " + field + ": " + what);
    }

private:
    std::string m_origin;
};

std::string typeOf(const json &j)
{
    return j.is_object() && j.contains("type") ? j["type"].get<std::string>() : "";
}

bool flag(const json &j, const char *key, bool fallback = false)
{
    return j.contains(key) && j[key].is_boolean() ? j[key].get<bool>() : fallback;
}

} // namespace

struct Tokenizer::Impl
{
    std::string origin;
    StringMap<std::uint32_t> vocab; // raw bytes -> id
    MergeTable merges;
    ShortVocab shortVocab; // built for ignore_merges only
    std::array<std::int64_t, 256> byteId{};
    bool ignoreMerges = false;
    std::optional<std::uint32_t> unkId;
    bool fuseUnk = false;
    bool nfc = false;
    std::vector<PreStep> steps;
    std::vector<AddedToken> rawTokens, normalizedTokens; // matched before / after normalization
    std::array<bool, 256> rawFirst{}, normalizedFirst{}; // bytes that start an added token
    int rawOnlyFirst = -1, normalizedOnlyFirst = -1;     // the one byte all of them start with, else -1
    std::string description;
    // The common shapes [Split(pattern), ByteLevel(no regex)] and [ByteLevel(GPT-2 regex)], neither
    // adding a prefix space: one pattern split, with no lists of pieces built.
    std::optional<tok::SplitPattern> singleSplit;

    // Word caches: short pieces in a set-associative table; longer ones by their bytes -> ids in
    // longPool, bounded and cleared when full (they are rare: long identifiers, runs of spaces).
    mutable ShortWordCache shortCache;
    mutable StringMap<std::pair<std::uint32_t, std::uint32_t>> longCache;
    mutable std::vector<std::uint32_t> longPool;
    mutable std::vector<Symbol> symbols;
    mutable std::vector<Merge> heap;
    mutable std::vector<std::uint32_t> scratch;

    void load(const json &j, const Fail &fail);
    void loadModel(const json &m, const Fail &fail);
    void loadPreTokenizer(const json &p, const std::string &field, const Fail &fail);

    template <typename Sink> void encode(std::string_view text, Sink &&sink) const;
    template <typename Sink>
    void splitAdded(std::string_view text, const std::vector<AddedToken> &tokens, const std::array<bool, 256> &first,
                    int onlyFirst, Sink &&sink) const;
    template <typename Sink> void preTokenize(std::string_view text, Sink &&sink) const;
    std::pair<const std::uint32_t *, std::size_t> bpe(std::string_view piece, const char *bufferEnd) const;
    std::pair<const std::uint32_t *, std::size_t> bpeUncached(std::string_view piece,
                                                              const ShortWordCache::Key &key) const;
    template <typename Sink> void splitAndMerge(std::string_view segment, tok::SplitPattern pattern, Sink &&sink) const;
    void mergeWord(std::string_view piece, std::vector<std::uint32_t> &out) const;
    void appendBytes(std::string_view piece, std::vector<std::uint32_t> &out) const;
    void mergeShort(std::vector<std::uint32_t> &ids) const;
    void mergeLong(std::vector<std::uint32_t> &out) const;
};

void Tokenizer::Impl::load(const json &j, const Fail &fail)
{
    if (!j.is_object())
        fail("(root)", "not a JSON object");
    if (!j.contains("model") || !j["model"].is_object())
        fail("model", "missing");
    loadModel(j["model"], fail);

    const json norm = j.value("normalizer", json());
    if (!norm.is_null()) {
        std::vector<json> parts;
        if (typeOf(norm) == "Sequence") {
            for (const json &n : norm.value("normalizers", json::array()))
                parts.push_back(n);
        } else {
            parts.push_back(norm);
        }
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const std::string t = typeOf(parts[i]);
            if (t == "NFC")
                nfc = true;
            else
                fail(typeOf(norm) == "Sequence" ? "normalizer.normalizers[" + std::to_string(i) + "].type"
                                                : std::string("normalizer.type"),
                     "'" + t + "' is not supported (only NFC or none)");
        }
    }

    const json pre = j.value("pre_tokenizer", json());
    if (pre.is_null())
        fail("pre_tokenizer", "missing; only byte-level BPE (a ByteLevel pre-tokenizer) is supported");
    loadPreTokenizer(pre, "pre_tokenizer", fail);
    if (steps.empty() || steps.back().kind != PreStep::ByteLevel)
        fail("pre_tokenizer", "must end with a ByteLevel step (only byte-level BPE is supported)");
    for (std::size_t i = 0; i + 1 < steps.size(); ++i)
        if (steps[i].kind == PreStep::ByteLevel)
            fail("pre_tokenizer", "a ByteLevel step before another step is not supported");
    const PreStep &last = steps.back();
    if (!last.addPrefixSpace && steps.size() == 2 && steps[0].kind == PreStep::Split && !last.useRegex)
        singleSplit = steps[0].pattern;
    if (!last.addPrefixSpace && steps.size() == 1 && last.useRegex)
        singleSplit = tok::SplitPattern::Gpt2;

    for (const json &t : j.value("added_tokens", json::array())) {
        AddedToken a;
        a.content = t.at("content").get<std::string>();
        a.id = t.at("id").get<std::uint32_t>();
        a.singleWord = flag(t, "single_word");
        a.lstrip = flag(t, "lstrip");
        a.rstrip = flag(t, "rstrip");
        a.normalized = flag(t, "normalized", !flag(t, "special"));
        if (a.content.empty())
            continue;
        (a.normalized ? normalizedTokens : rawTokens).push_back(std::move(a));
    }
    for (const AddedToken &t : rawTokens)
        rawFirst[static_cast<unsigned char>(t.content[0])] = true;
    for (const AddedToken &t : normalizedTokens)
        normalizedFirst[static_cast<unsigned char>(t.content[0])] = true;
    auto onlyFirst = [](const std::array<bool, 256> &first) {
        int only = -1;
        for (int b = 0; b < 256; ++b)
            if (first[b])
                only = only == -1 ? b : -2;
        return std::max(only, -1);
    };
    rawOnlyFirst = onlyFirst(rawFirst);
    normalizedOnlyFirst = onlyFirst(normalizedFirst);
    // Leftmost-longest matching: at one position the longest token wins.
    for (auto *list : {&rawTokens, &normalizedTokens})
        std::stable_sort(list->begin(), list->end(),
                         [](const AddedToken &a, const AddedToken &b) { return a.content.size() > b.content.size(); });

    std::ostringstream d;
    d << "BPE (" << vocab.size() << " tokens, " << merges.size() << " merges), normalizer " << (nfc ? "NFC" : "none")
      << ", pre-tokenizer";
    for (const PreStep &s : steps) {
        if (s.kind == PreStep::Split)
            d << " Split(" << tok::patternName(s.pattern) << ")";
        else if (s.kind == PreStep::Digits)
            d << " Digits(" << (s.individualDigits ? "individual" : "runs") << ")";
        else
            d << " ByteLevel(" << (s.useRegex ? "gpt2 regex" : "no regex") << (s.addPrefixSpace ? ", prefix space" : "")
              << ")";
    }
    d << ", " << rawTokens.size() + normalizedTokens.size() << " added tokens";
    description = d.str();
}

void Tokenizer::Impl::loadModel(const json &m, const Fail &fail)
{
    const std::string type = m.value("type", std::string("BPE"));
    if (type != "BPE")
        fail("model.type", "'" + type + "' is not supported (only BPE)");
    if (m.contains("dropout") && !m["dropout"].is_null() && m["dropout"].get<double>() != 0.0)
        fail("model.dropout", "BPE dropout makes counts random; not supported");
    for (const char *key : {"continuing_subword_prefix", "end_of_word_suffix"})
        if (m.contains(key) && !m[key].is_null() && !m[key].get<std::string>().empty())
            fail(std::string("model.") + key, "not supported for byte-level BPE");
    if (flag(m, "byte_fallback"))
        fail("model.byte_fallback",
             "not supported here (byte-level BPE needs no byte fallback); export --chat-template counts "
             "such tokenizers (Llama 2, Mistral, Gemma) with the tokenizers library");
    ignoreMerges = flag(m, "ignore_merges");
    fuseUnk = flag(m, "fuse_unk");

    const auto b2u = bytesToUnicode();
    std::unordered_map<char32_t, unsigned char> u2b;
    for (int b = 0; b < 256; ++b)
        u2b[b2u[b]] = static_cast<unsigned char>(b);
    // Vocabulary strings are byte-mapped; keep them as the raw bytes they stand for.
    auto toRaw = [&](std::string_view token, std::string &raw) {
        raw.clear();
        for (std::size_t i = 0; i < token.size();) {
            const auto it = u2b.find(tok::unicode::decode(token, i));
            if (it == u2b.end())
                return false;
            raw += static_cast<char>(it->second);
        }
        return true;
    };
    if (!m.contains("vocab") || !m["vocab"].is_object())
        fail("model.vocab", "missing or not an object");
    std::string raw;
    std::unordered_map<std::string, std::uint32_t> mapped;
    for (auto it = m["vocab"].begin(); it != m["vocab"].end(); ++it) {
        const auto id = it.value().get<std::uint32_t>();
        mapped.emplace(it.key(), id);
        if (toRaw(it.key(), raw))
            vocab.emplace(raw, id);
    }
    if (ignoreMerges) {
        std::vector<std::pair<std::string_view, std::uint32_t>> entries;
        for (const auto &[bytes, id] : vocab)
            if (!bytes.empty() && bytes.size() <= ShortWordCache::kMaxBytes)
                entries.emplace_back(bytes, id);
        shortVocab.build(entries);
    }
    byteId.fill(-1);
    for (int b = 0; b < 256; ++b) {
        const auto it = vocab.find(std::string(1, static_cast<char>(b)));
        if (it != vocab.end())
            byteId[b] = it->second;
    }
    if (m.contains("unk_token") && m["unk_token"].is_string()) {
        const auto it = mapped.find(m["unk_token"].get<std::string>());
        if (it == mapped.end())
            fail("model.unk_token", "not in the vocabulary");
        unkId = it->second;
    }
    if (!m.contains("merges") || !m["merges"].is_array())
        fail("model.merges", "missing or not an array");
    std::uint32_t rank = 0;
    for (const json &e : m["merges"]) {
        std::string a, b;
        if (e.is_string()) {
            const std::string s = e.get<std::string>();
            const auto space = s.find(' ');
            if (space == std::string::npos || s.find(' ', space + 1) != std::string::npos)
                fail("model.merges[" + std::to_string(rank) + "]", "'" + s + "' is not two tokens");
            a = s.substr(0, space);
            b = s.substr(space + 1);
        } else if (e.is_array() && e.size() == 2) {
            a = e[0].get<std::string>();
            b = e[1].get<std::string>();
        } else {
            fail("model.merges[" + std::to_string(rank) + "]", "neither \"a b\" nor [a, b]");
        }
        const auto ia = mapped.find(a), ib = mapped.find(b), ic = mapped.find(a + b);
        if (ia == mapped.end() || ib == mapped.end() || ic == mapped.end())
            fail("model.merges[" + std::to_string(rank) + "]",
                 "'" + a + " " + b + "' uses a token not in the vocabulary");
        // A later duplicate overwrites an earlier one, as in the library's merge map.
        merges.insertOrAssign(ia->second, ib->second, {rank, ic->second});
        ++rank;
    }
}

void Tokenizer::Impl::loadPreTokenizer(const json &p, const std::string &field, const Fail &fail)
{
    const std::string type = typeOf(p);
    if (type == "Sequence") {
        const json list = p.value("pretokenizers", json::array());
        for (std::size_t i = 0; i < list.size(); ++i)
            loadPreTokenizer(list[i], field + ".pretokenizers[" + std::to_string(i) + "]", fail);
    } else if (type == "ByteLevel") {
        PreStep s{PreStep::ByteLevel};
        s.addPrefixSpace = flag(p, "add_prefix_space", true); // the library's default
        s.useRegex = flag(p, "use_regex", true);
        steps.push_back(s);
    } else if (type == "Split") {
        PreStep s{PreStep::Split};
        const json pat = p.value("pattern", json());
        if (!pat.is_object() || !pat.contains("Regex"))
            fail(field + ".pattern", "only {\"Regex\": ...} patterns are supported");
        const std::string regex = pat["Regex"].get<std::string>();
        const auto known = tok::recognisePattern(regex);
        if (!known)
            fail(field + ".pattern.Regex",
                 "'" + regex + "' is not a supported pattern (supported: the GPT-2, Llama 3 and Qwen 2 patterns)");
        s.pattern = *known;
        const std::string behavior = p.value("behavior", std::string("Isolated"));
        if (behavior != "Isolated")
            fail(field + ".behavior", "'" + behavior + "' is not supported (only Isolated)");
        if (flag(p, "invert"))
            fail(field + ".invert", "true is not supported");
        steps.push_back(s);
    } else if (type == "Digits") {
        PreStep s{PreStep::Digits};
        s.individualDigits = flag(p, "individual_digits");
        steps.push_back(s);
    } else {
        fail(field + ".type", "'" + type + "' is not supported (supported: ByteLevel, Split, Digits, Sequence)");
    }
}

template <typename Sink>
void Tokenizer::Impl::splitAdded(std::string_view text, const std::vector<AddedToken> &tokens,
                                 const std::array<bool, 256> &first, int onlyFirst, Sink &&sink) const
{
    if (tokens.empty()) {
        sink(text, nullptr);
        return;
    }
    auto isSpace = [](char32_t c) { return (tok::unicode::classOf(c) & tok::unicode::Space) != 0; };
    auto isWord = [](char32_t c) { return (tok::unicode::classOf(c) & tok::unicode::Word) != 0; };
    std::size_t offset = 0; // end of the last emitted part
    std::size_t pos = 0;
    while (pos < text.size()) {
        // Most text holds no added token: skip bytes that start none (memchr when all start alike).
        if (onlyFirst >= 0) {
            const void *hitByte = std::memchr(text.data() + pos, onlyFirst, text.size() - pos);
            pos = hitByte ? static_cast<std::size_t>(static_cast<const char *>(hitByte) - text.data()) : text.size();
        }
        while (pos < text.size() && !first[static_cast<unsigned char>(text[pos])])
            ++pos;
        if (pos >= text.size())
            break;
        const AddedToken *hit = nullptr;
        for (const AddedToken &t : tokens)
            if (text.compare(pos, t.content.size(), t.content) == 0) {
                hit = &t;
                break;
            }
        if (!hit) {
            ++pos;
            continue;
        }
        std::size_t start = pos, stop = pos + hit->content.size();
        pos = stop;
        if (hit->singleWord) {
            bool before = false, after = false;
            if (start > 0) {
                std::size_t k = start - 1;
                while (k > 0 && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80)
                    --k;
                std::size_t kk = k;
                before = isWord(tok::unicode::decode(text, kk));
            }
            if (stop < text.size()) {
                std::size_t kk = stop;
                after = isWord(tok::unicode::decode(text, kk));
            }
            if (before || after)
                continue;
        }
        if (hit->lstrip) {
            while (start > offset) {
                std::size_t k = start - 1;
                while (k > offset && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80)
                    --k;
                std::size_t kk = k;
                if (!isSpace(tok::unicode::decode(text, kk)))
                    break;
                start = k;
            }
        }
        if (hit->rstrip) {
            while (stop < text.size()) {
                std::size_t kk = stop;
                if (!isSpace(tok::unicode::decode(text, kk)))
                    break;
                stop = kk;
            }
            pos = stop;
        }
        if (start > offset)
            sink(text.substr(offset, start - offset), nullptr);
        sink(std::string_view(), hit);
        offset = stop;
    }
    if (offset < text.size())
        sink(text.substr(offset), nullptr);
}

template <typename Sink> void Tokenizer::Impl::preTokenize(std::string_view text, Sink &&sink) const
{
    std::vector<std::string_view> pieces{text}, next;
    std::deque<std::string> prefixed;
    for (const PreStep &s : steps) {
        next.clear();
        for (std::string_view piece : pieces) {
            switch (s.kind) {
            case PreStep::Split:
                tok::splitPattern(s.pattern, piece, next);
                break;
            case PreStep::Digits:
                tok::splitDigits(s.individualDigits, piece, next);
                break;
            case PreStep::ByteLevel:
                if (s.addPrefixSpace && (piece.empty() || piece[0] != ' ')) {
                    prefixed.push_back(" " + std::string(piece));
                    piece = prefixed.back();
                }
                if (s.useRegex)
                    tok::splitPattern(tok::SplitPattern::Gpt2, piece, next);
                else
                    next.push_back(piece);
                break;
            }
        }
        pieces.swap(next);
    }
    // A piece inside `text` may be read up to text's end; one in `prefixed` only up to its own.
    const std::less<const char *> before;
    for (std::string_view piece : pieces)
        if (!piece.empty()) {
            const bool inText = !before(piece.data(), text.data()) && !before(text.data() + text.size(), piece.data());
            sink(piece, inText ? text.data() + text.size() : piece.data() + piece.size());
        }
}

void Tokenizer::Impl::mergeWord(std::string_view piece, std::vector<std::uint32_t> &out) const
{
    // Every byte has a token in byte-level vocabularies; unk_token handles the others below.
    out.resize(piece.size());
    std::size_t i = 0;
    for (; i < piece.size() && byteId[static_cast<unsigned char>(piece[i])] >= 0; ++i)
        out[i] = static_cast<std::uint32_t>(byteId[static_cast<unsigned char>(piece[i])]);
    if (i < piece.size()) {
        out.clear();
        appendBytes(piece, out);
    }
    if (out.size() <= kShortWord)
        mergeShort(out);
    else
        mergeLong(out);
}

void Tokenizer::Impl::appendBytes(std::string_view piece, std::vector<std::uint32_t> &out) const
{
    bool lastUnk = false;
    for (unsigned char b : piece) {
        if (byteId[b] >= 0) {
            out.push_back(static_cast<std::uint32_t>(byteId[b]));
            lastUnk = false;
        } else if (unkId) {
            if (!(fuseUnk && lastUnk))
                out.push_back(*unkId);
            lastUnk = true;
        }
    }
}

// The library's Word::merge_all applies, until none is left, the merge of lowest rank among the
// word's adjacent pairs, the leftmost on a tie (its heap pops (rank, position) and skips entries whose
// pair changed). For a short word a scan over the pairs' ranks does the same with no heap.
void Tokenizer::Impl::mergeShort(std::vector<std::uint32_t> &ids) const
{
    std::size_t n = ids.size();
    if (n < 2)
        return;
    std::uint32_t *id = ids.data();
    constexpr std::uint32_t kNone = ~std::uint32_t(0);
    std::array<std::uint32_t, kShortWord> rank, merged; // of the pair (i, i + 1); set before read
    auto look = [&](std::size_t i) {
        const MergeTable::Rule *r = merges.find(id[i], id[i + 1]);
        rank[i] = r ? r->rank : kNone;
        merged[i] = r ? r->id : 0;
    };
    for (std::size_t i = 0; i + 1 < n; ++i)
        look(i);
    for (;;) {
        std::size_t best = 0;
        for (std::size_t i = 1; i + 1 < n; ++i)
            if (rank[i] < rank[best])
                best = i;
        if (rank[best] == kNone)
            break;
        id[best] = merged[best];
        for (std::size_t i = best + 1; i + 1 < n; ++i)
            id[i] = id[i + 1];
        for (std::size_t i = best + 1; i + 2 < n; ++i) {
            rank[i] = rank[i + 1];
            merged[i] = merged[i + 1];
        }
        --n;
        if (best + 1 < n)
            look(best);
        else
            rank[best] = kNone; // no right neighbour any more; stays out of the scan below n - 1
        if (best > 0)
            look(best - 1);
        if (n < 2)
            break;
    }
    ids.resize(n);
}

// Long words: the library's algorithm as written, a heap of (rank, position) over a linked list.
void Tokenizer::Impl::mergeLong(std::vector<std::uint32_t> &out) const
{
    symbols.clear();
    for (std::uint32_t id : out)
        symbols.push_back({id, 0, 0, false});
    const auto n = static_cast<std::int32_t>(symbols.size());
    for (std::int32_t i = 0; i < n; ++i) {
        symbols[i].prev = i - 1;
        symbols[i].next = i + 1 < n ? i + 1 : -1;
    }
    heap.clear();
    for (std::int32_t i = 0; i + 1 < n; ++i)
        if (const MergeTable::Rule *r = merges.find(symbols[i].id, symbols[i + 1].id))
            heap.push_back({r->rank, static_cast<std::uint32_t>(i), r->id});
    std::make_heap(heap.begin(), heap.end());
    // Pop the lowest (rank, position), skip stale entries, merge, and queue the pairs the merged
    // symbol forms with its neighbours.
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end());
        const Merge top = heap.back();
        heap.pop_back();
        Symbol &cur = symbols[top.pos];
        if (cur.removed || cur.next < 0)
            continue;
        Symbol &right = symbols[cur.next];
        const MergeTable::Rule *now = merges.find(cur.id, right.id);
        if (!now || now->id != top.newId)
            continue;
        cur.id = top.newId;
        right.removed = true;
        cur.next = right.next;
        if (right.next >= 0)
            symbols[right.next].prev = static_cast<std::int32_t>(top.pos);
        if (cur.prev >= 0)
            if (const MergeTable::Rule *p = merges.find(symbols[cur.prev].id, cur.id)) {
                heap.push_back({p->rank, static_cast<std::uint32_t>(cur.prev), p->id});
                std::push_heap(heap.begin(), heap.end());
            }
        if (cur.next >= 0)
            if (const MergeTable::Rule *q = merges.find(cur.id, symbols[cur.next].id)) {
                heap.push_back({q->rank, top.pos, q->id});
                std::push_heap(heap.begin(), heap.end());
            }
    }
    out.clear();
    for (const Symbol &s : symbols)
        if (!s.removed)
            out.push_back(s.id);
}

std::pair<const std::uint32_t *, std::size_t> Tokenizer::Impl::bpe(std::string_view piece, const char *bufferEnd) const
{
    const bool isShort = piece.size() <= ShortWordCache::kMaxBytes;
    ShortWordCache::Key key{0, 0};
    if (isShort) {
        key = ShortWordCache::keyOf(piece, bufferEnd);
        std::size_t n = 0;
        if (const std::uint32_t *ids = shortCache.find(key, n))
            return {ids, n};
    } else if (const auto hit = longCache.find(piece); hit != longCache.end()) {
        return {longPool.data() + hit->second.first, hit->second.second};
    }
    return bpeUncached(piece, key);
}

// A piece the caches do not hold: merged, then cached (key: the piece's ShortWordCache key when short).
std::pair<const std::uint32_t *, std::size_t> Tokenizer::Impl::bpeUncached(std::string_view piece,
                                                                           const ShortWordCache::Key &key) const
{
    const bool isShort = piece.size() <= ShortWordCache::kMaxBytes;
    std::optional<std::uint32_t> whole;
    if (ignoreMerges && isShort) {
        whole = shortVocab.find(key);
    } else if (ignoreMerges) {
        if (const auto it = vocab.find(piece); it != vocab.end())
            whole = it->second;
    }
    if (whole)
        scratch.assign(1, *whole);
    else
        mergeWord(piece, scratch);
    if (isShort)
        return {shortCache.insert(key, scratch), scratch.size()};
    if (longCache.size() >= (1u << 16) || longPool.size() + scratch.size() >= (1u << 24)) {
        longCache.clear();
        longPool.clear();
    }
    const auto offset = static_cast<std::uint32_t>(longPool.size());
    longPool.insert(longPool.end(), scratch.begin(), scratch.end());
    longCache.emplace(std::string(piece), std::make_pair(offset, static_cast<std::uint32_t>(scratch.size())));
    return {longPool.data() + offset, scratch.size()};
}

// The pre-tokenizer's one split straight into the word cache: the pieces' ends come in batches
// (one call per batch), short pieces are looked up by their two-word keys.
template <typename Sink>
void Tokenizer::Impl::splitAndMerge(std::string_view segment, tok::SplitPattern pattern, Sink &&sink) const
{
    constexpr std::size_t kBatch = 64;
    std::size_t ends[kBatch];
    const char *const end = segment.data() + segment.size();
    for (std::size_t i = 0; i < segment.size();) {
        const std::size_t k = tok::splitSome(pattern, segment, i, ends, kBatch);
        for (std::size_t j = 0; j < k; i = ends[j++]) {
            const std::string_view piece = segment.substr(i, ends[j] - i);
            if (piece.size() > ShortWordCache::kMaxBytes) {
                const auto [ids, n] = bpe(piece, end);
                sink(ids, n);
                continue;
            }
            const ShortWordCache::Key key = ShortWordCache::keyOf(piece, end);
            std::size_t n = 0;
            if (const std::uint32_t *ids = shortCache.find(key, n)) {
                sink(ids, n);
            } else {
                const auto [missIds, count] = bpeUncached(piece, key);
                sink(missIds, count);
            }
        }
    }
}

template <typename Sink> void Tokenizer::Impl::encode(std::string_view text, Sink &&sink) const
{
    auto words = [&](std::string_view segment) {
        if (singleSplit) {
            splitAndMerge(segment, *singleSplit, sink);
            return;
        }
        preTokenize(segment, [&](std::string_view piece, const char *bufferEnd) {
            const auto [ids, n] = bpe(piece, bufferEnd);
            sink(ids, n);
        });
    };
    splitAdded(text, rawTokens, rawFirst, rawOnlyFirst, [&](std::string_view segment, const AddedToken *added) {
        if (added) {
            sink(&added->id, 1);
            return;
        }
        // Tokens marked normalized are matched in the normalized text, after the others.
        // Most text is already NFC: normalise (a copy) only what may change.
        std::string normalized;
        std::string_view view = segment;
        if (nfc && tok::unicode::nfcMayChange(segment)) {
            normalized = tok::unicode::nfc(segment);
            view = normalized;
        }
        splitAdded(view, normalizedTokens, normalizedFirst, normalizedOnlyFirst,
                   [&](std::string_view part, const AddedToken *addedNorm) {
                       if (addedNorm)
                           sink(&addedNorm->id, 1);
                       else
                           words(part);
                   });
    });
}

Tokenizer::Tokenizer(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Tokenizer::Tokenizer(Tokenizer &&) noexcept = default;
Tokenizer &Tokenizer::operator=(Tokenizer &&) noexcept = default;
Tokenizer::~Tokenizer() = default;

Tokenizer Tokenizer::fromFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw TokenizerError(path + ": cannot be read");
    std::ostringstream ss;
    ss << in.rdbuf();
    return fromJson(ss.str(), path);
}

Tokenizer Tokenizer::fromJson(std::string_view text, const std::string &origin)
{
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception &e) {
        throw TokenizerError(origin + ": not valid JSON: " + e.what());
    }
    auto impl = std::make_unique<Impl>();
    impl->origin = origin;
    const Fail fail(origin);
    try {
        impl->load(j, fail);
    } catch (const json::exception &e) {
        throw TokenizerError(origin + ": malformed: " + e.what());
    }
    return Tokenizer(std::move(impl));
}

std::vector<std::uint32_t> Tokenizer::encode(std::string_view text) const
{
    std::vector<std::uint32_t> ids;
    m_impl->encode(text, [&](const std::uint32_t *p, std::size_t n) { ids.insert(ids.end(), p, p + n); });
    return ids;
}

std::size_t Tokenizer::count(std::string_view text) const
{
    std::size_t total = 0;
    m_impl->encode(text, [&](const std::uint32_t *, std::size_t n) { total += n; });
    return total;
}

Tokenizer Tokenizer::clone() const
{
    return Tokenizer(std::make_unique<Impl>(*m_impl));
}

std::string Tokenizer::description() const
{
    return m_impl->description;
}
std::size_t Tokenizer::vocabSize() const
{
    return m_impl->vocab.size();
}

} // namespace sieve
