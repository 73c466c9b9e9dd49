// Client overhead of the sampler: N requests against the fake OpenAI-compatible server running in a
// child process (so its CPU time is not counted), C requests in flight. Reports the client process's
// CPU time per request (all its threads: the event loop and Qt's HTTP threads), wall time, throughput,
// the most requests seen in flight, and the median latency.
//   bench_sampler [--requests N] [--inflight C] [--latency-ms L] [--mode client|sampler] [--stream]
//   bench_sampler --serve L      (the child: prints its port, serves until stdin closes)
#include "net/chatclient.h"
#include "net/sampler.h"
#include "tests/net/fakeserver.h"

#include "core/db/corpus.h"
#include "core/db/payload.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QSocketNotifier>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sys/resource.h>
#include <unistd.h>

using namespace sieve;

namespace {

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// The 1-minute load average: the dev VM is shared, so every figure says how busy it was.
double loadAverage()
{
    double load = -1;
    if (FILE *f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &load) != 1)
            load = -1;
        std::fclose(f);
    }
    return load;
}

int serve(int latencyMs)
{
    test::FakeServer server;
    server.setRecording(false);
    server.setLatencyMs(latencyMs);
    const quint16 port = server.listen();
    if (!port)
        return 1;
    std::printf("%u\n", port);
    std::fflush(stdout);
    QSocketNotifier stdinClosed(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&stdinClosed, &QSocketNotifier::activated, &stdinClosed, [] {
        char buf[64];
        if (read(STDIN_FILENO, buf, sizeof buf) <= 0)
            QCoreApplication::quit();
    });
    return QCoreApplication::exec();
}

void makeCorpus(const std::string &path, int tasks)
{
    Corpus c = Corpus::create(path);
    db::Transaction tx(c.db());
    for (int i = 0; i < tasks; ++i) {
        c.db()
            .prepare("INSERT INTO tasks(task_key, name, backend, created_at) VALUES(?1, ?2, 'triton', 0)")
            .bind(1, "k" + std::to_string(i))
            .bind(2, "task" + std::to_string(i))
            .run();
        c.db()
            .prepare("INSERT INTO task_payloads(task_id, reference_code) VALUES(?1, ?2)")
            .bind(1, c.db().lastInsertId())
            .bindBlob(2, payload::pack("import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n"
                                       "        return x * " +
                                       std::to_string(i) + "\n"))
            .run();
    }
    tx.commit();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList a = app.arguments();
    auto opt = [&](const QString &name, int fallback) {
        const qsizetype i = a.indexOf(name);
        return i >= 0 && i + 1 < a.size() ? a[i + 1].toInt() : fallback;
    };
    if (a.contains(QStringLiteral("--serve")))
        return serve(opt(QStringLiteral("--serve"), 0));
    const int requests = opt(QStringLiteral("--requests"), 10000);
    const int inflight = opt(QStringLiteral("--inflight"), 256);
    const int latency = opt(QStringLiteral("--latency-ms"), 100);
    const bool stream = a.contains(QStringLiteral("--stream"));
    const qsizetype mi = a.indexOf(QStringLiteral("--mode"));
    const QString mode = mi >= 0 && mi + 1 < a.size() ? a[mi + 1] : QStringLiteral("client");

    QProcess child;
    child.start(app.applicationFilePath(), {QStringLiteral("--serve"), QString::number(latency)});
    if (!child.waitForReadyRead(10000)) {
        std::cerr << "server did not start\n";
        return 1;
    }
    const QByteArray base = "http://127.0.0.1:" + child.readLine().trimmed() + "/v1";

    net::ClientOptions co;
    co.endpoint = QUrl(QString::fromUtf8(base));
    co.concurrency = inflight;
    co.maxFailures = 8;
    int maxInFlight = 0;
    std::vector<qint64> latencies;
    latencies.reserve(static_cast<size_t>(requests));
    QElapsedTimer wall;
    double cpu0 = 0;
    QString error;

    QTemporaryDir tmp;
    if (mode == QLatin1String("sampler")) {
        // 10,000 requests = 100 tasks x K samples, keep-all: the whole path incl. extraction and storage.
        const int tasks = 100;
        const std::string db = tmp.filePath(QStringLiteral("bench.sieve")).toStdString();
        makeCorpus(db, tasks);
        net::SamplerOptions so;
        so.dbPath = db;
        so.client = co;
        so.k = std::max(1, requests / tasks);
        so.model = "bench";
        so.stream = stream;
        net::Sampler sampler(so, nullptr);
        bool done = false;
        QObject::connect(&sampler, &net::Sampler::progressChanged, &sampler,
                         [&](const net::SamplerProgress &p) { maxInFlight = std::max(maxInFlight, p.inFlight); });
        QObject::connect(&sampler, &net::Sampler::finished, &sampler, [&](const net::SamplerSummary &s) {
            if (s.state != QLatin1String("finished"))
                error = s.error;
            done = true;
            QCoreApplication::quit();
        });
        cpu0 = cpuSeconds();
        wall.start();
        sampler.start();
        if (!done)
            QCoreApplication::exec();
    } else {
        net::ChatClient client(co);
        int replies = 0;
        QObject::connect(&client, &net::ChatClient::replied, &client, [&](const net::ChatReply &r) {
            maxInFlight = std::max(maxInFlight, client.inFlight() + 1);
            latencies.push_back(r.latencyMs);
            if (++replies == requests)
                QCoreApplication::quit();
        });
        QObject::connect(&client, &net::ChatClient::fatal, &client, [&](const QString &m) {
            error = m;
            QCoreApplication::quit();
        });
        const QByteArray body = stream ? R"({"model":"bench","messages":[{"role":"user","content":"x"}],"stream":true})"
                                       : R"({"model":"bench","messages":[{"role":"user","content":"x"}]})";
        cpu0 = cpuSeconds();
        wall.start();
        for (int i = 0; i < requests; ++i)
            client.submit(static_cast<quint64>(i), body, stream);
        QCoreApplication::exec();
    }
    const double wallS = wall.elapsed() / 1000.0;
    const double cpu = cpuSeconds() - cpu0;
    child.closeWriteChannel();
    child.waitForFinished(5000);
    std::sort(latencies.begin(), latencies.end());
    nlohmann::json out = {{"mode", mode.toStdString()},
                          {"stream", stream},
                          {"requests", requests},
                          {"inflight_limit", inflight},
                          {"max_inflight_seen", maxInFlight},
                          {"server_latency_ms", latency},
                          {"wall_s", wallS},
                          {"requests_per_s", requests / wallS},
                          {"client_cpu_s", cpu},
                          {"client_cpu_ms_per_request", cpu * 1000.0 / requests},
                          {"ideal_wall_s", double(requests) / inflight * latency / 1000.0},
                          {"load_avg_1m", loadAverage()}};
    if (!latencies.empty())
        out["median_latency_ms"] = latencies[latencies.size() / 2];
    if (!error.isEmpty())
        out["error"] = error.toStdString();
    std::cout << out.dump() << std::endl;
    return error.isEmpty() ? 0 : 1;
}
