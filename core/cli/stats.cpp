// sieve-cli stats: counts, pass@k, fast_p, speedups and failures of a corpus, or two models compared.
#include "core/select/stats.h"
#include "core/cli/commands.h"
#include "core/db/corpus.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
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
    out << first
        << "\ttasks\tsamples\tverified\tpass@1\tpass@5\tpass@10\tfast_0\tfast_0.5\tfast_0.8\tfast_1"
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

// "run:NAME" is a sampling run, anything else a model.
SampleScope sideScope(const std::string &text, const std::optional<std::vector<std::string>> &tasks)
{
    SampleScope s;
    if (text.rfind("run:", 0) == 0)
        s.run = text.substr(4);
    else
        s.model = text;
    s.tasks = tasks;
    return s;
}

std::string pct(const nlohmann::json &v)
{
    return v.is_null() ? std::string("-") : fmt(v, true);
}

int runCompare(const Args &args, Context &ctx, const std::optional<std::vector<std::string>> &tasks)
{
    if (args.positional.size() != 2)
        throw UsageError("--compare takes two models (or run:NAME): sieve-cli stats DB --compare A B [--tasks FILE]");
    if (args.has("model") || args.has("run"))
        throw UsageError("--compare names both sides; --model and --run are for the plain statistics");
    Corpus c = Corpus::open(args.positional[0], true);
    const nlohmann::json j =
        compareScopes(c, sideScope(*args.value("compare"), tasks), sideScope(args.positional[1], tasks));
    if (args.has("json")) {
        ctx.out << j.dump(2) << '\n';
        return Ok;
    }
    ctx.out << "A: " << j["a"]["scope"].get<std::string>() << "  pass@1 " << pct(j["a"]["pass_at_1"]) << " over "
            << j["a"]["tasks_verified"] << " tasks\n";
    ctx.out << "B: " << j["b"]["scope"].get<std::string>() << "  pass@1 " << pct(j["b"]["pass_at_1"]) << " over "
            << j["b"]["tasks_verified"] << " tasks\n";
    const auto &p = j["paired"];
    ctx.out << "paired (" << p["tasks"] << " tasks verified by both): pass@1 " << pct(p["a_pass_at_1"]) << " -> "
            << pct(p["b_pass_at_1"]);
    if (!p["delta"].is_null()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%+.1f", p["delta"].get<double>() * 100.0);
        ctx.out << " (" << buf << " points)";
    }
    ctx.out << "; improved " << p["improved"] << ", worse " << p["worse"] << ", unchanged " << p["unchanged"] << "\n\n";
    ctx.out << "task\tA c/n\tA pass@1\tB c/n\tB pass@1\tchange\n";
    for (const auto &t : j["per_task"]) {
        ctx.out << t["task"].get<std::string>() << '\t' << t["a"]["c"] << '/' << t["a"]["n"] << '\t'
                << pct(t["a"]["pass_at_1"]) << '\t' << t["b"]["c"] << '/' << t["b"]["n"] << '\t'
                << pct(t["b"]["pass_at_1"]) << '\t';
        if (t["delta"].is_null()) {
            ctx.out << "-";
        } else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%+.1f", t["delta"].get<double>() * 100.0);
            ctx.out << buf;
        }
        ctx.out << '\n';
    }
    return Ok;
}

int runStats(const Args &args, Context &ctx)
{
    std::optional<std::vector<std::string>> tasks;
    if (const auto f = args.value("tasks"))
        tasks = readTaskList(*f);
    if (args.has("compare"))
        return runCompare(args, ctx, tasks);
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    SampleScope scope;
    scope.model = args.value("model");
    scope.run = args.value("run");
    scope.tasks = tasks;
    Corpus c = Corpus::open(args.positional[0], true);
    const nlohmann::json s = corpusStats(c, scope);
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
    if (const auto &judge = s["judge"]; judge["judged"].get<long long>() > 0) {
        printCounts(ctx.out, "judge", judge["by_verdict"]);
        ctx.out << "judge vs verifier: " << judge["disagree"]["pass_but_flagged"] << " PASS flagged by the judge, "
                << judge["disagree"]["fail_but_implements"] << " failing said to implement; agreement "
                << pct(judge["agreement"]) << " over " << judge["compared"] << " samples both decided\n";
    }
    ctx.out << "\ntask\tlevel\tcategory\tsamples\tpassed\tpending\n";
    for (const auto &t : s["per_task"])
        ctx.out << t["task"].get<std::string>() << '\t' << (t["level"].is_null() ? std::string("-") : t["level"].dump())
                << '\t' << (t["category"].is_null() ? std::string("-") : t["category"].get<std::string>()) << '\t'
                << t["samples"] << '\t' << t["passed"] << '\t' << t["pending"] << '\n';
    ctx.out << "\nverification (pass@k over tasks with verdicts; fast_p over tasks with samples); scope: "
            << s["scope"].get<std::string>() << "\n";
    printMetricsHeader(ctx.out, "group");
    printMetricsRow(ctx.out, "all", s["metrics"]);
    for (const char *g : {"category", "level", "model", "family"})
        for (auto it = s["metrics_by"][g].begin(); it != s["metrics_by"][g].end(); ++it)
            printMetricsRow(ctx.out, std::string(g) + "=" + it.key(), it.value());
    ctx.out << '\n';
    printFailures(ctx.out, s["metrics"]);
    return Ok;
}
} // namespace

Command statsCommand()
{
    return {
        .name = "stats",
        .summary = "counts, pass@k, fast_p, speedups and failures",
        .usage = "sieve-cli stats DB [--model M] [--run R] [--tasks FILE] [--json]\n"
                 "sieve-cli stats DB --compare A B [--tasks FILE] [--json]",
        .description = "Prints counts per status, review decision, backend, category, level and task, then\n"
                       "pass@1/5/10 (unbiased estimator), fast_p for p in 0, 0.5, 0.8, 1, 1.5, 2, the geometric-mean\n"
                       "speedup of passing samples and the failures by status and reason code, overall and per\n"
                       "category, level and teacher model.\n",
        .options =
            {{.name = "model",
              .takesValue = true,
              .valueName = "M",
              .help = "the verification figures of model M's samples only"},
             {.name = "run", .takesValue = true, .valueName = "R", .help = "of the samples that sampling run R stored"},
             {.name = "tasks",
              .takesValue = true,
              .valueName = "FILE",
              .help = "of these tasks only (one name per line, # comments): a held-out set"},
             {.name = "compare",
              .takesValue = true,
              .valueName = "A B", // B is the second positional argument
              .help = "pass@1 of A and of B (models, or run:NAME) on the same tasks, overall and per task "
                      "with the change (the mean over tasks of the per-task pass rate)"},
             {.name = "json", .help = "the same figures as one JSON document"}},
        .run = runStats};
}

} // namespace sieve::cli
