#pragma once
// Task augmentation: variants of a task across shapes and dtypes (seed 000, "Task augmentation"). A
// variant is a task of its own (its content key covers the reference, dtype, tolerances and shapes, as
// an imported task's does), with the parent's reference module, level, category, backend, target,
// source and licence, and a link to its family in tasks.provenance_json:
//   {"variant_of": FAMILY_KEY, "parent": PARENT_NAME, "shapes": [...], "dtype": "..", "generator": {..}}
// ("generator" only for a variant a teacher proposed: see VariantSpec).
// FAMILY_KEY is the task_key of the family's root (a variant of a variant joins the root's family),
// so the export's split keeps a family in one split and the statistics group by family.
//
// Each variant is checked before it is kept (the caller's check: the gpu layer runs the reference in
// the verifier worker, hygiene and fit on the device); a variant that fails is not stored.
#include "core/db/corpus.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sieve {

struct VariantSpec
{
    std::optional<std::string> shapesJson; // a JSON array of shape objects; unset: the parent's
    std::optional<std::string> dtype;      // unset: the parent's
    // Who proposed it, a JSON object stored as provenance_json.generator (augment --teacher: {"by":
    // "teacher", "model", "prompt", "prompt_sha256", "proposal", "why"}); unset: the command line's.
    std::optional<std::string> generatorJson;
};

// "M=128,N=256" -> [{"M":128,"N":256}]; several shapes in one variant with ';' ("M=7;M=4096").
// Values are numbers, true/false, or [n,n,...] lists. Throws std::invalid_argument naming the text.
std::string parseShapeSet(const std::string &text);

// The reference with its module-level constants (NAME = VALUE lines at column 0) set to the first shape
// of shapesJson, so a variant's prompt shows the sizes it is checked at; other lines are kept as they are.
std::string withShapeConstants(const std::string &reference, const std::string &shapesJson);

// --shapes S1 S2 --dtypes D1 D2: without grid, one variant per shape set (the parent's dtype) and one
// per dtype (the parent's shapes); with grid, every (shape set, dtype) pair.
std::vector<VariantSpec> variantSpecs(const std::vector<std::string> &shapeSets, const std::vector<std::string> &dtypes,
                                      bool grid);

struct VariantTask
{
    std::string name, key, parentName, familyKey, dtype, referenceCode;
    std::optional<std::string> shapesJson;
    std::optional<double> atol, rtol;
};

struct VariantOutcome
{
    VariantTask task;
    std::string state;   // "created", "exists" (the same content is already a task), "failed"
    std::string message; // why it failed (the check's words)
    std::optional<std::int64_t> taskId;
};

// The check of a variant before it is stored: empty when it is fine, else why not.
using VariantCheck = std::function<std::string(const VariantTask &)>;

// Creates the variants of task `parentName` (throws std::runtime_error naming an unknown task or a
// bad dtype). Checks run outside any transaction; each kept variant is stored in its own transaction.
std::vector<VariantOutcome> augmentTask(Corpus &corpus, const std::string &parentName,
                                        const std::vector<VariantSpec> &specs, const VariantCheck &check);

// How many variants of `parentName` in the corpus were proposed by `by` (provenance_json.generator.by).
int variantsProposedBy(const db::Database &db, const std::string &parentName, const std::string &by);

// Family of every task: task id -> the family's root task name (a task without variant_of is its own
// root). Used by the split and the statistics.
std::map<std::int64_t, std::string> taskFamilies(const db::Database &db);

} // namespace sieve
