// sieve-cli slurm-script: an sbatch array script that verifies the corpus in N shards on a cluster.
#include "core/db/corpus.h"
#include "gpu/cli/commands.h"
#include "gpu/shard/slurmscript.h"
#include "gpu/verify/verifyrun.h"

#include <filesystem>
#include <fstream>
#include <ostream>

namespace fs = std::filesystem;

namespace sieve::gpu {

namespace {

using cli::Args;
using cli::UsageError;

int runSlurmScript(const Args &args, cli::Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    SlurmScriptOptions o;
    const auto shards = args.integer("shards");
    if (!shards)
        throw UsageError("--shards N is required");
    if (*shards < 1 || *shards > 100000)
        throw UsageError("--shards must be between 1 and 100000");
    o.shards = static_cast<int>(*shards);
    if (!args.has("out"))
        throw UsageError("--out DIR is required");
    o.cpu = args.has("cpu");
    if (o.cpu && args.has("gpus-per-task"))
        throw UsageError("--cpu and --gpus-per-task exclude each other");
    if (auto g = args.integer("gpus-per-task")) {
        if (*g < 1 || *g > 64)
            throw UsageError("--gpus-per-task must be between 1 and 64");
        o.gpusPerTask = static_cast<int>(*g);
    }
    if (auto c = args.integer("cpus-per-task")) {
        if (*c < 1 || *c > 4096)
            throw UsageError("--cpus-per-task must be between 1 and 4096");
        o.cpusPerTask = static_cast<int>(*c);
    }
    o.time = args.value("time", o.time);
    if (!validSlurmTime(o.time))
        throw UsageError("--time expects Slurm's format (HH:MM:SS, D-HH:MM:SS, MM, ...); got '" + o.time + "'");
    o.partition = args.value("partition", "");
    o.account = args.value("account", "");
    o.mem = args.value("mem", "");
    o.jobName = args.value("job-name", o.jobName);
    for (const std::string *v : {&o.partition, &o.account, &o.mem, &o.jobName})
        if (v->find_first_of(" \t\n'\"") != std::string::npos)
            throw UsageError("Slurm options may not contain spaces or quotes: '" + *v + "'");

    o.corpus = fs::absolute(args.positional[0]).lexically_normal().string();
    o.outDir = fs::absolute(*args.value("out")).lexically_normal().string();
    if (o.outDir.find_first_of(" \t\n") != std::string::npos)
        throw UsageError("--out may not contain whitespace (sbatch's #SBATCH --output line cannot quote it)");
    if (auto p = args.value("sieve-cli")) {
        o.sieveCli = fs::absolute(*p).lexically_normal().string();
    } else {
        std::error_code ec;
        o.sieveCli = fs::read_symlink("/proc/self/exe", ec).string();
        if (ec)
            o.sieveCli = "sieve-cli";
    }
    if (args.has("all"))
        o.verifyArgs.push_back("--all");
    for (const auto &t : args.all("task")) {
        o.verifyArgs.push_back("--task");
        o.verifyArgs.push_back(t);
    }
    for (const char *opt : {"python", "parallel", "timeout", "cache-dir"})
        if (auto v = args.value(opt)) {
            o.verifyArgs.push_back(std::string("--") + opt);
            o.verifyArgs.push_back(*v);
        }
    if (args.has("no-timing"))
        o.verifyArgs.push_back("--no-timing");

    // Opened read-write once here, on the submit host: that gives an older corpus its id before the
    // nodes read it, so every shard names the same corpus.
    std::uint64_t selected = 0;
    {
        Corpus corpus = Corpus::open(o.corpus);
        SampleSelection sel;
        sel.all = args.has("all");
        sel.tasks = args.all("task");
        std::uint64_t none = 0;
        selected = pendingSamples(corpus, sel, 0, none).size();
    }
    fs::create_directories(fs::path(o.outDir) / "logs");
    const std::string path = (fs::path(o.outDir) / "sieve-verify.sbatch").string();
    {
        std::ofstream out(path, std::ios::trunc);
        out << slurmScript(o);
        if (!out)
            throw std::runtime_error("cannot write '" + path + "'");
    }
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    ctx.out << "wrote " << path << ": " << o.shards << " array tasks over " << selected << " selected samples (about "
            << (selected + o.shards - 1) / o.shards << " per task)\n"
            << "submit:  sbatch " << shellQuote(path) << '\n'
            << "then:    " << shellQuote(o.sieveCli) << " merge " << shellQuote(o.corpus) << ' ' << shellQuote(o.outDir)
            << '\n';
    return cli::Ok;
}

} // namespace

cli::Command slurmScriptCommand()
{
    return {
        .name = "slurm-script",
        .summary = "write an sbatch array script that verifies the corpus in N shards",
        .usage = "sieve-cli slurm-script DB --shards N --out DIR [OPTIONS]",
        .description =
            "Writes DIR/sieve-verify.sbatch, an sbatch array job (--array=0-(N-1)) whose task K runs\n"
            "  sieve-cli verify DB --shard K/N --out DIR\n"
            "so that the N shards of DB's selected samples are verified in parallel, each into its own results file\n"
            "DIR/shard-K-of-N.sieve (logs in DIR/logs). DB and DIR must be on a filesystem the nodes see; the nodes\n"
            "only read DB. Submit with 'sbatch DIR/sieve-verify.sbatch'; when all tasks are done, fold the results in\n"
            "with 'sieve-cli merge DB DIR' (the script's header says so too).\n",
        .options =
            {{.name = "shards", .takesValue = true, .valueName = "N", .help = "number of array tasks (required)"},
             {.name = "out",
              .takesValue = true,
              .valueName = "DIR",
              .help = "where the script, the shard results and the logs go (required)"},
             {.name = "gpus-per-task",
              .takesValue = true,
              .valueName = "G",
              .help = "GPUs per task (default 1; the task verifies with --gpus 0..G-1 of its allocation)"},
             {.name = "cpu", .help = "no GPUs: verify with the Triton interpreter (verify --cpu)"},
             {.name = "cpus-per-task",
              .takesValue = true,
              .valueName = "C",
              .help = "default 8 (compilation and CPU checks run in parallel)"},
             {.name = "time",
              .takesValue = true,
              .valueName = "T",
              .help = "time limit per task, Slurm's format (default 04:00:00)"},
             {.name = "partition",
              .takesValue = true,
              .valueName = "P",
              .help = "the Slurm partition (#SBATCH --partition; default: the cluster's)"},
             {.name = "account",
              .takesValue = true,
              .valueName = "A",
              .help = "the Slurm account (#SBATCH --account; default: the cluster's)"},
             {.name = "mem",
              .takesValue = true,
              .valueName = "M",
              .help = "memory per task (#SBATCH --mem, e.g. 64G; default: the cluster's)"},
             {.name = "job-name",
              .takesValue = true,
              .valueName = "NAME",
              .help = "the job's name (#SBATCH --job-name; default sieve-verify)"},
             {.name = "sieve-cli",
              .takesValue = true,
              .valueName = "PATH",
              .help = "sieve-cli on the nodes (default: this sieve-cli)"},
             {.name = "all",
              .help = "every sample, not only the PENDING ones",
              .section = "Passed to every task's verify (see 'sieve-cli verify --help'):"},
             {.name = "task",
              .takesValue = true,
              .repeatable = true,
              .valueName = "NAME",
              .help = "only samples of this task (repeatable)"},
             {.name = "python",
              .takesValue = true,
              .valueName = "PATH",
              .help = "the interpreter with torch and triton"},
             {.name = "parallel",
              .takesValue = true,
              .valueName = "P",
              .help = "candidates verified at once per worker"},
             {.name = "timeout", .takesValue = true, .valueName = "S", .help = "seconds per stage"},
             {.name = "cache-dir",
              .takesValue = true,
              .valueName = "DIR",
              .help = "reference outputs, Triton's cache and worker logs"},
             {.name = "no-timing", .help = "skip the timing stage (no speedups)"}},
        .run = runSlurmScript};
}

} // namespace sieve::gpu
