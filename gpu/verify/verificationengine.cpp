#include "gpu/verify/verificationengine.h"

#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/store/verifyinputstore.h"
#include "gpu/verify/pythonenv.h"
#include "gpu/verify/scratchdir.h"
#include "gpu/verify/verdictwriter.h"
#include "gpu/verify/verifyrun.h"
#include "gpu/verify/workerprocess.h"
#include "gpu/verify/workerprotocol.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace sieve::gpu {

// State the worker slots share: the queue of samples, the counts, the writer, tasks found broken.
struct VerificationEngine::Shared
{
    std::mutex mutex;
    std::deque<SampleRef> queue;
    RunCounts counts;
    std::uint64_t sessionVerdicts = 0;
    std::map<std::int64_t, nlohmann::json> brokenTasks; // task id -> hygiene message for its samples
    std::set<std::int64_t> flaggedTasks;                // tasks whose flags were written in this run
    // Harness faults that met a task's reference or a sample (this session), one line of evidence per attempt:
    // the worker died, or its watchdog fired, while it was in flight. A sample with one runs again alone; at
    // kMaxAttempts it is charged with them (faultsOf).
    std::map<std::int64_t, std::vector<std::string>> taskFaults;
    std::map<std::int64_t, std::vector<std::string>> sampleFaults;
    // Samples this session could not get a verdict for (the worker said the harness failed them): no verdict
    // is written, they stay PENDING and the run stays resumable; by the worker's code (DEVICE_UNAVAILABLE, ...).
    std::map<std::string, std::uint64_t> leftPending;
    std::unique_ptr<VerdictWriter> writer;
    std::atomic<std::int64_t> nextJob{1};
    std::int64_t runId = 0;
    PythonEnv python;
    std::string cacheDir, scratchRoot, logDir;
    std::string fatal; // set by a slot that gave up
};

namespace {

std::string defaultCacheDir()
{
    const char *xdg = std::getenv("XDG_CACHE_HOME");
    const char *home = std::getenv("HOME");
    const std::string base = xdg && *xdg ? xdg : (home && *home ? std::string(home) + "/.cache" : "/tmp");
    return base + "/sieve/verify";
}

std::vector<std::string> hygieneCodes(const nlohmann::json &hygiene)
{
    std::vector<std::string> out;
    if (hygiene.is_array())
        for (const auto &h : hygiene)
            if (h.is_object() && h.contains("code") && h["code"].is_string())
                out.push_back(h["code"].get<std::string>());
    if (out.empty())
        out.push_back("REF_FAILED");
    return out;
}

std::string joinCodes(const nlohmann::json &hygiene)
{
    std::string s;
    if (hygiene.is_array())
        for (const auto &h : hygiene)
            if (h.is_object() && h.contains("code") && h["code"].is_string()) {
                s += s.empty() ? "" : ",";
                s += h["code"].get<std::string>();
            }
    return s;
}

std::string hygieneMessage(const nlohmann::json &hygiene)
{
    std::string s;
    if (hygiene.is_array())
        for (const auto &h : hygiene)
            if (h.is_object()) {
                s += s.empty() ? "" : "; ";
                s += jsonString(h, "message", jsonString(h, "code", "?"));
            }
    return s.empty() ? std::string("the task's reference could not be run") : s;
}

// The sieve-cli that the worker execs for raw CUDA answers (`cuda-verify`): SIEVE_CLI, else this very
// executable when it is sieve-cli, else one beside it or in ../app (test binaries in the build tree).
std::string sieveCliPath()
{
    if (const char *v = std::getenv("SIEVE_CLI"); v && *v)
        return v;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    if (self.filename() == "sieve-cli")
        return self.string();
    for (const fs::path &p : {self.parent_path() / "sieve-cli", self.parent_path().parent_path() / "app" / "sieve-cli"})
        if (fs::exists(p, ec))
            return p.string();
    return {};
}

std::string tail(const std::string &text, size_t max)
{
    return text.size() <= max ? text : "..." + text.substr(text.size() - max);
}

// A harness fault is charged to the sample or task it met only when it met it on this many attempts, each in
// a fresh worker (a sample runs alone after its first).
constexpr std::size_t kMaxAttempts = 3;
// Attempts the worker itself gives one request when its stage ran out of time while the machine was loaded
// (the first, then once alone: gpu/worker/sieve_worker/rules.py MAX_LOAD_RETRIES + 1).
constexpr double kLoadAttempts = 2;

std::string joined(const std::vector<std::string> &lines)
{
    std::string s;
    for (const auto &l : lines)
        s += (s.empty() ? "" : "; ") + l;
    return s;
}

} // namespace

// One worker process and the samples it has in flight. Runs on its own thread.
class VerificationEngine::Slot
{
public:
    Slot(VerificationEngine &engine, int index, std::string device)
        : m_engine(engine), m_sh(*engine.m_shared), m_index(index), m_device(std::move(device)),
          m_corpus(Corpus::open(engine.m_options.dbPath, true))
    {
    }

    void run();

private:
    struct Job
    {
        std::int64_t job = 0;
        SampleRef ref;
        std::string sampleName, taskName, taskKey, backend, code;
        bool sent = false;      // handed to the worker to run (at most `parallel` are)
        bool screened = false;  // stage 0 asked for ahead of the task (sendScreen)
        bool needsTask = false; // stage 0 passed (or is skipped): it runs once its task is ready
        bool alone = false;     // a harness fault met it before: it runs with nothing beside it
        Clock::time_point since;
        double budgetS = 0;
    };
    struct TaskState
    {
        std::string key, name;
        bool ready = false;
        std::optional<Clock::time_point> startedAt; // when the worker began its references (task_started)
        nlohmann::json dropped; // shapes the worker dropped (the reference failed on them), for details
    };

    bool startWorker();
    bool takeWork();
    void needTask(Job &job);
    void announceTask(std::int64_t taskId);
    void dispatch();
    void prefetchTasks();
    bool loadJob(Job &job);
    void sendTask(std::int64_t taskId);
    void sendJob(Job &job);
    void sendScreen(Job &job);
    void sendScreenRequest(std::int64_t jobId, std::int64_t sampleId, const std::string &taskKey,
                           const std::string &backend, const std::string &code, bool peek);
    bool skipsStatic(std::int64_t sampleId) const
    {
        const auto &ids = opts().skipStaticSampleIds;
        return opts().skipStatic || std::find(ids.begin(), ids.end(), sampleId) != ids.end();
    }
    void handleLine(const std::string &line);
    void onTaskReady(const nlohmann::json &msg);
    void onVerdict(const nlohmann::json &msg);
    void finishJob(Job &job, VerdictRecord v);
    void leavePending(Job &job, const std::string &code, const std::string &message);
    void syntheticVerdict(Job &job, const std::string &status, const std::string &stage,
                          std::vector<std::string> reasons, const std::string &message, const std::string &log);
    void workerDied(const std::string &why, bool ourKill);
    void watchdog();
    void requeue(std::vector<Job> jobs);
    void forgetPid();
    const VerifyOptions &opts() const { return m_engine.m_options; }

    VerificationEngine &m_engine;
    Shared &m_sh;
    int m_index;
    std::string m_device;
    Corpus m_corpus; // read-only connection of this thread
    std::unique_ptr<WorkerProcess> m_worker;
    bool m_helloSeen = false;
    std::string m_channelKey; // this worker session's verdict-channel key (workerprocess.h)
    std::uint64_t m_channelSeq = 0;
    Clock::time_point m_startedAt;
    Clock::time_point m_lastLine; // the worker's last protocol line (the watchdog's sign of life)
    int m_consecutiveFailures = 0;
    std::string m_deviceLabel;
    std::map<std::int64_t, Job> m_inflight;        // job id -> job
    std::map<std::int64_t, TaskState> m_tasks;     // task id -> what this worker knows of it
    std::map<std::string, std::int64_t> m_taskIds; // task key -> id
    std::map<std::int64_t, std::int64_t> m_peeks;  // look-ahead screens in flight: -sample id -> task id
    std::set<std::int64_t> m_peekedTasks;          // tasks with a look-ahead screen in flight
    std::set<std::int64_t> m_peeked;               // samples screened ahead already (each once)
};

void VerificationEngine::Slot::forgetPid()
{
    if (!m_worker)
        return;
    std::lock_guard lock(m_engine.m_pidMutex);
    auto &p = m_engine.m_pids;
    p.erase(std::remove(p.begin(), p.end(), m_worker->pid()), p.end());
}

bool VerificationEngine::Slot::startWorker()
{
    WorkerProcess::Spec spec;
    spec.python = m_sh.python.python;
    spec.args = {"-m", "sieve_worker", "--device", m_device, "--parallel", std::to_string(opts().parallel)};
    const char *pp = std::getenv("PYTHONPATH");
    spec.env["PYTHONPATH"] = m_sh.python.workerDir + (pp && *pp ? ":" + std::string(pp) : "");
    spec.env["PYTHONUNBUFFERED"] = "1";
    if (opts().cpu)
        spec.env["TRITON_INTERPRET"] = "1"; // must be set before triton is imported: at process start
    if (const std::string cli = sieveCliPath(); !cli.empty())
        spec.env["SIEVE_CLI"] = cli;
    for (const auto &[k, v] : opts().workerEnv)
        spec.env[k] = v;
    spec.stderrLogPath =
        m_sh.logDir + "/run" + std::to_string(m_sh.runId) + "-worker" + std::to_string(m_index) + ".log";
    m_worker = std::make_unique<WorkerProcess>(std::move(spec));
    m_worker->start();
    {
        std::lock_guard lock(m_engine.m_pidMutex);
        m_engine.m_pids.push_back(m_worker->pid());
    }
    m_helloSeen = false;
    m_startedAt = Clock::now();
    m_lastLine = m_startedAt;
    m_tasks.clear();
    m_taskIds.clear();
    m_peeks.clear();
    m_peekedTasks.clear();
    m_channelKey = newChannelKey();
    m_channelSeq = 0;
    m_worker->send(nlohmann::json{{"op", "hello"},
                                  {"cache_dir", m_sh.cacheDir},
                                  {"scratch_root", m_sh.scratchRoot},
                                  {"channel_key", m_channelKey},
                                  {"fp32_precision", opts().fp32Precision}}
                       .dump());
    return true;
}

// Samples are taken from the shared queue into a window of `parallel` + kAhead; at most `parallel` of them
// run at once (dispatch). Each is screened first (stage 0 needs nothing of its task): one that stage 0
// rejects gets its verdict at once and leaves the window; one it passes needs its task, which is announced
// then, so the worker computes the references of the window's tasks in the background, several at once,
// while the samples ahead run. A task none of whose samples passes stage 0 (every answer a wrapper around
// torch) never has its references made.
bool VerificationEngine::Slot::takeWork()
{
    constexpr int kAhead = 16;
    bool took = false;
    while (static_cast<int>(m_inflight.size()) < opts().parallel + kAhead) {
        Job job;
        {
            std::lock_guard lock(m_sh.mutex);
            if (m_sh.queue.empty() || !m_sh.fatal.empty())
                break;
            job.ref = m_sh.queue.front();
            m_sh.queue.pop_front();
        }
        job.job = m_sh.nextJob.fetch_add(1);
        took = true;
        if (!loadJob(job))
            continue;
        // Even when its task is known to be broken, stage 0 decides first (dispatch gives the rest
        // UNVERIFIABLE): a sample's verdict must not depend on whether it came before or after that was known.
        if (m_engine.m_observer)
            m_engine.m_observer->sampleStarted(job.ref.id, m_index);
        auto [it, inserted] = m_inflight.emplace(job.job, std::move(job));
        Job &j = it->second;
        j.since = Clock::now();
        if (skipsStatic(j.ref.id))
            needTask(j);
        else
            sendScreen(j);
    }
    dispatch();
    prefetchTasks();
    return took;
}

// Stage 0 passed: the sample waits for its task.
void VerificationEngine::Slot::needTask(Job &job)
{
    job.needsTask = true;
    announceTask(job.ref.taskId);
}

// Sends a task to the worker unless it knows it already or it is known to be broken (dispatch answers the
// samples of those).
void VerificationEngine::Slot::announceTask(std::int64_t taskId)
{
    bool broken;
    {
        std::lock_guard lock(m_sh.mutex);
        broken = m_sh.brokenTasks.count(taskId) > 0;
    }
    if (!broken && !m_tasks.count(taskId))
        sendTask(taskId);
}

// Sends the window's samples whose task is ready, in the order they were taken, while fewer than
// `parallel` run; those of a task that turned out broken get their verdict.
void VerificationEngine::Slot::dispatch()
{
    int running = 0;
    bool aloneRunning = false;
    for (const auto &[id, job] : m_inflight) {
        running += job.sent ? 1 : 0;
        aloneRunning = aloneRunning || (job.sent && job.alone);
    }
    std::vector<std::pair<std::int64_t, nlohmann::json>> broken;
    for (auto &[id, job] : m_inflight) {
        if (job.sent || !job.needsTask)
            continue;
        {
            std::lock_guard lock(m_sh.mutex);
            if (auto b = m_sh.brokenTasks.find(job.ref.taskId); b != m_sh.brokenTasks.end()) {
                broken.emplace_back(id, b->second); // known broken here, by another worker or the watchdog
                continue;
            }
            // a sample that a harness fault met runs again alone: the next fault then follows it or not
            job.alone = m_sh.sampleFaults.count(job.ref.id) > 0;
        }
        auto t = m_tasks.find(job.ref.taskId);
        if (t == m_tasks.end() || !t->second.ready)
            continue;
        if (running >= opts().parallel || aloneRunning)
            continue;
        if (job.alone && running > 0)
            break; // the others drain first; nothing new starts meanwhile
        sendJob(job);
        ++running;
        aloneRunning = job.alone;
    }
    for (auto &[id, hygiene] : broken) {
        Job done = std::move(m_inflight.at(id));
        m_inflight.erase(id);
        syntheticVerdict(done, "UNVERIFIABLE", "task", hygieneCodes(hygiene),
                         "The task is unusable, so no sample of it can be verified: " + hygieneMessage(hygiene),
                         hygiene.dump(2));
    }
}

bool VerificationEngine::Slot::loadJob(Job &job)
{
    const auto s = store::sampleToVerify(m_corpus.db(), job.ref.id);
    if (!s)
        return false; // deleted since the run started: nothing to verify
    job.sampleName = s->name;
    job.backend = s->backend;
    job.taskName = s->taskName;
    job.taskKey = s->taskKey;
    if (s->code) {
        try {
            job.code = payload::unpack(*s->code);
        } catch (const std::exception &e) {
            syntheticVerdict(job, "UNVERIFIABLE", "static", {"CORRUPT_PAYLOAD"},
                             "The sample's stored code could not be read: " + std::string(e.what()), "");
            return false;
        }
    }
    return true;
}

void VerificationEngine::Slot::sendTask(std::int64_t taskId)
{
    const auto t = store::taskSpec(m_corpus.db(), taskId);
    if (!t)
        throw std::runtime_error("task " + std::to_string(taskId) + " vanished from the corpus during the run");
    nlohmann::json msg = {{"op", "task"}, {"task_key", t->taskKey}, {"name", t->name}, {"dtype", t->dtype}};
    if (t->atol)
        msg["atol"] = *t->atol;
    if (t->rtol)
        msg["rtol"] = *t->rtol;
    nlohmann::json shapes = nlohmann::json::array();
    if (t->shapesJson) {
        shapes = nlohmann::json::parse(*t->shapesJson, nullptr, false);
        if (shapes.is_discarded() || !shapes.is_array())
            shapes = nlohmann::json::array();
    }
    msg["shapes"] = shapes;
    const bool half = t->dtype == "fp16" || t->dtype == "bf16";
    if (auto a = half ? opts().atolHalf : opts().atolFp32)
        msg["atol"] = *a;
    if (auto r = half ? opts().rtolHalf : opts().rtolFp32)
        msg["rtol"] = *r;
    nlohmann::json seeds = nlohmann::json::array();
    for (int s = 0; s < std::max(5, opts().seeds); ++s)
        seeds.push_back(s);
    msg["seeds"] = seeds;
    msg["reference_timeout"] = opts().timeouts.task;
    std::string source = t->source.value_or(std::string());
    std::transform(source.begin(), source.end(), source.begin(), [](unsigned char c) { return std::tolower(c); });
    // KernelBook's get_init_inputs() returns [args, kwargs]; KernelBench's returns the args.
    msg["init_inputs_style"] = source.find("kernelbook") != std::string::npos ? "kernelbook" : "kernelbench";
    msg["reference_code"] = !t->referenceCode ? std::string() : payload::unpack(*t->referenceCode);
    if (auto o = opts().taskOverrides.find(t->name); o != opts().taskOverrides.end() && o->second.is_object())
        for (const auto &[k, v] : o->second.items())
            msg[k] = v;
    TaskState ts;
    ts.key = t->taskKey;
    ts.name = t->name;
    m_taskIds[ts.key] = taskId;
    m_tasks[taskId] = ts;
    m_worker->send(msg.dump());
}

void VerificationEngine::Slot::sendJob(Job &job)
{
    const bool timing = opts().timing && !opts().cpu;
    const auto &t = opts().timeouts;
    // Before timing, a child waits for the GPU lock (the worker's 'queue' stage) behind at most the
    // other parallel-1 children's timing stages.
    const double queue = timing ? t.timing * std::max(1, opts().parallel - 1) + 30 : 0;
    nlohmann::json msg = {{"op", "verify"},
                          {"job", job.job},
                          {"task_key", job.taskKey},
                          {"sample_id", job.ref.id},
                          {"backend", job.backend},
                          {"code", job.code},
                          {"timing", timing},
                          {"policy", opts().policy},
                          {"timeouts", {{"compile", t.compile}, {"correct", t.correct}, {"timing", t.timing}}},
                          {"limits", {{"memory_mb", opts().memoryMb}, {"processes", opts().processes}}}};
    if (timing)
        msg["timeouts"]["queue"] = queue;
    if (opts().timingMaxRuns)
        msg["timing_limits"]["max_runs"] = *opts().timingMaxRuns;
    if (opts().timingBudgetMs)
        msg["timing_limits"]["max_seconds"] = *opts().timingBudgetMs / 1000.0;
    if (skipsStatic(job.ref.id))
        msg["skip_static"] = true;
    m_worker->send(msg.dump());
    job.sent = true;
    if (m_engine.m_observer)
        m_engine.m_observer->sampleSent(job.ref.id, m_index);
    job.since = Clock::now();
    // the worker runs a sample that ran out of time waiting for a CPU once more, alone, within the same
    // request (rules.MAX_LOAD_RETRIES): the watchdog allows for both attempts before it calls the worker hung
    job.budgetS = kLoadAttempts * (t.compile + t.correct + (timing ? t.timing + queue : 0)) + opts().watchdogMargin();
    job.code.clear();
    job.code.shrink_to_fit();
}

// Look ahead: a task whose samples fill the window (parallel + 16 or more of them) would have the next
// task's references begun only when the window reaches its samples, and the GPU idle meanwhile. So the
// first queued sample of each of the next tasks is screened ahead ("peeked": a negative job id, its verdict
// never recorded; taken later, it is screened again), and a task is announced when one passes, up to
// kTasksAhead waiting for references. A task whose peeked sample stage 0 rejects is tried again with its
// next sample: tasks of nothing but wrappers are still never prepared.
void VerificationEngine::Slot::prefetchTasks()
{
    constexpr std::size_t kTasksAhead = 8, kScan = 4096;
    std::size_t waiting = m_peeks.size();
    for (const auto &[id, ts] : m_tasks)
        waiting += ts.ready ? 0 : 1;
    if (waiting >= kTasksAhead)
        return;
    std::vector<SampleRef> ahead;
    {
        std::lock_guard lock(m_sh.mutex);
        std::set<std::int64_t> seen;
        std::size_t scanned = 0;
        for (auto it = m_sh.queue.begin(); it != m_sh.queue.end() && scanned < kScan; ++it, ++scanned) {
            if (waiting + ahead.size() >= kTasksAhead)
                break;
            const std::int64_t t = it->taskId;
            if (m_tasks.count(t) || m_sh.brokenTasks.count(t) || m_peekedTasks.count(t) || m_peeked.count(it->id) ||
                !seen.insert(t).second)
                continue;
            ahead.push_back(*it);
        }
    }
    for (const SampleRef &ref : ahead) {
        m_peeked.insert(ref.id);
        if (skipsStatic(ref.id)) { // no stage 0 to wait for: the task is wanted
            announceTask(ref.taskId);
            continue;
        }
        const auto s = store::sampleToVerify(m_corpus.db(), ref.id);
        if (!s || !s->code)
            continue;
        std::string code;
        try {
            code = payload::unpack(*s->code);
        } catch (const std::exception &) {
            continue; // its own verdict says so when it is taken
        }
        sendScreenRequest(-ref.id, ref.id, s->taskKey, s->backend, code, true);
        m_peeks[-ref.id] = ref.taskId;
        m_peekedTasks.insert(ref.taskId);
    }
}

// Stage 0 alone (the worker's "screen"): a verdict for a sample it rejects (a wrapper around torch, a
// forbidden import), "screened" for one that needs its task.
void VerificationEngine::Slot::sendScreen(Job &job)
{
    sendScreenRequest(job.job, job.ref.id, job.taskKey, job.backend, job.code, false);
    job.screened = true;
}

void VerificationEngine::Slot::sendScreenRequest(std::int64_t jobId, std::int64_t sampleId, const std::string &taskKey,
                                                 const std::string &backend, const std::string &code, bool peek)
{
    nlohmann::json msg = {{"op", "screen"},     {"job", jobId}, {"task_key", taskKey},    {"sample_id", sampleId},
                          {"backend", backend}, {"code", code}, {"policy", opts().policy}};
    if (peek)
        msg["peek"] = true;
    m_worker->send(msg.dump());
}

void VerificationEngine::Slot::syntheticVerdict(Job &job, const std::string &status, const std::string &stage,
                                                std::vector<std::string> reasons, const std::string &message,
                                                const std::string &log)
{
    VerdictRecord v;
    v.sampleId = job.ref.id;
    v.status = status;
    v.stage = stage;
    v.reasons = std::move(reasons);
    v.message = message;
    v.log = log;
    v.interpreted = opts().cpu;
    v.details = {{"source", "engine"}, {"status", status}, {"reasons", v.reasons}, {"message", message}};
    finishJob(job, std::move(v));
}

void VerificationEngine::Slot::finishJob(Job &job, VerdictRecord v)
{
    v.sampleId = job.ref.id;
    v.taskId = job.ref.taskId;
    v.sampleName = job.sampleName;
    v.taskName = job.taskName;
    v.device = m_deviceLabel.empty() ? m_device : m_deviceLabel;
    v.worker = m_index;
    // a verdict made without stage 0 says so, whatever made it (the worker, a timeout, a dead worker)
    if (skipsStatic(job.ref.id) &&
        std::find(v.flags.begin(), v.flags.end(), store::kStaticSkippedFlag) == v.flags.end())
        v.flags.push_back(store::kStaticSkippedFlag);
    RunCounts snapshot;
    {
        std::lock_guard lock(m_sh.mutex);
        m_sh.counts.done++;
        m_sh.counts.byStatus[v.status]++;
        m_sh.sessionVerdicts++;
        snapshot = m_sh.counts;
    }
    VerdictRecord copy = m_engine.m_observer ? v : VerdictRecord{};
    m_sh.writer->add(std::move(v));
    if (m_engine.m_observer)
        m_engine.m_observer->sampleFinished(copy, snapshot);
}

void VerificationEngine::Slot::handleLine(const std::string &tagged)
{
    // Only lines tagged with this session's key count: anything else on the worker's stdout was not
    // written by its protocol code (a forged verdict, a stray print) and never becomes a verdict.
    std::string why;
    const std::optional<std::string> opened = openChannelLine(m_channelKey, m_channelSeq, tagged, why);
    if (!opened) {
        if (m_engine.m_observer)
            m_engine.m_observer->notice("worker " + std::to_string(m_index) + ": dropped a line without a valid " +
                                        "channel tag (" + why + "): " + tail(tagged, 200));
        return;
    }
    const std::string &line = *opened;
    m_lastLine = Clock::now();
    std::optional<nlohmann::json> decoded = decodeWorkerLine(line);
    if (!decoded) {
        // The protocol allows nothing but JSON objects on stdout: something in the worker printed.
        if (m_engine.m_observer)
            m_engine.m_observer->notice("worker " + std::to_string(m_index) +
                                        " wrote a non-protocol line: " + tail(line, 200));
        return;
    }
    const nlohmann::json msg = std::move(*decoded);
    const std::string op = jsonString(msg, "op");
    const std::int64_t jobId =
        msg.contains("job") && msg["job"].is_number_integer() ? msg["job"].get<std::int64_t>() : 0;
    if (op == "hello") {
        m_helloSeen = true;
        nlohmann::json env = msg.contains("env") && msg["env"].is_object() ? msg["env"] : nlohmann::json::object();
        const std::string gpu = jsonString(env, "gpu");
        m_deviceLabel = gpu.empty() ? m_device : m_device + " (" + gpu + ")";
        m_sh.writer->setWorkerEnv(m_index, env, jsonString(msg, "worker_version", "?"));
        if (m_engine.m_observer)
            m_engine.m_observer->workerStarted(m_index, env);
    } else if (op == "task_ready") {
        onTaskReady(msg);
    } else if (op == "verdict") {
        if (auto p = m_peeks.find(jobId); p != m_peeks.end()) {
            // a look-ahead that stage 0 rejects: not recorded (the sample is screened again when taken);
            // the task's next sample may be tried
            m_peekedTasks.erase(p->second);
            m_peeks.erase(p);
        } else {
            onVerdict(msg);
        }
    } else if (op == "screened") {
        // stage 0 found nothing fatal: the sample needs its task
        if (auto p = m_peeks.find(jobId); p != m_peeks.end()) { // a look-ahead: its task is wanted
            const std::int64_t taskId = p->second;
            m_peeks.erase(p);
            m_peekedTasks.erase(taskId);
            announceTask(taskId);
        } else if (auto it = m_inflight.find(jobId); it != m_inflight.end() && !it->second.needsTask) {
            needTask(it->second);
            dispatch();
        }
    } else if (op == "task_started") {
        // the worker began the task's references (it queues them while its task servers are busy): the
        // watchdog's REF_TIMEOUT counts from here
        if (auto id = m_taskIds.find(jsonString(msg, "task_key")); id != m_taskIds.end())
            m_tasks[id->second].startedAt = Clock::now();
    } else if (op == "task_queued") {
        // its references are made again (more disk was freed) and wait for a task server: not timed until
        // task_started comes again
        if (auto id = m_taskIds.find(jsonString(msg, "task_key")); id != m_taskIds.end())
            m_tasks[id->second].startedAt.reset();
    } else if (op == "error" && !m_helloSeen) {
        // its hello failed (the zygote could not be started): a worker that will never say hello; restarted at
        // once instead of waiting for the hello timeout, and counted as a failed start
        m_worker->kill();
        workerDied("failed to start: " + jsonString(msg, "message"), false);
    } else if (op == "error") {
        if (m_engine.m_observer)
            m_engine.m_observer->notice("worker " + std::to_string(m_index) +
                                        " rejected a request (an engine/worker bug): " + jsonString(msg, "message"));
    } else if (m_engine.m_observer) {
        m_engine.m_observer->notice("worker " + std::to_string(m_index) + " sent an unknown op '" + op + "'");
    }
}

void VerificationEngine::Slot::onTaskReady(const nlohmann::json &msg)
{
    const std::string key = jsonString(msg, "task_key");
    auto idIt = m_taskIds.find(key);
    if (idIt == m_taskIds.end())
        return;
    const std::int64_t taskId = idIt->second;
    const nlohmann::json hygiene =
        msg.contains("hygiene") && msg["hygiene"].is_array() ? msg["hygiene"] : nlohmann::json::array();
    const bool ok = msg.contains("ok") && msg["ok"].is_boolean() && msg["ok"].get<bool>();
    {
        std::lock_guard lock(m_sh.mutex);
        m_sh.taskFaults.erase(taskId);
        if (m_sh.flaggedTasks.insert(taskId).second)
            m_sh.writer->setTaskFlags(taskId, joinCodes(hygiene));
        if (!ok)
            m_sh.brokenTasks[taskId] =
                hygiene.empty()
                    ? nlohmann::json::array({{{"code", "REF_FAILED"}, {"message", "the worker rejected the task"}}})
                    : hygiene;
    }
    m_tasks[taskId].ready = true;
    m_tasks[taskId].dropped = msg.contains("dropped_shapes") ? msg["dropped_shapes"] : nlohmann::json::array();
    dispatch(); // its samples run, or get UNVERIFIABLE if it is broken
}

void VerificationEngine::Slot::onVerdict(const nlohmann::json &msg)
{
    const std::int64_t jobId =
        msg.contains("job") && msg["job"].is_number_integer() ? msg["job"].get<std::int64_t>() : -1;
    auto it = m_inflight.find(jobId);
    if (it == m_inflight.end())
        return; // an answer to a job the watchdog already gave up on
    Job job = std::move(it->second);
    m_inflight.erase(it);
    m_consecutiveFailures = 0;
    if (jsonString(msg, "status") == "CANCELLED") {
        requeue({std::move(job)}); // the engine never cancels single jobs today; if it did, they run again
        return;
    }
    if (msg.contains("harness_fault") && msg["harness_fault"].is_object()) {
        // the worker could not judge it (its device, its sandbox, the machine's load, after its own retries)
        leavePending(job, jsonString(msg["harness_fault"], "code", "HARNESS_FAULT"), jsonString(msg, "message"));
        return;
    }
    VerdictRecord v = verdictFromMessage(msg);
    if (auto t = m_tasks.find(job.ref.taskId); t != m_tasks.end() && !v.details.contains("dropped_shapes"))
        v.details["dropped_shapes"] = t->second.dropped;
    finishJob(job, std::move(v));
}

// No verdict for this sample in this session: it stays PENDING (nothing is written), the run is not finished,
// and the summary counts it under `code`. The next `sieve-cli verify` (a resume) runs it again.
void VerificationEngine::Slot::leavePending(Job &job, const std::string &code, const std::string &message)
{
    {
        std::lock_guard lock(m_sh.mutex);
        m_sh.leftPending[code]++;
    }
    if (m_engine.m_observer)
        m_engine.m_observer->sampleLeftPending(job.ref.id, job.sampleName, code, message);
}

void VerificationEngine::Slot::requeue(std::vector<Job> jobs)
{
    std::lock_guard lock(m_sh.mutex);
    for (auto j = jobs.rbegin(); j != jobs.rend(); ++j)
        m_sh.queue.push_front(j->ref);
}

// The worker is gone (it died, or something killed it). That is a fault of the harness, not of the
// samples it was running: each candidate runs in a child of its own, so its crash is a verdict the worker
// reports, never the worker's death. The samples go back to the queue and run again on a fresh worker, those
// that were in flight alone (dispatch). Only a sample that was in flight at kMaxAttempts harness faults is
// recorded as CRASH, with each attempt as the evidence (it is the likely killer: a candidate that reaches its
// worker). Samples still waiting for their task's reference run again too, unless the task's reference was
// being prepared at kMaxAttempts deaths.
void VerificationEngine::Slot::workerDied(const std::string &why, bool ourKill)
{
    const std::string errTail = m_worker ? tail(m_worker->stderrTail(), 8000) : std::string();
    forgetPid();
    std::vector<std::pair<Job, std::vector<std::string>>> crashed;
    std::vector<Job> again;
    {
        std::lock_guard lock(m_sh.mutex);
        for (auto &[id, job] : m_inflight) {
            // in flight: running, or its stage 0 asked for and not yet answered (a sample whose static
            // checks kill the worker is charged as one that runs and kills it)
            const bool inFlight = job.sent || (job.screened && !job.needsTask);
            if (inFlight) {
                auto &f = m_sh.sampleFaults[job.ref.id];
                f.push_back("attempt " + std::to_string(f.size() + 1) + ": the worker " + why +
                            (job.alone ? " (the sample ran alone)" : ""));
                if (f.size() >= kMaxAttempts) {
                    crashed.emplace_back(std::move(job), f);
                    continue;
                }
            }
            again.push_back(std::move(job));
        }
    }
    m_inflight.clear();
    std::set<std::int64_t> pendingTasks;
    for (const auto &[taskId, ts] : m_tasks)
        if (!ts.ready && ts.startedAt) // begun, not merely waiting for a task server
            pendingTasks.insert(taskId);
    {
        std::lock_guard lock(m_sh.mutex);
        for (std::int64_t t : pendingTasks) {
            auto &f = m_sh.taskFaults[t];
            f.push_back("attempt " + std::to_string(f.size() + 1) + ": the worker " + why);
            if (f.size() >= kMaxAttempts)
                m_sh.brokenTasks[t] = nlohmann::json::array(
                    {{{"code", "REF_CRASHED"},
                      {"message", "the worker died while preparing the task's reference on each of " +
                                      std::to_string(f.size()) + " attempts: " + joined(f)}}});
        }
    }
    std::vector<std::string> reasons{"WORKER_DIED", "WORKER_DIED_REPEATEDLY"};
    if (m_worker && m_worker->waitStatus() && WIFSIGNALED(*m_worker->waitStatus()))
        reasons.insert(reasons.begin(), "SIGNAL");
    for (auto &[job, evidence] : crashed)
        syntheticVerdict(job, "CRASH", "worker", reasons,
                         "The verifier's worker process died while this sample was in flight on each of " +
                             std::to_string(evidence.size()) +
                             " attempts (after the first it ran alone on a fresh worker); the sample is "
                             "recorded as a crash: " +
                             joined(evidence),
                         "worker stderr (last lines):\n" + errTail);
    requeue(std::move(again));
    if (!ourKill && m_engine.m_observer) {
        std::string last = errTail;
        while (!last.empty() && (last.back() == '\n' || last.back() == ' '))
            last.pop_back();
        m_engine.m_observer->workerLost(m_index, why + (last.empty() ? "" : "; stderr ends: " + tail(last, 400)));
    }
    m_worker.reset();
    // Deaths that produced no verdict count toward maxConsecutiveWorkerFailures: a harness that keeps
    // failing (no device, a broken environment) stops the run resumably instead of spinning.
    if (crashed.empty())
        ++m_consecutiveFailures;
}

void VerificationEngine::Slot::watchdog()
{
    const auto now = Clock::now();
    const double helloTimeout = std::max(180.0, opts().timeouts.task);
    if (!m_helloSeen && std::chrono::duration<double>(now - m_startedAt).count() > helloTimeout) {
        m_worker->kill();
        workerDied("did not say hello within " + std::to_string(static_cast<int>(helloTimeout)) + " s", false);
        return;
    }
    std::vector<std::int64_t> overdue;
    std::set<std::int64_t> hungTasks;
    for (const auto &[id, job] : m_inflight) {
        const double age = std::chrono::duration<double>(now - job.since).count();
        if (job.sent && age > job.budgetS)
            overdue.push_back(id);
        // a task's references are timed from when the worker began them: before, they wait their turn
        if (!job.sent && job.needsTask) {
            auto t = m_tasks.find(job.ref.taskId);
            if (t != m_tasks.end() && !t->second.ready && t->second.startedAt &&
                std::chrono::duration<double>(now - *t->second.startedAt).count() >
                    opts().timeouts.task + opts().watchdogMargin())
                hungTasks.insert(job.ref.taskId);
        }
    }
    // Samples that wait (for a screen's answer, or for a task the worker has not begun) have no budget of
    // their own: a worker that has said nothing for a task's timeout while they wait has stopped answering.
    const bool waiting =
        std::any_of(m_inflight.begin(), m_inflight.end(), [](const auto &e) { return !e.second.sent; });
    const bool silent = waiting && std::chrono::duration<double>(now - m_lastLine).count() >
                                       opts().timeouts.task + opts().watchdogMargin();
    if (overdue.empty() && hungTasks.empty() && !silent)
        return;
    // A worker that lets a job run past all its stage timeouts is not enforcing them: kill the whole group.
    m_worker->kill();
    forgetPid();
    // The worker did not enforce its own stage timeouts: a harness fault like its death. The overdue sample
    // runs again alone on a fresh worker; only one overdue on kMaxAttempts attempts is charged TIMEOUT.
    std::vector<Job> overdueAgain;
    for (std::int64_t id : overdue) {
        Job job = std::move(m_inflight.at(id));
        m_inflight.erase(id);
        std::vector<std::string> evidence;
        {
            std::lock_guard lock(m_sh.mutex);
            auto &f = m_sh.sampleFaults[job.ref.id];
            f.push_back("attempt " + std::to_string(f.size() + 1) + ": no verdict within " +
                        std::to_string(static_cast<int>(job.budgetS)) + " s" + (job.alone ? ", alone" : ""));
            evidence = f;
        }
        if (evidence.size() < kMaxAttempts) {
            overdueAgain.push_back(std::move(job));
            continue;
        }
        syntheticVerdict(job, "TIMEOUT", "worker", {"STAGE_TIMEOUT", "WORKER_WATCHDOG"},
                         "The worker gave no verdict within all stage timeouts plus a margin on each of " +
                             std::to_string(evidence.size()) +
                             " attempts (its process group was killed each time): " + joined(evidence),
                         "worker stderr (last lines):\n" + tail(m_worker->stderrTail(), 8000));
    }
    requeue(std::move(overdueAgain));
    if (!hungTasks.empty()) {
        std::lock_guard lock(m_sh.mutex);
        for (std::int64_t t : hungTasks)
            m_sh.brokenTasks[t] = nlohmann::json::array(
                {{{"code", "REF_TIMEOUT"}, {"message", "preparing the task's reference did not finish in time"}}});
    }
    for (std::int64_t t : hungTasks) {
        std::lock_guard lock(m_sh.mutex);
        if (m_sh.flaggedTasks.insert(t).second)
            m_sh.writer->setTaskFlags(t, "REF_TIMEOUT");
    }
    // Bystanders: samples that were merely running next to the hung one, and those whose task hung (they
    // get UNVERIFIABLE from takeWork through brokenTasks) go back to the queue.
    std::vector<Job> rest;
    for (auto &[id, job] : m_inflight)
        rest.push_back(std::move(job));
    m_inflight.clear();
    requeue(std::move(rest));
    m_worker.reset();
    if (m_engine.m_observer)
        m_engine.m_observer->notice("worker " + std::to_string(m_index) + " stopped answering; killed and restarted");
}

void VerificationEngine::Slot::run()
{
    std::vector<std::string> lines;
    for (;;) {
        if (m_engine.m_cancel.load()) {
            if (m_worker)
                m_worker->kill(); // in-flight samples get no verdict; a resume runs them
            forgetPid();
            return;
        }
        {
            std::lock_guard lock(m_sh.mutex);
            if (!m_sh.fatal.empty())
                break;
        }
        if (!m_worker) {
            bool more;
            {
                std::lock_guard lock(m_sh.mutex);
                more = !m_sh.queue.empty();
            }
            if (!more && m_inflight.empty() && !m_engine.waitingForInput())
                return;
            if (m_consecutiveFailures >= opts().maxConsecutiveWorkerFailures) {
                std::lock_guard lock(m_sh.mutex);
                m_sh.fatal = "worker " + std::to_string(m_index) + " (" + m_device + ") failed " +
                             std::to_string(m_consecutiveFailures) +
                             " times in a row without producing a verdict; see " + m_sh.logDir;
                break;
            }
            startWorker();
        }
        if (m_helloSeen)
            takeWork();
        if (m_helloSeen && m_inflight.empty()) {
            bool idle;
            {
                std::lock_guard lock(m_sh.mutex);
                idle = m_sh.queue.empty();
            }
            if (idle && !m_engine.waitingForInput())
                break; // (serving, an idle worker stays up and waits for the next sample)
        }
        lines.clear();
        const bool alive = m_worker->pump(std::chrono::milliseconds(100), lines);
        for (const auto &l : lines) {
            if (!m_worker)
                break; // a line ended it (an error before its hello): the rest was its
            handleLine(l);
        }
        if (!m_worker)
            continue;
        if (!alive) {
            workerDied(m_worker->exitDescription(), false);
            continue;
        }
        watchdog();
    }
    if (m_worker) {
        m_worker->send(R"({"op":"shutdown"})");
        m_worker->stop(std::chrono::seconds(5));
        forgetPid();
        m_worker.reset();
    }
}

VerificationEngine::VerificationEngine(VerifyOptions options) : m_options(std::move(options)) {}

VerificationEngine::~VerificationEngine() = default;

std::vector<pid_t> VerificationEngine::workerPids() const
{
    std::lock_guard lock(m_pidMutex);
    return m_pids;
}

void VerificationEngine::submit(std::int64_t sampleId, std::int64_t taskId)
{
    std::lock_guard lock(m_feedMutex);
    m_feed.emplace_back(sampleId, taskId);
}

void VerificationEngine::closeInput()
{
    std::lock_guard lock(m_feedMutex);
    m_inputClosed = true;
}

bool VerificationEngine::waitingForInput()
{
    if (!m_options.serve)
        return false;
    drainFeed();
    std::lock_guard lock(m_feedMutex);
    return !m_inputClosed || !m_feed.empty();
}

void VerificationEngine::drainFeed()
{
    if (!m_options.serve || !m_shared)
        return;
    std::vector<std::pair<std::int64_t, std::int64_t>> feed;
    {
        std::lock_guard lock(m_feedMutex);
        feed.swap(m_feed);
    }
    if (feed.empty())
        return;
    std::lock_guard lock(m_shared->mutex);
    for (const auto &[sampleId, taskId] : feed) {
        m_shared->queue.push_back(SampleRef{sampleId, taskId});
        ++m_shared->counts.total;
    }
}

RunSummary VerificationEngine::run()
{
    const auto t0 = Clock::now();
    m_shared = std::make_unique<Shared>();
    Shared &sh = *m_shared;
    sh.python = findPythonEnv(m_options.python);
    // A worker that died must not kill us with SIGPIPE when we write to it.
    signal(SIGPIPE, SIG_IGN);

    RunSummary summary;
    {
        Corpus corpus = Corpus::open(m_options.dbPath);
        if (m_options.serve) {
            sh.runId = createRun(corpus, m_options);
        } else if (m_options.resumeRunId) {
            sh.runId = *m_options.resumeRunId;
            summary.resumed = true;
            setRunState(corpus, sh.runId, "running");
        } else {
            // A selection with nothing to verify leaves no empty run behind.
            std::uint64_t none = 0;
            if (pendingSamples(corpus, m_options.selection, 0, none).empty()) {
                summary.state = "empty";
                summary.wallSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
                if (m_observer)
                    m_observer->runFinished(summary);
                return summary;
            }
            sh.runId = createRun(corpus, m_options);
        }
        std::uint64_t done = 0;
        const auto refs =
            m_options.serve ? std::vector<SampleRef>{} : pendingSamples(corpus, m_options.selection, sh.runId, done);
        sh.queue.assign(refs.begin(), refs.end());
        sh.counts.total = done + refs.size();
        sh.counts.done = done;
        sh.counts.byStatus = runStatusCounts(corpus, sh.runId);
    }
    summary.runId = sh.runId;
    sh.cacheDir = m_options.cacheDir.empty() ? defaultCacheDir() : m_options.cacheDir;
    sh.logDir = sh.cacheDir + "/logs";
    fs::create_directories(sh.logDir);
    // Removes the folders that killed runs left behind, then makes this run's (core of ScratchDir).
    auto scratchDir = std::make_unique<ScratchDir>();
    sh.scratchRoot = scratchDir->path();
    sh.writer = std::make_unique<VerdictWriter>(m_options.dbPath, sh.runId);
    if (m_observer)
        m_observer->runStarted(sh.runId, summary.resumed, sh.counts);

    std::vector<std::unique_ptr<Slot>> slots;
    if (m_options.cpu) {
        slots.push_back(std::make_unique<Slot>(*this, 0, "cpu"));
    } else {
        for (size_t i = 0; i < m_options.gpus.size(); ++i)
            slots.push_back(
                std::make_unique<Slot>(*this, static_cast<int>(i), "cuda:" + std::to_string(m_options.gpus[i])));
    }
    std::vector<std::thread> threads;
    std::vector<std::string> slotErrors(slots.size());
    std::atomic<int> running{static_cast<int>(slots.size())};
    for (size_t i = 0; i < slots.size(); ++i) {
        threads.emplace_back([&, i] {
            try {
                slots[i]->run();
            } catch (const std::exception &e) {
                slotErrors[i] = e.what();
                std::lock_guard lock(sh.mutex);
                if (sh.fatal.empty())
                    sh.fatal = std::string("worker ") + std::to_string(i) + ": " + e.what();
            }
            running.fetch_sub(1);
        });
    }
    while (running.load() > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        drainFeed();
        if (!m_cancel.load() && ((m_stopCheck && m_stopCheck()) || sh.writer->failed()))
            m_cancel.store(true);
    }
    for (auto &t : threads)
        t.join();
    slots.clear(); // kills any worker still alive

    bool queueLeft;
    {
        std::lock_guard lock(sh.mutex);
        queueLeft = !sh.queue.empty();
        summary.error = sh.fatal;
        summary.pendingReasons = sh.leftPending;
        for (const auto &[code, n] : sh.leftPending)
            summary.leftPending += n;
    }
    // Samples left PENDING keep the run resumable: the next plain `verify` continues it and runs just them.
    const bool complete = !m_cancel.load() && summary.error.empty() && !queueLeft && summary.leftPending == 0;
    summary.state = complete ? "finished" : "interrupted";
    try {
        sh.writer->finish(summary.state);
    } catch (const std::exception &e) {
        summary.error = e.what();
        summary.state = "interrupted";
    }
    scratchDir.reset();
    {
        std::lock_guard lock(sh.mutex);
        summary.counts = sh.counts;
        summary.verdictsThisSession = sh.sessionVerdicts;
    }
    summary.wallSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
    summary.samplesPerMinute =
        summary.wallSeconds > 0 ? 60.0 * static_cast<double>(summary.verdictsThisSession) / summary.wallSeconds : 0;
    if (m_observer)
        m_observer->runFinished(summary);
    return summary;
}

} // namespace sieve::gpu
