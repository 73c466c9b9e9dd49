#include "minhash.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sieve {

namespace {

std::uint64_t splitmix(std::uint64_t &state)
{
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Simpson's rule; the integrands are smooth polynomials in s.
template <typename F> double integrate(F f, double lo, double hi)
{
    const int n = 200;
    const double h = (hi - lo) / n;
    double sum = f(lo) + f(hi);
    for (int i = 1; i < n; ++i)
        sum += f(lo + i * h) * (i % 2 ? 4 : 2);
    return sum * h / 3;
}

// The inner loop of MinHash: 2 x 32-bit multiplies per lane. Cloned for AVX2 where the CPU has it.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void minInto(const std::uint64_t *a, const std::uint64_t *b, int p, const std::uint32_t *xs, std::size_t count,
             std::uint32_t *out)
{
    for (int i = 0; i < p; ++i)
        out[i] = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint64_t x = xs[k];
        for (int i = 0; i < p; ++i) {
            const std::uint32_t v = static_cast<std::uint32_t>((a[i] * x + b[i]) >> 32);
            out[i] = v < out[i] ? v : out[i];
        }
    }
}

} // namespace

double lshCandidateProbability(double s, LshParams p)
{
    return 1.0 - std::pow(1.0 - std::pow(s, p.rows), p.bands);
}

LshParams optimalLshParams(double threshold, int permutations, double fpWeight, double fnWeight)
{
    LshParams best{1, 1};
    double bestError = std::numeric_limits<double>::infinity();
    for (int b = 1; b <= permutations; ++b) {
        for (int r = 1; r <= permutations / b; ++r) {
            const LshParams p{b, r};
            const double fp = integrate([&](double s) { return lshCandidateProbability(s, p); }, 0.0, threshold);
            const double fn = integrate([&](double s) { return 1.0 - lshCandidateProbability(s, p); }, threshold, 1.0);
            const double err = fp * fpWeight + fn * fnWeight;
            if (err < bestError) {
                bestError = err;
                best = p;
            }
        }
    }
    return best;
}

void shingleSet(const std::vector<std::uint64_t> &tokens, int k, std::vector<std::uint32_t> &out)
{
    out.clear();
    const std::size_t n = tokens.size();
    const std::size_t w = std::min<std::size_t>(static_cast<std::size_t>(std::max(k, 1)), n);
    if (n == 0)
        return;
    out.reserve(n - w + 1);
    for (std::size_t i = 0; i + w <= n; ++i) {
        std::uint64_t h = 0x243F6A8885A308D3ULL;
        for (std::size_t j = 0; j < w; ++j) {
            h = (h ^ tokens[i + j]) * 0x9E3779B97F4A7C15ULL;
            h ^= h >> 32;
        }
        h = (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ULL;
        out.push_back(static_cast<std::uint32_t>(h ^ (h >> 32)));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

double jaccard(const std::uint32_t *a, std::size_t na, const std::uint32_t *b, std::size_t nb)
{
    if (na == 0 && nb == 0)
        return 1.0;
    std::size_t i = 0, j = 0, common = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j])
            ++i;
        else if (b[j] < a[i])
            ++j;
        else {
            ++common;
            ++i;
            ++j;
        }
    }
    return static_cast<double>(common) / static_cast<double>(na + nb - common);
}

MinHasher::MinHasher(int permutations, std::uint64_t seed)
{
    std::uint64_t state = seed;
    m_a.resize(static_cast<std::size_t>(std::max(permutations, 1)));
    m_b.resize(m_a.size());
    for (std::size_t i = 0; i < m_a.size(); ++i) {
        m_a[i] = splitmix(state) | 1;
        m_b[i] = splitmix(state);
    }
}

void MinHasher::signature(const std::uint32_t *shingles, std::size_t count, std::uint32_t *out) const
{
    minInto(m_a.data(), m_b.data(), permutations(), shingles, count, out);
}

} // namespace sieve
