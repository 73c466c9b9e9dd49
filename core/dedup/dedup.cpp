#include "core/dedup/dedup.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sieve {

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    h = (h ^ v) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 31);
}

// Runs f(t, lo, hi) on `threads` threads over [0, n) split into contiguous chunks.
template <typename F> void parallelChunks(std::size_t n, unsigned threads, F f)
{
    threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(n, 1))));
    if (threads == 1) {
        f(0u, std::size_t{0}, n);
        return;
    }
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] { f(t, n * t / threads, n * (t + 1) / threads); });
    for (auto &th : pool)
        th.join();
}

class UnionFind
{
public:
    explicit UnionFind(std::size_t n) : m_parent(n) { std::iota(m_parent.begin(), m_parent.end(), 0u); }
    std::uint32_t find(std::uint32_t x)
    {
        while (m_parent[x] != x) {
            m_parent[x] = m_parent[m_parent[x]];
            x = m_parent[x];
        }
        return x;
    }
    // The lower index becomes the root so that labels do not depend on the order of unions.
    void unite(std::uint32_t a, std::uint32_t b)
    {
        a = find(a);
        b = find(b);
        if (a != b)
            m_parent[std::max(a, b)] = std::min(a, b);
    }

private:
    std::vector<std::uint32_t> m_parent;
};

// agree[y] = how many of the perms sketch bytes of member x equal member y's, for y in (x, size); the
// sketches lie one after another. The per-pair cost of the LSH stage, so it gets AVX2 when there is one.
void sketchAgreementScalar(const std::uint8_t *sk, std::size_t perms, std::size_t x, std::size_t size,
                           std::uint32_t *agree)
{
    const std::uint8_t *sa = sk + x * perms;
    for (std::size_t y = x + 1; y < size; ++y) {
        const std::uint8_t *sc = sk + y * perms;
        std::uint32_t n = 0;
        for (std::size_t i = 0; i < perms; ++i)
            n += sa[i] == sc[i];
        agree[y] = n;
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SIEVE_DEDUP_AVX2 1
// 32 bytes per step: equal bytes are -1, subtracted into per-lane counters (at most 255 steps before a
// lane could wrap: perms <= 8160), then summed with SAD against zero.
__attribute__((target("avx2"))) void sketchAgreementAvx2(const std::uint8_t *sk, std::size_t perms, std::size_t x,
                                                         std::size_t size, std::uint32_t *agree)
{
    const std::size_t full = perms / 32 * 32;
    const std::uint8_t *sa = sk + x * perms;
    for (std::size_t y = x + 1; y < size; ++y) {
        const std::uint8_t *sc = sk + y * perms;
        __m256i acc = _mm256_setzero_si256();
        for (std::size_t i = 0; i < full; i += 32) {
            const __m256i va = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(sa + i));
            const __m256i vc = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(sc + i));
            acc = _mm256_sub_epi8(acc, _mm256_cmpeq_epi8(va, vc));
        }
        const __m256i sums = _mm256_sad_epu8(acc, _mm256_setzero_si256());
        const __m128i s2 = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
        std::uint32_t n = static_cast<std::uint32_t>(_mm_cvtsi128_si64(s2) + _mm_extract_epi64(s2, 1));
        for (std::size_t i = full; i < perms; ++i)
            n += sa[i] == sc[i];
        agree[y] = n;
    }
}
#endif

void sketchAgreement(const std::uint8_t *sk, std::size_t perms, std::size_t x, std::size_t size, std::uint32_t *agree)
{
#ifdef SIEVE_DEDUP_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2 && perms <= 8160) {
        sketchAgreementAvx2(sk, perms, x, size, agree);
        return;
    }
#endif
    sketchAgreementScalar(sk, perms, x, size, agree);
}

} // namespace

unsigned dedupThreads(unsigned requested)
{
    if (requested)
        return requested;
    return std::max(1u, std::thread::hardware_concurrency());
}

struct DedupIndex::Batch
{
    std::vector<std::uint64_t> exact, tokens;
    std::vector<std::uint32_t> counts;
    std::vector<std::uint32_t> shingles;
    std::vector<std::uint64_t> bands;
    std::vector<std::uint8_t> sketch;
};

DedupIndex::DedupIndex(const DedupParams &params)
    : m_params(params),
      m_lsh(params.lsh.bands > 0 && params.lsh.rows > 0
                ? params.lsh
                : optimalLshParams(params.threshold, params.permutations, params.fpWeight, params.fnWeight)),
      m_hasher(params.permutations, params.seed)
{
}

void DedupIndex::fingerprintRange(const std::vector<DedupDocument> &docs, std::size_t lo, std::size_t hi,
                                  Batch &out) const
{
    CodeNormaliser normaliser;
    NormalisedCode norm;
    std::vector<std::uint32_t> sh;
    std::vector<std::uint32_t> sig(static_cast<std::size_t>(m_hasher.permutations()));
    const auto rows = static_cast<std::size_t>(m_lsh.rows);
    for (std::size_t d = lo; d < hi; ++d) {
        normaliser.normalise(docs[d].code, docs[d].language, norm, false);
        const auto group = static_cast<std::uint64_t>(docs[d].group);
        out.exact.push_back(mix(norm.canonical, group)); // restructured renderings are exact duplicates
        out.tokens.push_back(mix(XXH3_64bits(norm.tokens.data(), norm.tokens.size() * sizeof(std::uint64_t)), group));
        shingleSet(norm.tokens, m_params.shingle, sh);
        out.counts.push_back(static_cast<std::uint32_t>(sh.size()));
        out.shingles.insert(out.shingles.end(), sh.begin(), sh.end());
        m_hasher.signature(sh.data(), sh.size(), sig.data());
        for (std::uint32_t v : sig)
            out.sketch.push_back(static_cast<std::uint8_t>(v));
        for (int b = 0; b < m_lsh.bands; ++b) {
            const std::uint64_t seed = mix(group, static_cast<std::uint64_t>(b) + 1);
            out.bands.push_back(XXH3_64bits_withSeed(sig.data() + static_cast<std::size_t>(b) * rows,
                                                     rows * sizeof(std::uint32_t), seed));
        }
    }
}

void DedupIndex::add(const std::vector<DedupDocument> &docs)
{
    const unsigned threads = dedupThreads(m_params.threads);
    std::vector<Batch> parts(threads);
    parallelChunks(docs.size(), threads,
                   [&](unsigned t, std::size_t lo, std::size_t hi) { fingerprintRange(docs, lo, hi, parts[t]); });
    for (Batch &b : parts) {
        m_exact.insert(m_exact.end(), b.exact.begin(), b.exact.end());
        m_tokens.insert(m_tokens.end(), b.tokens.begin(), b.tokens.end());
        for (std::uint32_t c : b.counts)
            m_offsets.push_back(m_offsets.back() + c);
        m_shingles.insert(m_shingles.end(), b.shingles.begin(), b.shingles.end());
        m_bands.insert(m_bands.end(), b.bands.begin(), b.bands.end());
        m_sketch.insert(m_sketch.end(), b.sketch.begin(), b.sketch.end());
        b = Batch{};
    }
    for (const DedupDocument &d : docs)
        m_group.push_back(d.group);
}

double DedupIndex::similarity(std::size_t i, std::size_t j) const
{
    if (m_exact[i] == m_exact[j] && m_group[i] == m_group[j])
        return 1.0;
    return jaccard(m_shingles.data() + m_offsets[i], m_offsets[i + 1] - m_offsets[i], m_shingles.data() + m_offsets[j],
                   m_offsets[j + 1] - m_offsets[j]);
}

std::size_t DedupIndex::memoryBytes() const
{
    return m_group.capacity() * 8 + m_exact.capacity() * 8 + m_tokens.capacity() * 8 + m_offsets.capacity() * 8 +
           m_shingles.capacity() * 4 + m_bands.capacity() * 8 + m_sketch.capacity();
}

DedupResult DedupIndex::run() const
{
    const std::size_t n = size();
    const unsigned threads = dedupThreads(m_params.threads);
    DedupResult result;
    result.duplicateOf.resize(n);

    // Exact duplicates: the same canonical tokens in the same group. LSH sees the first document of each
    // token stream in source order, so that a task with a hundred identical samples costs one bucket entry,
    // not a hundred squared pairs, while each restructured rendering (its own shingles) still finds its
    // own near duplicates.
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    auto firstOfEach = [&](const std::vector<std::uint64_t> &key, auto &&onDuplicate, auto &&onFirst) {
        std::sort(order.begin(), order.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return key[a] != key[b] ? key[a] < key[b] : a < b; });
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint32_t d = order[k];
            if (k > 0 && key[order[k - 1]] == key[d] && m_group[order[k - 1]] == m_group[d])
                onDuplicate(d, order[k - 1]);
            else
                onFirst(d);
        }
    };
    firstOfEach(
        m_exact, [&](std::uint32_t d, std::uint32_t prev) { result.duplicateOf[d] = result.duplicateOf[prev]; },
        [&](std::uint32_t d) { result.duplicateOf[d] = d; });
    std::vector<std::uint32_t> canonical;
    firstOfEach(
        m_tokens, [](std::uint32_t, std::uint32_t) {}, [&](std::uint32_t d) { canonical.push_back(d); });
    std::sort(canonical.begin(), canonical.end());
    order = {};

    // Candidates: documents that share a band hash, taken bucket by bucket so that the (many) weak
    // collisions of a large corpus are never materialised. Per bucket the members' sketches and band keys
    // are first gathered into one contiguous block: the quadratic pair loop then runs in cache (one
    // random access per member, not two per pair). A pair is checked only in the first band it shares
    // (later bands see the earlier keys equal and skip it), so every pair is checked at most once.
    const auto bands = static_cast<std::size_t>(m_lsh.bands);
    const auto perms = static_cast<std::size_t>(m_hasher.permutations());
    const bool prefilter = m_params.prefilterSigmas >= 0;
    const double thr = m_params.threshold, sd = std::sqrt(thr * (1 - thr) / static_cast<double>(perms));
    const auto minAgree = static_cast<std::size_t>(
        std::max(0.0, std::ceil((thr - m_params.prefilterSigmas * sd) * static_cast<double>(perms) - 1e-9)));
    std::vector<std::vector<DedupPair>> confirmed(threads);
    std::vector<std::size_t> collisions(threads, 0), distinct(threads, 0), checked(threads, 0), largest(threads, 0);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            struct Key
            {
                std::uint64_t band;
                std::uint32_t doc;
                bool operator<(const Key &o) const { return band != o.band ? band < o.band : doc < o.doc; }
            };
            std::vector<Key> keys(canonical.size());
            std::vector<std::uint8_t> sketches;
            std::vector<std::uint64_t> bandKeys;
            std::vector<std::uint32_t> agree;
            for (std::size_t b = t; b < bands; b += threads) {
                for (std::size_t k = 0; k < canonical.size(); ++k)
                    keys[k] = {m_bands[canonical[k] * bands + b], canonical[k]};
                std::sort(keys.begin(), keys.end());
                for (std::size_t lo = 0; lo < keys.size();) {
                    std::size_t hi = lo + 1;
                    while (hi < keys.size() && keys[hi].band == keys[lo].band)
                        ++hi;
                    const std::size_t size = hi - lo;
                    if (size < 2) {
                        lo = hi;
                        continue;
                    }
                    largest[t] = std::max(largest[t], size);
                    collisions[t] += size * (size - 1) / 2;
                    sketches.resize(size * perms);
                    bandKeys.resize(size * bands);
                    agree.resize(size);
                    for (std::size_t x = 0; x < size; ++x) {
                        const std::uint32_t d = keys[lo + x].doc;
                        std::copy_n(m_sketch.data() + d * perms, perms, sketches.data() + x * perms);
                        std::copy_n(m_bands.data() + d * bands, bands, bandKeys.data() + x * bands);
                    }
                    for (std::size_t x = 0; x + 1 < size; ++x) {
                        const std::uint32_t a = keys[lo + x].doc;
                        if (prefilter)
                            sketchAgreement(sketches.data(), perms, x, size, agree.data());
                        const std::uint64_t *ka = bandKeys.data() + x * bands;
                        for (std::size_t y = x + 1; y < size; ++y) {
                            if (prefilter && agree[y] < minAgree)
                                continue;
                            const std::uint64_t *kc = bandKeys.data() + y * bands;
                            bool seen = false; // shares an earlier band: checked there
                            for (std::size_t e = 0; e < b && !seen; ++e)
                                seen = ka[e] == kc[e];
                            const std::uint32_t c = keys[lo + y].doc;
                            if (seen || m_group[a] != m_group[c] || m_exact[a] == m_exact[c])
                                continue; // checked in an earlier band, another task, or an exact duplicate
                            ++checked[t];
                            double sim;
                            if (jaccardAtLeast(shingles(a), shingleCount(a), shingles(c), shingleCount(c),
                                               m_params.threshold, sim))
                                confirmed[t].push_back({std::min(a, c), std::max(a, c), static_cast<float>(sim)});
                        }
                    }
                    lo = hi;
                }
            }
        });
    }
    for (auto &th : pool)
        th.join();
    for (unsigned t = 0; t < threads; ++t) {
        result.candidates += collisions[t];
        result.prefiltered += checked[t];
        result.largestBucket = std::max(result.largestBucket, largest[t]);
        result.pairs.insert(result.pairs.end(), confirmed[t].begin(), confirmed[t].end());
        confirmed[t] = {};
    }
    std::sort(result.pairs.begin(), result.pairs.end(),
              [](const DedupPair &x, const DedupPair &y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });

    UnionFind uf(n);
    for (std::size_t d = 0; d < n; ++d)
        uf.unite(static_cast<std::uint32_t>(d), result.duplicateOf[d]);
    for (const DedupPair &p : result.pairs)
        uf.unite(p.a, p.b);
    result.cluster.resize(n);
    for (std::size_t d = 0; d < n; ++d)
        result.cluster[d] = uf.find(static_cast<std::uint32_t>(d));
    return result;
}

} // namespace sieve
