#include "cli.h"
#include "corpus.h"
#include "stats.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace sieve::cli {

namespace {
void printCounts(std::ostream &out, const char *title, const nlohmann::json &counts)
{
    out << title << ":";
    for (auto it = counts.begin(); it != counts.end(); ++it)
        out << "  " << it.key() << "=" << it.value().get<long long>();
    out << '\n';
}

int runStats(const Args &args, Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    Corpus c = Corpus::open(args.positional[0], true);
    const nlohmann::json s = corpusStats(c);
    if (args.has("json")) {
        ctx.out << s.dump(2) << '\n';
        return Ok;
    }
    ctx.out << "tasks: " << s["tasks"].get<long long>() << "  samples: " << s["samples"].get<long long>()
            << "  (without answer: " << s["samples_without_answer"].get<long long>() << ")\n";
    printCounts(ctx.out, "status", s["by_status"]);
    printCounts(ctx.out, "review", s["by_review"]);
    printCounts(ctx.out, "backend", s["by_backend"]);
    printCounts(ctx.out, "category", s["by_category"]);
    printCounts(ctx.out, "level", s["by_level"]);
    ctx.out << "\ntask\tlevel\tcategory\tsamples\tpassed\tpending\n";
    for (const auto &t : s["per_task"])
        ctx.out << t["task"].get<std::string>() << '\t' << (t["level"].is_null() ? std::string("-") : t["level"].dump())
                << '\t' << (t["category"].is_null() ? std::string("-") : t["category"].get<std::string>()) << '\t'
                << t["samples"] << '\t' << t["passed"] << '\t' << t["pending"] << '\n';
    return Ok;
}
} // namespace

Command statsCommand()
{
    return {"stats", "counts per task, category, level and status",
            "Usage: sieve-cli stats DB [--json]\n\n"
            "Prints counts per status, review decision, backend, category, level and task.\n"
            "  --json   the same figures as one JSON document\n",
            {{"json"}}, runStats};
}

} // namespace sieve::cli
