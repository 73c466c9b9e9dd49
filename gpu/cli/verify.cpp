// sieve-cli verify: runs the verification engine over a corpus, with progress, resume and a summary.
#include "core/db/corpus.h"
#include "core/store/verifyinputstore.h"
#include "core/util/progress.h"
#include "gpu/cli/commands.h"
#include "gpu/cli/cudacommon.h"
#include "gpu/shard/shard.h"
#include "gpu/verify/verificationengine.h"
#include "gpu/verify/verifyrun.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <iomanip>
#include <mutex>
#include <optional>
#include <ostream>
#include <poll.h>
#include <sched.h>
#include <sstream>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace sieve::gpu {

namespace {

using cli::Args;
using cli::UsageError;

std::vector<int> parseGpuList(const std::string &s)
{
    std::vector<int> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) {
        size_t used = 0;
        int v = -1;
        try {
            v = std::stoi(item, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used == 0 || used != item.size() || v < 0)
            throw UsageError("--gpus expects a comma-separated list of GPU indices such as 0,1; got '" + s + "'");
        if (std::find(out.begin(), out.end(), v) != out.end())
            throw UsageError("--gpus lists GPU " + std::to_string(v) + " twice ('" + s + "'): one worker per GPU");
        out.push_back(v);
    }
    if (out.empty())
        throw UsageError("--gpus expects at least one GPU index");
    return out;
}

std::string formatDuration(double s)
{
    std::ostringstream o;
    const long total = static_cast<long>(s + 0.5);
    if (total >= 3600)
        o << total / 3600 << "h " << (total % 3600) / 60 << "m " << total % 60 << "s";
    else if (total >= 60)
        o << total / 60 << "m " << total % 60 << "s";
    else
        o << std::fixed << std::setprecision(1) << s << "s";
    return o.str();
}

class CliObserver : public VerifyObserver
{
public:
    CliObserver(cli::Context &ctx, bool json, bool progress) : m_ctx(ctx), m_json(json), m_showProgress(progress) {}

    void runStarted(std::int64_t runId, bool resumed, const RunCounts &counts) override
    {
        std::lock_guard lock(m_mutex);
        m_ctx.err << (resumed ? "resuming" : "starting") << " verification run " << runId << ": "
                  << counts.total - counts.done << " samples to verify";
        if (resumed)
            m_ctx.err << " (" << counts.done << " already done)";
        m_ctx.err << '\n';
        m_progress = std::make_unique<Progress>(m_ctx.err, "verify", counts.total, m_showProgress);
        m_progress->resumedAt(counts.done);
    }
    void workerStarted(int worker, const nlohmann::json &env) override
    {
        std::lock_guard lock(m_mutex);
        if (!m_showProgress)
            return;
        m_ctx.err << "worker " << worker << " ready: " << jsonString(env, "device", "?");
        if (env.contains("gpu") && env["gpu"].is_string())
            m_ctx.err << " " << env["gpu"].get<std::string>();
        m_ctx.err << ", torch " << jsonString(env, "torch", "?") << ", triton " << jsonString(env, "triton", "?")
                  << '\n';
    }
    void workerLost(int worker, const std::string &why) override
    {
        std::lock_guard lock(m_mutex);
        m_ctx.err << "worker " << worker << " died (" << why << "); restarting it\n";
    }
    void notice(const std::string &text) override
    {
        std::lock_guard lock(m_mutex);
        m_ctx.err << text << '\n';
    }
    void sampleFinished(const VerdictRecord &v, const RunCounts &counts) override
    {
        std::lock_guard lock(m_mutex);
        if (m_json) {
            nlohmann::json row = {{"sample", v.sampleId}, {"name", v.sampleName}, {"task", v.taskName},
                                  {"status", v.status},   {"reasons", v.reasons}, {"message", v.message}};
            row["speedup"] = v.speedup ? nlohmann::json(*v.speedup) : nlohmann::json();
            if (v.details.is_object() && v.details.contains("phases"))
                row["phases"] = v.details.at("phases"); // where the sample's time went (the worker's clock)
            m_ctx.out << row.dump() << '\n' << std::flush;
        }
        if (m_progress)
            m_progress->update(counts.done, v.sampleName + " " + v.status);
    }
    void sampleLeftPending(std::int64_t sampleId, const std::string &name, const std::string &code,
                           const std::string &message) override
    {
        std::lock_guard lock(m_mutex);
        // (serve mode: a line with a null status tells the sampler that this sample has no verdict)
        if (m_json)
            m_ctx.out << nlohmann::json{{"sample", sampleId},
                                        {"name", name},
                                        {"status", nullptr},
                                        {"pending", code},
                                        {"error", message}}
                             .dump()
                      << '\n'
                      << std::flush;
        else
            m_ctx.err << "sample " << name << " left PENDING (" << code << "): " << message << '\n';
    }
    void finish()
    {
        std::lock_guard lock(m_mutex);
        if (m_progress)
            m_progress->finish();
    }
    // One JSON line on stdout beside the verdicts (serve mode's answers to ids it cannot verify).
    void line(const nlohmann::json &j)
    {
        std::lock_guard lock(m_mutex);
        m_ctx.out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n' << std::flush;
    }

private:
    std::mutex m_mutex;
    cli::Context &m_ctx;
    bool m_json, m_showProgress;
    std::unique_ptr<Progress> m_progress;
};

// Serve mode's input: sample ids on stdin, one per line, handed to the engine as they come; end of
// input (the sampler closed the pipe) ends the run once they are verified. Polls, so that a run that
// ends by itself (a fatal error, Ctrl-C) is not held up by a sampler that keeps the pipe open.
void serveInput(VerificationEngine &engine, const std::string &dbPath, CliObserver &observer,
                const std::atomic<bool> &stop)
{
    Corpus corpus = Corpus::open(dbPath, true);
    store::SampleTaskLookup task(corpus.db());
    std::string pending;
    char buf[4096];
    while (!stop.load()) {
        pollfd p{0, POLLIN, 0};
        const int ready = ::poll(&p, 1, 200);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0)
            continue;
        const ssize_t n = ::read(0, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        pending.append(buf, static_cast<std::size_t>(n));
        for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1)) {
            const std::string text = pending.substr(0, nl);
            if (text.find_first_not_of(" \t\r") == std::string::npos)
                continue;
            std::int64_t id = 0;
            const auto r = std::from_chars(text.data(), text.data() + text.size(), id);
            bool found = false;
            if (r.ec == std::errc()) {
                if (const auto taskId = task.taskOf(id)) {
                    engine.submit(id, *taskId);
                    found = true;
                }
            }
            if (!found)
                observer.line({{"sample", r.ec == std::errc() ? nlohmann::json(id) : nlohmann::json(text)},
                               {"status", nullptr},
                               {"error", "no such sample"}});
        }
    }
    engine.closeInput();
}

// One verify per corpus at a time: two would both "resume" the same run. Held until the lock goes out of
// scope.
// A sampler resumed right after it was killed starts its serve verifier while the killed one's is still
// stopping: the new one waits for the lock that long.
constexpr int kServeLockWaitSeconds = 30;

class CorpusLock
{
public:
    // `waitSeconds`: how long to wait for a holder to let go (a serve verifier whose sampler was killed
    // ends within seconds, net/serveverifier.h); 0 fails at once.
    explicit CorpusLock(const std::string &dbPath, int waitSeconds = 0)
    {
        const std::string lockPath = dbPath + ".verify-lock";
        m_fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (m_fd < 0)
            throw std::runtime_error("cannot create the lock file '" + lockPath + "'");
        for (int waited = 0; waited < waitSeconds * 10 && flock(m_fd, LOCK_EX | LOCK_NB) != 0; ++waited)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
            ::close(m_fd);
            throw std::runtime_error("another 'sieve-cli verify' is running on '" + dbPath + "' (lock '" + lockPath +
                                     "')");
        }
    }
    ~CorpusLock() { ::close(m_fd); }
    CorpusLock(const CorpusLock &) = delete;
    CorpusLock &operator=(const CorpusLock &) = delete;

private:
    int m_fd = -1;
};

// Runs the engine over `o` with progress and prints the summary; shared by plain and shard runs
// (`resultsFile`: the shard file, sealed after the run and named in the summary).
int runEngine(VerifyOptions o, const Args &args, cli::Context &ctx, const std::string &resultsFile = {})
{
    if (!o.cpu && !o.gpus.empty()) {
        // A GPU index CUDA cannot see would fail every sample as a crash; say so before starting.
        const auto visible = detectGpus();
        for (int g : o.gpus)
            if (!visible.empty() && std::find(visible.begin(), visible.end(), g) == visible.end()) {
                const char *cvd = std::getenv("CUDA_VISIBLE_DEVICES");
                ctx.err << "sieve-cli verify: GPU " << g << " is not visible: " << visible.size()
                        << " GPUs are (numbered from 0"
                        << (cvd ? std::string(", CUDA_VISIBLE_DEVICES=") + cvd : std::string()) << ")\n";
                return cli::Usage;
            }
    }
    if (!o.cpu && o.gpus.empty()) {
        o.gpus = detectGpus();
        if (o.gpus.empty()) {
            ctx.err << "sieve-cli verify: no GPU found (nvidia-smi -L lists none). To verify on the CPU with the "
                       "Triton interpreter, pass --cpu: it checks correctness on small shapes without timing, "
                       "and its verdicts are marked as interpreted.\n";
            return cli::Usage;
        }
    }
    if (!o.cpu && !args.has("parallel") && !o.resumeRunId) {
        // Candidates compile and check correctness on the CPU cores while timing holds the GPU alone:
        // one child per core, shared among the GPUs' workers.
        // The cores this process may use: its affinity mask (Slurm's task/affinity, taskset), or
        // SLURM_CPUS_PER_TASK where the scheduler does not bind CPUs.
        int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0)
            cores = std::max(1, CPU_COUNT(&set));
        if (const char *v = std::getenv("SLURM_CPUS_PER_TASK"); v && std::atoi(v) > 0)
            cores = std::min(cores, std::atoi(v));
        o.parallel = std::clamp(cores / static_cast<int>(o.gpus.size()), 2, 16);
    }

    cli::installInterruptHandler();
    const bool json = args.has("json");
    CliObserver observer(ctx, json, !args.has("quiet"));
    RunSummary s;
    {
        // Gone before the seal: its corpus writer holds a connection to the file.
        VerificationEngine engine(o);
        engine.setObserver(&observer);
        engine.setStopCheck([] { return cli::interrupted(); });
        std::atomic<bool> stopInput{false};
        std::optional<std::thread> input;
        if (o.serve)
            input.emplace([&] { serveInput(engine, o.dbPath, observer, stopInput); });
        try {
            s = engine.run();
        } catch (...) {
            stopInput = true;
            if (input)
                input->join();
            throw;
        }
        stopInput = true;
        if (input)
            input->join();
    }
    observer.finish();
    if (!resultsFile.empty())
        sealShardFile(resultsFile);
    if (s.state == "empty") {
        if (json)
            ctx.out
                << nlohmann::json{{"summary", {{"run", nullptr}, {"state", "empty"}, {"total", 0}, {"done", 0}}}}.dump()
                << '\n';
        else
            ctx.out << "nothing to verify: no sample matches" << (o.selection.all ? "" : " among the PENDING ones")
                    << (o.selection.all ? "" : " (--all re-verifies samples that already have a verdict)") << '\n';
        return cli::Ok;
    }

    if (json) {
        nlohmann::json j = {{"run", s.runId},
                            {"state", s.state},
                            {"resumed", s.resumed},
                            {"total", s.counts.total},
                            {"done", s.counts.done},
                            {"verified_now", s.verdictsThisSession},
                            {"by_status", s.counts.byStatus},
                            {"wall_s", s.wallSeconds},
                            {"samples_per_min", s.samplesPerMinute},
                            {"policy", o.policy}};
        if (o.skipStatic)
            j["skip_static"] = true;
        if (s.leftPending > 0)
            j["pending"] = {{"count", s.leftPending}, {"reasons", s.pendingReasons}};
        if (!s.error.empty())
            j["error"] = s.error;
        if (!resultsFile.empty())
            j["results"] = resultsFile;
        ctx.out << nlohmann::json{{"summary", j}}.dump() << '\n';
    } else {
        ctx.out << "run " << s.runId << " " << s.state << ": " << s.counts.done << "/" << s.counts.total
                << " samples verified; " << s.verdictsThisSession << " in this session in "
                << formatDuration(s.wallSeconds) << " (" << std::fixed << std::setprecision(1) << s.samplesPerMinute
                << " samples/min)" << (o.policy == "strict" ? "" : ", policy " + o.policy)
                << (o.skipStatic ? ", stage 0 skipped (verdicts flagged STATIC_SKIPPED)" : "") << "\n";
        for (const auto &[status, n] : s.counts.byStatus)
            ctx.out << "  " << std::left << std::setw(14) << status << n << '\n';
        if (s.leftPending > 0) {
            ctx.out << s.leftPending << " samples left PENDING: the harness failed them, not the samples (";
            const char *sep = "";
            for (const auto &[code, n] : s.pendingReasons) {
                ctx.out << sep << code << " " << n;
                sep = ", ";
            }
            ctx.out << "); run the same command again to verify them\n";
        }
        if (!resultsFile.empty())
            ctx.out << "results: " << resultsFile << '\n';
    }
    if (!s.error.empty()) {
        ctx.err << "sieve-cli verify: " << s.error
                << "\nThe verdicts so far are saved; run the command again to resume.\n";
        return cli::Failure;
    }
    if (s.state != "finished" && s.leftPending > 0 && !cli::interrupted())
        return cli::PartialInput; // finished what it could; the rest is PENDING, the run resumable
    if (s.state != "finished")
        return cli::Interrupted;
    return cli::Ok;
}

// The host and, under Slurm, the job: where a shard's verdicts came from.
nlohmann::json nodeEnvironment()
{
    nlohmann::json env = nlohmann::json::object();
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0)
        env["host"] = std::string(host);
    nlohmann::json slurm = nlohmann::json::object();
    for (const char *var : {"SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID", "SLURM_JOB_PARTITION",
                            "SLURMD_NODENAME", "SLURM_CLUSTER_NAME", "CUDA_VISIBLE_DEVICES"})
        if (const char *v = std::getenv(var))
            slurm[var] = std::string(v);
    if (!slurm.empty())
        env["slurm"] = slurm;
    return env;
}

// verify --shard K/N --out DIR: cut (or reopen) the shard file, then verify inside it.
int runShard(VerifyOptions o, const Args &args, cli::Context &ctx)
{
    if (!args.has("out"))
        throw UsageError("--shard needs --out DIR (where the shard results file goes)");
    if (args.has("limit"))
        throw UsageError("--limit does not combine with --shard: each shard would take its own N samples");
    ShardSpec spec;
    try {
        spec = ShardSpec::parse(*args.value("shard"));
    } catch (const std::invalid_argument &e) {
        throw UsageError(e.what());
    }
    ShardPlan plan;
    plan.selection = o.selection;
    plan.mode = o.cpu ? "cpu" : "gpu";
    bool created = false;
    ShardFile shard;
    try {
        shard = prepareShardFile(o.dbPath, spec, plan, *args.value("out"), created);
    } catch (const ShardError &e) {
        ctx.err << "sieve-cli verify: " << e.what() << '\n';
        return cli::Failure;
    }
    ctx.err << (created ? "cut shard " : "reopened shard ") << spec.text() << ": " << shard.samples << " of "
            << shard.corpusSamples << " selected samples -> " << shard.path << '\n';

    const CorpusLock lock(shard.path);

    o.dbPath = shard.path;
    o.selection = SampleSelection{};
    o.selection.all = true; // the shard file holds exactly the shard's samples
    o.extraParams = {{"shard",
                      {{"index", spec.index},
                       {"count", spec.count},
                       {"plan", shard.planKey},
                       {"uid", shard.uid},
                       {"corpus_id", shard.plan.corpusId},
                       {"selection", shard.plan.selection.toJson()}}}};
    o.extraEnv = nodeEnvironment();
    {
        Corpus sc = Corpus::open(shard.path);
        const auto unfinished = latestUnfinishedRun(sc);
        if (unfinished && args.has("new-run")) {
            setRunState(sc, unfinished->id, "abandoned");
        } else if (unfinished) {
            o.resumeRunId = unfinished->id;
            if (!args.has("parallel"))
                o.parallel = unfinished->params.value("parallel", o.parallel);
            if (!args.has("policy"))
                o.policy = jsonString(unfinished->params, "policy", o.policy);
            const bool storedSkip = unfinished->params.value("skip_static", false);
            if (o.skipStatic && !storedSkip)
                throw UsageError("shard " + spec.text() +
                                 " has an unfinished run without --skip-static; add "
                                 "--new-run to start a measurement run");
            o.skipStatic = storedSkip; // a measurement run stays one when resumed
        } else if (!args.has("new-run") && store::finishedVerifyRunCount(sc.db()) > 0) {
            ctx.out << "shard " << spec.text() << " is already verified: " << shard.path
                    << " (add --new-run to verify it again)\n";
            return cli::Ok;
        }
    }
    return runEngine(o, args, ctx, shard.path);
}

int runVerify(const Args &args, cli::Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    VerifyOptions o;
    o.dbPath = args.positional[0];
    o.python = args.value("python", "");
    o.cacheDir = args.value("cache-dir", "");
    o.timing = !args.has("no-timing");
    o.fp32Precision = args.value("fp32-precision", "deployed");
    if (o.fp32Precision != "deployed" && o.fp32Precision != "ieee")
        throw UsageError("--fp32-precision must be 'deployed' or 'ieee', not '" + o.fp32Precision + "'");
    if (const auto p = args.value("policy")) {
        if (*p != "strict" && *p != "kernelbench")
            throw UsageError("--policy expects strict or kernelbench, got '" + *p + "'");
        o.policy = *p;
    }
    o.skipStatic = args.has("skip-static");
    if (o.skipStatic && args.has("serve"))
        throw UsageError("--skip-static is a measurement option and does not combine with --serve (the sampler's "
                         "first pass admits samples)");
    if (args.has("cpu") && args.has("gpus"))
        throw UsageError("--cpu and --gpus exclude each other");
    if (auto p = args.integer("parallel")) {
        if (*p < 1 || *p > 256)
            throw UsageError("--parallel must be between 1 and 256");
        o.parallel = static_cast<int>(*p);
    }
    if (auto t = args.number("timeout")) {
        if (*t <= 0)
            throw UsageError("--timeout must be positive");
        o.timeouts.compile = o.timeouts.correct = o.timeouts.timing = *t;
    }
    auto tolerance = [&](const char *name) -> std::optional<double> {
        auto v = args.number(name);
        if (v && !(*v >= 0 && *v <= 1))
            throw UsageError(std::string("--") + name + " must be between 0 and 1");
        return v;
    };
    o.atolFp32 = tolerance("atol-fp32");
    o.rtolFp32 = tolerance("rtol-fp32");
    o.atolHalf = tolerance("atol-half");
    o.rtolHalf = tolerance("rtol-half");
    if (auto n = args.integer("seeds")) {
        if (*n < 5 || *n > 100)
            throw UsageError("--seeds must be between 5 (the ladder's floor) and 100");
        o.seeds = static_cast<int>(*n);
    }
    if (auto n = args.integer("timing-max-runs")) {
        if (*n < 10 || *n > 100000)
            throw UsageError("--timing-max-runs must be between 10 (the SEM estimate's minimum) and 100000");
        o.timingMaxRuns = static_cast<int>(*n);
    }
    if (auto ms = args.number("timing-budget-ms")) {
        if (*ms < 10 || *ms > 600000)
            throw UsageError("--timing-budget-ms must be between 10 and 600000");
        o.timingBudgetMs = *ms;
    }
    SampleSelection sel;
    sel.all = args.has("all");
    sel.tasks = args.all("task");
    for (const auto &s : args.all("sample")) {
        size_t used = 0;
        long long id = 0;
        try {
            id = std::stoll(s, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used == 0 || used != s.size())
            throw UsageError("--sample expects a sample id (an integer), got '" + s + "'");
        sel.ids.push_back(id);
    }
    if (auto l = args.integer("limit")) {
        if (*l < 1)
            throw UsageError("--limit must be at least 1");
        sel.limit = *l;
    }
    o.selection = sel;
    const bool explicitSelection = args.has("all") || args.has("task") || args.has("sample") || args.has("limit");
    const bool explicitMode = args.has("cpu") || args.has("gpus");
    if (args.has("cpu"))
        o.cpu = true;
    if (args.has("gpus"))
        o.gpus = parseGpuList(*args.value("gpus"));

    if (args.has("serve")) {
        if (explicitSelection || args.has("shard") || args.has("new-run"))
            throw UsageError("--serve takes its samples from stdin: no --all, --task, --sample, --limit, --shard "
                             "or --new-run");
        o.serve = true;
        const CorpusLock lock(o.dbPath, kServeLockWaitSeconds);
        {
            // Serve runs are never resumed (their samples come from the sampler); a killed one is over.
            Corpus corpus = Corpus::open(o.dbPath);
            store::abandonUnfinishedServeRuns(corpus.db());
        }
        return runEngine(o, args, ctx);
    }
    if (args.has("out") && !args.has("shard"))
        throw UsageError("--out goes with --shard K/N");
    if (args.has("shard"))
        return runShard(o, args, ctx);

    const CorpusLock lock(o.dbPath);

    {
        Corpus corpus = Corpus::open(o.dbPath);
        const auto unfinished = latestUnfinishedRun(corpus);
        if (unfinished && args.has("new-run")) {
            setRunState(corpus, unfinished->id, "abandoned");
        } else if (unfinished) {
            const nlohmann::json &p = unfinished->params;
            const SampleSelection stored = SampleSelection::fromJson(p.value("selection", nlohmann::json::object()));
            const std::string storedMode = jsonString(p, "mode", unfinished->mode);
            VerifyOptions probe = o;
            if (!explicitMode) {
                probe.cpu = storedMode == "cpu";
                probe.gpus = storedMode.rfind("gpu:", 0) == 0 ? parseGpuList(storedMode.substr(4)) : std::vector<int>{};
            }
            const bool selectionDiffers = explicitSelection && !(stored == sel);
            const bool modeDiffers = explicitMode && runMode(probe) != storedMode;
            const std::string storedPolicy = jsonString(p, "policy", "strict");
            const bool policyDiffers = args.has("policy") && o.policy != storedPolicy;
            const bool storedSkip = p.value("skip_static", false);
            const bool skipDiffers = args.has("skip-static") && !storedSkip;
            if (selectionDiffers || modeDiffers || policyDiffers || skipDiffers)
                throw UsageError("verification run " + std::to_string(unfinished->id) + " is unfinished (" +
                                 storedMode + ", policy " + storedPolicy + (storedSkip ? ", --skip-static" : "") +
                                 ", selection " + stored.toJson().dump() + "); run 'sieve-cli verify " + o.dbPath +
                                 "' to resume it, or add --new-run to start a different one");
            o = probe;
            o.selection = stored;
            o.policy = storedPolicy;
            o.skipStatic = storedSkip; // a measurement run stays one when resumed
            if (!args.has("parallel"))
                o.parallel = p.value("parallel", o.parallel);
            if (!args.has("no-timing"))
                o.timing = p.value("timing", o.timing);
            if (!args.has("fp32-precision"))
                o.fp32Precision = p.value("fp32_precision", o.fp32Precision);
            o.resumeRunId = unfinished->id;
        }
    }
    return runEngine(o, args, ctx);
}

} // namespace

cli::Command verifyCommand()
{
    return {
        .name = "verify",
        .summary = "verify samples (static, compile, correctness, proof of work, timing) and store verdicts",
        .usage = "sieve-cli verify DB [OPTIONS]",
        .description =
            "Runs the verification ladder (static checks, compile, correctness on several shapes and 5 seeds, proof\n"
            "that the sample's own kernels did the work, timing on GPUs) over the samples of DB and stores a verdict\n"
            "per sample in a verification run. Candidate code runs only in sandboxed child processes of the\n"
            "verifier's Python workers, never in sieve-cli.\n",
        .options =
            {{.name = "all",
              .help = "every sample (re-verify); old runs and their verdicts are kept",
              .section = "Which samples (default: those whose status is PENDING):"},
             {.name = "task",
              .takesValue = true,
              .repeatable = true,
              .valueName = "NAME",
              .help = "only samples of this task (repeatable)"},
             {.name = "sample",
              .takesValue = true,
              .repeatable = true,
              .valueName = "ID",
              .help = "only this sample id (repeatable)"},
             {.name = "limit",
              .takesValue = true,
              .valueName = "N",
              .help = "at most N samples (in task, then id order)"},
             {.name = "gpus",
              .takesValue = true,
              .valueName = "LIST",
              .help = "one worker per GPU, e.g. --gpus 0,1 (default: every GPU nvidia-smi lists)",
              .section = "Where:"},
             {.name = "cpu",
              .help = "one worker on the CPU with the Triton interpreter (TRITON_INTERPRET=1): small shapes, no "
                      "timing; verdicts say they were interpreted. Without a GPU this must be given explicitly, "
                      "because CPU verdicts are not GPU verdicts."},
             {.name = "parallel",
              .takesValue = true,
              .valueName = "P",
              .help = "candidates verified at once per worker (default: the usable CPU cores / the GPUs, between 2 "
                      "and 16; 4 with --cpu); timing still holds its GPU alone"},
             {.name = "no-timing", .help = "skip the timing stage on GPUs (no speedups)"},
             {.name = "fp32-precision",
              .takesValue = true,
              .valueName = "P",
              .help = "deployed (default: Triton's own default, TF32 for fp32 tl.dot on GPUs that have it, as the "
                      "kernel runs when deployed) or ieee (full fp32, TRITON_F32_DEFAULT=ieee); recorded in the run's "
                      "parameters and environment and in exports",
              .choices = {"deployed", "ieee"}},
             {.name = "policy",
              .takesValue = true,
              .valueName = "P",
              .help = "stage 0's rule for partial answers: strict (default: every op of the forward runs in the "
                      "sample's own kernels; a torch op is FAIL_STATIC TORCH_OP_IN_FORWARD, with TORCH_CORE_OP naming "
                      "a conv/GEMM) or kernelbench (KernelBench's rule: a torch core op plus the sample's own kernels "
                      "for the rest is accepted, with the finding TORCH_CORE_OP_ALLOWED naming the op). Recorded in "
                      "the run.",
              .choices = {"strict", "kernelbench"}},
             {.name = "skip-static",
              .help = "measurement only, never for training data: stage 0 (the static reading) does not run, so the "
                      "runtime walls are measured alone. Recorded in the run (params_json, env_json: skip_static) "
                      "and in every verdict (flag STATIC_SKIPPED); select and export do not count such a PASS as "
                      "passing unless --include-skip-static. A resumed run keeps it."},
             {.name = "timeout",
              .takesValue = true,
              .valueName = "S",
              .help = "seconds per stage (compile, correct, timing; default 120)"},
             {.name = "atol-fp32",
              .takesValue = true,
              .valueName = "X",
              .help = "absolute tolerance for fp32 tasks, replacing the tasks' own in this run"},
             {.name = "rtol-fp32",
              .takesValue = true,
              .valueName = "X",
              .help = "relative tolerance for fp32 tasks, replacing the tasks' own in this run"},
             {.name = "atol-half",
              .takesValue = true,
              .valueName = "X",
              .help = "absolute tolerance for fp16/bf16 tasks, replacing the tasks' own in this run"},
             {.name = "rtol-half",
              .takesValue = true,
              .valueName = "X",
              .help = "relative tolerance for fp16/bf16 tasks, replacing the tasks' own in this run"},
             {.name = "seeds",
              .takesValue = true,
              .valueName = "N",
              .help = "seeds per shape (0..N-1; at least 5, the ladder's floor)"},
             {.name = "timing-max-runs",
              .takesValue = true,
              .valueName = "N",
              .help = "timed calls per sample at most (default 100; the SEM target may stop sooner)"},
             {.name = "timing-budget-ms",
              .takesValue = true,
              .valueName = "MS",
              .help = "time per sample's timing loop at most (default 2000)"},
             {.name = "python",
              .takesValue = true,
              .valueName = "PATH",
              .help = "the interpreter with torch and triton (default: SIEVE_PYTHON, SIEVE_VENV, then "
                      "~/.cache/sieve/venv/bin/python)"},
             {.name = "cache-dir",
              .takesValue = true,
              .valueName = "DIR",
              .help = "reference outputs, Triton's cache and worker logs (default ~/.cache/sieve/verify)"},
             {.name = "shard",
              .takesValue = true,
              .valueName = "K/N",
              .help = "verify only shard K of N (0 <= K < N) of the selected samples: a sample's shard is its "
                      "content key's hash mod N, so the N shards are disjoint and together cover the selection, on "
                      "any node. DB is only read (a copy is fine); the shard's samples, its run, environment and "
                      "verdicts go to DIR/shard-K-of-N.sieve, a small corpus file of its own. Running the same "
                      "command again resumes it; when it is finished, does nothing. --limit does not combine with "
                      "--shard.",
              .section = "Shards (clusters; see 'sieve-cli slurm-script' and 'sieve-cli merge'):"},
             {.name = "out",
              .takesValue = true,
              .valueName = "DIR",
              .help = "where the shard results file goes (required with --shard)"},
             {.name = "new-run",
              .help = "start a fresh run instead; the unfinished one is marked abandoned",
              .section =
                  "Runs:\n"
                  "  A run interrupted by Ctrl-C, SIGTERM or a crash is resumed by running the same command again: "
                  "the\n"
                  "  latest unfinished run continues with its own selection and mode, skipping samples it already\n"
                  "  verdicted. Options that select differently are refused while a run is unfinished."},
             {.name = "serve",
              .help = "a long-lived run for the sampler: reads sample ids from stdin, one per line, and verifies "
                      "each as it arrives with the same warm workers (use with --json: one line per verdict); ends "
                      "when stdin does. Never resumed; a killed one is abandoned by the next."},
             {.name = "json",
              .help = "one JSON object per verdict on stdout "
                      "({\"sample\",\"name\",\"task\",\"status\",\"reasons\",\"message\",\"speedup\",\"phases\"}: "
                      "phases is where the sample's time went, in seconds), then {\"summary\":{...}}; progress goes "
                      "to stderr",
              .section = "Output:"},
             {.name = "quiet", .shortName = 'q', .help = "no progress"}},
        .notes =
            "Exit codes: 0 run finished, 1 the run could not start or its workers kept failing (what was verified\n"
            "is kept; run the command again to resume), 2 usage (including: no GPU and no --cpu), 130 interrupted\n"
            "(resumable).\n",
        .run = runVerify};
}

} // namespace sieve::gpu
