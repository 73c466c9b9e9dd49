#include "dedup.h"

#include <xxhash.h>

#include <algorithm>
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
           m_bands.capacity() * 8;
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

    // Candidates: documents that share a band hash. Bands are spread over threads.
    const auto bands = static_cast<std::size_t>(m_lsh.bands);
    std::vector<std::vector<std::uint64_t>> found(threads);
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
                    for (std::size_t x = lo; x < hi; ++x)
                        for (std::size_t y = x + 1; y < hi; ++y)
                            if (m_group[keys[x].second] == m_group[keys[y].second])
                                found[t].push_back(static_cast<std::uint64_t>(keys[x].second) << 32 | keys[y].second);
                    lo = hi;
                }
            }
        });
    }
    for (auto &th : pool)
        th.join();
    pool.clear();
    std::vector<std::uint64_t> cand;
    for (auto &f : found) {
        cand.insert(cand.end(), f.begin(), f.end());
        f = {};
    }
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    result.candidates = cand.size();

    // Confirmation by exact Jaccard on the shingle sets.
    std::vector<std::vector<DedupPair>> confirmed(threads);
    parallelChunks(cand.size(), threads, [&](unsigned t, std::size_t lo, std::size_t hi) {
        for (std::size_t k = lo; k < hi; ++k) {
            const auto a = static_cast<std::uint32_t>(cand[k] >> 32), b = static_cast<std::uint32_t>(cand[k]);
            const double s = similarity(a, b);
            if (s >= m_params.threshold - 1e-12)
                confirmed[t].push_back({a, b, static_cast<float>(s)});
        }
    });
    for (auto &c : confirmed)
        result.pairs.insert(result.pairs.end(), c.begin(), c.end());

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
