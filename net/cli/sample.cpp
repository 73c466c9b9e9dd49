// sieve-cli sample: teacher sampling from an OpenAI-compatible endpoint into the corpus.
#include "net/cli/commands.h"

#include "core/util/progress.h"
#include "net/cli/endpointargs.h"
#include "net/processverifier.h"
#include "net/sampler.h"
#include "net/serveverifier.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QProcess>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <ostream>

namespace sieve::net {

namespace {

int runSample(const cli::Args &args, cli::Context &ctx)
{
    if (args.positional.size() != 1)
        throw cli::UsageError("expected exactly one argument: the corpus file");
    EndpointArgs e = endpointFromArgs(args, 1.0);
    SamplerOptions o;
    o.dbPath = args.positional[0];
    o.client = e.client;
    o.model = e.model;
    o.temperature = e.temperature;
    o.maxTokens = e.maxTokens;
    o.extra = e.extra;
    o.stream = e.stream;
    const std::string mode = args.value("mode", "keep-all");
    if (mode == "keep-all")
        o.mode = SampleMode::KeepAll;
    else if (mode == "first-pass")
        o.mode = SampleMode::FirstPass;
    else
        throw cli::UsageError("--mode expects keep-all or first-pass, got '" + mode + "'");
    auto positive = [&](const char *name, long long fallback) {
        const long long v = args.integer(name).value_or(fallback);
        if (v < 1)
            throw cli::UsageError(std::string("--") + name + " must be at least 1");
        return static_cast<int>(v);
    };
    o.k = positive("k", 1);
    o.attempts = positive("attempts", 16);
    o.runName = args.value("run-id", "");
    o.tasks = args.all("task");
    const bool json = args.has("json");

    const auto app = consoleApplication();
    loadApiKey(args, e, ctx.err, "sample");
    o.client.apiKey = e.client.apiKey;

    Sampler *samplerPtr = nullptr; // the verdict is read back through the sampler's own connection
    std::unique_ptr<AttemptVerifier> verifier;
    if (o.mode == SampleMode::FirstPass) {
        const int parallel = positive("verify-parallel", 1);
        if (auto c = args.value("verifier-cmd")) {
            const QStringList cmd = QProcess::splitCommand(QString::fromStdString(*c));
            if (cmd.isEmpty())
                throw cli::UsageError("--verifier-cmd is empty");
            verifier = std::make_unique<ProcessVerifier>(
                cmd, QString::fromStdString(o.dbPath), parallel,
                [&samplerPtr](qint64 id) { return samplerPtr->store()->verifiedStatus(id); });
        } else {
            // One `sieve-cli verify --serve` for the whole run (net/serveverifier.h).
            QStringList extra;
            for (const auto &a : args.all("verify-arg"))
                extra << QString::fromStdString(a);
            verifier = std::make_unique<ServeVerifier>(
                ServeVerifier::defaultCommand(QCoreApplication::applicationFilePath(), parallel, extra),
                QString::fromStdString(o.dbPath));
        }
    }

    Sampler sampler(o, verifier.get());
    samplerPtr = &sampler;
    std::optional<Progress> progress;
    SamplerSummary summary;
    QEventLoop loop;
    QObject::connect(&sampler, &Sampler::started, &loop, [&](qint64 runId, const QString &runName, bool resumed) {
        ctx.err << (resumed ? "resuming" : "starting") << " run '" << runName.toStdString() << "' (id " << runId
                << ") against "
                << ChatClient::completionsUrl(o.client.endpoint).toDisplayString(QUrl::RemoveUserInfo).toStdString()
                << '\n';
    });
    QObject::connect(&sampler, &Sampler::progressChanged, &loop, [&](const SamplerProgress &p) {
        if (!progress)
            progress.emplace(ctx.err, "sample", static_cast<std::uint64_t>(p.tasksTotal));
        std::string detail = "in flight " + std::to_string(p.inFlight) + ", queued " + std::to_string(p.queued) +
                             ", stored " + std::to_string(p.samplesStored) + ", retries " + std::to_string(p.retries);
        if (o.mode == SampleMode::FirstPass)
            detail += ", verifying " + std::to_string(p.verifying) + ", passed " + std::to_string(p.tasksPassed);
        progress->update(static_cast<std::uint64_t>(p.tasksDone), detail);
    });
    QObject::connect(&sampler, &Sampler::notice, &loop,
                     [&](const QString &text) { ctx.err << "sample: " << text.toStdString() << '\n'; });
    QObject::connect(&sampler, &Sampler::finished, &loop, [&](const SamplerSummary &s) {
        summary = s;
        loop.quit();
    });
    cli::installInterruptHandler();
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &sampler, [&] {
        if (cli::interrupted())
            sampler.cancel();
    });
    poll.start(100);
    sampler.start();
    loop.exec();
    if (progress)
        progress->finish();

    const SamplerProgress &p = summary.progress;
    if (json) {
        nlohmann::json j = {{"run_id", summary.runId},
                            {"run", summary.runName.toStdString()},
                            {"state", summary.state.toStdString()},
                            {"resumed", summary.resumed},
                            {"mode", mode},
                            {"tasks", p.tasksTotal},
                            {"tasks_done", p.tasksDone},
                            {"tasks_passed", p.tasksPassed},
                            {"samples", p.samplesStored},
                            {"samples_this_session", p.storedThisSession},
                            {"requests", p.requests},
                            {"retries", p.retries},
                            {"wall_s", summary.wallSeconds}};
        if (!summary.error.isEmpty())
            j["error"] = summary.error.toStdString();
        ctx.out << j.dump() << '\n';
    } else {
        ctx.out << "run '" << summary.runName.toStdString() << "' " << summary.state.toStdString() << ": "
                << p.tasksDone << "/" << p.tasksTotal << " tasks done";
        if (o.mode == SampleMode::FirstPass)
            ctx.out << ", " << p.tasksPassed << " passed";
        ctx.out << ", " << p.samplesStored << " samples (" << p.storedThisSession << " this session), " << p.requests
                << " requests, " << p.retries << " retries, " << summary.wallSeconds << " s\n";
    }
    if (summary.state == QLatin1String("failed")) {
        ctx.err << "sieve-cli sample: " << summary.error.toStdString()
                << "\n(fix it and run the same command again: the run resumes where it stopped)\n";
        return cli::Failure;
    }
    if (summary.state == QLatin1String("interrupted")) {
        ctx.err << "sieve-cli sample: interrupted; run the same command to resume\n";
        return cli::Interrupted;
    }
    return cli::Ok;
}

} // namespace

cli::Command sampleCommand()
{
    return {
        .name = "sample",
        .summary = "ask a teacher endpoint for samples (keep-all or stop at first pass)",
        .usage = "sieve-cli sample DB --endpoint URL --model M [OPTIONS]",
        .description =
            "Asks a teacher model behind an OpenAI-compatible endpoint (vLLM, SGLang, a hosted API) for answers to\n"
            "the corpus's tasks and stores every reply as a sample (origin 'teacher') with its request parameters;\n"
            "the answer and the reasoning are extracted as the importers do.\n",
        .options = withEndpointOptions(
            {{.name = "mode",
              .takesValue = true,
              .valueName = "MODE",
              .help = "keep-all (default): K samples per task (-k), all kept; verify them later with 'sieve-cli "
                      "verify'\n"
                      "first-pass: up to N attempts per task (--attempts), one at a time, each verified before the "
                      "next; the first PASS ends the task (rejection sampling)",
              .section = "Modes:",
              .choices = {"keep-all", "first-pass"}},
             {.name = "k",
              .takesValue = true,
              .shortName = 'k',
              .valueName = "K",
              .help = "keep-all: samples per task (default 1)",
              .section = "Options:"},
             {.name = "attempts",
              .takesValue = true,
              .valueName = "N",
              .help = "first-pass: attempts per task at most (default 16)"},
             {.name = "run-id",
              .takesValue = true,
              .valueName = "R",
              .help = "name of the run; the same name resumes it (default: run-<UTC time>)"},
             {.name = "task",
              .takesValue = true,
              .repeatable = true,
              .valueName = "T",
              .help = "only this task (repeatable; default: every task)"},
             {.name = "verify-parallel",
              .takesValue = true,
              .valueName = "P",
              .help = "first-pass: samples verified at once (default 1), by one long-lived 'sieve-cli verify {db} "
                      "--serve' for the whole run (one lock, warm workers)"},
             {.name = "verify-arg",
              .takesValue = true,
              .repeatable = true,
              .valueName = "ARG",
              .help = "first-pass: extra argument for 'sieve-cli verify' (repeatable, e.g. --verify-arg=--cpu)"},
             {.name = "verifier-cmd",
              .takesValue = true,
              .valueName = "CMD",
              .help = "first-pass: a verifier command line run once per attempt instead ({db} and {sample} are "
                      "replaced); the verdict is read from the corpus"},
             {.name = "json", .help = "print the summary as one JSON object"}},
            "1.0"),
        .notes =
            "Endpoint errors (429, 5xx, timeouts, connection resets, malformed or truncated JSON) are retried with\n"
            "exponential backoff and jitter, honouring Retry-After, and never consume an attempt; nor does a failure\n"
            "of the verifier (it died, no device): the run stops, and the attempt is verified when it resumes.\n"
            "After --max-failures errors in a row the run stops with exit code 1; fix the endpoint and run the same\n"
            "command (same --run-id) to resume: finished tasks are skipped, attempts that were in flight are asked\n"
            "again, nothing is counted twice. Ctrl-C stops the run resumably (exit code 130).\n",
        .run = runSample};
}

} // namespace sieve::net
