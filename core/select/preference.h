#pragma once
// Preference pairs for DPO-style training: each pair is a selected (passing) sample of a task, the
// "chosen" answer, and a failing sample of the same task, the "rejected" one.
//
// The chosen side is the selection (core/select/selection.h) with every step applied. The rejected side is
// the task's samples with a failing verdict and an answer, in classes, better negatives first:
//   compiled  FAIL_MISMATCH, FAIL_RUNTIME: it built and ran, and computed the wrong thing
//   static    FAIL_STATIC for a kernel-writing fault (TORCH_OP_IN_FORWARD, NO_KERNEL, ...): a fallback
//   compile   FAIL_COMPILE, TIMEOUT
//   hostile   FAIL_SANDBOX, FAIL_SHAM, and FAIL_STATIC with a PATCHES_*, FORBIDDEN_*, DYNAMIC_CODE or
//             INCLUDE_FORBIDDEN reason (or no recorded reason): left out unless keepHostile
// CRASH (the harness may have died, not the sample) and unverified statuses are never negatives; nor is
// a reviewer-accepted sample, nor one whose code is byte for byte a chosen sample's (a flaky verdict).
// With one-per-cluster, a dedup cluster gives at most one negative.
//
// Pairing, per task and answer backend (a negative in another backend than every chosen answer of the
// task is left out): chosen C (in preference order) and rejected R (class, then earliest attempt, then
// id); pair i = (chosen[i mod C], rejected[i mod R]) for i < min(maxPairsPerTask, max(C, R)): no pair
// twice, every negative used before any is reused.
#include "core/select/selection.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sieve {

struct PairOptions
{
    int maxPairsPerTask = 4; // 0: no cap
    bool keepHostile = false;
};

struct RejectedSample
{
    SelectedSample sample;     // status is the failing one; difficulty is the task's
    std::string negativeClass; // "compiled", "static", "compile", "hostile"
};

struct PreferencePair
{
    std::size_t chosen = 0;   // index into the selection's samples
    std::size_t rejected = 0; // index into Pairs::rejected
};

struct Pairs
{
    Selection selection;                  // the chosen side
    std::vector<RejectedSample> rejected; // the negatives that are used
    std::vector<PreferencePair> pairs;    // by task name, then chosen sample id, then pair number
    // Negatives left out, per reason ("hostile", "crash", "accepted", "same code as a chosen sample",
    // "cluster duplicate", "no answer", "pair cap"), and tasks with a chosen sample but no negative.
    std::map<std::string, std::int64_t> excludedNegatives;
    std::int64_t tasksWithoutNegative = 0;
    std::map<std::string, std::int64_t> pairsByClass;
};

// The class of a failing status with its verdict's reasons; empty when it is no negative at all.
std::string negativeClass(std::string_view status, const std::vector<std::string> &reasons);

Pairs selectPairs(const db::Database &db, const SelectionOptions &selection, const PairOptions &options);

} // namespace sieve
