// sieve-cli augment: task variants across shapes and dtypes (core/tasks/augment.h), each kept only after
// its reference ran in the verifier worker (the `task` op: hygiene, fits the device). One worker serves
// every variant of the command.
#include "core/tasks/augment.h"
#include "core/db/corpus.h"
#include "gpu/cli/commands.h"
#include "gpu/verify/referencechecker.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <ostream>

namespace sieve::gpu {

namespace {

int runAugment(const cli::Args &args, cli::Context &ctx)
{
    if (args.positional.size() != 1)
        throw cli::UsageError("expected exactly one argument: the corpus file");
    const auto task = args.value("task");
    if (!task)
        throw cli::UsageError("--task T names the task to make variants of");
    const auto &shapes = args.all("shapes");
    const auto &dtypes = args.all("dtypes");
    if (shapes.empty() && dtypes.empty())
        throw cli::UsageError("give --shapes and/or --dtypes");
    std::vector<VariantSpec> specs;
    try {
        specs = variantSpecs(shapes, dtypes, args.has("grid"));
    } catch (const std::invalid_argument &e) {
        throw cli::UsageError(e.what());
    }
    const bool noCheck = args.has("no-check");
    std::string device = args.has("cpu") ? "cpu" : "cuda:" + args.value("gpu", "0");
    const auto timeoutArg = args.integer("timeout").value_or(300);
    if (timeoutArg < 1 || timeoutArg > 86400)
        throw cli::UsageError("--timeout is seconds between 1 and 86400");
    const int timeout = static_cast<int>(timeoutArg);
    if (args.has("cpu") && args.has("gpu"))
        throw cli::UsageError("--cpu and --gpu exclude each other");
    Corpus corpus = Corpus::open(args.positional[0]);
    std::unique_ptr<ReferenceChecker> checker;
    VariantCheck check;
    if (!noCheck) {
        checker = std::make_unique<ReferenceChecker>(device, timeout);
        check = [&](const VariantTask &t) { return checker->check(t); };
    }
    const auto outcomes = augmentTask(corpus, *task, specs, check);
    nlohmann::json out = nlohmann::json::array();
    int created = 0, failed = 0;
    for (const auto &o : outcomes) {
        created += o.state == "created";
        failed += o.state == "failed";
        out.push_back({{"name", o.task.name},
                       {"state", o.state},
                       {"message", o.message},
                       {"task_id", o.taskId ? nlohmann::json(*o.taskId) : nlohmann::json()},
                       {"dtype", o.task.dtype},
                       {"shapes", o.task.shapesJson ? nlohmann::json::parse(*o.task.shapesJson) : nlohmann::json()}});
    }
    if (args.has("json")) {
        ctx.out << nlohmann::json({{"task", *task},
                                   {"checked_on", noCheck ? nlohmann::json() : nlohmann::json(device)},
                                   {"variants", out}})
                       .dump(2)
                << '\n';
    } else {
        for (const auto &o : outcomes)
            ctx.out << o.state << '\t' << o.task.name << (o.message.empty() ? "" : "\t" + o.message) << '\n';
        ctx.out << created << " created, " << failed << " failed the reference check"
                << (noCheck ? " (not checked: --no-check)" : " (checked on " + device + ")") << ", "
                << outcomes.size() - created - failed << " already in the corpus\n";
    }
    return failed > 0 ? cli::Failure : cli::Ok;
}

} // namespace

cli::Command augmentCommand()
{
    return {
        .name = "augment",
        .summary = "task variants across shapes and dtypes, each checked by running its reference",
        .usage = "sieve-cli augment DB --task T [--shapes S]... [--dtypes D]... [--grid]\n"
                 "  [--cpu | --gpu N] [--timeout S] [--no-check] [--json]",
        .description = "Makes variants of task T, each a task of its own linked to T's family (the export's split\n"
                       "keeps a family together; stats group by family). Before a variant is stored its reference\n"
                       "runs in the verifier worker (the task op: hygiene, fits the device); one that fails is not\n"
                       "stored and the command exits 1.\n",
        .options =
            {{.name = "task", .takesValue = true, .valueName = "T", .help = "the task to make variants of (required)"},
             {.name = "shapes",
              .takesValue = true,
              .repeatable = true,
              .valueName = "S",
              .help = "one shape set: NAME=VALUE,... (module-level constants); ';' joins several shapes "
                      "into one variant (\"M=7,N=1000;M=4096,N=1024\"); repeatable"},
             {.name = "dtypes",
              .takesValue = true,
              .repeatable = true,
              .valueName = "D",
              .help = "fp32, fp16, bf16 or fp64; repeatable (tolerances: KernelBench's per dtype)"},
             {.name = "grid",
              .help = "every (shape set, dtype) pair instead of one variant per shape set and per dtype"},
             {.name = "cpu", .help = "check under the CPU interpreter (default: --gpu 0)"},
             {.name = "gpu", .takesValue = true, .valueName = "N", .help = "check on GPU N (default 0)"},
             {.name = "timeout",
              .takesValue = true,
              .valueName = "S",
              .help = "the reference's time limit (default 300)"},
             {.name = "no-check", .help = "store without running the reference (marked unchecked in the output)"},
             {.name = "json", .help = "the outcome of every variant as JSON"}},
        .run = runAugment};
}

} // namespace sieve::gpu
