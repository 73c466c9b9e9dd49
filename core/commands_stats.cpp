#include "cli.h"
#include "corpus.h"
#include "stats.h"

#include <nlohmann/json.hpp>

#include <cstdio>
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

std::string fmt(const nlohmann::json &v, bool percent)
{
    if (v.is_null())
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, percent ? "%.1f%%" : "%.3g", v.get<double>() * (percent ? 100.0 : 1.0));
    return buf;
}

void printMetricsHeader(std::ostream &out, const char *first)
{
    out << first << "\ttasks\tsamples\tverified\tpass@1\tpass@5\tpass@10\tfast_0\tfast_0.5\tfast_0.8\tfast_1"
           "\tfast_1.5\tfast_2\tgeomean\n";
}

void printMetricsRow(std::ostream &out, const std::string &name, const nlohmann::json &m)
{
    out << name << '\t' << m["tasks"] << '\t' << m["samples"] << '\t' << m["verified"];
    for (const char *k : {"1", "5", "10"})
        out << '\t' << fmt(m["pass_at_k"][k], true);
    for (const char *p : {"0", "0.5", "0.8", "1", "1.5", "2"})
        out << '\t' << fmt(m["fast_p"][p], true);
    out << '\t' << fmt(m["geomean_speedup"], false) << '\n';
}

void printFailures(std::ostream &out, const nlohmann::json &m)
{
    printCounts(out, "failures by status", m["failures"]["by_status"]);
    printCounts(out, "failures by reason", m["failures"]["by_reason"]);
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
    ctx.out << "\nverification (pass@k over tasks with verdicts; fast_p over tasks with samples)\n";
    printMetricsHeader(ctx.out, "group");
    printMetricsRow(ctx.out, "all", s["metrics"]);
    for (const char *g : {"category", "level", "model"})
        for (auto it = s["metrics_by"][g].begin(); it != s["metrics_by"][g].end(); ++it)
            printMetricsRow(ctx.out, std::string(g) + "=" + it.key(), it.value());
    ctx.out << '\n';
    printFailures(ctx.out, s["metrics"]);
    return Ok;
}
} // namespace

Command statsCommand()
{
    return {"stats", "counts, pass@k, fast_p, speedups and failures",
            "Usage: sieve-cli stats DB [--json]\n\n"
            "Prints counts per status, review decision, backend, category, level and task, then\n"
            "pass@1/5/10 (unbiased estimator), fast_p for p in 0, 0.5, 0.8, 1, 1.5, 2, the geometric-mean\n"
            "speedup of passing samples and the failures by status and reason code, overall and per\n"
            "category, level and teacher model.\n"
            "  --json   the same figures as one JSON document\n",
            {{"json"}}, runStats};
}

} // namespace sieve::cli
