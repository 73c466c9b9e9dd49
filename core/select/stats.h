#pragma once
// Corpus statistics: counts per task, category, level and status; pass@k, fast_p, geometric-mean
// speedup and the failure taxonomy, overall and per category, level and teacher model. Returned as
// JSON so the CLI and the GUI show the same figures.
//
// Definitions (a "verified" sample has a status other than PENDING, CANCELLED, UNVERIFIABLE):
//   pass@k   mean over tasks with at least one verified sample of 1 - C(n-c, k)/C(n, k), n verified
//            and c passing samples of the task; a task with n < k uses k = n.
//   fast_p   share of the tasks that have samples with a passing sample whose speedup > p
//            (p = 0: passing at all, speedup or not).
//   geomean  exp(mean(log speedup)) over passing samples that have a speedup > 0.
//   failures samples.status counts of verified samples that did not pass, and the reason codes of
//            each sample's latest verdict (verdicts.reasons: a JSON array or comma-separated).
//
// A scope (core/select/difficulty.h: a model, a sampling run, a task list) restricts the verification metrics
// (metrics, metrics_by) to its samples; the counts above them stay the corpus's. compareScopes measures
// two scopes on the same tasks (expert iteration: the base model, then the fine-tuned one, on the
// held-out tasks): per task n, c and pass@1 = c / n of each, and pass@1 as the mean over tasks of the
// per-task pass rate (every task at equal weight), over each side's verified tasks and over the tasks
// both have verified (paired, with the tasks that improved, got worse or stayed).
#include "core/select/difficulty.h"

#include <nlohmann/json_fwd.hpp>

namespace sieve {
class Corpus;
namespace db {
class Database;
}
nlohmann::json corpusStats(const Corpus &corpus, const SampleScope &scope = {});
// The judge's suggestions (sieve-cli judge) against the verifier: judged samples, counts per verdict, the
// verdict x status table (pass / fail / unverified), the disagreements (a PASS the judge flags as delegates or
// wrong; a failing sample it says implements the operator) and the agreement over samples both decided on
// (judge implements/delegates/wrong, verifier pass/fail). Also under "judge" in corpusStats.
nlohmann::json judgeStats(const db::Database &db);
nlohmann::json compareScopes(const Corpus &corpus, const SampleScope &a, const SampleScope &b);

// The unbiased estimator, computed as a product so that large n does not overflow.
double passAtK(int n, int c, int k);
} // namespace sieve
