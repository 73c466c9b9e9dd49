#include "core/cli/selectcommon.h"

#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

namespace sieve::cli {

std::vector<OptionSpec> selectionOptions()
{
    return {
        {.name = "require",
         .takesValue = true,
         .valueName = "P",
         .help = "passed (default: passed the verifier, not rejected), accepted (a reviewer accepted it) or "
                 "passed-and-accepted. Rejected samples never go out.",
         .section = "Selection (applied in this order):",
         .choices = {"passed", "accepted", "passed-and-accepted"}},
        {.name = "include-skip-static",
         .help = "count a PASS made by 'verify --skip-static' (verdict flag STATIC_SKIPPED: stage 0 did not run) as "
                 "passing; by default such samples are left out as 'static skipped'"},
        {.name = "exclude-flags",
         .takesValue = true,
         .valueName = "F,..",
         .help = "leave out samples whose newest verdict carries any of these flags (comma-separated), e.g. "
                 "NONDETERMINISTIC (its output changed from call to call on the same inputs) or SPEEDUP_OVER_10X"},
        {.name = "judge",
         .takesValue = true,
         .valueName = "J",
         .help = "use the teacher judge's suggestions (sieve-cli judge): require keeps only samples it says implement "
                 "the operator; exclude drops those it flags (delegates, wrong) and keeps unjudged ones",
         .choices = {"require", "exclude"}},
        {.name = "all-in-cluster", .help = "keep every member of a dedup cluster (default: one per cluster)"},
        {.name = "max-per-task",
         .takesValue = true,
         .valueName = "N",
         .help = "keep at most N samples per task (accepted, passing, fastest, earliest first)"},
        {.name = "easy",
         .takesValue = true,
         .valueName = "N",
         .help = "all hard tasks plus N easy tasks drawn at random (others left out)"},
        {.name = "easy-fraction",
         .takesValue = true,
         .valueName = "F",
         .help = "the same with a fraction F of the easy tasks"},
        {.name = "quota",
         .takesValue = true,
         .repeatable = true,
         .valueName = "F=V:N",
         .help = "at most N tasks with category/level/backend V (F: category, level or backend, the task's; V "
                 "may be *); repeatable; tasks are taken in a seeded random order"},
        {.name = "min-speedup",
         .takesValue = true,
         .valueName = "X",
         .help = "keep samples whose newest verdict is at least X times faster than eager PyTorch (GPU "
                 "timings; samples without them are left out as 'no timing')"},
        {.name = "min-speedup-compile", .takesValue = true, .valueName = "X", .help = "the same against torch.compile"},
        {.name = "difficulty-model",
         .takesValue = true,
         .valueName = "M",
         .help = "difficulty labels (for --easy, the split's strata) from model M's samples only, e.g. the "
                 "base model's, so a fine-tuned model's run added later does not relabel the tasks"},
        {.name = "difficulty-run",
         .takesValue = true,
         .valueName = "R",
         .help = "the same from the samples of sampling run R"},
        {.name = "seed", .takesValue = true, .valueName = "S", .help = "seed of every random draw (default 0)"}};
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
    if (const auto j = args.value("judge")) {
        const auto f = parseJudgeFilter(*j);
        if (!f || *f == JudgeFilter::None)
            throw UsageError("--judge is require or exclude, not '" + *j + "'");
        o.judge = *f;
    }
    o.onePerCluster = !args.has("all-in-cluster");
    o.includeSkipStatic = args.has("include-skip-static");
    if (const auto flags = args.value("exclude-flags")) {
        std::string_view rest = *flags;
        while (!rest.empty()) {
            const std::size_t comma = rest.find(',');
            const std::string_view flag = rest.substr(0, comma);
            if (!isFlagName(flag))
                throw UsageError("--exclude-flags takes verdict flags (A-Z, 0-9, _) separated by commas, not '" +
                                 std::string(flag) + "'");
            o.excludeFlags.emplace_back(flag);
            rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            if (comma != std::string_view::npos && rest.empty())
                throw UsageError("--exclude-flags ends with a comma");
        }
    }
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
