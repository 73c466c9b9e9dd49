#pragma once
// Near-duplicate detection over normalised code: exact duplicates by a hash of the canonical token stream
// (restructuring undone, normaliser_restructure.h), near duplicates by MinHash + LSH banding over shingles of
// the tokens in source order, every candidate confirmed by exact Jaccard on the shingle sets, clusters by
// union-find. Documents carry a group (the task for per-task scope, 0 for global);
// documents of different groups are never compared.
#include "core/dedup/minhash.h"
#include "core/dedup/normaliser.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace sieve {

struct DedupParams
{
    double threshold = 0.8; // Jaccard of the shingle sets at or above which two samples are duplicates
    int shingle = 5;        // tokens per shingle
    int permutations = 128;
    double fpWeight = 0.05; // LSH weights, see optimalLshParams
    double fnWeight = 0.95;
    LshParams lsh{}; // bands x rows; zero = chosen from threshold and weights
    // Before the exact Jaccard, a candidate must agree on at least threshold - z * sd of the low bytes of
    // its MinHash values, sd = sqrt(t (1 - t) / permutations) being the estimate's standard deviation at
    // the threshold (0.035 at 0.8 and 128 permutations; the estimate is unbiased plus 1/256 from b-bit
    // collisions). Drops the many weakly similar pairs that share a band for a 128-byte compare; a pair
    // exactly at the threshold is lost with probability ~0.1 % at z = 3, pairs above it far less often.
    // Negative = off.
    double prefilterSigmas = 3.0;
    unsigned threads = 0; // 0 = all cores
    std::uint64_t seed = 1;
};

struct DedupDocument
{
    std::string_view code;
    CodeLanguage language = CodeLanguage::Auto;
    std::int64_t group = 0;
};

struct DedupPair
{
    std::uint32_t a, b; // document indices, a < b
    float similarity;   // exact Jaccard
};

struct DedupResult
{
    std::vector<DedupPair> pairs; // confirmed near-duplicate pairs of documents that are not exact duplicates
    std::vector<std::uint32_t>
        duplicateOf; // per document: the first document with the same canonical tokens (itself if none)
    std::vector<std::uint32_t> cluster; // per document: the lowest index in its cluster
    std::size_t candidates = 0;         // band collisions (a pair counts once per band it shares)
    std::size_t prefiltered = 0;        // distinct pairs that passed the signature prefilter, checked exactly
    std::size_t largestBucket = 0;      // most documents sharing one band key
};

class DedupIndex
{
public:
    explicit DedupIndex(const DedupParams &params);
    const DedupParams &params() const { return m_params; }
    LshParams lsh() const { return m_lsh; }

    // Normalises and fingerprints the documents on all threads; add in batches to bound memory.
    void add(const std::vector<DedupDocument> &docs);
    std::size_t size() const { return m_group.size(); }

    DedupResult run() const;
    // Exact Jaccard of the shingle sets; 1 for exact duplicates (the same canonical tokens).
    double similarity(std::size_t i, std::size_t j) const;
    // Document i's sorted shingle set (for benchmarks and ground truth).
    const std::uint32_t *shingles(std::size_t i) const { return m_shingles.data() + m_offsets[i]; }
    std::size_t shingleCount(std::size_t i) const { return m_offsets[i + 1] - m_offsets[i]; }
    std::size_t memoryBytes() const;

private:
    struct Batch;
    void fingerprintRange(const std::vector<DedupDocument> &docs, std::size_t lo, std::size_t hi, Batch &out) const;

    DedupParams m_params;
    LshParams m_lsh;
    MinHasher m_hasher;
    std::vector<std::int64_t> m_group;
    std::vector<std::uint64_t> m_exact;      // hash of the canonical tokens, mixed with the group
    std::vector<std::uint64_t> m_tokens;     // hash of the tokens in source order, mixed with the group
    std::vector<std::uint64_t> m_offsets{0}; // into m_shingles
    std::vector<std::uint32_t> m_shingles;
    std::vector<std::uint64_t> m_bands; // lsh.bands hashes per document, mixed with the group
    std::vector<std::uint8_t> m_sketch; // low byte of each MinHash value (b-bit MinHash), per document
};

unsigned dedupThreads(unsigned requested);

} // namespace sieve
