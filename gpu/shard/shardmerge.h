#pragma once
// `sieve-cli merge DB DIR...`: folds shard results files (shard.h) into the corpus. Every file is checked
// first (SQLite header and size, integrity, shard meta, corpus identity, that each sample exists in this
// corpus with the same code, that its run finished with a verdict per sample, that every shard of a job is
// there); problems are reported with the file and the reason, and by default nothing is merged then.
// Merging is idempotent: a shard run is keyed by "<shard uid>/<run id>" (params_json.merged_from.run_uid
// of the corpus run it becomes), and one that is already there is skipped. All of it is one transaction.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sieve::gpu {

struct MergeProblem
{
    std::string file;
    std::string reason;
};

struct MergedRun
{
    std::string file, uid, shard; // shard = "K/N"
    std::int64_t corpusRunId = 0; // the run it became (or already was) in the corpus
    bool alreadyMerged = false;
    std::uint64_t verdicts = 0;
    std::map<std::string, std::uint64_t> byStatus;
};

struct MergeReport
{
    std::vector<MergedRun> runs;
    std::vector<MergeProblem> problems;
    std::uint64_t files = 0;
    bool committed = false; // false: nothing was written
};

struct MergeOptions
{
    // Merge the files that pass the checks even when others do not (the problems are still reported).
    bool partial = false;
};

// `inputs` are shard files or folders (every shard-K-of-N.sieve directly inside). Throws only when the
// corpus itself cannot be opened or written; everything about the inputs goes to problems.
MergeReport mergeShards(const std::string &corpusPath, const std::vector<std::string> &inputs,
                        const MergeOptions &options = {});

} // namespace sieve::gpu
