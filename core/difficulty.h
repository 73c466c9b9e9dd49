#pragma once
// Task difficulty from attempts-to-first-pass: easy when the task's first attempt passed, hard when
// it took two or more, unsolved when samples were verified and none passed, unknown when none has a
// verdict yet. Level and category come from the task; together they drive selection and the split.
#include <cstdint>
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
inline bool isPassStatus(std::string_view status) { return status == "PASS"; }

struct TaskDifficulty {
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

// Every task, ordered by id.
std::vector<TaskDifficulty> taskDifficulties(const db::Database &db);

} // namespace sieve
