#pragma once
// The sbatch array script that `sieve-cli slurm-script` writes: one array task per shard, each running
// `sieve-cli verify DB --shard $SLURM_ARRAY_TASK_ID/N --out DIR`, and the merge command in a comment.
#include <optional>
#include <string>
#include <vector>

namespace sieve::gpu {

struct SlurmScriptOptions
{
    std::string sieveCli; // absolute path of sieve-cli on the nodes
    std::string corpus;   // absolute path of the corpus (read-only on the nodes)
    std::string outDir;   // absolute path of the shard results folder (shared, writable)
    int shards = 1;
    bool cpu = false;
    int gpusPerTask = 1;
    int cpusPerTask = 8;
    std::string time = "04:00:00";
    std::string partition, account, jobName = "sieve-verify";
    std::string mem;                     // --mem, e.g. 64G ("" = the cluster's default)
    std::vector<std::string> verifyArgs; // passed to every shard's verify (selection, --python, --timeout ...)
};

// Slurm's time formats: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS.
bool validSlurmTime(const std::string &time);

// Single-quoted for sh, so any path survives.
std::string shellQuote(const std::string &s);

std::string slurmScript(const SlurmScriptOptions &options);

} // namespace sieve::gpu
