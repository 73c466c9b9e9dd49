#include "dedup.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

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

class UnionFind {
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

} // namespace

unsigned dedupThreads(unsigned requested)
{
    if (requested)
        return requested;
    return std::max(1u, std::thread::hardware_concurrency());
}

struct DedupIndex::Batch {
    std::vector<std::uint64_t> exact;
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
    Lexer lexer;
    NormalisedCode norm;
    std::vector<std::uint32_t> sh;
    std::vector<std::uint32_t> sig(static_cast<std::size_t>(m_hasher.permutations()));
    const auto rows = static_cast<std::size_t>(m_lsh.rows);
    for (std::size_t d = lo; d < hi; ++d) {
        lexer.normalise(docs[d].code, docs[d].language, norm, false);
        const auto group = static_cast<std::uint64_t>(docs[d].group);
        out.exact.push_back(mix(XXH3_64bits(norm.tokens.data(), norm.tokens.size() * sizeof(std::uint64_t)), group));
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
    parallelChunks(docs.size(), threads, [&](unsigned t, std::size_t lo, std::size_t hi) {
        fingerprintRange(docs, lo, hi, parts[t]);
    });
    for (Batch &b : parts) {
        m_exact.insert(m_exact.end(), b.exact.begin(), b.exact.end());
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
    return jaccard(m_shingles.data() + m_offsets[i], m_offsets[i + 1] - m_offsets[i], m_shingles.data() + m_offsets[j],
                   m_offsets[j + 1] - m_offsets[j]);
}

std::size_t DedupIndex::memoryBytes() const
{
    return m_group.capacity() * 8 + m_exact.capacity() * 8 + m_offsets.capacity() * 8 + m_shingles.capacity() * 4 +
           m_bands.capacity() * 8 + m_sketch.capacity();
}

DedupResult DedupIndex::run() const
{
    const std::size_t n = size();
    const unsigned threads = dedupThreads(m_params.threads);
    DedupResult result;
    result.duplicateOf.resize(n);

    // Exact duplicates: the same token stream in the same group. Only the first of each goes on to LSH,
    // so a task with a hundred identical samples costs one bucket entry, not a hundred squared pairs.
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return m_exact[a] != m_exact[b] ? m_exact[a] < m_exact[b] : a < b;
    });
    std::vector<std::uint32_t> canonical;
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t d = order[k];
        if (k > 0 && m_exact[order[k - 1]] == m_exact[d] && m_group[order[k - 1]] == m_group[d]) {
            result.duplicateOf[d] = result.duplicateOf[order[k - 1]];
        } else {
            result.duplicateOf[d] = d;
            canonical.push_back(d);
        }
    }
    std::sort(canonical.begin(), canonical.end());
    order = {};

    // Candidates: documents that share a band hash, checked bucket by bucket so that the (many) weak
    // collisions of a large corpus are never materialised. Bands are spread over threads; a true pair that
    // shares several bands is confirmed several times and deduplicated below.
    const auto bands = static_cast<std::size_t>(m_lsh.bands);
    const auto perms = static_cast<std::size_t>(m_hasher.permutations());
    const bool prefilter = m_params.prefilterMargin >= 0;
    const auto minAgree = static_cast<std::size_t>(
        std::max(0.0, std::ceil((m_params.threshold - m_params.prefilterMargin) * static_cast<double>(perms) - 1e-9)));
    std::vector<std::vector<DedupPair>> confirmed(threads);
    std::vector<std::size_t> collisions(threads, 0), checked(threads, 0);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            std::vector<std::pair<std::uint64_t, std::uint32_t>> keys(canonical.size());
            for (std::size_t b = t; b < bands; b += threads) {
                for (std::size_t k = 0; k < canonical.size(); ++k)
                    keys[k] = {m_bands[canonical[k] * bands + b], canonical[k]};
                std::sort(keys.begin(), keys.end());
                for (std::size_t lo = 0; lo < keys.size();) {
                    std::size_t hi = lo + 1;
                    while (hi < keys.size() && keys[hi].first == keys[lo].first)
                        ++hi;
                    for (std::size_t x = lo; x < hi; ++x) {
                        const std::uint32_t a = keys[x].second;
                        for (std::size_t y = x + 1; y < hi; ++y) {
                            const std::uint32_t c = keys[y].second;
                            if (m_group[a] != m_group[c])
                                continue;
                            ++collisions[t];
                            if (prefilter) {
                                const std::uint8_t *sa = m_sketch.data() + a * perms, *sc = m_sketch.data() + c * perms;
                                std::size_t agree = 0;
                                for (std::size_t i = 0; i < perms; ++i)
                                    agree += sa[i] == sc[i];
                                if (agree < minAgree)
                                    continue;
                            }
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
        result.pairs.insert(result.pairs.end(), confirmed[t].begin(), confirmed[t].end());
        confirmed[t] = {};
    }
    std::sort(result.pairs.begin(), result.pairs.end(),
              [](const DedupPair &x, const DedupPair &y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
    result.pairs.erase(std::unique(result.pairs.begin(), result.pairs.end(),
                                   [](const DedupPair &x, const DedupPair &y) { return x.a == y.a && x.b == y.b; }),
                       result.pairs.end());

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
