#pragma once
// Dedup over a corpus: clusters of near-duplicate samples stored in `clusters`, `cluster_members` and
// `samples.cluster_id`, each with a representative. Every sample with code belongs to exactly one
// cluster (singletons included), so "one per cluster" is a plain query for selection and export.
//
// The representative is the first member by the sample preference order of core/select/samplepreference.h
// (accepted over unreviewed, passing over failing, faster over slower, then the earliest).
#include "core/db/corpus.h"
#include "core/dedup/dedup.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sieve {

enum class DedupScope { Task, Global };

struct CorpusDedupOptions
{
    DedupParams params;
    DedupScope scope = DedupScope::Task;
    bool dryRun = false;
};

struct ClusterMemberInfo
{
    std::int64_t sampleId = 0;
    std::string name;
    double similarity = 1.0; // exact Jaccard to the representative's shingles
};

struct ClusterInfo
{
    std::int64_t id = 0; // 0 in a dry run for a cluster that would be created
    std::optional<std::int64_t> taskId;
    std::string taskName;
    std::int64_t representative = 0;
    std::vector<ClusterMemberInfo> members; // the representative first, then by sample id
};

struct DedupReport
{
    std::size_t samples = 0;
    std::size_t candidates = 0;      // LSH band collisions (a pair counts once per shared band)
    std::size_t confirmedPairs = 0;  // candidates at or above the threshold
    std::size_t exactDuplicates = 0; // samples whose normalised tokens equal an earlier sample's
    LshParams lsh;
    std::vector<ClusterInfo> clusters; // every cluster, singletons included, by id
};

// Clusters every sample that has code, keeping existing cluster ids where the membership overlaps.
DedupReport dedupCorpus(Corpus &corpus, const CorpusDedupOptions &options);

// After new samples arrive: re-clusters only what they can affect (their tasks, or everything for a
// global scope). A new sample joins an existing cluster or creates one; clusters it bridges merge.
DedupReport updateClusters(Corpus &corpus, const CorpusDedupOptions &options,
                           const std::vector<std::int64_t> &sampleIds);

// Re-chooses the representatives of these clusters (after a verdict or a review changed a member) and
// recomputes the members' similarities when it changes. Returns the clusters whose representative changed.
std::vector<std::int64_t> refreshRepresentatives(Corpus &corpus, const std::vector<std::int64_t> &clusterIds,
                                                 const DedupParams &params = {});

} // namespace sieve
