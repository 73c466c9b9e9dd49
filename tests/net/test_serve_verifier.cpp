// The sampler loop without fragility (#18.6, #21): first-pass attempts are verified by one long-lived
// `sieve-cli verify --serve` for the whole run (the real verifier on the CPU), so --verify-parallel N
// never meets the corpus's verify lock; a verifier that is killed, or cannot start, costs no attempt and
// does not block the resume.
#include "core/db/payload.h"
#include "gpu/verify/pythonenv.h"
#include "net/sampler.h"
#include "net/serveverifier.h"
#include "tests/net/fakeserver.h"
#include "tests/net/nettestutil.h"

#include <QProcess>
#include <QTimer>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/types.h>

using namespace sieve;
using namespace sieve::net;
using sieve::test::FakeServer;

namespace {

bool havePython()
{
    try {
        gpu::findPythonEnv();
        return true;
    } catch (const std::exception &e) {
        ADD_FAILURE() << "this test needs the verifier's Python (torch, triton): " << e.what();
        return false;
    }
}

void addSoftmaxTask(const std::string &db, const std::string &name)
{
    Corpus c = Corpus::open(db);
    c.db()
        .prepare("INSERT INTO tasks(task_key, name, level, backend, dtype, created_at) "
                 "VALUES(?1, ?2, 1, 'triton', 'fp32', 0)")
        .bind(1, "key-" + name)
        .bind(2, name)
        .run();
    const std::int64_t id = c.db().lastInsertId();
    c.db()
        .prepare("INSERT INTO task_payloads(task_id, reference_code) VALUES(?1, ?2)")
        .bind(1, id)
        .bindBlob(2, payload::pack(test::readFile(test::testData("verifier/tasks/softmax.py"))))
        .run();
}

QByteArray rightAnswer()
{
    return "```python\n" + QByteArray::fromStdString(test::readFile(test::testData("verifier/answers/softmax.py"))) +
           "```\n";
}

std::int64_t count(const std::string &db, const std::string &sql)
{
    db::Database d(db, db::Database::Mode::ReadOnly);
    return d.queryInt(sql).value_or(-1);
}

SamplerOptions firstPass(const std::string &db, const FakeServer &server)
{
    SamplerOptions o;
    o.dbPath = db;
    o.client.endpoint = QUrl(QString::fromUtf8(server.baseUrl()));
    o.client.backoff.baseMs = 10;
    o.model = "teacher";
    o.mode = SampleMode::FirstPass;
    o.attempts = 3;
    o.runName = "serve";
    return o;
}

SamplerSummary run(Sampler &s, int timeoutMs = 240000)
{
    SamplerSummary out;
    bool done = false;
    QObject::connect(&s, &Sampler::finished, &s, [&](const SamplerSummary &x) {
        out = x;
        done = true;
    });
    s.start();
    EXPECT_TRUE(test::spinUntil([&] { return done; }, timeoutMs));
    return out;
}

QStringList verifierCommand(int parallel)
{
    return ServeVerifier::defaultCommand(QStringLiteral(SIEVE_CLI_PATH), parallel, {QStringLiteral("--cpu")});
}

} // namespace

TEST(ServeVerifier, ParallelFirstPassUsesOneVerifierForTheRun)
{
    if (!havePython())
        return;
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    Corpus::create(db);
    for (const char *t : {"sm_a", "sm_b", "sm_c"})
        addSoftmaxTask(db, t);
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent([](const QByteArray &, int) { return rightAnswer(); });
    // Through the CLI, as a user runs it: three attempts verified at once.
    const QStringList args{QStringLiteral("sample"),
                           QString::fromStdString(db),
                           QStringLiteral("--endpoint"),
                           QString::fromUtf8(server.baseUrl()),
                           QStringLiteral("--model"),
                           QStringLiteral("teacher"),
                           QStringLiteral("--mode"),
                           QStringLiteral("first-pass"),
                           QStringLiteral("--verify-parallel"),
                           QStringLiteral("3"),
                           QStringLiteral("--verify-arg=--cpu"),
                           QStringLiteral("--json")};
    const auto r = test::runCliServing(args, {}, 280000);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["tasks_passed"], 3);
    EXPECT_EQ(r.err.find("another 'sieve-cli verify'"), std::string::npos) << r.err;
    // One verifier process for the run: one verification run holds all three verdicts.
    EXPECT_EQ(count(db, "SELECT count(*) FROM verify_runs"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM verify_runs WHERE json_extract(params_json, '$.serve') = 1"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM verdicts WHERE status = 'PASS'"), 3);
    EXPECT_EQ(count(db, "SELECT count(*) FROM verify_runs WHERE state = 'finished'"), 1);
}

TEST(ServeVerifier, KilledVerifierCostsNoAttemptAndDoesNotBlockTheResume)
{
    if (!havePython())
        return;
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    Corpus::create(db);
    addSoftmaxTask(db, "sm");
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent([](const QByteArray &, int) { return rightAnswer(); });
    const SamplerOptions o = firstPass(db, server);
    {
        ServeVerifier verifier(verifierCommand(1), QString::fromStdString(db));
        Sampler s(o, &verifier);
        // kill -9 as soon as it runs (it then holds the lock and has the attempt).
        QTimer killer;
        QObject::connect(&killer, &QTimer::timeout, &killer, [&] {
            if (verifier.pid() > 0 && ::kill(static_cast<pid_t>(verifier.pid()), SIGKILL) == 0)
                killer.stop();
        });
        killer.start(20);
        const SamplerSummary r = run(s);
        EXPECT_EQ(r.state, QStringLiteral("failed"));
        EXPECT_NE(r.error.indexOf(QLatin1String("verified when the run resumes")), -1) << r.error.toStdString();
    }
    EXPECT_EQ(server.received(), 1u);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_run_items WHERE status IS NULL"), 1)
        << "the attempt stays unverified";

    // The resume: a fresh verifier takes the lock the killed one held, verifies the stored attempt, and
    // no new request is sent.
    ServeVerifier verifier(verifierCommand(1), QString::fromStdString(db));
    Sampler s(o, &verifier);
    const SamplerSummary r = run(s);
    ASSERT_EQ(r.state, QStringLiteral("finished")) << r.error.toStdString();
    EXPECT_EQ(r.progress.tasksPassed, 1);
    EXPECT_EQ(server.received(), 1u);
    EXPECT_EQ(verifier.starts(), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_run_items WHERE status = 'PASS'"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM verify_runs WHERE state IN ('running', 'interrupted')"), 0);
}

TEST(ServeVerifier, VerifierThatCannotStartConsumesNoAttempt)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    test::makeCorpus(db, {"t"});
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    ServeVerifier verifier({QStringLiteral("/nonexistent/sieve-cli"), QStringLiteral("verify"), QStringLiteral("{db}")},
                           QString::fromStdString(db));
    Sampler s(firstPass(db, server), &verifier);
    const SamplerSummary r = run(s, 30000);
    EXPECT_EQ(r.state, QStringLiteral("failed"));
    EXPECT_NE(r.error.indexOf(QLatin1String("cannot start")), -1) << r.error.toStdString();
    EXPECT_EQ(server.received(), 1u);
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_run_items WHERE status IS NULL"), 1);
}

namespace {
// The pids of `parent`'s children: the processes whose /proc/PID/stat names it as their parent.
std::vector<pid_t> childrenOf(pid_t parent)
{
    std::vector<pid_t> out;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in(entry.path() / "stat");
        std::string line;
        if (!std::getline(in, line) || line.rfind(')') == std::string::npos)
            continue;
        std::istringstream rest(line.substr(line.rfind(')') + 2)); // state, ppid, ...
        std::string state;
        pid_t ppid = 0;
        if (rest >> state >> ppid && ppid == parent)
            out.push_back(static_cast<pid_t>(std::stoi(name)));
    }
    return out;
}

// Neither running nor waiting to be reaped by anyone but init.
bool ended(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line))
        return true;
    const auto close = line.rfind(')');
    return close == std::string::npos || line.substr(close + 2, 1) == "Z";
}
} // namespace

TEST(ServeVerifier, KilledSamplerTakesItsVerifierAndAnImmediateResumeFinishes)
{
    if (!havePython())
        return;
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    Corpus::create(db);
    addSoftmaxTask(db, "sm");
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent([](const QByteArray &, int) { return rightAnswer(); });
    const QStringList args{QStringLiteral("sample"),
                           QString::fromStdString(db),
                           QStringLiteral("--endpoint"),
                           QString::fromUtf8(server.baseUrl()),
                           QStringLiteral("--model"),
                           QStringLiteral("teacher"),
                           QStringLiteral("--mode"),
                           QStringLiteral("first-pass"),
                           QStringLiteral("--verify-arg=--cpu"),
                           QStringLiteral("--run-id"),
                           QStringLiteral("killed"),
                           QStringLiteral("--json")};
    QProcess sampler;
    sampler.start(QStringLiteral(SIEVE_CLI_PATH), args);
    // kill -9 once its verifier has the attempt (and the verify lock): the sampler cannot stop it.
    pid_t verifier = 0;
    ASSERT_TRUE(test::spinUntil(
        [&] {
            for (pid_t c : childrenOf(static_cast<pid_t>(sampler.processId())))
                verifier = c;
            return verifier != 0 && server.received() >= 1;
        },
        60000));
    test::spinUntil([] { return false; }, 1500); // it starts, takes the lock, reads the sample id
    ASSERT_FALSE(ended(verifier)) << "the verifier ended before the kill";
    ::kill(static_cast<pid_t>(sampler.processId()), SIGKILL);
    sampler.waitForFinished(5000);
    EXPECT_TRUE(test::spinUntil([&] { return ended(verifier); }, 5000))
        << "the verifier of a killed sampler must stop with it, not finish its attempt";

    // The resume, at once: it verifies the stored attempt (taking the lock), sends no new request.
    const auto r = test::runCliServing(args, {}, 280000);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["state"], "finished");
    EXPECT_EQ(j["tasks_passed"], 1);
    EXPECT_EQ(server.received(), 1u);
    EXPECT_EQ(count(db, "SELECT count(*) FROM sample_runs WHERE state = 'failed'"), 0);
}
