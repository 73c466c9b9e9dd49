// Benchmark driver: Sieve's dedup on a JSONL corpus (gen_corpus.py), then ground truth by an exact
// all-pairs similarity join on the same shingle sets, and the files the datasketch side needs.
//
// Usage: dedup_bench CORPUS.jsonl OUT_DIR [--threshold T] [--shingle K] [--permutations P] [--threads N]
//                    [--prefilter-sigmas Z] [--tasks N] [--no-truth | --family-truth]
// --tasks N simulates per-task scope (the default of `sieve-cli dedup`): each planted family goes to one
// of N tasks at random, every other file too; files of different tasks are never compared. Use it with
// --no-truth or --family-truth (the exact join ignores tasks).
// Ground truth: by default an exact all-pairs join (every pair with J >= T, no sampling; feasible up to
// about 1e5 files). --family-truth instead checks every pair inside each planted family exactly, plus a
// uniform sample of 2,000,000 other pairs to estimate what lies outside the families (for 1e6 files).
// label_quality: by gen_corpus's labels, the share of planted-family pairs that share a cluster, for
// pairs of unedited renderings (cosmetic), of which one is restructured, and of which one has a structural
// edit; and the share of the pairs Sieve linked (confirmed near pairs, pairs of an exact-duplicate group)
// that are of one planted family.
// A reader thread parses the next batch of JSON lines while the index fingerprints this one; the JSON
// stage's CPU is that thread's, its wall time mostly overlaps the fingerprinting.
// Writes OUT_DIR/shingles.bin (n, offsets[n+1] u64, values u32), OUT_DIR/canon.bin (duplicateOf u32[n]),
// OUT_DIR/truth.bin (canonical pairs with J >= T, u32 pairs) and prints one JSON object.
#include "core/dedup/dedup.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <unordered_set>

#include <sys/resource.h>

using namespace sieve;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// User + system CPU seconds of this process: the machine is shared, so wall time alone misleads.
// This thread's alone (the JSON reader runs beside the fingerprinting).
double threadCpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

template <typename T> void writeRaw(std::ofstream &out, const T *data, std::size_t n)
{
    out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(n * sizeof(T)));
}

// Exact all-pairs join (AllPairs with prefix filtering, Bayardo et al. 2007) over the canonical documents:
// order shingles by global frequency (rare first); two sets with J >= t share a token among their first
// |x| - ceil(t|x|) + 1; every pair sharing a prefix token and passing the length filter is verified.
std::vector<std::uint64_t> exactJoin(const DedupIndex &index, const std::vector<std::uint32_t> &docs, double t,
                                     unsigned threads, std::size_t &verified)
{
    std::vector<std::uint32_t> all;
    for (std::uint32_t d : docs)
        all.insert(all.end(), index.shingles(d), index.shingles(d) + index.shingleCount(d));
    std::sort(all.begin(), all.end());
    std::vector<std::uint32_t> values, counts;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j] == all[i])
            ++j;
        values.push_back(all[i]);
        counts.push_back(static_cast<std::uint32_t>(j - i));
        i = j;
    }
    all = {};
    // (token, size, doc) for every prefix token.
    struct Post
    {
        std::uint32_t token, size, doc, pos; // pos: rank of the token within the document's order
    };
    std::vector<Post> posts;
    std::vector<std::uint64_t> keys;
    for (std::uint32_t d : docs) {
        const std::size_t L = index.shingleCount(d);
        if (L == 0)
            continue;
        const std::size_t p = L - static_cast<std::size_t>(std::ceil(t * static_cast<double>(L) - 1e-9)) + 1;
        keys.clear();
        for (std::size_t k = 0; k < L; ++k) {
            const std::uint32_t v = index.shingles(d)[k];
            const auto pos = std::lower_bound(values.begin(), values.end(), v) - values.begin();
            keys.push_back(static_cast<std::uint64_t>(counts[static_cast<std::size_t>(pos)]) << 32 | v);
        }
        std::partial_sort(keys.begin(), keys.begin() + static_cast<long>(std::min(p, L)), keys.end());
        for (std::size_t k = 0; k < std::min(p, L); ++k)
            posts.push_back(
                {static_cast<std::uint32_t>(keys[k]), static_cast<std::uint32_t>(L), d, static_cast<std::uint32_t>(k)});
    }
    std::sort(posts.begin(), posts.end(), [](const Post &a, const Post &b) {
        return a.token != b.token ? a.token < b.token : a.size != b.size ? a.size < b.size : a.doc < b.doc;
    });
    std::vector<std::uint64_t> cand;
    for (std::size_t i = 0; i < posts.size();) {
        std::size_t j = i;
        while (j < posts.size() && posts[j].token == posts[i].token)
            ++j;
        std::size_t lo = i;
        for (std::size_t x = i; x < j; ++x) {
            while (posts[lo].size < t * posts[x].size - 1e-9)
                ++lo; // length filter: |y| >= t|x|
            for (std::size_t y = lo; y < x; ++y) {
                // Positional filter (PPJoin): at the first shared token the overlap is at most 1 plus what
                // follows it in the shorter remainder; later shared tokens only give smaller bounds.
                const double need = t / (1.0 + t) * (posts[x].size + posts[y].size) - 1e-9;
                const double bound = 1.0 + std::min(posts[x].size - posts[x].pos - 1, posts[y].size - posts[y].pos - 1);
                if (bound < need)
                    continue;
                const std::uint32_t a = std::min(posts[x].doc, posts[y].doc), b = std::max(posts[x].doc, posts[y].doc);
                cand.push_back(static_cast<std::uint64_t>(a) << 32 | b);
            }
        }
        i = j;
    }
    posts = {};
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    verified = cand.size();
    std::vector<std::vector<std::uint64_t>> found(threads);
    std::vector<std::thread> pool;
    for (unsigned th = 0; th < threads; ++th)
        pool.emplace_back([&, th] {
            for (std::size_t k = cand.size() * th / threads; k < cand.size() * (th + 1) / threads; ++k) {
                const std::size_t a = cand[k] >> 32, b = static_cast<std::uint32_t>(cand[k]);
                double s;
                if (jaccardAtLeast(index.shingles(a), index.shingleCount(a), index.shingles(b), index.shingleCount(b),
                                   t, s))
                    found[th].push_back(cand[k]);
            }
        });
    for (auto &p : pool)
        p.join();
    std::vector<std::uint64_t> out;
    for (auto &f : found)
        out.insert(out.end(), f.begin(), f.end());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::cerr << "usage: dedup_bench CORPUS.jsonl OUT_DIR [--threshold T] [--shingle K] [--permutations P] "
                     "[--threads N] [--prefilter-sigmas Z] [--tasks N] [--no-truth | --family-truth]\n";
        return 2;
    }
    DedupParams params;
    params.threads = 2;
    bool truth = true, familyTruth = false;
    long long tasks = 0; // > 0: files get one of this many groups (per-task scope) instead of the file's own
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string("0"); };
        if (a == "--threshold")
            params.threshold = std::stod(next());
        else if (a == "--shingle")
            params.shingle = std::stoi(next());
        else if (a == "--permutations")
            params.permutations = std::stoi(next());
        else if (a == "--threads")
            params.threads = static_cast<unsigned>(std::stoi(next()));
        else if (a == "--prefilter-sigmas")
            params.prefilterSigmas = std::stod(next());
        else if (a == "--tasks")
            tasks = std::stoll(next());
        else if (a == "--family-truth")
            familyTruth = true;
        else if (a == "--no-truth")
            truth = false;
    }
    const std::string outDir = argv[2];
    const auto t0 = Clock::now();
    DedupIndex index(params);
    std::vector<std::int64_t> families;       // planted family per file, -1 when none (read, not timed apart)
    std::vector<std::uint8_t> kinds;          // per file: 1 = a structural edit, 2 = restructured
    double parseS = 0, addS = 0, readCpu = 0; // parseS: the reader's wall time, mostly beside addS
    {
        std::ifstream in(argv[1]);
        if (!in) {
            std::cerr << "cannot read " << argv[1] << "\n";
            return 1;
        }
        // A reader thread parses the next batch of lines while the index fingerprints this one.
        struct Batch
        {
            std::vector<std::string> codes;
            std::vector<std::int64_t> groups, families;
            std::vector<std::uint8_t> kinds; // per file: 1 structural edit, 2 restructured (gen_corpus's fields)
        };
        simdjson::ondemand::parser parser;
        std::string line;
        std::size_t lineNo = 0;
        bool failed = false;
        families.reserve(1 << 20);
        auto read = [&](Batch &b) {
            const auto tp = Clock::now();
            const double c0 = threadCpuSeconds();
            b.codes.clear();
            b.groups.clear();
            b.families.clear();
            b.kinds.clear();
            while (b.codes.size() < 50000 && std::getline(in, line)) {
                ++lineNo;
                line.reserve(line.size() + simdjson::SIMDJSON_PADDING);
                auto doc = parser.iterate(simdjson::padded_string_view(line.data(), line.size(), line.capacity()));
                std::string_view code;
                std::int64_t group = 0;
                if (doc["group"].get_int64().get(group) || doc["code"].get_string().get(code)) {
                    std::cerr << argv[1] << ":" << lineNo << ": no 'group' or 'code' field\n";
                    failed = true;
                    break;
                }
                b.codes.emplace_back(code);
                std::int64_t family = -1;
                if (doc["family"].get_int64().get(family))
                    family = -1;
                b.families.push_back(family);
                std::string_view edit;
                bool restructured = false;
                std::uint8_t kind = 0;
                if (!doc["edit"].get_string().get(edit) && edit != "none")
                    kind |= 1;
                if (!doc["restructured"].get_bool().get(restructured) && restructured)
                    kind |= 2;
                b.kinds.push_back(kind);
                if (tasks > 0) { // per-task scope: a planted family stays in one task, other files spread at random
                    std::uint64_t h =
                        family >= 0 ? static_cast<std::uint64_t>(family) : (std::uint64_t{1} << 40) + lineNo;
                    h = (h ^ (h >> 31)) * 0x9E3779B97F4A7C15ULL;
                    group = static_cast<std::int64_t>((h ^ (h >> 29)) % static_cast<std::uint64_t>(tasks));
                }
                b.groups.push_back(group);
            }
            parseS += since(tp);
            readCpu += threadCpuSeconds() - c0;
        };
        Batch current, next;
        read(current);
        while (!failed && !current.codes.empty()) {
            std::thread reader([&] { read(next); });
            const auto ta = Clock::now();
            std::vector<DedupDocument> docs;
            docs.reserve(current.codes.size());
            for (std::size_t k = 0; k < current.codes.size(); ++k)
                docs.push_back({current.codes[k], CodeLanguage::Auto, current.groups[k]});
            index.add(docs);
            families.insert(families.end(), current.families.begin(), current.families.end());
            kinds.insert(kinds.end(), current.kinds.begin(), current.kinds.end());
            addS += since(ta);
            reader.join();
            std::swap(current, next);
        }
        if (failed)
            return 1;
    }
    const double loadS = since(t0);
    const auto t1 = Clock::now();
    const double loadCpu = cpuSeconds();
    const DedupResult r = index.run();
    const double runS = since(t1);
    const double totalS = since(t0);
    const double totalCpu = cpuSeconds();
    const std::size_t n = index.size();

    // Exact-duplicate groups and the expanded pair count of a set of canonical pairs.
    std::vector<std::uint32_t> groupSize(n, 0), canonical;
    for (std::size_t d = 0; d < n; ++d)
        ++groupSize[r.duplicateOf[d]];
    std::uint64_t exactPairs = 0;
    for (std::size_t d = 0; d < n; ++d)
        if (r.duplicateOf[d] == d) {
            canonical.push_back(static_cast<std::uint32_t>(d));
            exactPairs += static_cast<std::uint64_t>(groupSize[d]) * (groupSize[d] - 1) / 2;
        }
    auto expanded = [&](std::uint64_t pair) {
        return static_cast<std::uint64_t>(groupSize[pair >> 32]) * groupSize[static_cast<std::uint32_t>(pair)];
    };
    std::vector<std::uint64_t> found;
    for (const DedupPair &p : r.pairs)
        found.push_back(static_cast<std::uint64_t>(p.a) << 32 | p.b);
    std::sort(found.begin(), found.end());

    {
        std::ofstream sh(outDir + "/shingles.bin", std::ios::binary);
        const std::uint64_t count = n;
        writeRaw(sh, &count, 1);
        std::uint64_t off = 0;
        for (std::size_t d = 0; d <= n; ++d) {
            writeRaw(sh, &off, 1);
            if (d < n)
                off += index.shingleCount(d);
        }
        for (std::size_t d = 0; d < n; ++d)
            writeRaw(sh, index.shingles(d), index.shingleCount(d));
        std::ofstream canon(outDir + "/canon.bin", std::ios::binary);
        writeRaw(canon, r.duplicateOf.data(), n);
    }

    std::printf("{\n  \"files\": %zu,\n  \"threshold\": %g, \"shingle\": %d, \"permutations\": %d, \"bands\": %d, "
                "\"rows\": %d, \"threads\": %u, \"tasks\": %lld,\n",
                n, params.threshold, params.shingle, params.permutations, index.lsh().bands, index.lsh().rows,
                dedupThreads(params.threads), tasks);
    std::printf("  \"sieve_cpu_seconds\": %.3f,\n", totalCpu);
    std::printf(
        "  \"sieve_cpu_seconds_by_stage\": {\"read_and_parse_json\": %.3f, \"normalise_shingle_minhash\": %.3f, "
        "\"lsh_verify_cluster\": %.3f},\n",
        readCpu, loadCpu - readCpu, totalCpu - loadCpu);
    std::printf("  \"sieve_seconds\": {\"total\": %.3f, \"read_and_parse_json\": %.3f, \"normalise_shingle_minhash\": "
                "%.3f, \"lsh_verify_cluster\": %.3f},\n",
                totalS, parseS, addS, runS);
    (void)loadS;
    std::printf("  \"index_bytes\": %zu, \"exact_duplicate_pairs\": %llu, \"band_collisions\": %zu, "
                "\"largest_bucket\": %zu, \"prefilter_passed\": %zu, \"confirmed_pairs\": %zu,\n",
                index.memoryBytes(), static_cast<unsigned long long>(exactPairs), r.candidates, r.largestBucket,
                r.prefiltered, r.pairs.size());
    {
        // By label, which the Jaccard truth below cannot see: is each pair of a planted family clustered
        // (by the kind of its members), and how many linked pairs are of one family.
        std::vector<std::pair<std::int64_t, std::uint32_t>> byFamily;
        for (std::size_t d = 0; d < n; ++d)
            if (families[d] >= 0)
                byFamily.push_back({families[d], static_cast<std::uint32_t>(d)});
        std::sort(byFamily.begin(), byFamily.end());
        std::uint64_t pairs[3] = {0, 0, 0}, together[3] = {0, 0, 0}; // cosmetic, restructured, edited
        for (std::size_t i = 0; i < byFamily.size();) {
            std::size_t j = i;
            while (j < byFamily.size() && byFamily[j].first == byFamily[i].first)
                ++j;
            for (std::size_t x = i; x < j; ++x)
                for (std::size_t y = x + 1; y < j; ++y) {
                    const std::uint32_t a = byFamily[x].second, b = byFamily[y].second;
                    const int k = ((kinds[a] | kinds[b]) & 1) ? 2 : ((kinds[a] | kinds[b]) & 2) ? 1 : 0;
                    ++pairs[k];
                    together[k] += r.cluster[a] == r.cluster[b];
                }
            i = j;
        }
        // Precision by label over what Sieve linked directly: its confirmed near-duplicate pairs and the
        // pairs inside each exact-duplicate group (clusters chain links, so at 1e6 files a global cluster
        // can hold thousands of files and its pairs would say little).
        std::uint64_t linked = 0, oneFamily = 0;
        auto link = [&](std::uint32_t a, std::uint32_t b) {
            ++linked;
            oneFamily += families[a] >= 0 && families[a] == families[b];
        };
        for (const DedupPair &p : r.pairs)
            link(p.a, p.b);
        std::vector<std::pair<std::uint32_t, std::uint32_t>> byExact;
        for (std::size_t d = 0; d < n; ++d)
            byExact.push_back({r.duplicateOf[d], static_cast<std::uint32_t>(d)});
        std::sort(byExact.begin(), byExact.end());
        for (std::size_t i = 0; i < byExact.size();) {
            std::size_t j = i;
            while (j < byExact.size() && byExact[j].first == byExact[i].first)
                ++j;
            for (std::size_t x = i; x < j; ++x)
                for (std::size_t y = x + 1; y < j; ++y)
                    link(byExact[x].second, byExact[y].second);
            i = j;
        }
        auto share = [](std::uint64_t a, std::uint64_t b) {
            return b ? static_cast<double>(a) / static_cast<double>(b) : 1.0;
        };
        std::printf(
            "  \"label_quality\": {\"cosmetic_pairs\": %llu, \"cosmetic_recall\": %.5f, \"restructured_pairs\": %llu, "
            "\"restructured_recall\": %.5f, \"edited_pairs\": %llu, \"edited_recall\": %.5f, "
            "\"linked_pairs\": %llu, \"linked_pairs_of_one_family\": %.5f},\n",
            static_cast<unsigned long long>(pairs[0]), share(together[0], pairs[0]),
            static_cast<unsigned long long>(pairs[1]), share(together[1], pairs[1]),
            static_cast<unsigned long long>(pairs[2]), share(together[2], pairs[2]),
            static_cast<unsigned long long>(linked), share(oneFamily, linked));
    }
    if (!truth) {
        std::printf("  \"truth\": null\n}\n");
        return 0;
    }
    const auto t2 = Clock::now();
    std::size_t verified = 0;
    std::vector<std::uint64_t> gt;
    std::string method = "exact all-pairs join (prefix filtering) on the same shingle sets";
    std::uint64_t sampled = 0, sampledSimilar = 0;
    if (familyTruth) {
        // Every pair within each planted family, mapped to canonical documents, checked exactly.
        method = "exact Jaccard on every pair within each planted family; other pairs estimated from a sample";
        std::vector<std::pair<std::int64_t, std::uint32_t>> byFamily;
        for (std::size_t d = 0; d < n; ++d)
            if (families[d] >= 0)
                byFamily.push_back({families[d], static_cast<std::uint32_t>(d)});
        std::sort(byFamily.begin(), byFamily.end());
        for (std::size_t i = 0; i < byFamily.size();) {
            std::size_t j = i;
            while (j < byFamily.size() && byFamily[j].first == byFamily[i].first)
                ++j;
            for (std::size_t x = i; x < j; ++x)
                for (std::size_t y = x + 1; y < j; ++y) {
                    const std::uint32_t a = r.duplicateOf[byFamily[x].second], b = r.duplicateOf[byFamily[y].second];
                    if (a == b)
                        continue;
                    ++verified;
                    if (index.similarity(a, b) >= params.threshold - 1e-12)
                        gt.push_back(static_cast<std::uint64_t>(std::min(a, b)) << 32 | std::max(a, b));
                }
            i = j;
        }
        // Pairs Sieve found outside the families were checked exactly by Sieve itself: they are true too.
        for (const DedupPair &p : r.pairs)
            if (index.similarity(p.a, p.b) >= params.threshold - 1e-12)
                gt.push_back(static_cast<std::uint64_t>(p.a) << 32 | p.b);
        std::sort(gt.begin(), gt.end());
        gt.erase(std::unique(gt.begin(), gt.end()), gt.end());
        // Pairs outside the families: a uniform sample, to bound what the family truth leaves out.
        std::uint64_t state = 12345;
        auto next = [&] {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return state >> 33;
        };
        for (sampled = 0; sampled < 2000000;) {
            const std::uint32_t a = static_cast<std::uint32_t>(next() % n), b = static_cast<std::uint32_t>(next() % n);
            if (a == b || (families[a] >= 0 && families[a] == families[b]))
                continue;
            ++sampled;
            double sim;
            const std::uint32_t ca = r.duplicateOf[a], cb = r.duplicateOf[b];
            if (ca == cb || jaccardAtLeast(index.shingles(ca), index.shingleCount(ca), index.shingles(cb),
                                           index.shingleCount(cb), params.threshold, sim))
                ++sampledSimilar;
        }
    } else {
        gt = exactJoin(index, canonical, params.threshold, dedupThreads(params.threads), verified);
    }
    // How much of the truth lies inside planted families (tells whether family truth is enough at 1e6).
    std::size_t inFamily = 0;
    for (std::uint64_t p : gt) {
        const std::int64_t fa = families[p >> 32], fb = families[static_cast<std::uint32_t>(p)];
        inFamily += fa >= 0 && fa == fb;
    }
    const double truthS = since(t2);
    {
        std::ofstream tr(outDir + "/truth.bin", std::ios::binary);
        writeRaw(tr, gt.data(), gt.size());
    }
    std::uint64_t gtExpanded = exactPairs, hitExpanded = exactPairs, foundExpanded = exactPairs;
    std::size_t hit = 0;
    for (std::uint64_t p : gt)
        gtExpanded += expanded(p);
    for (std::uint64_t p : found) {
        foundExpanded += expanded(p);
        if (std::binary_search(gt.begin(), gt.end(), p)) {
            hitExpanded += expanded(p);
            ++hit;
        }
    }
    std::printf("  \"truth\": {\"method\": \"%s\", \"seconds\": %.3f, \"verified_candidates\": %zu, "
                "\"near_pairs\": %zu, \"near_pairs_within_planted_families\": %zu, \"pairs_with_exact\": %llu, "
                "\"sampled_other_pairs\": %llu, \"sampled_other_pairs_similar\": %llu},\n",
                method.c_str(), truthS, verified, gt.size(), inFamily, static_cast<unsigned long long>(gtExpanded),
                static_cast<unsigned long long>(sampled), static_cast<unsigned long long>(sampledSimilar));
    std::printf("  \"sieve_quality\": {\"precision\": %.5f, \"recall\": %.5f, \"near_pair_recall\": %.5f}\n}\n",
                foundExpanded ? static_cast<double>(hitExpanded) / static_cast<double>(foundExpanded) : 1.0,
                gtExpanded ? static_cast<double>(hitExpanded) / static_cast<double>(gtExpanded) : 1.0,
                gt.empty() ? 1.0 : static_cast<double>(hit) / static_cast<double>(gt.size()));
    return 0;
}
