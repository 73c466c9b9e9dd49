#include "core/dedup/minhash.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

// The inner loop of MinHash. a*x + b with 64-bit a and 32-bit x, b is aHi*x*2^32 + aLo*x + b, and
// aLo*x + b < 2^64, so bits 32..63 of the sum are aHi*x + ((aLo*x + b) >> 32) mod 2^32.
void minIntoScalar(const std::uint32_t *aLo, const std::uint32_t *aHi, const std::uint32_t *b, int p,
                   const std::uint32_t *xs, std::size_t count, std::uint32_t *out)
{
    for (int i = 0; i < p; ++i)
        out[i] = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t x = xs[k];
        for (int i = 0; i < p; ++i) {
            const std::uint64_t lo = static_cast<std::uint64_t>(aLo[i]) * x + b[i];
            const std::uint32_t v = aHi[i] * x + static_cast<std::uint32_t>(lo >> 32);
            out[i] = v < out[i] ? v : out[i];
        }
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SIEVE_MINHASH_AVX2 1
// The same arithmetic, 8 permutations per register; GCC does not vectorise the mixed 32/64-bit loop on
// its own. 64 permutations at a time keep the running minima in 8 registers.
__attribute__((target("avx2"))) void minIntoAvx2(const std::uint32_t *aLo, const std::uint32_t *aHi,
                                                 const std::uint32_t *b, int p, const std::uint32_t *xs,
                                                 std::size_t count, std::uint32_t *out)
{
    const int full = p / 64 * 64;
    for (int base = 0; base < full; base += 64) {
        __m256i lo[8], loOdd[8], hi[8], bEven[8], bOdd[8], mins[8];
        const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFLL);
        for (int j = 0; j < 8; ++j) {
            lo[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(aLo + base + 8 * j));
            loOdd[j] = _mm256_srli_epi64(lo[j], 32);
            hi[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(aHi + base + 8 * j));
            const __m256i bb = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(b + base + 8 * j));
            bEven[j] = _mm256_and_si256(bb, low32);
            bOdd[j] = _mm256_srli_epi64(bb, 32);
            mins[j] = _mm256_set1_epi32(-1);
        }
        for (std::size_t k = 0; k < count; ++k) {
            const __m256i x = _mm256_set1_epi32(static_cast<int>(xs[k]));
            for (int j = 0; j < 8; ++j) {
                const __m256i even = _mm256_add_epi64(_mm256_mul_epu32(lo[j], x), bEven[j]);
                const __m256i odd = _mm256_add_epi64(_mm256_mul_epu32(loOdd[j], x), bOdd[j]);
                const __m256i carry = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
                const __m256i v = _mm256_add_epi32(_mm256_mullo_epi32(hi[j], x), carry);
                mins[j] = _mm256_min_epu32(mins[j], v);
            }
        }
        for (int j = 0; j < 8; ++j)
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + base + 8 * j), mins[j]);
    }
    if (full < p)
        minIntoScalar(aLo + full, aHi + full, b + full, p - full, xs, count, out + full);
}
#endif

void minInto(const std::uint32_t *aLo, const std::uint32_t *aHi, const std::uint32_t *b, int p, const std::uint32_t *xs,
             std::size_t count, std::uint32_t *out)
{
#ifdef SIEVE_MINHASH_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) {
        minIntoAvx2(aLo, aHi, b, p, xs, count, out);
        return;
    }
#endif
    minIntoScalar(aLo, aHi, b, p, xs, count, out);
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

namespace {

// Murmur3's 64-bit finaliser.
std::uint64_t fmix64(std::uint64_t h)
{
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 33);
}

// Sorts uniformly distributed 32-bit values (hashes): one counting pass on the top ~log2(n) bits puts
// each value within its tiny bucket (about one value each), then an insertion sort fixes the order inside
// buckets in about n steps. Roughly 3x faster than std::sort for the few hundred shingles of a kernel
// file, whose comparisons mispredict half the time.
void hashSort(std::vector<std::uint32_t> &v, std::vector<std::uint32_t> &tmp, std::vector<std::uint32_t> &count)
{
    const std::size_t n = v.size();
    if (n < 32) {
        std::sort(v.begin(), v.end());
        return;
    }
    const int bits = std::min(20, static_cast<int>(std::bit_width(n)));
    const int shift = 32 - bits;
    count.assign((std::size_t{1} << bits) + 1, 0);
    for (std::uint32_t x : v)
        ++count[(x >> shift) + 1];
    for (std::size_t b = 1; b < count.size(); ++b)
        count[b] += count[b - 1];
    tmp.resize(n);
    for (std::uint32_t x : v)
        tmp[count[x >> shift]++] = x;
    for (std::size_t i = 1; i < n; ++i) {
        const std::uint32_t x = tmp[i];
        std::size_t j = i;
        while (j > 0 && tmp[j - 1] > x) {
            tmp[j] = tmp[j - 1];
            --j;
        }
        tmp[j] = x;
    }
    v.swap(tmp);
}

} // namespace

void shingleSet(const std::vector<std::uint64_t> &tokens, int k, std::vector<std::uint32_t> &out)
{
    out.clear();
    const std::size_t n = tokens.size();
    const std::size_t w = std::min<std::size_t>(static_cast<std::size_t>(std::max(k, 1)), n);
    if (n == 0)
        return;
    // A window's hash is sum(token_j * K_j) mod 2^64 with fixed odd K_j, then a finaliser: the
    // multiplies are independent (no chain through the window), and the tokens are already 64-bit hashes.
    static constexpr std::uint64_t K[8] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL,
                                           0xD6E8FEB86659FD93ULL, 0xFF51AFD7ED558CCDULL, 0xC4CEB9FE1A85EC53ULL,
                                           0x27D4EB2F165667C5ULL, 0x85EBCA77C2B2AE63ULL};
    out.resize(n - w + 1);
    const std::uint64_t *t = tokens.data();
    const std::uint64_t seed = 0x243F6A8885A308D3ULL ^ w;
    if (w == 5) { // the default shingle, unrolled
        for (std::size_t i = 0; i + 5 <= n; ++i) {
            const std::uint64_t h =
                (t[i] * K[0] + t[i + 1] * K[1]) + (t[i + 2] * K[2] + t[i + 3] * K[3]) + t[i + 4] * K[4];
            const std::uint64_t f = fmix64(h ^ seed);
            out[i] = static_cast<std::uint32_t>(f ^ (f >> 32));
        }
    } else {
        for (std::size_t i = 0; i + w <= n; ++i) {
            std::uint64_t h = 0;
            for (std::size_t j = 0; j < w; ++j)
                h += t[i + j] * (K[j % 8] + 2 * (j / 8)); // odd, distinct per position
            const std::uint64_t f = fmix64(h ^ seed);
            out[i] = static_cast<std::uint32_t>(f ^ (f >> 32));
        }
    }
    thread_local std::vector<std::uint32_t> tmp, count;
    hashSort(out, tmp, count);
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

namespace {

// The scalar merge, resumed at (i, j) with `common` matches so far; gives up once the overlap can no
// longer reach `required`.
bool overlapAtLeastScalar(const std::uint32_t *a, std::size_t na, const std::uint32_t *b, std::size_t nb,
                          std::size_t required, std::size_t i, std::size_t j, std::size_t &common)
{
    while (i < na && j < nb) {
        if (common + std::min(na - i, nb - j) < required)
            return false;
        const std::uint32_t x = a[i], y = b[j];
        common += x == y;
        i += x <= y;
        j += y <= x;
    }
    return common >= required;
}

#ifdef SIEVE_MINHASH_AVX2
// Blocks of 8 against 8: each element of a's block is compared with every rotation of b's block; the
// block with the smaller last element advances (both when equal). Elements are unique within a set, so
// each match is counted once. About 8x fewer steps than the merge, without its branch mispredictions.
__attribute__((target("avx2,popcnt"))) bool overlapAtLeastAvx2(const std::uint32_t *a, std::size_t na,
                                                               const std::uint32_t *b, std::size_t nb,
                                                               std::size_t required, std::size_t &common)
{
    std::size_t i = 0, j = 0;
    const __m256i rotate = _mm256_set_epi32(0, 7, 6, 5, 4, 3, 2, 1);
    while (i + 8 <= na && j + 8 <= nb) {
        if (common + std::min(na - i, nb - j) < required)
            return false;
        const __m256i va = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(a + i));
        __m256i vb = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(b + j));
        __m256i eq = _mm256_cmpeq_epi32(va, vb);
        for (int r = 1; r < 8; ++r) {
            vb = _mm256_permutevar8x32_epi32(vb, rotate);
            eq = _mm256_or_si256(eq, _mm256_cmpeq_epi32(va, vb));
        }
        common += static_cast<std::size_t>(
            __builtin_popcount(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(eq)))));
        const std::uint32_t amax = a[i + 7], bmax = b[j + 7];
        i += amax <= bmax ? 8 : 0;
        j += bmax <= amax ? 8 : 0;
    }
    return overlapAtLeastScalar(a, na, b, nb, required, i, j, common);
}
#endif

// Whether |a ∩ b| >= required; common is exact when it returns true.
bool overlapAtLeast(const std::uint32_t *a, std::size_t na, const std::uint32_t *b, std::size_t nb,
                    std::size_t required, std::size_t &common)
{
    common = 0;
#ifdef SIEVE_MINHASH_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    if (avx2)
        return overlapAtLeastAvx2(a, na, b, nb, required, common);
#endif
    return overlapAtLeastScalar(a, na, b, nb, required, 0, 0, common);
}

} // namespace

bool jaccardAtLeast(const std::uint32_t *a, std::size_t na, const std::uint32_t *b, std::size_t nb, double t,
                    double &similarity)
{
    similarity = 0;
    if (na == 0 && nb == 0) {
        similarity = 1;
        return true;
    }
    // J >= t needs an overlap of at least t / (1 + t) * (na + nb); stop once the rest cannot reach it.
    const double need = t / (1.0 + t) * static_cast<double>(na + nb) - 1e-9;
    if (static_cast<double>(std::min(na, nb)) < need)
        return false;
    const auto required = static_cast<std::size_t>(std::max(0.0, std::ceil(need)));
    std::size_t common = 0;
    if (!overlapAtLeast(a, na, b, nb, required, common))
        return false;
    similarity = static_cast<double>(common) / static_cast<double>(na + nb - common);
    return similarity >= t - 1e-12;
}

double jaccard(const std::uint32_t *a, std::size_t na, const std::uint32_t *b, std::size_t nb)
{
    if (na == 0 && nb == 0)
        return 1.0;
    std::size_t common = 0;
    overlapAtLeast(a, na, b, nb, 0, common);
    return static_cast<double>(common) / static_cast<double>(na + nb - common);
}

MinHasher::MinHasher(int permutations, std::uint64_t seed)
{
    std::uint64_t state = seed;
    const auto p = static_cast<std::size_t>(std::max(permutations, 1));
    m_aLo.resize(p);
    m_aHi.resize(p);
    m_b.resize(p);
    for (std::size_t i = 0; i < p; ++i) {
        const std::uint64_t a = splitmix(state) | 1;
        m_aLo[i] = static_cast<std::uint32_t>(a);
        m_aHi[i] = static_cast<std::uint32_t>(a >> 32);
        m_b[i] = static_cast<std::uint32_t>(splitmix(state));
    }
}

void MinHasher::signature(const std::uint32_t *shingles, std::size_t count, std::uint32_t *out) const
{
    minInto(m_aLo.data(), m_aHi.data(), m_b.data(), permutations(), shingles, count, out);
}

} // namespace sieve
