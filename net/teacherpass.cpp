#include "net/teacherpass.h"

#include <algorithm>

namespace sieve::net {

TeacherPass::TeacherPass(ClientOptions client, bool stream, BodyFn body, StoreFn store, QObject *parent)
    : QObject(parent), m_options(std::move(client)), m_stream(stream), m_body(std::move(body)),
      m_store(std::move(store))
{
}

TeacherPass::~TeacherPass()
{
    if (m_client)
        m_client->stop();
}

void TeacherPass::start(std::vector<qint64> samples)
{
    if (m_started)
        return;
    m_started = true;
    m_wall.start();
    m_samples = std::move(samples);
    m_progress.total = static_cast<int>(m_samples.size());
    m_client = std::make_unique<ChatClient>(m_options);
    connect(m_client.get(), &ChatClient::replied, this, &TeacherPass::onReplied);
    connect(m_client.get(), &ChatClient::retrying, this,
            [this](quint64, int retry, const QString &reason, int delayMs) {
                Q_EMIT notice(tr("endpoint error (retry %1 in %2 ms): %3").arg(retry).arg(delayMs).arg(reason));
                emitProgress();
            });
    connect(m_client.get(), &ChatClient::fatal, this,
            [this](const QString &message) { finish(QStringLiteral("failed"), message); });
    QMetaObject::invokeMethod(
        this,
        [this] {
            fill();
            emitProgress();
            if (!m_finished && m_jobs.empty())
                finish(QStringLiteral("finished"), {});
        },
        Qt::QueuedConnection);
}

void TeacherPass::fill()
{
    // Twice the concurrency queued: the client never waits for a body, and bodies are built as needed.
    const std::size_t window = static_cast<std::size_t>(std::max(1, m_options.concurrency)) * 2;
    while (!m_finished && m_jobs.size() < window && m_next < m_samples.size()) {
        const qint64 sampleId = m_samples[m_next++];
        QByteArray body;
        try {
            body = m_body(sampleId);
        } catch (const std::exception &e) {
            finish(QStringLiteral("failed"), QString::fromUtf8(e.what()));
            return;
        }
        const quint64 id = m_next;
        m_jobs[id] = sampleId;
        m_client->submit(id, std::move(body), m_stream);
    }
}

void TeacherPass::onReplied(const ChatReply &reply)
{
    auto job = m_jobs.find(reply.id);
    if (job == m_jobs.end() || m_finished)
        return;
    const qint64 sampleId = job->second;
    m_jobs.erase(job);
    try {
        m_store(sampleId, reply);
    } catch (const std::exception &e) {
        finish(QStringLiteral("failed"), QString::fromUtf8(e.what()));
        return;
    }
    ++m_progress.done;
    fill();
    emitProgress();
    if (!m_finished && m_jobs.empty() && m_next >= m_samples.size())
        finish(QStringLiteral("finished"), {});
}

void TeacherPass::emitProgress()
{
    if (m_client) {
        m_progress.inFlight = m_client->inFlight();
        m_progress.queued = m_client->queued();
        m_progress.requests = m_client->requestsSent();
        m_progress.retries = m_client->retriesTotal();
    }
    Q_EMIT progressChanged(m_progress);
}

void TeacherPass::cancel()
{
    if (m_started)
        finish(QStringLiteral("interrupted"), {});
}

void TeacherPass::finish(const QString &state, const QString &error)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_client) {
        m_progress.requests = m_client->requestsSent();
        m_progress.retries = m_client->retriesTotal();
        m_client->stop();
    }
    m_progress.inFlight = 0;
    m_progress.queued = 0;
    TeacherPassSummary s;
    s.state = state;
    s.error = error;
    s.progress = m_progress;
    s.wallSeconds = m_wall.elapsed() / 1000.0;
    Q_EMIT finished(s);
}

} // namespace sieve::net
