#pragma once
// Shards of a verification: `sieve-cli verify DB --shard K/N --out DIR` copies the samples of shard K
// (with their tasks) out of the corpus into DIR/shard-K-of-N.sieve and verifies them there, so a cluster
// node needs only read access to the corpus (or a copy of it) and writes nothing shared. The shard file
// is itself a small corpus (same schema), so the verify run, its environment and verdicts land in the
// same tables as always; `sieve-cli merge` (shardmerge.h) folds them back. Layout: docs/FORMATS.md.
#include "gpu/verify/verifytypes.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sieve::db {
class Database;
}

namespace sieve::gpu {

inline constexpr const char *kShardFormat = "sieve-shard/1";

struct ShardSpec
{
    int index = 0, count = 1;
    // "K/N" with 0 <= K < N; throws std::invalid_argument with a message for the user.
    static ShardSpec parse(const std::string &text);
    std::string fileName() const; // shard-K-of-N.sieve
    std::string text() const;     // K/N
};

// The shard of a sample: the first 16 hex digits of XXH3-128(sample_key) as an integer, mod count. It
// depends only on the sample's own key, so it is the same on every node, for any order of the samples
// and whatever else the corpus holds.
int shardOf(std::string_view sampleKey, int count);

// What every shard of one job shares; a merge wants all `count` shards of one plan.
struct ShardPlan
{
    int count = 1;
    SampleSelection selection; // applied to the corpus before sharding
    std::string mode;          // "cpu" or "gpu" (the GPU list may differ per node)
    std::string corpusId;
    std::string key() const; // content key over format, corpus id, count, selection, mode
};

// A shard results file as its meta table describes it.
struct ShardFile
{
    std::string path;
    ShardSpec spec;
    ShardPlan plan;
    std::string planKey, uid, corpusPath;
    std::int64_t samples = 0;       // samples copied into this shard
    std::int64_t corpusSamples = 0; // samples the selection held in the whole corpus
    nlohmann::json taskFlagsBefore; // task_key -> tasks.flags when the shard was cut (null: none)
};

struct ShardError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// The corpus's random identity (meta 'corpus_id', given by Corpus::create and by the first read-write
// open); "" for a file that has none yet.
std::string corpusId(const db::Database &db);

// Creates outDir/shard-K-of-N.sieve from the corpus at corpusPath (opened read-only), unless the file
// exists: then it is reused when it belongs to the same plan (a resumed or repeated node job) and a
// ShardError says why not otherwise. The file appears under its name only once complete.
ShardFile prepareShardFile(const std::string &corpusPath, const ShardSpec &spec, const ShardPlan &plan,
                           const std::string &outDir, bool &created);

// Reads and checks the shard keys of a shard file's meta table; ShardError names what is wrong.
ShardFile readShardMeta(const db::Database &db, const std::string &path);

// Leaves the shard file as one self-contained file (no -wal beside it), ready to be copied.
void sealShardFile(const std::string &path);

} // namespace sieve::gpu
