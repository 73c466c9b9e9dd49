#include "net/sampler.h"

#include "net/answersource.h"
#include "net/promptsource.h"

#include <QDateTime>
#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcSampler, "sieve.net.sampler")

namespace sieve::net {

namespace {
const char *modeName(SampleMode m)
{
    return m == SampleMode::KeepAll ? "keep-all" : "first-pass";
}
} // namespace

Sampler::Sampler(SamplerOptions options, AttemptVerifier *verifier, QObject *parent)
    : QObject(parent), m_options(std::move(options)), m_verifier(verifier)
{
    if (m_options.mode == SampleMode::FirstPass && !m_verifier)
        throw std::invalid_argument("first-pass sampling needs a verifier");
}

Sampler::~Sampler()
{
    if (m_client)
        m_client->stop();
}

nlohmann::json Sampler::paramsJson(const std::vector<store::TaskRef> &tasks) const
{
    // What decides the samples; never the key, the endpoint or the pacing (those may change on resume).
    nlohmann::json p = {{"mode", modeName(m_options.mode)},
                        {"model", m_options.model},
                        {"temperature", m_options.temperature},
                        {"max_tokens", m_options.maxTokens ? nlohmann::json(*m_options.maxTokens) : nlohmann::json()},
                        {"extra", m_options.extra},
                        {"prompt_template", promptTemplateId()},
                        {"tasks", m_options.tasks}};
    if (m_options.mode == SampleMode::KeepAll)
        p["k"] = m_options.k;
    else
        p["attempts"] = m_options.attempts;
    nlohmann::json ids = nlohmann::json::array();
    for (const store::TaskRef &t : tasks)
        ids.push_back(t.id);
    p["task_ids"] = std::move(ids);
    return p;
}

QByteArray Sampler::requestBody(const store::TaskRef &task)
{
    PromptInput in{task.name, task.backend, task.dtype, m_store->referenceCode(task.id)};
    return chatRequestBody(m_options.model, renderMessages(in), m_options.temperature, m_options.maxTokens,
                           m_options.extra, m_options.stream);
}

void Sampler::start()
{
    if (m_started)
        return;
    m_started = true;
    m_wall.start();
    m_store = std::make_unique<store::SampleStore>(m_options.dbPath);
    if (m_options.runName.empty())
        m_options.runName =
            "run-" + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString();
    const std::vector<store::TaskRef> requested = m_store->resolveTasks(m_options.tasks);
    const QString endpoint =
        ChatClient::completionsUrl(m_options.client.endpoint).toDisplayString(QUrl::RemoveUserInfo);
    m_run = m_store->openRun(m_options.runName, modeName(m_options.mode), endpoint.toStdString(), m_options.model,
                             paramsJson(requested));
    std::vector<store::TaskRef> tasks = requested;
    if (m_run.resumed)
        tasks = m_store->tasksByIds(m_run.params.value("task_ids", std::vector<std::int64_t>{}));

    std::unordered_map<std::int64_t, size_t> index;
    for (const store::TaskRef &t : tasks) {
        index[t.id] = m_tasks.size();
        m_tasks.push_back(TaskState{t, {}, {}, false, false, false, false, false});
    }
    for (const store::ItemRecord &item : m_store->items(m_run.id)) {
        auto it = index.find(item.taskId);
        if (it == index.end() || !item.sampleId)
            continue;
        Attempt a{*item.sampleId, item.status};
        // The verifier may have finished after the sampler was stopped: take its verdict, don't redo it.
        if (m_options.mode == SampleMode::FirstPass && !a.status) {
            a.status = m_store->verifiedStatus(a.sampleId);
            if (a.status)
                m_store->setStatus(m_run.id, item.taskId, item.attempt, *a.status);
        }
        m_tasks[it->second].stored[item.attempt] = a;
        ++m_progress.samplesStored;
    }
    m_progress.tasksTotal = static_cast<int>(m_tasks.size());

    m_client = std::make_unique<ChatClient>(m_options.client);
    connect(m_client.get(), &ChatClient::replied, this, &Sampler::onReplied);
    connect(m_client.get(), &ChatClient::retrying, this,
            [this](quint64, int retry, const QString &reason, int delayMs) {
                Q_EMIT notice(
                    tr("endpoint error (retry %1 in %2 ms, no attempt used): %3").arg(retry).arg(delayMs).arg(reason));
                emitProgress();
            });
    connect(m_client.get(), &ChatClient::fatal, this,
            [this](const QString &message) { finish(QStringLiteral("failed"), message); });
    if (m_verifier) {
        connect(m_verifier, &AttemptVerifier::verified, this, &Sampler::onVerified);
        connect(m_verifier, &AttemptVerifier::failed, this,
                [this](qint64, const QString &error) { finish(QStringLiteral("failed"), error); });
    }
    Q_EMIT started(m_run.id, QString::fromStdString(m_run.name), m_run.resumed);
    // The first requests go out from the event loop, so that finished() can never fire inside start().
    QMetaObject::invokeMethod(
        this,
        [this] {
            for (size_t i = 0; i < m_tasks.size() && !m_finished; ++i)
                advance(i);
            emitProgress();
            checkFinished();
        },
        Qt::QueuedConnection);
}

void Sampler::advance(size_t ti)
{
    TaskState &t = m_tasks[ti];
    if (t.done || m_finished)
        return;
    if (m_options.mode == SampleMode::KeepAll) {
        if (static_cast<int>(t.stored.size()) >= m_options.k) {
            markDone(ti, false);
            return;
        }
        if (!t.submitted) {
            t.submitted = true;
            for (int a = 1; a <= m_options.k; ++a)
                if (!t.stored.count(a))
                    submit(ti, a);
        }
        return;
    }
    if (t.requesting || t.verifying)
        return;
    int last = 0;
    for (const auto &[attempt, a] : t.stored) {
        last = std::max(last, attempt);
        if (a.status == "PASS") {
            markDone(ti, true);
            return;
        }
    }
    for (const auto &[attempt, a] : t.stored) {
        if (!a.status) {
            t.verifying = true;
            m_verifying[a.sampleId] = {ti, attempt};
            ++m_progress.verifying;
            m_verifier->verify(a.sampleId);
            return;
        }
        // A broken task (its reference fails the hygiene checks) fails every attempt: stop asking.
        if (*a.status == "UNVERIFIABLE") {
            markDone(ti, false);
            return;
        }
    }
    if (last >= m_options.attempts) {
        markDone(ti, false);
        return;
    }
    t.requesting = true;
    submit(ti, last + 1);
}

void Sampler::submit(size_t ti, int attempt)
{
    TaskState &t = m_tasks[ti];
    if (t.body.isEmpty())
        t.body = requestBody(t.ref);
    const quint64 id = m_nextJob++;
    m_jobs[id] = {ti, attempt};
    m_client->submit(id, t.body, m_options.stream);
}

void Sampler::markDone(size_t ti, bool passed)
{
    TaskState &t = m_tasks[ti];
    if (t.done)
        return;
    t.done = true;
    t.passed = passed;
    t.body.clear();
    ++m_progress.tasksDone;
    if (passed)
        ++m_progress.tasksPassed;
}

void Sampler::onReplied(const ChatReply &reply)
{
    auto job = m_jobs.find(reply.id);
    if (job == m_jobs.end() || m_finished)
        return;
    const auto [ti, attempt] = job->second;
    m_jobs.erase(job);
    TaskState &t = m_tasks[ti];
    const Extracted ex = extractAnswer(reply.parts.content, reply.parts.reasoning);
    store::AttemptRecord rec;
    rec.runId = m_run.id;
    rec.runName = m_run.name;
    rec.task = t.ref;
    rec.attempt = attempt;
    rec.model = m_options.model;
    rec.temperature = m_options.temperature;
    rec.hasAnswer = ex.hasAnswer;
    rec.code = ex.code;
    rec.reasoning = ex.reasoning;
    rec.response = reply.raw.toStdString();
    rec.request = t.body.toStdString();
    try {
        const std::int64_t sampleId = m_store->storeAttempt(rec);
        t.stored[attempt] = Attempt{sampleId, std::nullopt};
    } catch (const std::exception &e) {
        finish(QStringLiteral("failed"),
               tr("cannot store a sample in %1: %2")
                   .arg(QString::fromStdString(m_options.dbPath), QString::fromUtf8(e.what())));
        return;
    }
    ++m_progress.samplesStored;
    ++m_progress.storedThisSession;
    t.requesting = false;
    advance(ti);
    emitProgress();
    checkFinished();
}

void Sampler::onVerified(qint64 sampleId, const QString &status)
{
    auto it = m_verifying.find(sampleId);
    if (it == m_verifying.end() || m_finished)
        return;
    const auto [ti, attempt] = it->second;
    m_verifying.erase(it);
    --m_progress.verifying;
    TaskState &t = m_tasks[ti];
    try {
        m_store->setStatus(m_run.id, t.ref.id, attempt, status.toStdString());
    } catch (const std::exception &e) {
        finish(QStringLiteral("failed"), QString::fromUtf8(e.what()));
        return;
    }
    t.stored[attempt].status = status.toStdString();
    t.verifying = false;
    advance(ti);
    emitProgress();
    checkFinished();
}

void Sampler::checkFinished()
{
    if (m_finished || !m_jobs.empty() || !m_verifying.empty())
        return;
    if (m_progress.tasksDone == m_progress.tasksTotal)
        finish(QStringLiteral("finished"), {});
}

void Sampler::emitProgress()
{
    if (m_client) {
        m_progress.inFlight = m_client->inFlight();
        m_progress.queued = m_client->queued();
        m_progress.requests = m_client->requestsSent();
        m_progress.retries = m_client->retriesTotal();
        m_progress.failuresInRow = m_client->consecutiveFailures();
    }
    Q_EMIT progressChanged(m_progress);
}

void Sampler::cancel()
{
    if (m_started)
        finish(QStringLiteral("interrupted"), {});
}

void Sampler::finish(const QString &state, const QString &error)
{
    if (m_finished)
        return;
    m_finished = true; // first: handlers of the signals below may call cancel()
    if (m_client) {
        m_progress.requests = m_client->requestsSent();
        m_progress.retries = m_client->retriesTotal();
        m_progress.failuresInRow = m_client->consecutiveFailures();
        m_client->stop();
    }
    if (m_verifier)
        m_verifier->cancel();
    m_progress.inFlight = 0;
    m_progress.queued = 0;
    SamplerSummary s;
    s.runId = m_run.id;
    s.runName = QString::fromStdString(m_run.name);
    s.state = state;
    s.error = error;
    s.resumed = m_run.resumed;
    s.progress = m_progress;
    s.wallSeconds = m_wall.elapsed() / 1000.0;
    const nlohmann::json stats = {{"tasks", m_progress.tasksTotal},
                                  {"tasks_done", m_progress.tasksDone},
                                  {"tasks_passed", m_progress.tasksPassed},
                                  {"samples", m_progress.samplesStored},
                                  {"samples_this_session", m_progress.storedThisSession},
                                  {"requests_this_session", m_progress.requests},
                                  {"retries_this_session", m_progress.retries},
                                  {"wall_s_this_session", s.wallSeconds}};
    try {
        if (m_store && m_run.id)
            m_store->finishRun(m_run.id, state.toStdString(), error.toStdString(), stats);
    } catch (const std::exception &e) {
        qCWarning(lcSampler) << "cannot record the end of the run:" << e.what();
    }
    Q_EMIT finished(s);
}

} // namespace sieve::net
