// sieve-cli tasks check: task hygiene alone. One verifier worker runs each task's reference on a device
// (a GPU at the task's real shapes, or the CPU on shrunk ones) through the worker op `check_task`, and the
// findings are stored per task in task_hygiene (core/taskhygiene.h). No sample is verified.
#include "core/cli/commands.h"
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/db/unixtime.h"
#include "core/store/verifyinputstore.h"
#include "core/tasks/taskhygiene.h"
#include "core/util/progress.h"
#include "gpu/cli/commands.h"
#include "gpu/cli/cudacommon.h"
#include "gpu/verify/pythonenv.h"
#include "gpu/verify/verifytypes.h"
#include "gpu/verify/workerprocess.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>

namespace sieve::gpu {

namespace {

using cli::Args;
using cli::UsageError;

struct TaskItem
{
    std::int64_t id = 0;
    std::string name;
    nlohmann::json request;
};

std::string defaultCheckCacheDir()
{
    const char *xdg = std::getenv("XDG_CACHE_HOME");
    const char *home = std::getenv("HOME");
    const std::string base = xdg && *xdg ? xdg : (home && *home ? std::string(home) + "/.cache" : "/tmp");
    return base + "/sieve/verify";
}

std::vector<TaskItem> loadTasks(Corpus &corpus, const std::vector<std::string> &names, double timeout)
{
    std::vector<TaskItem> out;
    const std::set<std::string> wanted(names.begin(), names.end());
    std::set<std::string> seen;
    store::forEachTaskSpec(corpus.db(), [&](const store::TaskSpecRow &t) {
        const std::string &name = t.name;
        if (!wanted.empty() && !wanted.count(name))
            return;
        seen.insert(name);
        nlohmann::json msg = {{"op", "check_task"}, {"task_key", t.taskKey}, {"name", name}, {"dtype", t.dtype}};
        if (t.atol)
            msg["atol"] = *t.atol;
        if (t.rtol)
            msg["rtol"] = *t.rtol;
        nlohmann::json shapes =
            !t.shapesJson ? nlohmann::json::array() : nlohmann::json::parse(*t.shapesJson, nullptr, false);
        msg["shapes"] = shapes.is_array() ? shapes : nlohmann::json::array();
        msg["seeds"] = {0, 1, 2, 3, 4};
        msg["reference_timeout"] = timeout;
        std::string source = t.source.value_or(std::string());
        std::transform(source.begin(), source.end(), source.begin(), [](unsigned char c) { return std::tolower(c); });
        msg["init_inputs_style"] = source.find("kernelbook") != std::string::npos ? "kernelbook" : "kernelbench";
        msg["reference_code"] = !t.referenceCode ? std::string() : payload::unpack(*t.referenceCode);
        out.push_back({t.id, name, std::move(msg)});
    });
    for (const std::string &n : wanted)
        if (!seen.count(n))
            throw UsageError("no task named '" + n + "' in " + corpus.path());
    return out;
}

// ok: usable (notes allowed); import_missing: a module or a download it needs; unjudged: nothing fatal
// was found but the reference could not be judged here (a shrunk CPU shape it fails on); broken: the rest.
std::string stateOf(const nlohmann::json &msg, std::string &codes)
{
    static const std::set<std::string> fatal = {"REF_NONFINITE",        "REF_BELOW_TOL",      "REF_CONSTANT",
                                                "REF_NONDETERMINISTIC", "REF_TOO_LARGE",      "REF_FAILED",
                                                "TASK_IMPORT_MISSING",  "TASK_NEEDS_DOWNLOAD"};
    std::set<std::string> all;
    codes.clear();
    if (msg.contains("hygiene") && msg["hygiene"].is_array())
        for (const auto &h : msg["hygiene"]) {
            const std::string c = jsonString(h, "code");
            if (!c.empty() && all.insert(c).second)
                codes += (codes.empty() ? "" : ",") + c;
        }
    const bool ok = msg.value("ok", false);
    if (ok)
        return "ok";
    if (all.count("TASK_IMPORT_MISSING") || all.count("TASK_NEEDS_DOWNLOAD"))
        return "import_missing";
    if (std::none_of(all.begin(), all.end(), [&](const std::string &c) { return fatal.count(c) > 0; }))
        return "unjudged";
    return "broken";
}

std::string firstMessage(const nlohmann::json &msg)
{
    if (msg.contains("hygiene") && msg["hygiene"].is_array())
        for (const auto &h : msg["hygiene"])
            if (const std::string m = jsonString(h, "message"); !m.empty())
                return m;
    return {};
}

int runTasksCheck(const Args &args, cli::Context &ctx)
{
    if (cli::isTaskEdit(args))
        return cli::runTaskEdit(args, ctx);
    if (cli::isTaskList(args))
        return cli::runTaskList(args, ctx);
    if (args.positional.size() != 2 || args.positional[0] != "check")
        throw UsageError(
            "expected 'check', 'set', 'categorize' or 'list' and the corpus file: sieve-cli tasks check DB");
    if (args.has("family"))
        throw UsageError("--family is for 'tasks list'");
    for (const char *editOnly : {"category", "redo", "dry-run"})
        if (args.has(editOnly))
            throw UsageError(std::string("--") + editOnly + " is for 'tasks set' and 'tasks categorize'");
    const std::string dbPath = args.positional[1];
    if (args.has("cpu") && args.has("gpus"))
        throw UsageError("--cpu and --gpus exclude each other");
    std::string device = "cpu";
    if (args.has("gpus")) {
        const std::string g = *args.value("gpus");
        if (g.empty() || g.find_first_not_of("0123456789") != std::string::npos)
            throw UsageError("--gpus expects one GPU index for tasks check, e.g. --gpus 0; got '" + g + "'");
        device = "cuda:" + g;
    } else if (!args.has("cpu")) {
        const auto gpus = detectGpus();
        if (gpus.empty()) {
            ctx.err << "sieve-cli tasks check: no GPU found (nvidia-smi -L lists none). Pass --cpu to check on the "
                       "CPU, on shrunk shapes (what cannot be judged there is marked REF_UNJUDGED_AT_SCALE).\n";
            return cli::Usage;
        }
        device = "cuda:" + std::to_string(gpus.front());
    }
    const bool cpu = device == "cpu";
    int parallel = cpu ? 2 : 1;
    if (auto p = args.integer("parallel")) {
        if (*p < 1 || *p > 64)
            throw UsageError("--parallel must be between 1 and 64");
        parallel = static_cast<int>(*p);
    }
    double timeout = 600;
    if (auto t = args.number("timeout")) {
        if (*t <= 0)
            throw UsageError("--timeout must be positive");
        timeout = *t;
    }
    const bool json = args.has("json"), quiet = args.has("quiet");

    Corpus corpus = Corpus::open(dbPath);
    std::vector<TaskItem> tasks = loadTasks(corpus, args.all("task"), timeout);
    if (tasks.empty()) {
        ctx.out << (json ? nlohmann::json{{"summary", {{"tasks", 0}}}}.dump() : std::string("no tasks in ") + dbPath)
                << '\n';
        return cli::Ok;
    }
    const PythonEnv py = findPythonEnv(args.value("python", ""));
    const std::string cacheDir = args.value("cache-dir", defaultCheckCacheDir());

    cli::installInterruptHandler();
    std::deque<std::size_t> todo;
    for (std::size_t i = 0; i < tasks.size(); ++i)
        todo.push_back(i);
    std::map<std::string, std::size_t> inflight; // task key -> index
    std::map<std::string, int> byState;
    std::string deviceLabel = device;
    int deaths = 0;
    std::size_t done = 0;
    const auto t0 = std::chrono::steady_clock::now();
    // '\r' redraws on a terminal, plain lines in a log (core/util/progress.h).
    Progress progress(ctx.err, "tasks check", tasks.size(), !quiet);

    auto report = [&](const TaskItem &t, const nlohmann::json &msg) {
        std::string codes;
        const std::string state = stateOf(msg, codes);
        nlohmann::json stored = msg;
        stored.erase("op");
        storeTaskHygiene(corpus.db(), {t.id, state, codes, deviceLabel, unixNow(), stored.dump()});
        byState[state]++;
        ++done;
        if (json) {
            ctx.out << nlohmann::json{{"task", t.name},
                                      {"state", state},
                                      {"ok", msg.value("ok", false)},
                                      {"codes", codes},
                                      {"device", deviceLabel},
                                      {"hygiene", msg.value("hygiene", nlohmann::json::array())},
                                      {"shapes", msg.value("shapes", nlohmann::json::array())},
                                      {"duration_ms", msg.value("duration_ms", 0)}}
                           .dump()
                    << '\n'
                    << std::flush;
        } else {
            ctx.out << std::left << std::setw(15) << state << t.name << (codes.empty() ? "" : "  " + codes);
            if (state != "ok")
                ctx.out << "\n               " << firstMessage(msg);
            ctx.out << '\n' << std::flush;
        }
        progress.update(done);
    };

    while (!todo.empty() || !inflight.empty()) {
        WorkerProcess::Spec spec;
        spec.python = py.python;
        spec.args = {"-m", "sieve_worker", "--device", device, "--parallel", std::to_string(parallel)};
        const char *pp = std::getenv("PYTHONPATH");
        spec.env["PYTHONPATH"] = py.workerDir + (pp && *pp ? ":" + std::string(pp) : "");
        spec.env["PYTHONUNBUFFERED"] = "1";
        if (cpu)
            spec.env["TRITON_INTERPRET"] = "1";
        WorkerProcess worker(spec);
        worker.start();
        worker.send(nlohmann::json{{"op", "hello"}, {"cache_dir", cacheDir}}.dump());
        for (const auto &[key, idx] : inflight)
            todo.push_front(idx); // a worker that died took these with it: ask the new one again
        inflight.clear();
        bool alive = true;
        while (alive && (!todo.empty() || !inflight.empty())) {
            while (!todo.empty() && static_cast<int>(inflight.size()) < parallel) {
                const std::size_t i = todo.front();
                todo.pop_front();
                inflight[tasks[i].request["task_key"].get<std::string>()] = i;
                worker.send(tasks[i].request.dump());
            }
            std::vector<std::string> lines;
            alive = worker.pump(std::chrono::milliseconds(200), lines);
            for (const std::string &line : lines) {
                const nlohmann::json msg = nlohmann::json::parse(line, nullptr, false);
                if (!msg.is_object())
                    continue;
                const std::string op = jsonString(msg, "op");
                if (op == "hello" && msg.contains("env")) {
                    const std::string gpu = jsonString(msg["env"], "gpu");
                    deviceLabel = gpu.empty() ? device : device + " (" + gpu + ")";
                } else if (op == "task_checked") {
                    auto it = inflight.find(jsonString(msg, "task_key"));
                    if (it == inflight.end())
                        continue;
                    const std::size_t i = it->second;
                    inflight.erase(it);
                    report(tasks[i], msg);
                    deaths = 0;
                } else if (op == "error") {
                    ctx.err << "sieve-cli tasks check: the worker rejected a request: " << jsonString(msg, "message")
                            << '\n';
                    return cli::Failure;
                }
            }
            if (cli::interrupted()) {
                worker.kill();
                ctx.err << "\ninterrupted: " << done << " of " << tasks.size() << " tasks checked and stored\n";
                return cli::Interrupted;
            }
        }
        if (alive) {
            worker.send(R"({"op":"shutdown"})");
            worker.stop(std::chrono::seconds(10));
            break;
        }
        if (++deaths >= 3) {
            ctx.err << "sieve-cli tasks check: the worker died " << deaths << " times in a row ("
                    << worker.exitDescription() << "):\n"
                    << worker.stderrTail() << '\n';
            return cli::Failure;
        }
        if (!quiet)
            ctx.err << "tasks check: the worker died (" << worker.exitDescription() << "); restarting it\n";
    }
    progress.finish();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (json) {
        ctx.out << nlohmann::json{{"summary",
                                   {{"tasks", done}, {"by_state", byState}, {"device", deviceLabel}, {"wall_s", wall}}}}
                       .dump()
                << '\n';
    } else {
        ctx.out << done << " tasks checked on " << deviceLabel << " in " << std::fixed << std::setprecision(1) << wall
                << " s:";
        for (const auto &[state, n] : byState)
            ctx.out << ' ' << state << ' ' << n;
        ctx.out << '\n';
    }
    return cli::Ok;
}

} // namespace

cli::Command tasksCommand()
{
    std::vector<cli::OptionSpec> options = {
        {.name = "task",
         .takesValue = true,
         .repeatable = true,
         .valueName = "NAME",
         .help = "only this task (repeatable)"},
        {.name = "gpus",
         .takesValue = true,
         .valueName = "N",
         .help = "the GPU to run on (default: the first nvidia-smi lists)"},
        {.name = "cpu", .help = "on the CPU, shapes shrunk (needed explicitly where there is no GPU)"},
        {.name = "parallel",
         .takesValue = true,
         .valueName = "P",
         .help = "tasks checked at once (default 1 on a GPU, 2 on the CPU)"},
        {.name = "timeout", .takesValue = true, .valueName = "S", .help = "seconds per task (default 600)"},
        {.name = "json",
         .help = "one JSON object per task "
                 "({\"task\",\"state\",\"ok\",\"codes\",\"device\",\"hygiene\",\"shapes\"}), then "
                 "{\"summary\":{...}}"},
        {.name = "python",
         .takesValue = true,
         .valueName = "PATH",
         .help = "the interpreter with torch and triton (as for verify)"},
        {.name = "cache-dir",
         .takesValue = true,
         .valueName = "DIR",
         .help = "where the worker writes the task files (default ~/.cache/sieve/verify)"},
        {.name = "quiet", .shortName = 'q', .help = "no progress"}};
    for (cli::OptionSpec &o : cli::taskEditOptions())
        options.push_back(std::move(o));
    options.push_back({.name = "family",
                       .takesValue = true,
                       .valueName = "T",
                       .help = "tasks list: only the family of task T (its root and every variant)",
                       .section = "tasks list:"});
    return {
        .name = "tasks",
        .summary = "task hygiene ('tasks check DB': what makes a task unusable), categories (tasks set, "
                   "tasks categorize) and the list of tasks and their variants (tasks list)",
        .usage = "sieve-cli tasks check DB [OPTIONS]\n"
                 "sieve-cli tasks set DB --task NAME... --category C\n"
                 "sieve-cli tasks categorize DB [--redo] [--dry-run] [--json]\n"
                 "sieve-cli tasks list DB [--family T] [--json]",
        .description =
            "Checks the tasks of DB alone, without verifying any sample: each reference runs on a device for every\n"
            "seed (twice on the first) and is judged for what makes a task unable to judge answers:\n"
            "  REF_BELOW_TOL         every output value is within the tolerance of zero: an all-zero answer passes\n"
            "  REF_CONSTANT          the output is the same for every seed (a 0-d loss is one number, not constant)\n"
            "  REF_NONDETERMINISTIC  two runs on the same inputs differ beyond the tolerance\n"
            "  REF_NONFINITE         the output holds NaN or inf\n"
            "  REF_FAILED, REF_TOO_LARGE   the reference fails, or does not fit the device, at its own shape\n"
            "  TASK_IMPORT_MISSING   it imports a module the verifier's Python lacks (named in the message)\n"
            "  TASK_NEEDS_DOWNLOAD   it downloads a model (from_pretrained, ...); the verifier has no network\n"
            "and notes that do not make it unusable (REF_BELOW_TOL_AT_SHAPE, REF_MOSTLY_BELOW_TOL, REF_SHAPE_DROPPED,\n"
            "REF_UNJUDGED_AT_SCALE). On a GPU the checks run at the task's real shipped shapes, one task at a time;\n"
            "with --cpu the shapes shrink as the CPU verifier's do, and what could not be judged at the shipped shape\n"
            "is said (REF_UNJUDGED_AT_SCALE). Each task's result is stored in the corpus (task_hygiene: state ok,\n"
            "broken, unjudged or import_missing, its codes, the device and the full report); `sieve-cli import`\n"
            "already stores import_missing for references whose imports the verifier cannot satisfy.\n\n"
            "tasks set gives tasks an operator category by hand; tasks categorize infers one from the ops each\n"
            "reference calls for the tasks without one (import does so for the tasks it adds): GEMM, convolution,\n"
            "normalization, activation, reduction, loss, attention, pooling, elementwise, or fusion when several.\n"
            "An inferred category is marked in the task's provenance; one imported or set by hand is never inferred\n"
            "again.\n\n"
            "tasks list prints every task with its family (the root task a variant was made from: sieve-cli augment),\n"
            "its parent and who made it: 'command line' (--shapes/--dtypes) or 'teacher MODEL' (augment --teacher).\n",
        .options = std::move(options),
        .notes =
            "Exit codes: 0 every selected task was checked (whatever it was found to be), 1 the worker kept failing\n"
            "or the corpus could not be written, 2 usage (including: no GPU and no --cpu), 130 interrupted.\n",
        .run = runTasksCheck};
}

} // namespace sieve::gpu
