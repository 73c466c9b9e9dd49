#pragma once
// Task difficulty from attempts-to-first-pass: easy when the task's first attempt passed, hard when
// it took two or more, unsolved when samples were verified and none passed, unknown when none has a
// verdict yet. Level and category come from the task; together they drive selection and the split.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {
namespace db {
class Database;
}

enum class Difficulty { Easy, Hard, Unsolved, Unknown };

const char *difficultyName(Difficulty d);
std::optional<Difficulty> parseDifficulty(std::string_view name);

// Statuses that carry no verdict (not verified yet, cancelled, or the task could not be verified).
bool isUnverifiedStatus(std::string_view status);
inline bool isPassStatus(std::string_view status)
{
    return status == "PASS";
}

struct TaskDifficulty
{
    std::int64_t taskId = 0;
    std::string name;
    std::optional<std::int64_t> level;
    std::optional<std::string> category;
    std::string backend;
    std::optional<std::string> target;
    Difficulty difficulty = Difficulty::Unknown;
    // 1 = the first attempt passed. Attempts are samples.attempt; samples without one count in the
    // order they were added (by id), after the numbered ones.
    std::optional<int> attemptsToFirstPass;
    int samples = 0;
    int verified = 0;
    int passed = 0;
};

// Which samples count, for expert iteration: a run of the fine-tuned model must not rewrite the base
// model's difficulty labels, and pass@1 before/after is measured on the held-out tasks only. Empty
// fields: no restriction.
struct SampleScope
{
    std::optional<std::string> model;              // samples.model
    std::optional<std::string> run;                // sample_runs.name: the samples that run stored
    std::optional<std::vector<std::string>> tasks; // task names (a held-out task list)
    bool empty() const { return !model && !run && !tasks; }
    std::string describe() const; // "model=M run=R tasks=N", "all samples" when empty
};

// The sample ids in scope (all samples when the scope is empty: then `all` is set and ids is empty),
// and the task ids of scope.tasks. Throws std::runtime_error naming an unknown run or task.
struct ScopeFilter
{
    bool all = true;
    std::vector<std::int64_t> sampleIds; // sorted
    bool allTasks = true;
    std::vector<std::int64_t> taskIds; // sorted
    bool hasSample(std::int64_t id) const;
    bool hasTask(std::int64_t id) const;
};
ScopeFilter resolveScope(const db::Database &db, const SampleScope &scope);

// Task names from a file, one per line; blank lines and '#' comments skipped. Throws std::runtime_error
// naming the file when it cannot be read.
std::vector<std::string> readTaskList(const std::string &path);

// Every task, ordered by id; with a scope, only its samples count (tasks outside its task list are
// left out).
std::vector<TaskDifficulty> taskDifficulties(const db::Database &db, const SampleScope &scope = {});

} // namespace sieve
