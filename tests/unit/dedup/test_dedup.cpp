#include "core/dedup/dedup.h"
#include "core/dedup/minhash.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace sieve;

namespace {
std::string fixture(const std::string &name)
{
    return test::readFile(test::testData("dedup/" + name));
}

// A random Triton-like program: `lines` statements over a vocabulary of API calls.
std::vector<std::string> randomProgram(std::mt19937 &rng, int lines)
{
    static const char *ops[] = {"tl.exp",   "tl.log",   "tl.sqrt",    "tl.abs",   "tl.maximum", "tl.minimum", "tl.sum",
                                "tl.max",   "tl.where", "tl.sigmoid", "tl.rsqrt", "tl.cos",     "tl.sin",     "tl.load",
                                "tl.store", "tl.dot",   "tl.zeros",   "tl.full",  "tl.cumsum",  "tl.softmax"};
    std::vector<std::string> out = {"@triton.jit", "def kernel(a, b, c, n, BLOCK: tl.constexpr):"};
    for (int i = 0; i < lines; ++i) {
        std::uniform_int_distribution<int> op(0, 19), var(0, i + 2), arity(1, 3);
        std::string line = "    t" + std::to_string(i + 3) + " = " + ops[op(rng)] + "(";
        const int k = arity(rng);
        for (int j = 0; j < k; ++j)
            line += (j ? ", t" : "t") + std::to_string(var(rng));
        out.push_back(line + ")");
    }
    return out;
}
std::string join(const std::vector<std::string> &lines)
{
    std::string s;
    for (const auto &l : lines)
        s += l + "\n";
    return s;
}
} // namespace

TEST(MinHash, OptimalParamsMatchDatasketch)
{
    // datasketch 2.0: _optimal_param(0.8, 128, 0.5, 0.5) == (9, 13), (0.8, 128, 0.05, 0.95) == (16, 8).
    const LshParams even = optimalLshParams(0.8, 128, 0.5, 0.5);
    EXPECT_EQ(even.bands, 9);
    EXPECT_EQ(even.rows, 13);
    const LshParams recall = optimalLshParams(0.8, 128);
    EXPECT_EQ(recall.bands, 16);
    EXPECT_EQ(recall.rows, 8);
}

TEST(MinHash, SignatureAgreementEstimatesJaccard)
{
    // Two sets sharing 600 of 1000 elements each: J = 600 / 1400.
    std::vector<std::uint32_t> a, b;
    std::mt19937 rng(7);
    std::set<std::uint32_t> seen;
    while (seen.size() < 1400)
        seen.insert(static_cast<std::uint32_t>(rng()));
    std::vector<std::uint32_t> all(seen.begin(), seen.end());
    std::shuffle(all.begin(), all.end(), rng);
    a.assign(all.begin(), all.begin() + 1000);
    b.assign(all.begin() + 400, all.end());
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_NEAR(jaccard(a.data(), a.size(), b.data(), b.size()), 600.0 / 1400.0, 1e-12);
    const MinHasher h(512);
    std::vector<std::uint32_t> sa(512), sb(512);
    h.signature(a.data(), a.size(), sa.data());
    h.signature(b.data(), b.size(), sb.data());
    int same = 0;
    for (int i = 0; i < 512; ++i)
        same += sa[i] == sb[i];
    EXPECT_NEAR(same / 512.0, 600.0 / 1400.0, 0.07); // ~3 standard deviations
}

TEST(MinHash, JaccardMatchesAPlainSetCountAtEverySizeAndOverlap)
{
    // The intersection runs in blocks of 8 with a scalar tail: sizes around multiples of 8, disjoint,
    // equal, nested and interleaved sets, and the early exit of jaccardAtLeast on both sides of t.
    std::mt19937 rng(11);
    for (int round = 0; round < 400; ++round) {
        const std::size_t na = rng() % 40, nb = rng() % 40;
        const std::uint32_t range = round % 4 == 0 ? 48u : 200u; // a small range gives large overlaps
        std::set<std::uint32_t> sa, sb;
        while (sa.size() < na && sa.size() < range)
            sa.insert(static_cast<std::uint32_t>(rng() % range));
        while (sb.size() < nb && sb.size() < range)
            sb.insert(static_cast<std::uint32_t>(rng() % range));
        const std::vector<std::uint32_t> a(sa.begin(), sa.end()), b(sb.begin(), sb.end());
        std::size_t common = 0;
        for (std::uint32_t x : a)
            common += sb.count(x);
        const double expect = a.empty() && b.empty()
                                  ? 1.0
                                  : static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
        ASSERT_DOUBLE_EQ(jaccard(a.data(), a.size(), b.data(), b.size()), expect) << round;
        for (double t : {0.2, 0.5, 0.8, 1.0}) {
            double sim = -1;
            const bool at = jaccardAtLeast(a.data(), a.size(), b.data(), b.size(), t, sim);
            ASSERT_EQ(at, expect >= t - 1e-12) << round << " t=" << t;
            if (at) {
                ASSERT_DOUBLE_EQ(sim, expect) << round;
            }
        }
    }
}

TEST(MinHash, VectorAndScalarPathsAgree)
{
    // The first permutations depend only on the seed, so a 128-permutation signature (vector path) must
    // start with the 8-permutation one (scalar path) and the 72-permutation one (vector + scalar tail).
    std::vector<std::uint32_t> set;
    std::mt19937 rng(3);
    for (int i = 0; i < 300; ++i)
        set.push_back(static_cast<std::uint32_t>(rng()));
    std::sort(set.begin(), set.end());
    std::vector<std::uint32_t> s128(128), s72(72), s8(8), single(128);
    MinHasher(128, 9).signature(set.data(), set.size(), s128.data());
    MinHasher(72, 9).signature(set.data(), set.size(), s72.data());
    MinHasher(8, 9).signature(set.data(), set.size(), s8.data());
    for (int i = 0; i < 72; ++i)
        EXPECT_EQ(s72[i], s128[i]) << i;
    for (int i = 0; i < 8; ++i)
        EXPECT_EQ(s8[i], s128[i]) << i;
    // The minimum over the set is the minimum over its elements.
    std::vector<std::uint32_t> expect(128, 0xFFFFFFFFu);
    for (std::uint32_t x : set) {
        MinHasher(128, 9).signature(&x, 1, single.data());
        for (int i = 0; i < 128; ++i)
            expect[i] = std::min(expect[i], single[i]);
    }
    EXPECT_EQ(expect, s128);
}

TEST(Dedup, RmsnormVariantsABCStayApartAndCosmeticCopiesJoinA)
{
    const std::vector<std::string> files = {"rmsnorm_a.py", "rmsnorm_b.py", "rmsnorm_c.py", "rmsnorm_a_copy.py",
                                            "rmsnorm_a_edit.py"};
    std::vector<std::string> texts;
    for (const auto &f : files)
        texts.push_back(fixture(f));
    DedupIndex index(DedupParams{});
    std::vector<DedupDocument> docs;
    for (const auto &t : texts)
        docs.push_back({t});
    index.add(docs);
    const DedupResult r = index.run();
    EXPECT_NE(r.cluster[0], r.cluster[1]);
    EXPECT_NE(r.cluster[0], r.cluster[2]);
    EXPECT_NE(r.cluster[1], r.cluster[2]);
    EXPECT_EQ(r.cluster[3], r.cluster[0]); // renamed variables, other comments, another block size
    EXPECT_EQ(r.duplicateOf[3], 0u);       // ... which normalise to the very same tokens
    EXPECT_EQ(r.cluster[4], r.cluster[0]); // plus a temporary for the stored value
    EXPECT_EQ(r.duplicateOf[4], 0u);       // ... which is inlined: the same canonical tokens
    EXPECT_EQ(index.similarity(0, 4), 1.0);
    EXPECT_LT(index.similarity(0, 1), 0.8);
    EXPECT_LT(index.similarity(0, 2), 0.8);
}

TEST(Dedup, ExactDuplicatesAndScopes)
{
    const std::string a = fixture("vector_add.cu");
    const std::string b = "// another comment\n" + a;
    const std::string c = fixture("rmsnorm_b.py");
    DedupIndex index(DedupParams{});
    index.add({{a, CodeLanguage::Auto, 1},
               {c, CodeLanguage::Auto, 1},
               {b, CodeLanguage::Auto, 1},
               {a, CodeLanguage::Auto, 2}});
    const DedupResult r = index.run();
    EXPECT_EQ(r.duplicateOf[2], 0u);
    EXPECT_EQ(r.cluster[2], 0u);
    EXPECT_EQ(r.cluster[1], 1u);
    EXPECT_EQ(r.cluster[3], 3u); // the same code in another task is not compared
    EXPECT_TRUE(r.pairs.empty());
}

TEST(Dedup, LshFindsPlantedNearDuplicates)
{
    std::mt19937 rng(42);
    std::vector<std::string> texts;
    for (int i = 0; i < 300; ++i) {
        std::vector<std::string> p = randomProgram(rng, 24);
        texts.push_back(join(p));
        if (i % 3 == 0) { // a near copy: one call changed, the last statement dropped
            std::string &line = p[5 + rng() % 10];
            line = line.substr(0, line.find(" = ")) + " = tl.erf" + line.substr(line.find('('));
            p.pop_back();
            texts.push_back(join(p));
        }
    }
    DedupParams params;
    params.threads = 2;
    DedupIndex index(params);
    std::vector<DedupDocument> docs;
    for (const auto &t : texts)
        docs.push_back({t});
    index.add(docs);
    const DedupResult r = index.run();
    std::set<std::pair<std::uint32_t, std::uint32_t>> found, truth;
    for (const DedupPair &p : r.pairs) {
        EXPECT_GE(index.similarity(p.a, p.b), params.threshold);
        found.insert({p.a, p.b});
    }
    for (std::uint32_t i = 0; i < texts.size(); ++i)
        for (std::uint32_t j = i + 1; j < texts.size(); ++j)
            if (index.similarity(i, j) >= params.threshold)
                truth.insert({i, j});
    ASSERT_GE(truth.size(), 80u); // the planted pairs mostly clear the threshold
    std::size_t hit = 0;
    for (const auto &p : truth)
        hit += found.count(p);
    EXPECT_GE(static_cast<double>(hit) / static_cast<double>(truth.size()), 0.95);
    EXPECT_EQ(found.size(), hit); // every reported pair is a true one
    // A pair sharing several bands is checked, and reported, once: in the first band it shares.
    EXPECT_EQ(found.size(), r.pairs.size());
    EXPECT_LE(r.prefiltered, r.candidates);
    EXPECT_LT(r.prefiltered, 2 * found.size()); // the sketch prefilter leaves few weak pairs to check
}
