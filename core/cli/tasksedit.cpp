// sieve-cli tasks set / tasks categorize: a task's operator category, set by hand or inferred from the ops
// its reference calls (core/tasks/category.h). `tasks check` (gpu/cli/tasks.cpp) dispatches here.
#include "core/cli/commands.h"
#include "core/db/corpus.h"
#include "core/tasks/category.h"

#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <set>

namespace sieve::cli {

namespace {

nlohmann::json optText(const std::optional<std::string> &v)
{
    return v ? nlohmann::json(*v) : nlohmann::json();
}

void checkOnly(const Args &args, const std::set<std::string> &allowed, const std::string &sub)
{
    for (const auto &[name, values] : args.values)
        if (!allowed.count(name))
            throw UsageError("--" + name + " is not an option of 'tasks " + sub + "'");
    for (const std::string &flag : args.flags)
        if (!allowed.count(flag))
            throw UsageError("--" + flag + " is not an option of 'tasks " + sub + "'");
}

} // namespace

std::vector<OptionSpec> taskEditOptions()
{
    return {{.name = "category",
             .takesValue = true,
             .valueName = "C",
             .help = "tasks set: the category of the --task tasks",
             .section = "tasks set / tasks categorize:",
             .choices = taskCategories()},
            {.name = "redo", .help = "tasks categorize: also infer again the categories inferred before"},
            {.name = "dry-run", .help = "tasks categorize: print what would change, write nothing"}};
}

bool isTaskEdit(const Args &args)
{
    return !args.positional.empty() && (args.positional[0] == "set" || args.positional[0] == "categorize");
}

int runTaskEdit(const Args &args, Context &ctx)
{
    const std::string sub = args.positional[0];
    if (args.positional.size() != 2)
        throw UsageError("expected '" + sub + "' and the corpus file: sieve-cli tasks " + sub + " DB");
    const bool json = args.has("json"), dryRun = args.has("dry-run");
    Corpus corpus = Corpus::open(args.positional[1], dryRun);
    std::vector<CategoryChange> changes;
    if (sub == "set") {
        checkOnly(args, {"task", "category", "json"}, sub);
        if (args.all("task").empty() || !args.has("category"))
            throw UsageError("tasks set needs --task NAME (repeatable) and --category C");
        db::Transaction tx(corpus.db());
        for (const std::string &t : args.all("task"))
            changes.push_back(setTaskCategory(corpus.db(), t, *args.value("category")));
        tx.commit();
    } else {
        checkOnly(args, {"redo", "dry-run", "json"}, sub);
        changes = inferTaskCategories(corpus.db(), args.has("redo"), dryRun);
    }
    std::map<std::string, int> byCategory;
    int changed = 0;
    for (const CategoryChange &c : changes) {
        changed += c.after && c.after != c.before;
        ++byCategory[c.after.value_or("(none)")];
        if (json)
            ctx.out
                << nlohmann::json{{"task", c.task}, {"before", optText(c.before)}, {"after", optText(c.after)}}.dump()
                << '\n';
        else
            ctx.out << c.task << '\t' << c.before.value_or("-") << " -> " << c.after.value_or("(none inferred)")
                    << '\n';
    }
    if (json)
        return Ok;
    ctx.out << changes.size() << " tasks looked at, " << changed << (dryRun ? " would change" : " changed") << ":";
    for (const auto &[category, n] : byCategory)
        ctx.out << ' ' << category << ' ' << n;
    ctx.out << '\n';
    return Ok;
}

} // namespace sieve::cli
