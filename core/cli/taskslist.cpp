// sieve-cli tasks list: the tasks of a corpus with their family (a task and its variants: core/tasks/augment.h)
// and who made each variant (the command line's --shapes/--dtypes, or a teacher: augment --teacher).
// `tasks` (gpu/cli/tasks.cpp) dispatches here.
#include "core/cli/commands.h"
#include "core/db/corpus.h"
#include "core/tasks/augment.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>

namespace sieve::cli {

bool isTaskList(const Args &args)
{
    return !args.positional.empty() && args.positional[0] == "list";
}

int runTaskList(const Args &args, Context &ctx)
{
    if (args.positional.size() != 2)
        throw UsageError("expected 'list' and the corpus file: sieve-cli tasks list DB");
    for (const auto &[name, values] : args.values)
        if (name != "family")
            throw UsageError("--" + name + " is not an option of 'tasks list'");
    for (const std::string &flag : args.flags)
        if (flag != "json")
            throw UsageError("--" + flag + " is not an option of 'tasks list'");
    Corpus corpus = Corpus::open(args.positional[1], true);
    const auto families = taskFamilies(corpus.db());
    // --family names any task of a family; the family is its root's (a task without variants: itself).
    std::optional<std::string> family;
    if (const auto named = args.value("family")) {
        db::Statement known = corpus.db().prepare("SELECT id FROM tasks WHERE name = ?1");
        known.bind(1, *named);
        if (!known.step())
            throw UsageError("no task named '" + *named + "' in " + args.positional[1]);
        family = families.count(known.int64(0)) ? families.at(known.int64(0)) : *named;
    }
    db::Statement st = corpus.db().prepare(
        "SELECT id, name, backend, dtype, category, shapes_json, CASE WHEN json_valid(provenance_json) THEN "
        "json_extract(provenance_json, '$.parent') END, CASE WHEN json_valid(provenance_json) THEN "
        "json_extract(provenance_json, '$.generator') END FROM tasks ORDER BY name");
    const bool json = args.has("json");
    if (!json)
        ctx.out << "id\ttask\tbackend\tdtype\tcategory\tfamily\tparent\tmade_by\tshapes\n";
    while (st.step()) {
        const std::string root = families.count(st.int64(0)) ? families.at(st.int64(0)) : st.text(1);
        if (family && root != *family)
            continue;
        const nlohmann::json generator =
            st.isNull(7) ? nlohmann::json() : nlohmann::json::parse(st.text(7), nullptr, false);
        std::string madeBy = st.isNull(6) ? "-" : "command line";
        if (generator.is_object())
            madeBy = generator.value("by", std::string("?")) + " " + generator.value("model", std::string());
        if (json) {
            ctx.out << nlohmann::json{{"id", st.int64(0)},
                                      {"task", st.text(1)},
                                      {"backend", st.text(2)},
                                      {"dtype", st.text(3)},
                                      {"category", st.isNull(4) ? nlohmann::json() : nlohmann::json(st.text(4))},
                                      {"family", root},
                                      {"parent", st.isNull(6) ? nlohmann::json() : nlohmann::json(st.text(6))},
                                      {"generator", generator.is_object() ? generator : nlohmann::json()},
                                      {"shapes", st.isNull(5) ? nlohmann::json()
                                                              : nlohmann::json::parse(st.text(5), nullptr, false)}}
                           .dump()
                    << '\n';
        } else {
            ctx.out << st.int64(0) << '\t' << st.textView(1) << '\t' << st.textView(2) << '\t' << st.textView(3) << '\t'
                    << (st.isNull(4) ? std::string("-") : st.text(4)) << '\t' << root << '\t'
                    << (st.isNull(6) ? std::string("-") : st.text(6)) << '\t' << madeBy << '\t'
                    << (st.isNull(5) ? std::string("-") : st.text(5)) << '\n';
        }
    }
    return Ok;
}

} // namespace sieve::cli
