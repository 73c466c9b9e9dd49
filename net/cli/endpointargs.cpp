#include "net/cli/endpointargs.h"

#include "core/db/payload.h"
#include "core/review/review.h"
#include "core/util/progress.h"
#include "net/promptsource.h"
#include "net/teacherpass.h"

#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <optional>
#include <ostream>

namespace sieve::net {

using sieve::cli::OptionSpec;
using sieve::cli::UsageError;

std::vector<OptionSpec> endpointOptions(const std::string &section, const std::string &defaultTemperature)
{
    return {
        {.name = "endpoint",
         .takesValue = true,
         .valueName = "URL",
         .help = "base URL (http://host:8000/v1) or the full .../chat/completions URL",
         .section = section},
        {.name = "model", .takesValue = true, .valueName = "M", .help = "model name sent to the endpoint"},
        {.name = "api-key-env",
         .takesValue = true,
         .valueName = "NAME",
         .help = "environment variable holding the API key (default OPENAI_API_KEY); the key is sent as a "
                 "bearer token and never written to the corpus, logs or messages"},
        {.name = "temperature",
         .takesValue = true,
         .valueName = "T",
         .help = "sampling temperature (default " + defaultTemperature + ")"},
        {.name = "max-tokens",
         .takesValue = true,
         .valueName = "N",
         .help = "max_tokens of each request (default: the endpoint's)"},
        {.name = "extra",
         .takesValue = true,
         .valueName = "JSON",
         .help = "fields merged into every request body, e.g. '{\"reasoning_effort\":\"max\"}'"},
        {.name = "stream", .help = "ask for a streamed reply (server-sent events)"},
        {.name = "concurrency", .takesValue = true, .valueName = "C", .help = "requests in flight at most (default 8)"},
        {.name = "rate",
         .takesValue = true,
         .valueName = "R",
         .help = "new requests per second at most (default: unlimited)"},
        {.name = "timeout",
         .takesValue = true,
         .valueName = "S",
         .help = "seconds without data before a request counts as failed (default 600)"},
        {.name = "deadline",
         .takesValue = true,
         .valueName = "S",
         .help = "seconds a whole request may take, first byte to last (default 600; 0 = none): an endpoint "
                 "that trickles bytes never trips --timeout; a request cut off is retried"},
        {.name = "max-reply-mb",
         .takesValue = true,
         .valueName = "N",
         .help = "a reply larger than N MiB is cut off and retried (default 64)"},
        {.name = "max-failures",
         .takesValue = true,
         .valueName = "N",
         .help = "consecutive endpoint errors that stop the run (default 8)"},
        {.name = "backoff-ms",
         .takesValue = true,
         .valueName = "MS",
         .help = "first retry delay; doubles per retry up to 60 s, with jitter (default 1000)"}};
}

std::vector<OptionSpec> withEndpointOptions(std::vector<OptionSpec> own, const std::string &defaultTemperature)
{
    for (OptionSpec &o : endpointOptions("Endpoint (the same for sample, judge and explain):", defaultTemperature))
        own.push_back(std::move(o));
    return own;
}

EndpointArgs endpointFromArgs(const sieve::cli::Args &args, double defaultTemperature)
{
    const auto endpoint = args.value("endpoint");
    const auto model = args.value("model");
    if (!endpoint)
        throw UsageError("--endpoint is required");
    if (!model)
        throw UsageError("--model is required");
    EndpointArgs e;
    e.client.endpoint = QUrl(QString::fromStdString(*endpoint), QUrl::StrictMode);
    if (!e.client.endpoint.isValid() ||
        (e.client.endpoint.scheme() != QLatin1String("http") && e.client.endpoint.scheme() != QLatin1String("https")))
        throw UsageError("--endpoint expects an http:// or https:// URL, got '" + *endpoint + "'");
    e.model = *model;
    auto positive = [&](const char *name, long long fallback) {
        const long long v = args.integer(name).value_or(fallback);
        if (v < 1)
            throw UsageError(std::string("--") + name + " must be at least 1");
        return static_cast<int>(v);
    };
    e.client.concurrency = positive("concurrency", 8);
    e.client.maxFailures = positive("max-failures", 8);
    e.client.timeoutMs = positive("timeout", 600) * 1000;
    if (const long long d = args.integer("deadline").value_or(ClientOptions::kDefaultDeadlineMs / 1000);
        d < 0 || d > 7 * 86400)
        throw UsageError("--deadline expects 0 (none) to 604800 seconds");
    else
        e.client.deadlineMs = static_cast<int>(d * 1000);
    e.client.maxReplyBytes = static_cast<qint64>(positive("max-reply-mb", 64)) << 20;
    e.client.backoff.baseMs = positive("backoff-ms", 1000);
    e.client.rate = args.number("rate").value_or(0);
    e.temperature = args.number("temperature").value_or(defaultTemperature);
    if (auto mt = args.integer("max-tokens"))
        e.maxTokens = static_cast<int>(*mt);
    if (auto extra = args.value("extra")) {
        e.extra = nlohmann::json::parse(*extra, nullptr, false);
        if (e.extra.is_discarded() || !e.extra.is_object())
            throw UsageError("--extra expects a JSON object, got '" + *extra + "'");
    }
    e.stream = args.has("stream");
    return e;
}

void loadApiKey(const sieve::cli::Args &args, EndpointArgs &e, std::ostream &err, const char *command)
{
    const std::string keyEnv = args.value("api-key-env", "OPENAI_API_KEY");
    e.client.apiKey = qgetenv(keyEnv.c_str());
    if (e.client.apiKey.isEmpty())
        err << command << ": $" << keyEnv << " is not set; requests carry no API key\n";
}

std::unique_ptr<QCoreApplication> consoleApplication()
{
    if (QCoreApplication::instance())
        return nullptr;
    // A console run needs no GLib main loop; Qt's own dispatcher costs less per wake-up of the event
    // loop and of Qt's HTTP threads (bench/sampler: about 5% of the client's CPU when streaming).
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
    static int argc = 1;
    static char name[] = "sieve-cli";
    static char *argv[] = {name, nullptr};
    return std::make_unique<QCoreApplication>(argc, argv);
}

QByteArray requestBody(const EndpointArgs &e, const nlohmann::json &messages)
{
    return chatRequestBody(e.model, messages, e.temperature, e.maxTokens, e.extra, e.stream);
}

QByteArray promptBody(const EndpointArgs &e, const PromptTemplate &prompt,
                      const std::map<std::string, std::string> &values)
{
    const nlohmann::json messages =
        nlohmann::json::array({{{"role", "user"}, {"content", std::string(trimTrailingSpace(prompt.render(values)))}}});
    return requestBody(e, messages);
}

std::vector<OptionSpec> teacherCommandOptions(const char *promptOption, const std::string &promptHelp,
                                              const std::string &againHelp, const std::string &defaultTemperature)
{
    std::vector<OptionSpec> own = {
        {.name = promptOption, .takesValue = true, .valueName = "NAME|FILE", .help = promptHelp, .section = "Options:"},
        {.name = "json", .help = "print the summary as one JSON object"}};
    for (OptionSpec &o : sampleScopeOptions(againHelp))
        own.push_back(std::move(o));
    return withEndpointOptions(std::move(own), defaultTemperature);
}

nlohmann::json teacherPassJson(const TeacherPassSummary &s, std::size_t skipped, const EndpointArgs &e,
                               const char *promptKey, const std::string &promptLabel, const std::string &promptHash)
{
    nlohmann::json j = {{"state", s.state.toStdString()},
                        {"samples", s.progress.total},
                        {"skipped", skipped},
                        {"model", e.model},
                        {promptKey, promptLabel},
                        {std::string(promptKey) + "_sha256", promptHash},
                        {"requests", s.progress.requests},
                        {"retries", s.progress.retries},
                        {"wall_s", s.wallSeconds}};
    if (!s.error.isEmpty())
        j["error"] = s.error.toStdString();
    return j;
}

std::vector<OptionSpec> sampleScopeOptions(const std::string &againHelp)
{
    return {{.name = "sample",
             .takesValue = true,
             .repeatable = true,
             .valueName = "S",
             .help = "only this sample (id or name; repeatable; default: every sample with an answer)",
             .section = "Which samples:"},
            {.name = "task",
             .takesValue = true,
             .repeatable = true,
             .valueName = "T",
             .help = "only this task's samples (repeatable)"},
            {.name = "status",
             .takesValue = true,
             .repeatable = true,
             .valueName = "S",
             .help = "only samples with this verifier status, e.g. PASS (repeatable)"},
            {.name = "limit", .takesValue = true, .valueName = "N", .help = "at most N samples (the lowest ids first)"},
            {.name = "again", .help = againHelp}};
}

std::vector<qint64> scopedSamples(const db::Database &db, const sieve::cli::Args &args,
                                  const std::set<std::int64_t> &done, std::size_t &skipped)
{
    std::set<std::int64_t> only;
    for (const std::string &s : args.all("sample"))
        only.insert(resolveSample(db, s));
    const std::vector<std::string> &tasks = args.all("task"), &statuses = args.all("status");
    for (const std::string &t : tasks)
        if (!db.prepare("SELECT 1 FROM tasks WHERE name = ?1").bind(1, t).step())
            throw sieve::cli::UsageError("--task: no task named '" + t + "'");
    std::optional<long long> limit = args.integer("limit");
    if (limit && *limit < 1)
        throw sieve::cli::UsageError("--limit must be at least 1");
    const bool again = args.has("again");
    std::vector<qint64> out;
    skipped = 0;
    db::Statement st = db.prepare("SELECT s.id, t.name, s.status FROM samples s JOIN tasks t ON t.id = s.task_id "
                                  "WHERE s.has_answer = 1 ORDER BY s.id");
    auto in = [](const std::vector<std::string> &list, const std::string &v) {
        return list.empty() || std::find(list.begin(), list.end(), v) != list.end();
    };
    while (st.step()) {
        const std::int64_t id = st.int64(0);
        if ((!only.empty() && !only.count(id)) || !in(tasks, st.text(1)) || !in(statuses, st.text(2)))
            continue;
        if (!again && done.count(id)) {
            ++skipped;
            continue;
        }
        if (limit && static_cast<long long>(out.size()) >= *limit)
            break;
        out.push_back(id);
    }
    return out;
}

SampleFacts sampleFacts(const db::Database &db, std::int64_t sampleId)
{
    db::Statement st = db.prepare(
        "SELECT t.name, s.backend, t.dtype, tp.reference_code, p.code, p.reasoning FROM samples s JOIN tasks t ON "
        "t.id = s.task_id LEFT JOIN task_payloads tp ON tp.task_id = t.id LEFT JOIN sample_payloads p ON "
        "p.sample_id = s.id WHERE s.id = ?1");
    st.bind(1, sampleId);
    if (!st.step())
        throw std::runtime_error("no sample with id " + std::to_string(sampleId));
    SampleFacts f;
    f.task = st.text(0);
    f.backend = st.text(1);
    f.dtype = st.text(2);
    auto unpack = [&](int col) { return st.isNull(col) ? std::string() : payload::unpack(st.blobView(col)); };
    f.reference = unpack(3);
    f.code = unpack(4);
    f.reasoning = unpack(5);
    return f;
}

TeacherPassSummary runTeacherPass(TeacherPass &pass, std::vector<qint64> samples, const char *command,
                                  sieve::cli::Context &ctx)
{
    std::optional<Progress> progress;
    TeacherPassSummary summary;
    QEventLoop loop;
    QObject::connect(&pass, &TeacherPass::progressChanged, &loop, [&](const TeacherPassProgress &p) {
        if (!progress)
            progress.emplace(ctx.err, command, static_cast<std::uint64_t>(p.total));
        progress->update(static_cast<std::uint64_t>(p.done), "in flight " + std::to_string(p.inFlight) + ", queued " +
                                                                 std::to_string(p.queued) + ", retries " +
                                                                 std::to_string(p.retries));
    });
    QObject::connect(&pass, &TeacherPass::notice, &loop,
                     [&](const QString &text) { ctx.err << command << ": " << text.toStdString() << '\n'; });
    QObject::connect(&pass, &TeacherPass::finished, &loop, [&](const TeacherPassSummary &s) {
        summary = s;
        loop.quit();
    });
    sieve::cli::installInterruptHandler();
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &pass, [&] {
        if (sieve::cli::interrupted())
            pass.cancel();
    });
    poll.start(100);
    pass.start(std::move(samples));
    loop.exec();
    if (progress)
        progress->finish();
    if (summary.state == QLatin1String("failed"))
        ctx.err << "sieve-cli " << command << ": " << summary.error.toStdString()
                << "\n(fix it and run the same command again: samples already answered are skipped)\n";
    else if (summary.state == QLatin1String("interrupted"))
        ctx.err << "sieve-cli " << command << ": interrupted; run the same command to go on\n";
    return summary;
}

int teacherPassExitCode(const TeacherPassSummary &s)
{
    if (s.state == QLatin1String("failed"))
        return sieve::cli::Failure;
    if (s.state == QLatin1String("interrupted"))
        return sieve::cli::Interrupted;
    return sieve::cli::Ok;
}

} // namespace sieve::net
