// sieve-cli dedup: clusters near-duplicate samples and stores the clusters with their representatives.
#include "core/cli/commands.h"
#include "core/db/corpus.h"
#include "core/dedup/dedup_corpus.h"
#include "core/select/samplepreference.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ostream>

namespace sieve::cli {

namespace {

int runDedup(const Args &args, Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    CorpusDedupOptions o;
    if (auto t = args.number("threshold")) {
        if (*t <= 0 || *t > 1)
            throw UsageError("--threshold must be in (0, 1], got " + std::to_string(*t));
        o.params.threshold = *t;
    }
    if (auto k = args.integer("shingle")) {
        if (*k < 1 || *k > 64)
            throw UsageError("--shingle must be between 1 and 64, got " + std::to_string(*k));
        o.params.shingle = static_cast<int>(*k);
    }
    if (auto p = args.integer("permutations")) {
        if (*p < 16 || *p > 1024)
            throw UsageError("--permutations must be between 16 and 1024, got " + std::to_string(*p));
        o.params.permutations = static_cast<int>(*p);
    }
    const std::string scope = args.value("scope", "task");
    if (scope != "task" && scope != "global")
        throw UsageError("--scope must be 'task' or 'global', got '" + scope + "'");
    o.scope = scope == "task" ? DedupScope::Task : DedupScope::Global;
    o.dryRun = args.has("dry-run");

    Corpus corpus = Corpus::open(args.positional[0], o.dryRun);
    const DedupReport r = dedupCorpus(corpus, o);
    std::size_t multi = 0, removable = 0;
    for (const ClusterInfo &c : r.clusters)
        if (c.members.size() > 1) {
            ++multi;
            removable += c.members.size() - 1;
        }
    if (args.has("json")) {
        nlohmann::json j = {{"threshold", o.params.threshold},
                            {"shingle", o.params.shingle},
                            {"permutations", o.params.permutations},
                            {"bands", r.lsh.bands},
                            {"rows", r.lsh.rows},
                            {"scope", scope},
                            {"dry_run", o.dryRun},
                            {"rule", samplePreferenceRule()},
                            {"samples", r.samples},
                            {"clusters", r.clusters.size()},
                            {"clusters_with_duplicates", multi},
                            {"duplicates", removable},
                            {"exact_duplicates", r.exactDuplicates},
                            {"band_collisions", r.candidates},
                            {"confirmed_pairs", r.confirmedPairs}};
        nlohmann::json list = nlohmann::json::array();
        for (const ClusterInfo &c : r.clusters) {
            if (c.members.size() < 2)
                continue;
            nlohmann::json members = nlohmann::json::array();
            for (const ClusterMemberInfo &m : c.members)
                members.push_back({{"sample_id", m.sampleId}, {"sample", m.name}, {"similarity", m.similarity}});
            list.push_back({{"id", c.id ? nlohmann::json(c.id) : nlohmann::json()},
                            {"task", c.taskId ? nlohmann::json(c.taskName) : nlohmann::json()},
                            {"size", c.members.size()},
                            {"representative", c.representative},
                            {"members", members}});
        }
        j["duplicate_clusters"] = list;
        ctx.out << j.dump(2) << '\n';
        return Ok;
    }
    ctx.out << (o.dryRun ? "dry run: nothing written\n" : "") << r.samples << " samples in " << r.clusters.size()
            << " clusters (" << multi << " with duplicates, " << removable << " duplicates; " << r.exactDuplicates
            << " exact)\nthreshold " << o.params.threshold << ", " << o.params.shingle << "-token shingles, "
            << o.params.permutations << " permutations, LSH " << r.lsh.bands << " bands x " << r.lsh.rows
            << " rows, scope " << scope << "; " << r.candidates << " band collisions, " << r.confirmedPairs
            << " confirmed\nrepresentative: " << samplePreferenceRule() << "\n";
    for (const ClusterInfo &c : r.clusters) {
        if (c.members.size() < 2)
            continue;
        ctx.out << "\ncluster " << (c.id ? std::to_string(c.id) : std::string("(new)")) << "  size " << c.members.size()
                << (c.taskId ? "  task " + c.taskName : std::string()) << "  representative " << c.representative
                << '\n';
        for (const ClusterMemberInfo &m : c.members) {
            char sim[16];
            std::snprintf(sim, sizeof sim, "%.3f", m.similarity);
            ctx.out << "  " << (m.sampleId == c.representative ? '*' : ' ') << ' ' << m.sampleId << '\t' << sim << '\t'
                    << m.name << '\n';
        }
    }
    return Ok;
}

} // namespace

Command dedupCommand()
{
    return {
        .name = "dedup",
        .summary = "cluster near-duplicate samples and choose a representative per cluster",
        .usage = "sieve-cli dedup DB [--threshold T] [--shingle K] [--permutations P] [--scope task|global]\n"
                 "  [--json] [--dry-run]",
        .description =
            "Normalises every sample's code (comments, docstrings and whitespace stripped, local names\n"
            "renamed, numbers bucketed). Exact duplicates: the same canonical code, where temporaries are\n"
            "also inlined and independent statements put in one order, so renderings that differ only by\n"
            "such restructuring are duplicates. Near duplicates: MinHash + LSH over the code in source\n"
            "order, every candidate pair confirmed by exact Jaccard on the shingle sets. Stores the clusters.\n"
            "Every sample with code ends in one cluster; clusters keep their ids across runs where they can.\n",
        .options = {{.name = "threshold",
                     .takesValue = true,
                     .valueName = "T",
                     .help = "Jaccard at or above which samples are duplicates (default 0.8)"},
                    {.name = "shingle", .takesValue = true, .valueName = "K", .help = "tokens per shingle (default 5)"},
                    {.name = "permutations",
                     .takesValue = true,
                     .valueName = "P",
                     .help = "MinHash permutations (default 128)"},
                    {.name = "scope",
                     .takesValue = true,
                     .valueName = "S",
                     .help = "'task' compares samples of the same task only (default), 'global' all",
                     .choices = {"task", "global"}},
                    {.name = "json", .help = "print the result as JSON"},
                    {.name = "dry-run", .help = "compute and print, write nothing"}},
        .notes = "Representative: accepted > unreviewed > rejected, then PASS, then faster, then lowest id.\n",
        .run = runDedup};
}

} // namespace sieve::cli
