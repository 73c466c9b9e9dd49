#include "tests/net/nettestutil.h"

#include "core/db/payload.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QTimer>

#include <filesystem>

namespace sieve::test {

void makeCorpus(const std::string &path, const std::vector<std::string> &names)
{
    Corpus c = Corpus::create(path);
    int i = 0;
    for (const std::string &n : names) {
        ++i;
        c.db()
            .prepare("INSERT INTO tasks(task_key, name, level, backend, dtype, created_at) VALUES(?1, ?2, 1, 'triton', "
                     "'fp32', 0)")
            .bind(1, "key-" + n)
            .bind(2, n)
            .run();
        const std::string ref = "import torch\n\nclass Model(torch.nn.Module):\n    def forward(self, x):\n"
                                "        return torch.relu(x) * " +
                                std::to_string(i) + "\n\ndef get_inputs():\n    return [torch.randn(16)]\n";
        c.db()
            .prepare("INSERT INTO task_payloads(task_id, reference_code) VALUES(?1, ?2)")
            .bind(1, c.db().lastInsertId())
            .bindBlob(2, payload::pack(ref))
            .run();
    }
}

bool spinUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
    return done();
}

ScriptedVerifier::ScriptedVerifier(std::string dbPath, std::map<std::string, int> passAt)
    : m_dbPath(std::move(dbPath)), m_passAt(std::move(passAt))
{
}

void ScriptedVerifier::verify(qint64 sampleId)
{
    ++calls;
    QTimer::singleShot(5, this, [this, sampleId] {
        if (m_cancelled)
            return;
        if (fail) {
            Q_EMIT failed(sampleId, QStringLiteral("scripted verifier failure"));
            return;
        }
        db::Database db(m_dbPath, db::Database::Mode::ReadOnly);
        db::Statement st =
            db.prepare("SELECT t.name, s.attempt FROM samples s JOIN tasks t ON t.id = s.task_id WHERE s.id = ?1");
        st.bind(1, static_cast<std::int64_t>(sampleId));
        QString status = QStringLiteral("MISSING");
        if (st.step()) {
            auto it = m_passAt.find(st.text(0));
            status = it != m_passAt.end() && it->second == st.int64(1) ? QStringLiteral("PASS")
                                                                       : QStringLiteral("FAIL_MISMATCH");
        }
        verifiedIds.push_back(sampleId);
        Q_EMIT verified(sampleId, status);
    });
}

ProcessResult runCliServing(const QStringList &args, const QStringList &env, int timeoutMs)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString &kv : env)
        e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
    p.setProcessEnvironment(e);
    p.start(QStringLiteral(SIEVE_CLI_PATH), args);
    spinUntil([&] { return p.state() == QProcess::NotRunning; }, timeoutMs);
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished();
    }
    ProcessResult r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

std::string corpusEverything(const std::string &path)
{
    std::string all = readFile(path);
    if (std::filesystem::exists(path + "-wal"))
        all += readFile(path + "-wal");
    db::Database db(path, db::Database::Mode::ReadOnly);
    db::Statement st = db.prepare("SELECT code, reasoning, response, request FROM sample_payloads");
    while (st.step())
        for (int c = 0; c < 4; ++c)
            if (!st.isNull(c))
                all += payload::unpack(st.blob(c));
    db::Statement runs =
        db.prepare("SELECT endpoint, params_json, ifnull(error,''), ifnull(stats_json,'') FROM sample_runs");
    while (runs.step())
        for (int c = 0; c < 4; ++c)
            all += runs.text(c);
    return all;
}

} // namespace sieve::test
