// The engine's own promises, with the real worker on the CPU: a dying worker costs no sample (its
// in-flight one runs again), an interrupted `sieve-cli verify` resumes where it stopped, re-verifying adds a run, and
// the CLI's --json output carries one line per verdict.
#include "core/db/corpus.h"
#include "gpu/verify/verificationengine.h"
#include "tests/unit/gpu/test_verify_support.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace sieve;
using namespace sieve::test;

namespace {

std::vector<VerifierFixture> pick(const std::vector<std::string> &names)
{
    return pickFixtures(names);
}

std::int64_t count(Corpus &c, const std::string &sql)
{
    return c.db().queryInt(sql).value_or(-1);
}

// Kills the worker with SIGKILL as soon as the slow sample is running.
class KillWhenSent : public gpu::VerifyObserver
{
public:
    // `times`: how many of the victim's starts end in a kill of its worker.
    KillWhenSent(std::int64_t victim, int times = 1) : m_victim(victim), m_left(times) {}
    gpu::VerificationEngine *engine = nullptr;
    std::atomic<bool> killed{false};
    // When the sample is handed to the worker, not when it is taken: a kill while the task's reference is
    // still being prepared (slow on a loaded machine) is a death without the sample in flight.
    void sampleSent(std::int64_t sampleId, int) override
    {
        if (sampleId != m_victim || m_left.fetch_sub(1) <= 0)
            return;
        std::thread([this] {
            // Give the worker time to hand the job to a child, then kill the worker itself.
            std::this_thread::sleep_for(std::chrono::seconds(2));
            for (pid_t p : engine->workerPids())
                ::kill(p, SIGKILL);
            killed = true;
        }).detach();
    }

private:
    std::int64_t m_victim;
    std::atomic<int> m_left;
};

// A worker's death is the harness's fault: the sample it was running is not charged with a CRASH but
// runs again on the restarted worker and gets the verdict a clean run gives it (here its stage timeout).
TEST(VerifyEngine, WorkerKilledMidRunRetriesItsInFlightSample)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    // infinite_loop keeps its child busy for the whole stage timeout: it is surely in flight when the
    // worker dies. The others must still be verified normally, by a restarted worker.
    const auto ids = addFixturesToCorpus(db, pick({"infinite_loop", "softmax", "static_no_kernel", "rmsnorm_A"}));
    gpu::VerifyOptions o;
    o.dbPath = db;
    o.cpu = true;
    o.parallel = 1; // one at a time: only the victim is in flight when the worker is killed
    o.cacheDir = tmp.file("cache");
    o.timeouts.compile = o.timeouts.correct = 30;
    KillWhenSent observer(ids.at("infinite_loop"));
    gpu::VerificationEngine engine(o);
    observer.engine = &engine;
    engine.setObserver(&observer);
    const auto s = engine.run();
    EXPECT_TRUE(observer.killed.load());
    EXPECT_EQ(s.state, "finished") << s.error;
    EXPECT_EQ(s.counts.done, 4u);
    Corpus c = Corpus::open(db, true);
    db::Statement st = c.db().prepare("SELECT status, reasons, message FROM verdicts WHERE sample_id=?1");
    st.bind(1, ids.at("infinite_loop"));
    ASSERT_TRUE(st.step());
    EXPECT_NE(st.text(0), "CRASH") << st.text(2);
    EXPECT_EQ(st.text(1).find("WORKER_DIED"), std::string::npos) << st.text(1);
    EXPECT_FALSE(st.step()) << "one verdict per sample";
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts WHERE status='CRASH'"), 0);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples WHERE name='softmax' AND status='PASS'"), 1);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples WHERE name='rmsnorm_A' AND status='PASS'"), 1);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples WHERE name='static_no_kernel' AND status='FAIL_STATIC'"), 1);
}

// The bound: a sample that is in flight every time its worker dies (a candidate that reaches its
// worker) is recorded as CRASH at the third death, and the run still finishes.
TEST(VerifyEngine, SampleInFlightAtThreeWorkerDeathsIsACrash)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.sieve");
    Corpus::create(db);
    const auto ids = addFixturesToCorpus(db, pick({"infinite_loop", "static_no_kernel"}));
    gpu::VerifyOptions o;
    o.dbPath = db;
    o.cpu = true;
    o.parallel = 1;
    o.cacheDir = tmp.file("cache");
    o.timeouts.compile = o.timeouts.correct = 60;
    KillWhenSent observer(ids.at("infinite_loop"), 1000);
    gpu::VerificationEngine engine(o);
    observer.engine = &engine;
    engine.setObserver(&observer);
    const auto s = engine.run();
    EXPECT_EQ(s.state, "finished") << s.error;
    Corpus c = Corpus::open(db, true);
    db::Statement st = c.db().prepare("SELECT status, reasons FROM verdicts WHERE sample_id=?1");
    st.bind(1, ids.at("infinite_loop"));
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.text(0), "CRASH");
    EXPECT_NE(st.text(1).find("WORKER_DIED_REPEATEDLY"), std::string::npos) << st.text(1);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples WHERE name='static_no_kernel' AND status='FAIL_STATIC'"), 1);
}

// Issue 34: a harness fault is charged only to the sample it follows. The worker dies whenever the looping
// sample runs; the sample sent beside it the first time is in flight at that death too, but then runs again
// alone, gets the verdict a clean run gives (PASS), and the looping one is CRASH with each attempt as evidence.
TEST(VerifyEngine, AWorkerDeathIsChargedOnlyToTheSampleItFollows)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.sieve");
    Corpus::create(db);
    const auto ids = addFixturesToCorpus(db, pick({"infinite_loop", "rmsnorm_A", "softmax"}));
    gpu::VerifyOptions o;
    o.dbPath = db;
    o.cpu = true;
    o.parallel = 3; // all three in flight at the first death
    o.cacheDir = tmp.file("cache");
    o.timeouts.compile = o.timeouts.correct = 60;
    KillWhenSent observer(ids.at("infinite_loop"), 1000);
    gpu::VerificationEngine engine(o);
    observer.engine = &engine;
    engine.setObserver(&observer);
    const auto s = engine.run();
    EXPECT_EQ(s.state, "finished") << s.error;
    Corpus c = Corpus::open(db, true);
    db::Statement st = c.db().prepare("SELECT status, message FROM verdicts WHERE sample_id=?1");
    st.bind(1, ids.at("infinite_loop"));
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.text(0), "CRASH");
    for (const char *evidence :
         {"attempt 1: the worker", "attempt 2: the worker", "attempt 3: the worker", "(the sample ran alone)"})
        EXPECT_NE(st.text(1).find(evidence), std::string::npos) << evidence << " in: " << st.text(1);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples WHERE name='rmsnorm_A' AND status='PASS'"), 1);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples WHERE name='softmax' AND status='PASS'"), 1);
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts WHERE status='CRASH'"), 1);
}

// Options of an engine run of corpus `db` on the CPU, `parallel` at once, with its cache in `tmp`.
gpu::VerifyOptions cpuRun(const std::string &db, TempDir &tmp, int parallel)
{
    gpu::VerifyOptions o;
    o.dbPath = db;
    o.cpu = true;
    o.parallel = parallel;
    o.cacheDir = tmp.file("cache");
    return o;
}

std::size_t taskFilesIn(const std::string &cacheDir)
{
    std::size_t n = 0;
    if (std::filesystem::exists(cacheDir + "/tasks"))
        for (const auto &e : std::filesystem::directory_iterator(cacheDir + "/tasks"))
            n += e.is_regular_file() ? 1 : 0;
    return n;
}

// Records which samples were handed to the worker to run, and the verdicts.
class SentAndFinished : public gpu::VerifyObserver
{
public:
    std::mutex mutex;
    std::set<std::int64_t> sent;
    std::map<std::int64_t, std::string> status;
    void sampleSent(std::int64_t sampleId, int) override
    {
        std::lock_guard lock(mutex);
        sent.insert(sampleId);
    }
    void sampleFinished(const gpu::VerdictRecord &v, const gpu::RunCounts &) override
    {
        std::lock_guard lock(mutex);
        status[v.sampleId] = v.status;
    }
};

// Stage 0 needs no reference: a sample it rejects is answered while its task's references are still being
// made (the worker's "screen"), so it never waits for them, nor holds a place in the run while they are
// made. The other sample is sent once its task is ready and runs as before.
TEST(VerifyEngine, StageZeroRejectsASampleBeforeItsTaskIsReady)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    const auto ids = addFixturesToCorpus(db, pick({"softmax", "static_no_kernel"}));
    const gpu::VerifyOptions o = cpuRun(db, tmp, 2); // both taken at the start, before either task is ready
    SentAndFinished observer;
    gpu::VerificationEngine engine(o);
    engine.setObserver(&observer);
    const auto s = engine.run();
    EXPECT_EQ(s.state, "finished") << s.error;
    EXPECT_EQ(observer.status[ids.at("static_no_kernel")], "FAIL_STATIC");
    EXPECT_FALSE(observer.sent.count(ids.at("static_no_kernel"))) << "answered by the screen, never sent to run";
    EXPECT_EQ(observer.status[ids.at("softmax")], "PASS");
    EXPECT_TRUE(observer.sent.count(ids.at("softmax")));
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts"), 2) << "one verdict per sample";
}

// A task none of whose samples passes stage 0 (every answer a wrapper around torch) is never announced to the
// worker: no reference of it is made (the worker writes a task's code to its cache when it is announced).
TEST(VerifyEngine, ATaskOnlyStageZeroRejectsIsNeverPrepared)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    addFixturesToCorpus(db, pick({"static_no_kernel"}), 3);
    const gpu::VerifyOptions o = cpuRun(db, tmp, 1);
    gpu::VerificationEngine engine(o);
    const auto s = engine.run();
    EXPECT_EQ(s.state, "finished") << s.error;
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts WHERE status='FAIL_STATIC'"), 3);
    EXPECT_EQ(taskFilesIn(o.cacheDir), 0u) << "the task was announced to the worker";
}

// Stage 0 decides before a broken task does, whenever the sample comes: here the wrapper is taken only after
// its task's reference has failed (20 answers ahead of it, a window of 17), and it is FAIL_STATIC as it
// would be had it come first; the answers stage 0 passes are UNVERIFIABLE with the task's reason.
TEST(VerifyEngine, StageZeroDecidesBeforeABrokenTaskWhateverTheOrder)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    auto broken = pick({"hygiene_reference_fails"});
    ASSERT_EQ(broken.size(), 1u);
    addFixturesToCorpus(db, broken, 20);
    VerifierFixture wrapper = broken[0];
    wrapper.name = "no_kernel_for_a_broken_task";
    wrapper.answer = "answers/no_kernel.py";
    const auto ids = addFixturesToCorpus(db, {wrapper});
    const gpu::VerifyOptions o = cpuRun(db, tmp, 1);
    gpu::VerificationEngine engine(o);
    const auto s = engine.run();
    EXPECT_EQ(s.state, "finished") << s.error;
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts WHERE status='UNVERIFIABLE' AND reasons LIKE '%REF_FAILED%'"),
              20);
    db::Statement st = c.db().prepare("SELECT status FROM verdicts WHERE sample_id=?1");
    st.bind(1, ids.at("no_kernel_for_a_broken_task"));
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.text(0), "FAIL_STATIC");
}

// Counts the tasks announced to the worker when a given sample is taken.
class TasksWhenTaken : public gpu::VerifyObserver
{
public:
    TasksWhenTaken(std::int64_t sample, std::string cacheDir) : m_sample(sample), m_cacheDir(std::move(cacheDir)) {}
    std::atomic<long> tasks{-1};
    void sampleStarted(std::int64_t sampleId, int) override
    {
        if (sampleId == m_sample)
            tasks = static_cast<long>(taskFilesIn(m_cacheDir));
    }

private:
    std::int64_t m_sample;
    std::string m_cacheDir;
};

// The window looks ahead: the next task's references begin while the samples of a task with more samples
// than the window run (its first sample, screened ahead, passed), and a task beyond it whose only sample
// stage 0 rejects is still never prepared.
TEST(VerifyEngine, TheNextTaskIsPreparedAheadOfItsSamples)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    addFixturesToCorpus(db, pick({"hygiene_reference_fails"}), 20); // task A: more than the window of 17
    const auto b = addFixturesToCorpus(db, pick({"softmax"}));      // task B
    VerifierFixture wrapper = pick({"hygiene_constant"}).at(0);     // task C: one wrapper
    wrapper.name = "no_kernel_for_constant";
    wrapper.answer = "answers/no_kernel.py";
    const auto c = addFixturesToCorpus(db, {wrapper});
    const gpu::VerifyOptions o = cpuRun(db, tmp, 1);
    TasksWhenTaken observer(b.at("softmax"), o.cacheDir);
    gpu::VerificationEngine engine(o);
    engine.setObserver(&observer);
    const auto s = engine.run();
    EXPECT_EQ(s.state, "finished") << s.error;
    EXPECT_EQ(observer.tasks.load(), 2) << "when B's sample was taken, A and B should have been announced";
    EXPECT_EQ(taskFilesIn(o.cacheDir), 2u) << "C, all of whose answers stage 0 rejects, was announced";
    Corpus corpus = Corpus::open(db, true);
    EXPECT_EQ(count(corpus, "SELECT count(*) FROM verdicts"), 22) << "one verdict per sample, none for a peek";
    db::Statement st = corpus.db().prepare("SELECT status FROM verdicts WHERE sample_id=?1");
    st.bind(1, c.at("no_kernel_for_constant"));
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.text(0), "FAIL_STATIC");
}

// Starts sieve-cli verify --json, returns after `verdicts` verdict lines with the child still running.
struct Child
{
    pid_t pid = -1;
    FILE *out = nullptr;
};

Child startVerify(const std::vector<std::string> &args)
{
    int p[2];
    EXPECT_EQ(pipe(p), 0);
    std::vector<std::string> store{SIEVE_CLI_PATH};
    store.insert(store.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (auto &a : store)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 1);
        const int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 2);
        close(p[0]);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(p[1]);
    return {pid, fdopen(p[0], "r")};
}

std::vector<nlohmann::json> jsonLines(const std::string &text)
{
    std::vector<nlohmann::json> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty())
            out.push_back(nlohmann::json::parse(line));
    return out;
}

TEST(VerifyCli, InterruptedRunResumesWithExactlyOneVerdictPerSample)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    addFixturesToCorpus(db, pick({"softmax", "static_no_kernel", "vector_add_derived_shape"}), 4);
    const std::vector<std::string> args{"verify",     db,  "--cpu",       "--json",         "--quiet",
                                        "--parallel", "1", "--cache-dir", tmp.file("cache")};
    Child child = startVerify(args);
    int seen = 0;
    char line[65536];
    while (seen < 3 && fgets(line, sizeof line, child.out))
        if (std::string(line).find("\"status\"") != std::string::npos)
            ++seen;
    ASSERT_EQ(seen, 3);
    ::kill(child.pid, SIGTERM);
    std::string rest;
    while (fgets(line, sizeof line, child.out))
        rest += line;
    fclose(child.out);
    int status = 0;
    waitpid(child.pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130) << rest;
    {
        Corpus c = Corpus::open(db, true);
        EXPECT_EQ(count(c, "SELECT count(*) FROM verify_runs"), 1);
        EXPECT_EQ(c.db().queryText("SELECT state FROM verify_runs").value_or(""), "interrupted");
        EXPECT_LT(count(c, "SELECT count(*) FROM verdicts"), 12);
    }
    const auto r = runCli(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const auto lines = jsonLines(r.out);
    ASSERT_FALSE(lines.empty());
    const auto &summary = lines.back().at("summary");
    EXPECT_TRUE(summary.at("resumed").get<bool>());
    EXPECT_EQ(summary.at("state"), "finished");
    EXPECT_EQ(summary.at("done"), 12);
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(count(c, "SELECT count(*) FROM verify_runs"), 1);
    EXPECT_EQ(c.db().queryText("SELECT state FROM verify_runs").value_or(""), "finished");
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts WHERE run_id=1"), 12);
    EXPECT_EQ(count(c, "SELECT count(*) FROM (SELECT sample_id FROM verdicts GROUP BY run_id, sample_id "
                       "HAVING count(*) > 1)"),
              0);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples WHERE status='PENDING'"), 0);
    EXPECT_EQ(count(c, "SELECT count(*) FROM samples WHERE name LIKE 'softmax#%' AND status='PASS'"), 4);
}

TEST(VerifyCli, JsonLinesThenReverifyAddsARunAndKeepsTheOld)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    const auto ids = addFixturesToCorpus(db, pick({"softmax", "static_try_except", "hygiene_constant"}));
    const std::vector<std::string> base{"verify", db, "--cpu", "--json", "--quiet", "--cache-dir", tmp.file("cache")};
    auto r = runCli(base);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto lines = jsonLines(r.out);
    ASSERT_EQ(lines.size(), 4u) << r.out; // 3 verdicts + summary
    std::map<std::string, nlohmann::json> byName;
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
        for (const char *key : {"sample", "name", "task", "status", "reasons", "message", "speedup"})
            EXPECT_TRUE(lines[i].contains(key)) << key << " missing in " << lines[i].dump();
        byName[lines[i]["name"]] = lines[i];
    }
    EXPECT_EQ(byName["softmax"]["status"], "PASS");
    EXPECT_EQ(byName["static_try_except"]["status"], "FAIL_STATIC");
    EXPECT_EQ(byName["hygiene_constant"]["status"], "UNVERIFIABLE");
    EXPECT_EQ(lines.back()["summary"]["by_status"]["PASS"], 1);

    // Nothing is PENDING any more: a plain verify has nothing to do and creates no run.
    r = runCli({"verify", db, "--cpu", "--quiet", "--cache-dir", tmp.file("cache")});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("nothing to verify"), std::string::npos) << r.out;
    // --all re-verifies into a new run; the first run's verdicts stay.
    r = runCli({"verify", db, "--cpu", "--all", "--quiet", "--cache-dir", tmp.file("cache")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(count(c, "SELECT count(*) FROM verify_runs WHERE state='finished'"), 2);
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts"), 6);
    EXPECT_EQ(count(c, "SELECT count(DISTINCT run_id) FROM verdicts"), 2);
    // The run stores its environment and parameters.
    const auto env = nlohmann::json::parse(c.db().queryText("SELECT env_json FROM verify_runs WHERE id=1").value());
    EXPECT_EQ(env.value("mode", ""), "cpu");
    EXPECT_EQ(env.value("sieve_version", ""), SIEVE_VERSION);
    EXPECT_TRUE(env.contains("torch") && env.contains("triton") && env.contains("python")) << env.dump();
    const auto params =
        nlohmann::json::parse(c.db().queryText("SELECT params_json FROM verify_runs WHERE id=2").value());
    EXPECT_TRUE(params["selection"]["all"].get<bool>());
    // Task hygiene lands in tasks.flags.
    EXPECT_EQ(count(c, "SELECT count(*) FROM tasks WHERE flags LIKE '%REF_CONSTANT%'"), 1);
    // Checks per (shape, seed) of the passing sample: at least 2 shapes x 5 seeds.
    EXPECT_GE(count(c, "SELECT count(*) FROM verdict_checks k JOIN verdicts v ON v.id = k.verdict_id WHERE v.run_id=1 "
                       "AND v.sample_id=" +
                           std::to_string(ids.at("softmax"))),
              10);
}

TEST(VerifyCli, WithoutGpuAndWithoutCpuFlagExitsWithUsage)
{
    FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
    char buf[256];
    const bool gpu = p && fgets(buf, sizeof buf, p) && std::string(buf).rfind("GPU ", 0) == 0;
    if (p)
        pclose(p);
    if (gpu)
        GTEST_SKIP() << "a GPU is present";
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    const auto r = runCli({"verify", db});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--cpu"), std::string::npos) << r.err;
}

TEST(VerifyCli, ConflictingOptionsWhileARunIsUnfinishedAreRefused)
{
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus c = Corpus::create(db);
    c.db().exec("INSERT INTO verify_runs(started_at, state, mode, params_json) VALUES(0, 'interrupted', 'cpu', "
                "'{\"mode\":\"cpu\",\"selection\":{\"all\":false,\"tasks\":[],\"ids\":[],\"limit\":null}}')");
    auto r = runCli({"verify", db, "--cpu", "--task", "other"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--new-run"), std::string::npos) << r.err;
    r = runCli({"verify", db, "--cpu", "--gpus", "0"});
    EXPECT_EQ(r.exitCode, 2);
    r = runCli({"verify", db, "--gpus", "0,x"});
    EXPECT_EQ(r.exitCode, 2);
}

} // namespace
