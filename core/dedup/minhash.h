#pragma once
// MinHash signatures over k-token shingles and the LSH banding that turns them into candidate pairs.
// Shingles are 32-bit hashes kept as sorted sets so that the exact Jaccard check of a candidate is a
// merge of two short arrays.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sieve {

struct LshParams
{
    int bands = 0;
    int rows = 0;
};

// Like datasketch's _optimal_param: the (bands, rows) with bands * rows <= permutations that minimises
// fpWeight * P(false positive) + fnWeight * P(false negative), each integrated over similarity below
// and above the threshold. Our candidates are confirmed by exact Jaccard, so a false positive costs only
// a check: the default weights favour recall.
LshParams optimalLshParams(double threshold, int permutations, double fpWeight = 0.05, double fnWeight = 0.95);
// Probability that a pair of similarity s shares at least one band.
double lshCandidateProbability(double s, LshParams p);

// Sorted, unique 32-bit hashes of every window of k tokens (one window of all tokens when fewer).
void shingleSet(const std::vector<std::uint64_t> &tokens, int k, std::vector<std::uint32_t> &out);

// |a ∩ b| / |a ∪ b| of two sorted unique arrays; 1 when both are empty.
double jaccard(const std::uint32_t *a, std::size_t na, const std::uint32_t *b, std::size_t nb);
// Whether the Jaccard is at least t, giving up early (length filter, then a merge that stops once the
// overlap can no longer reach t). similarity is exact when it returns true.
bool jaccardAtLeast(const std::uint32_t *a, std::size_t na, const std::uint32_t *b, std::size_t nb, double t,
                    double &similarity);

// h_p(x) = ((a_p * x + b_p) mod 2^64) >> 32 with random odd 64-bit a_p and 32-bit b_p: the
// multiply-add-shift family, computed as two 32-bit multiplies so that the loop vectorises (no modulo by
// a prime, no 64-bit multiply).
class MinHasher
{
public:
    explicit MinHasher(int permutations, std::uint64_t seed = 1);
    int permutations() const { return static_cast<int>(m_b.size()); }
    // out receives permutations() values; an empty set gives all 0xFFFFFFFF.
    void signature(const std::uint32_t *shingles, std::size_t count, std::uint32_t *out) const;

private:
    std::vector<std::uint32_t> m_aLo, m_aHi, m_b;
};

} // namespace sieve
