#include "tokenizer.h"

#include "tokenizer_pretokenize.h"
#include "tokenizer_unicode.h"

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <optional>
#include <deque>
#include <fstream>
#include <queue>
#include <sstream>
#include <unordered_map>

namespace sieve {

namespace {

using json = nlohmann::json;

struct StringHash {
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

struct PreStep {
    enum Kind { Split, Digits, ByteLevel } kind;
    tok::SplitPattern pattern = tok::SplitPattern::Gpt2;
    bool individualDigits = false;
    bool addPrefixSpace = false;
    bool useRegex = false;
};

struct AddedToken {
    std::string content;
    std::uint32_t id = 0;
    bool singleWord = false, lstrip = false, rstrip = false, normalized = false;
};

struct Merge {
    std::uint32_t rank;
    std::uint32_t pos;
    std::uint32_t newId;
    bool operator<(const Merge &o) const // max-heap order: lowest rank, then leftmost, on top
    {
        return rank != o.rank ? rank > o.rank : pos > o.pos;
    }
};

struct Symbol {
    std::uint32_t id;
    std::int32_t prev, next;
    bool removed;
};

class Fail {
public:
    explicit Fail(std::string origin) : m_origin(std::move(origin)) {}
    [[noreturn]] void operator()(const std::string &field, const std::string &what) const
    {
        throw TokenizerError(m_origin + ": " + field + ": " + what);
    }

private:
    std::string m_origin;
};

std::string typeOf(const json &j) { return j.is_object() && j.contains("type") ? j["type"].get<std::string>() : ""; }

bool flag(const json &j, const char *key, bool fallback = false)
{
    return j.contains(key) && j[key].is_boolean() ? j[key].get<bool>() : fallback;
}

} // namespace

struct Tokenizer::Impl {
    std::string origin;
    StringMap<std::uint32_t> vocab; // raw bytes -> id
    std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::uint32_t>> merges; // (a,b) -> (rank, id)
    std::array<std::int64_t, 256> byteId{};
    bool ignoreMerges = false;
    std::optional<std::uint32_t> unkId;
    bool fuseUnk = false;
    bool nfc = false;
    std::vector<PreStep> steps;
    std::vector<AddedToken> rawTokens, normalizedTokens; // matched before / after normalization
    std::array<bool, 256> rawFirst{}, normalizedFirst{};  // bytes that start an added token
    std::string description;

    // Word cache: piece bytes -> ids in m_pool. Bounded; cleared when full.
    mutable StringMap<std::pair<std::uint32_t, std::uint32_t>> cache;
    mutable std::vector<std::uint32_t> pool;
    mutable std::vector<Symbol> symbols;
    mutable std::vector<Merge> heap;
    mutable std::vector<std::uint32_t> scratch;

    void load(const json &j, const Fail &fail);
    void loadModel(const json &m, const Fail &fail);
    void loadPreTokenizer(const json &p, const std::string &field, const Fail &fail);

    template <typename Sink> void encode(std::string_view text, Sink &&sink) const;
    template <typename Sink>
    void splitAdded(std::string_view text, const std::vector<AddedToken> &tokens, const std::array<bool, 256> &first,
                    Sink &&sink) const;
    template <typename Sink> void preTokenize(std::string_view text, Sink &&sink) const;
    std::pair<const std::uint32_t *, std::size_t> bpe(std::string_view piece) const;
    void mergeWord(std::string_view piece, std::vector<std::uint32_t> &out) const;
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
        fail("model.byte_fallback", "not supported (byte-level BPE needs no byte fallback)");
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
            fail("model.merges[" + std::to_string(rank) + "]", "'" + a + " " + b + "' uses a token not in the vocabulary");
        // A later duplicate overwrites an earlier one, as in the library's merge map.
        merges[(static_cast<std::uint64_t>(ia->second) << 32) | ib->second] = {rank, ic->second};
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
                                 const std::array<bool, 256> &first, Sink &&sink) const
{
    if (tokens.empty()) {
        sink(text, nullptr);
        return;
    }
    auto isSpace = [](char32_t c) { return (tok::unicode::classOf(c) & tok::unicode::Space) != 0; };
    auto isWord = [](char32_t c) {
        return (tok::unicode::classOf(c) & tok::unicode::Word) != 0;
    };
    std::size_t offset = 0; // end of the last emitted part
    std::size_t pos = 0;
    while (pos < text.size()) {
        // Most text holds no added token: skip bytes that start none.
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
    for (std::string_view piece : pieces)
        if (!piece.empty())
            sink(piece);
}

void Tokenizer::Impl::mergeWord(std::string_view piece, std::vector<std::uint32_t> &out) const
{
    symbols.clear();
    bool lastUnk = false;
    for (unsigned char b : piece) {
        if (byteId[b] >= 0) {
            symbols.push_back({static_cast<std::uint32_t>(byteId[b]), 0, 0, false});
            lastUnk = false;
        } else if (unkId) {
            if (!(fuseUnk && lastUnk))
                symbols.push_back({*unkId, 0, 0, false});
            lastUnk = true;
        }
    }
    const auto n = static_cast<std::int32_t>(symbols.size());
    for (std::int32_t i = 0; i < n; ++i) {
        symbols[i].prev = i - 1;
        symbols[i].next = i + 1 < n ? i + 1 : -1;
    }
    auto key = [](std::uint32_t a, std::uint32_t b) { return (static_cast<std::uint64_t>(a) << 32) | b; };
    heap.clear();
    for (std::int32_t i = 0; i + 1 < n; ++i) {
        const auto it = merges.find(key(symbols[i].id, symbols[i + 1].id));
        if (it != merges.end())
            heap.push_back({it->second.first, static_cast<std::uint32_t>(i), it->second.second});
    }
    std::make_heap(heap.begin(), heap.end());
    // The library's Word::merge_all: pop the lowest (rank, position), skip stale entries, merge, and
    // queue the pairs the merged symbol forms with its neighbours.
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end());
        const Merge top = heap.back();
        heap.pop_back();
        Symbol &cur = symbols[top.pos];
        if (cur.removed || cur.next < 0)
            continue;
        Symbol &right = symbols[cur.next];
        const auto it = merges.find(key(cur.id, right.id));
        if (it == merges.end() || it->second.second != top.newId)
            continue;
        cur.id = top.newId;
        right.removed = true;
        cur.next = right.next;
        if (right.next >= 0)
            symbols[right.next].prev = static_cast<std::int32_t>(top.pos);
        if (cur.prev >= 0) {
            const auto p = merges.find(key(symbols[cur.prev].id, cur.id));
            if (p != merges.end()) {
                heap.push_back({p->second.first, static_cast<std::uint32_t>(cur.prev), p->second.second});
                std::push_heap(heap.begin(), heap.end());
            }
        }
        if (cur.next >= 0) {
            const auto q = merges.find(key(cur.id, symbols[cur.next].id));
            if (q != merges.end()) {
                heap.push_back({q->second.first, top.pos, q->second.second});
                std::push_heap(heap.begin(), heap.end());
            }
        }
    }
    for (const Symbol &s : symbols)
        if (!s.removed)
            out.push_back(s.id);
}

std::pair<const std::uint32_t *, std::size_t> Tokenizer::Impl::bpe(std::string_view piece) const
{
    const auto hit = cache.find(piece);
    if (hit != cache.end())
        return {pool.data() + hit->second.first, hit->second.second};
    scratch.clear();
    const auto whole = ignoreMerges ? vocab.find(piece) : vocab.end();
    if (whole != vocab.end())
        scratch.push_back(whole->second);
    else
        mergeWord(piece, scratch);
    if (cache.size() >= (1u << 20) || pool.size() + scratch.size() >= (1u << 26)) {
        cache.clear();
        pool.clear();
    }
    const auto offset = static_cast<std::uint32_t>(pool.size());
    pool.insert(pool.end(), scratch.begin(), scratch.end());
    cache.emplace(std::string(piece), std::make_pair(offset, static_cast<std::uint32_t>(scratch.size())));
    return {pool.data() + offset, scratch.size()};
}

template <typename Sink> void Tokenizer::Impl::encode(std::string_view text, Sink &&sink) const
{
    auto words = [&](std::string_view segment) {
        preTokenize(segment, [&](std::string_view piece) {
            const auto [ids, n] = bpe(piece);
            sink(ids, n);
        });
    };
    splitAdded(text, rawTokens, rawFirst, [&](std::string_view segment, const AddedToken *added) {
        if (added) {
            sink(&added->id, 1);
            return;
        }
        // Tokens marked normalized are matched in the normalized text, after the others.
        const std::string normalized = nfc ? tok::unicode::nfc(segment) : std::string();
        splitAdded(nfc ? std::string_view(normalized) : segment, normalizedTokens, normalizedFirst, [&](std::string_view part, const AddedToken *addedNorm) {
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

Tokenizer Tokenizer::clone() const { return Tokenizer(std::make_unique<Impl>(*m_impl)); }

std::string Tokenizer::description() const { return m_impl->description; }
std::size_t Tokenizer::vocabSize() const { return m_impl->vocab.size(); }

} // namespace sieve
