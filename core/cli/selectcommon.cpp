#include "core/cli/selectcommon.h"

#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

namespace sieve::cli {

const char *const kSelectionHelp =
    "Selection (applied in this order):\n"
    "  --require P        passed (default: passed the verifier, not rejected), accepted (a reviewer\n"
    "                     accepted it) or passed-and-accepted. Rejected samples never go out.\n"
    "  --all-in-cluster   keep every member of a dedup cluster (default: one per cluster)\n"
    "  --max-per-task N   keep at most N samples per task (accepted, passing, fastest, earliest first)\n"
    "  --easy N           all hard tasks plus N easy tasks drawn at random (others left out)\n"
    "  --easy-fraction F  the same with a fraction F of the easy tasks\n"
    "  --quota F=V:N      at most N tasks with category/level V (F: category or level; V may be *);\n"
    "                     repeatable; tasks are taken in a seeded random order\n"
    "  --min-speedup X    keep samples whose newest verdict is at least X times faster than eager\n"
    "                     PyTorch (GPU timings; samples without them are left out as 'no timing')\n"
    "  --min-speedup-compile X  the same against torch.compile\n"
    "  --difficulty-model M  difficulty labels (for --easy, the split's strata) from model M's\n"
    "                     samples only, e.g. the base model's, so a fine-tuned model's run added later\n"
    "                     does not relabel the tasks\n"
    "  --difficulty-run R the same from the samples of sampling run R\n"
    "  --seed S           seed of every random draw (default 0)\n";

std::vector<OptionSpec> selectionOptions()
{
    return {{"require", true},
            {"all-in-cluster"},
            {"max-per-task", true},
            {"easy", true},
            {"easy-fraction", true},
            {"quota", true, true},
            {"seed", true},
            {"min-speedup", true},
            {"min-speedup-compile", true},
            {"difficulty-model", true},
            {"difficulty-run", true}};
}

SelectionOptions selectionFromArgs(const Args &args)
{
    SelectionOptions o;
    if (const auto r = args.value("require")) {
        const auto p = parseRequire(*r);
        if (!p)
            throw UsageError("--require is passed, accepted or passed-and-accepted, not '" + *r + "'");
        o.require = *p;
    }
    o.onePerCluster = !args.has("all-in-cluster");
    if (const auto n = args.integer("max-per-task")) {
        if (*n < 0)
            throw UsageError("--max-per-task must be >= 0");
        o.maxPerTask = static_cast<int>(*n);
    }
    if (args.has("easy") && args.has("easy-fraction"))
        throw UsageError("give --easy or --easy-fraction, not both");
    if (const auto n = args.integer("easy")) {
        if (*n < 0)
            throw UsageError("--easy must be >= 0");
        o.easyCount = static_cast<int>(*n);
    }
    if (const auto f = args.number("easy-fraction")) {
        if (*f < 0 || *f > 1)
            throw UsageError("--easy-fraction must be between 0 and 1");
        o.easyFraction = *f;
    }
    for (const std::string &q : args.all("quota")) {
        try {
            o.quotas.push_back(parseQuota(q));
        } catch (const std::invalid_argument &e) {
            throw UsageError(e.what());
        }
    }
    if (const auto s = args.integer("seed"))
        o.seed = static_cast<std::uint64_t>(*s);
    o.difficultyScope.model = args.value("difficulty-model");
    o.difficultyScope.run = args.value("difficulty-run");
    const std::pair<const char *, std::optional<double> *> bars[] = {{"min-speedup", &o.minSpeedup},
                                                                     {"min-speedup-compile", &o.minSpeedupCompile}};
    for (const auto &[name, bar] : bars)
        if (const auto x = args.number(name)) {
            if (!(*x > 0))
                throw UsageError(std::string("--") + name + " must be > 0");
            *bar = *x;
        }
    return o;
}

void printBreakdown(std::ostream &out, const char *title, const nlohmann::json &part, const char *unit)
{
    out << title << ":";
    for (auto it = part.begin(); it != part.end(); ++it)
        out << "  " << it.key() << "=" << it.value()["tasks"].get<long long>() << "/"
            << it.value()[unit].get<long long>();
    out << '\n';
}

void printSelection(std::ostream &out, const nlohmann::json &s)
{
    out << "selected: " << s["tasks"].get<long long>() << " tasks, " << s["samples"].get<long long>() << " samples (of "
        << s["candidates"].get<long long>() << ")\n";
    out << "(tasks/samples)\n";
    for (const char *k : {"by_difficulty", "by_level", "by_category", "by_backend", "by_model"})
        printBreakdown(out, k + 3, s[k], "samples");
    out << "excluded:";
    for (auto it = s["excluded"].begin(); it != s["excluded"].end(); ++it)
        out << "  " << it.key() << "=" << it.value().get<long long>();
    out << '\n';
}

} // namespace sieve::cli
