#include "difficulty.h"

#include "database.h"

#include <map>

namespace sieve {

const char *difficultyName(Difficulty d)
{
    switch (d) {
    case Difficulty::Easy:
        return "easy";
    case Difficulty::Hard:
        return "hard";
    case Difficulty::Unsolved:
        return "unsolved";
    case Difficulty::Unknown:
        return "unknown";
    }
    return "unknown";
}

std::optional<Difficulty> parseDifficulty(std::string_view name)
{
    for (Difficulty d : {Difficulty::Easy, Difficulty::Hard, Difficulty::Unsolved, Difficulty::Unknown})
        if (name == difficultyName(d))
            return d;
    return std::nullopt;
}

bool isUnverifiedStatus(std::string_view status)
{
    return status == "PENDING" || status == "CANCELLED" || status == "UNVERIFIABLE";
}

std::vector<TaskDifficulty> taskDifficulties(const db::Database &db)
{
    std::vector<TaskDifficulty> tasks;
    std::map<std::int64_t, std::size_t> index;
    db::Statement t = db.prepare("SELECT id, name, level, category, backend, target FROM tasks ORDER BY id");
    while (t.step()) {
        TaskDifficulty d;
        d.taskId = t.int64(0);
        d.name = t.text(1);
        d.level = t.optInt64(2);
        if (!t.isNull(3))
            d.category = t.text(3);
        d.backend = t.text(4);
        if (!t.isNull(5))
            d.target = t.text(5);
        index[d.taskId] = tasks.size();
        tasks.push_back(std::move(d));
    }
    // Samples in attempt order within each task: numbered attempts first, then the rest by id.
    db::Statement s = db.prepare("SELECT task_id, status, attempt FROM samples "
                                 "ORDER BY task_id, attempt IS NULL, attempt, id");
    std::int64_t current = -1;
    int position = 0;
    std::optional<std::int64_t> firstAttempt;
    while (s.step()) {
        const std::int64_t taskId = s.int64(0);
        const auto it = index.find(taskId);
        if (it == index.end())
            continue;
        const std::optional<std::int64_t> attempt = s.optInt64(2);
        if (taskId != current) {
            current = taskId;
            position = 0;
            firstAttempt = attempt;
        }
        ++position;
        TaskDifficulty &d = tasks[it->second];
        ++d.samples;
        const std::string_view status = s.textView(1);
        if (isUnverifiedStatus(status))
            continue;
        ++d.verified;
        if (isPassStatus(status)) {
            ++d.passed;
            // Numbered attempts count from the task's first number (several samples may share one);
            // unnumbered ones by their place in the list.
            if (!d.attemptsToFirstPass)
                d.attemptsToFirstPass =
                    attempt && firstAttempt ? static_cast<int>(*attempt - *firstAttempt + 1) : position;
        }
    }
    for (TaskDifficulty &d : tasks) {
        if (d.attemptsToFirstPass)
            d.difficulty = *d.attemptsToFirstPass == 1 ? Difficulty::Easy : Difficulty::Hard;
        else
            d.difficulty = d.verified > 0 ? Difficulty::Unsolved : Difficulty::Unknown;
    }
    return tasks;
}

} // namespace sieve
