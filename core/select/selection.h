#pragma once
// Selection recipes: which samples go into an export. Every step is deterministic given the corpus
// and the options: candidates are put in a stable order before any seeded draw, and draws use
// std::mt19937_64 with our own index mapping (std::shuffle and the standard distributions differ
// between standard libraries, which would break "same seed, same set" across machines).
//
// Steps, in order:
//  1. policy: rejected samples never; then --require passed (PASS, default), accepted (reviewed
//     accepted, any status) or passed-and-accepted; samples without an answer never;
//  2. one per cluster: the cluster's representative when it is eligible, otherwise the best eligible
//     member by the sample preference order of core/select/samplepreference.h (the dedup's representative
//     rule: accepted, passing, fastest, then earliest); samples outside any cluster stand for themselves;
//  3. per-task cap: the best samples by the same order;
//  4. difficulty: with --easy N or --easy-fraction F, all hard tasks plus that many easy tasks drawn
//     at random; other difficulties are left out;
//  5. quotas: at most N tasks per category, level or backend value, tasks taken in a seeded random order.
// Between 1 and 2, the speedup bar (--min-speedup, --min-speedup-compile): the sample's newest verdict
// must have GPU timings (not interpreted) and clear the bar against eager PyTorch and/or torch.compile;
// samples without timings are left out as "no timing", those under the bar as "below speedup".
// Also in step 1, --judge (JudgeFilter): the teacher judge's suggestions keep or drop samples.
// In step 1 a passing verdict made with stage 0 skipped (`verify --skip-static`) is not passing unless
// includeSkipStatic is set ("static skipped" in the exclusions); a sample whose newest verdict has a flag of
// excludeFlags is left out ("flag NONDETERMINISTIC").
#include "core/select/difficulty.h"

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {
namespace db {
class Database;
}

enum class RequirePolicy { Passed, Accepted, PassedAndAccepted };
// What the teacher's judge suggestions (sieve-cli judge, core/store/teacherstore.h) do to a selection:
// nothing; keep only samples the judge says implement the operator ("judge: not implements" for the rest,
// unjudged, unsure and unparseable included); or drop the samples it flags as delegates or wrong ("judge:
// flagged"), keeping unjudged ones.
enum class JudgeFilter { None, Require, Exclude };
const char *judgeFilterName(JudgeFilter f);
std::optional<JudgeFilter> parseJudgeFilter(std::string_view name);
const char *requireName(RequirePolicy p);
std::optional<RequirePolicy> parseRequire(std::string_view name);

struct Quota
{
    std::string field; // "category", "level" or "backend" (the task's)
    std::string value; // "*" for every value
    int maxTasks = 0;
};
// "category=softmax:50", "level=1:100", "category=*:40", "backend=cuda:30". Throws std::invalid_argument on bad text.
Quota parseQuota(const std::string &text);

struct SelectionOptions
{
    RequirePolicy require = RequirePolicy::Passed;
    bool onePerCluster = true;
    int maxPerTask = 0; // 0: no cap
    std::optional<int> easyCount;
    std::optional<double> easyFraction;
    std::vector<Quota> quotas;
    std::uint64_t seed = 0;
    std::optional<double> minSpeedup;        // against eager PyTorch (verdicts.eager_ms / candidate_ms)
    std::optional<double> minSpeedupCompile; // against torch.compile (verdicts.compile_ms / candidate_ms)
    // The samples the difficulty labels come from (--difficulty-model, --difficulty-run): the base
    // model's, so that samples of a fine-tuned model added later do not relabel the tasks.
    SampleScope difficultyScope;
    // A sample whose newest verdict was made with stage 0 skipped (`sieve-cli verify --skip-static`, verdict
    // flag STATIC_SKIPPED) does not count as passing unless this is set: such a run measures the runtime
    // walls alone, it does not admit training data.
    bool includeSkipStatic = false;
    JudgeFilter judge = JudgeFilter::None;
    // Samples whose newest verdict carries any of these flags are left out ("flag X" in the exclusions):
    // NONDETERMINISTIC (its result changes from call to call), SPEEDUP_OVER_10X, a stage-0 note's code.
    std::vector<std::string> excludeFlags;
};

// The samples whose newest verdict carries `flag`; staticSkippedSamples: store::kStaticSkippedFlag.
std::set<std::int64_t> samplesWithFlag(const db::Database &db, const std::string &flag);
std::set<std::int64_t> staticSkippedSamples(const db::Database &db);
// Whether a verdict flag is a name a verdict can carry (upper case letters, digits, underscores).
bool isFlagName(std::string_view flag);

// The timing of a sample's newest verdict: speedups against eager and torch.compile, when measured on
// a GPU (interpreted verdicts have none). Shared by the selection's speedup bar and the export's meta.
struct VerdictTiming
{
    std::optional<double> eager, compile;
};
std::map<std::int64_t, VerdictTiming> newestVerdictTimings(const db::Database &db);

struct SelectedSample
{
    std::int64_t sampleId = 0;
    std::string sampleName;
    std::string sampleKey;
    std::int64_t taskId = 0;
    std::string taskName;
    std::optional<std::int64_t> level;
    std::optional<std::string> category;
    std::string backend;       // the task's
    std::string answerBackend; // the sample's (a CUDA answer to a Triton task is "cuda")
    std::optional<std::string> target;
    std::string dtype;
    std::optional<std::string> model;
    std::optional<std::int64_t> attempt;
    std::optional<double> speedup;
    std::string status;
    std::string review;
    Difficulty difficulty = Difficulty::Unknown;
};

struct Selection
{
    // Ordered by task name, then sample id.
    std::vector<SelectedSample> samples;
    // Why samples were left out, with counts: "rejected", "no answer", "policy", "cluster duplicate",
    // "per-task cap", "difficulty", "quota", "no timing", "below speedup", "judge: not implements",
    // "judge: flagged".
    std::map<std::string, std::int64_t> excluded;
    std::int64_t candidates = 0; // samples in the corpus
};

Selection selectSamples(const db::Database &db, const SelectionOptions &options);

// The selection's order of merit (core/select/samplepreference.h): true when a is preferred to b.
bool preferredInSelection(const SelectedSample &a, const SelectedSample &b);

// The distribution of a selection: tasks and samples per difficulty, level, category, backend, model.
nlohmann::json selectionSummary(const Selection &s);

// Seeded helpers, shared with the split so both draw the same way.
std::size_t uniformIndex(std::mt19937_64 &rng, std::size_t n); // in [0, n)
template <typename T> void seededShuffle(std::vector<T> &v, std::mt19937_64 &rng)
{
    for (std::size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[uniformIndex(rng, i)]);
}

} // namespace sieve
