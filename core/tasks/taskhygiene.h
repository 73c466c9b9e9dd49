#pragma once
// Task hygiene as stored in the corpus (table task_hygiene, one row per task): what `sieve-cli tasks check`
// found running the reference on a device, or what the importer found reading its imports. Codes are the
// worker's (docs/VERIFIER.md, "Task hygiene"); the importer adds TASK_IMPORT_MISSING and
// TASK_NEEDS_DOWNLOAD from a scan of the reference's import statements, since it cannot import Python.
#include "core/db/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {

struct TaskHygiene
{
    std::int64_t taskId = 0;
    std::string state;  // ok | broken | unjudged | import_missing | unchecked
    std::string codes;  // comma-joined codes, fatal and notes alike ("" when none)
    std::string device; // "cuda:0 (NVIDIA H200)", "cpu", or "import" for the importer's scan
    std::int64_t checkedAt = 0;
    std::string reportJson; // the worker's task_checked message, or the importer's findings
};

// Inserts or replaces the task's row (inside the caller's transaction, if any).
void storeTaskHygiene(db::Database &db, const TaskHygiene &h);
std::optional<TaskHygiene> loadTaskHygiene(const db::Database &db, std::int64_t taskId);

struct ImportFinding
{
    std::string code; // TASK_IMPORT_MISSING | TASK_NEEDS_DOWNLOAD
    std::string name; // the module, or the download call
    int line = 0;
};

// Top-level modules the reference imports (every `import X` / `from X import`, also indented ones, outside
// strings and comments as far as a line scan can tell) that the verifier's environment does not provide,
// and download calls (from_pretrained, hf_hub_download, ...). The environment is setup.sh's: Python's
// standard library plus torch, triton, numpy and what they pull in.
std::vector<ImportFinding> scanReferenceImports(std::string_view code);
bool verifierProvidesModule(std::string_view topLevelModule);

struct ImportScanResult
{
    std::string taskName;
    std::vector<ImportFinding> findings;
};
// Scans every task that has no task_hygiene row yet and stores one for each ('import_missing' with its
// findings, else 'unchecked'). Returns the tasks with findings. Used at the end of `sieve-cli import`.
std::vector<ImportScanResult> scanNewTaskImports(db::Database &db);

} // namespace sieve
