// Stop-at-first-pass against the REAL verifier: `sieve-cli sample --mode first-pass` asks the test server,
// which answers a softmax task first with a wrong Triton kernel (NaN output) and then with a correct one,
// and every attempt goes through `sieve-cli verify DB --sample ID --json --cpu` (Triton's interpreter on
// the CPU, the verifier's Python venv found through SIEVE_PYTHON / SIEVE_VENV / the default venv).
// Attempt 1 must fail, attempt 2 pass, and the task end there: no third request, no third sample.
#include "core/db/payload.h"
#include "gpu/verify/pythonenv.h"
#include "tests/net/fakeserver.h"
#include "tests/net/nettestutil.h"

#include <QElapsedTimer>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <iostream>

using namespace sieve;
using sieve::test::FakeServer;

namespace {

std::int64_t addTask(const std::string &db, const std::string &name, const std::string &reference)
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
        .bindBlob(2, payload::pack(reference))
        .run();
    return id;
}

QByteArray answer(const std::string &code)
{
    return "I will write a Triton kernel.\n\n```python\n" + QByteArray::fromStdString(code) + "```\n";
}

} // namespace

TEST(FirstPassRealVerifier, WrongThenRightAnswerEndsTheTaskAtAttemptTwo)
{
    try {
        gpu::findPythonEnv();
    } catch (const std::exception &e) {
        FAIL() << "this test needs the verifier's Python (torch, triton): " << e.what();
    }
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    Corpus::create(db);
    const std::int64_t task = addTask(db, "softmax", test::readFile(test::testData("verifier/tasks/softmax.py")));
    const std::string wrong = test::readFile(test::testData("verifier/answers/nan_output.py"));
    const std::string right = test::readFile(test::testData("verifier/answers/softmax.py"));
    ASSERT_FALSE(wrong.empty());
    ASSERT_FALSE(right.empty());

    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent([&](const QByteArray &, int n) { return answer(n == 0 ? wrong : right); });
    const QStringList args{QStringLiteral("sample"),
                           QString::fromStdString(db),
                           QStringLiteral("--endpoint"),
                           QString::fromUtf8(server.baseUrl()),
                           QStringLiteral("--model"),
                           QStringLiteral("teacher"),
                           QStringLiteral("--mode"),
                           QStringLiteral("first-pass"),
                           QStringLiteral("--attempts"),
                           QStringLiteral("4"),
                           QStringLiteral("--verify-arg=--cpu"),
                           QStringLiteral("--run-id"),
                           QStringLiteral("fp-real"),
                           QStringLiteral("--json")};
    QElapsedTimer wall;
    wall.start();
    const auto r = test::runCliServing(args, {}, 280000);
    const double seconds = wall.elapsed() / 1000.0;
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["state"], "finished");
    EXPECT_EQ(j["tasks_done"], 1);
    EXPECT_EQ(j["tasks_passed"], 1);
    EXPECT_EQ(j["samples"], 2);
    EXPECT_EQ(server.received(), 2u) << "the task must end at its first PASS";

    db::Database d(db, db::Database::Mode::ReadOnly);
    auto itemStatus = [&](int attempt) {
        db::Statement st =
            d.prepare("SELECT ifnull(status, '<unverified>') FROM sample_run_items i JOIN sample_runs r "
                      "ON r.id = i.run_id WHERE r.name = 'fp-real' AND i.task_id = ?1 AND i.attempt = ?2");
        st.bind(1, task).bind(2, static_cast<std::int64_t>(attempt));
        return st.step() ? st.text(0) : std::string("<none>");
    };
    EXPECT_EQ(itemStatus(1), "FAIL_MISMATCH");
    EXPECT_EQ(itemStatus(2), "PASS");
    EXPECT_EQ(itemStatus(3), "<none>");
    EXPECT_EQ(d.queryInt("SELECT count(*) FROM samples").value_or(-1), 2);
    // The verdicts are the real verifier's, one per attempt, with the reason it gives for NaN output.
    EXPECT_EQ(d.queryInt("SELECT count(*) FROM verdicts").value_or(-1), 2);
    EXPECT_EQ(d.queryText("SELECT v.status FROM verdicts v JOIN samples s ON s.id = v.sample_id WHERE s.attempt = 1")
                  .value_or(""),
              "FAIL_MISMATCH");
    EXPECT_NE(d.queryText("SELECT v.reasons FROM verdicts v JOIN samples s ON s.id = v.sample_id WHERE s.attempt = 1")
                  .value_or("")
                  .find("NONFINITE_MISMATCH"),
              std::string::npos);
    EXPECT_EQ(d.queryText("SELECT v.status FROM verdicts v JOIN samples s ON s.id = v.sample_id WHERE s.attempt = 2")
                  .value_or(""),
              "PASS");
    EXPECT_EQ(d.queryText("SELECT state FROM sample_runs WHERE name = 'fp-real'").value_or(""), "finished");
    // For the record (bench/RESULTS.md): two attempts, each one `sieve-cli verify` process on the CPU.
    std::cout << "[ figures  ] first-pass, 2 attempts verified by sieve-cli verify --cpu: " << seconds << " s wall, "
              << seconds / 2 << " s per attempt\n";
}
