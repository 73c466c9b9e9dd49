#include "net/chatclient.h"

#include "net/redaction.h"

#include <QDateTime>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <algorithm>

Q_LOGGING_CATEGORY(lcChat, "sieve.net.chat")

namespace sieve::net {

namespace {
// Qt before 6.5 opens at most 6 HTTP/1.1 connections per host and manager (QHttp1Configuration came in
// 6.5), and vLLM/SGLang speak HTTP/1.1 only; more requests in flight need more managers.
constexpr int kConnectionsPerManager = 6;

bool isRetryableStatus(int status)
{
    return status == 408 || status == 409 || status == 425 || status == 429 || status >= 500;
}
} // namespace

ChatClient::ChatClient(ClientOptions options, QObject *parent)
    : QObject(parent), m_options(std::move(options)), m_url(completionsUrl(m_options.endpoint)),
      m_bucket(m_options.rate),
      m_rng(m_options.seed ? m_options.seed : static_cast<quint64>(QDateTime::currentMSecsSinceEpoch()))
{
    m_options.concurrency = std::max(1, m_options.concurrency);
    m_options.maxFailures = std::max(1, m_options.maxFailures);
    const int managers = (m_options.concurrency + kConnectionsPerManager - 1) / kConnectionsPerManager;
    for (int i = 0; i < managers; ++i) {
        auto *m = new QNetworkAccessManager(this);
        m->setAutoDeleteReplies(false);
        // One connection per manager instead of one per reply (no connect/disconnect per request).
        connect(m, &QNetworkAccessManager::finished, this, &ChatClient::onFinished);
        m_managers.push_back(m);
        m_managerLoad.push_back(0);
    }
    for (QNetworkRequest *req : {&m_jsonRequest, &m_streamRequest}) {
        req->setUrl(m_url);
        req->setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        if (!m_options.apiKey.isEmpty())
            req->setRawHeader("Authorization", "Bearer " + m_options.apiKey);
        req->setTransferTimeout(m_options.timeoutMs);
    }
    m_jsonRequest.setRawHeader("Accept", QByteArrayLiteral("application/json"));
    m_streamRequest.setRawHeader("Accept", QByteArrayLiteral("text/event-stream"));
    m_clock.start();
    m_dispatchTimer.setSingleShot(true);
    connect(&m_dispatchTimer, &QTimer::timeout, this, &ChatClient::dispatch);
    m_options.maxReplyBytes = std::max<qint64>(1024, m_options.maxReplyBytes);
    m_limitTimer.setInterval(200);
    connect(&m_limitTimer, &QTimer::timeout, this, &ChatClient::enforceLimits);
}

ChatClient::~ChatClient()
{
    stop();
}

QUrl ChatClient::completionsUrl(const QUrl &base)
{
    QUrl url = base;
    QString path = url.path();
    if (path.endsWith(QLatin1String("/chat/completions")))
        return url;
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path + QLatin1String("/chat/completions"));
    return url;
}

QString ChatClient::redact(const QString &text) const
{
    if (m_options.apiKey.isEmpty())
        return text;
    QString out = text;
    out.replace(QString::fromUtf8(m_options.apiKey), QLatin1String("[redacted]"));
    return out;
}

QString ChatClient::excerpt(const QByteArray &body) const
{
    // The literal key is replaced before the body is cut, so no part of it survives at the cut; a key
    // still there in another encoding (escaped, split across events) hides the whole body.
    QByteArray shown = body;
    if (!m_options.apiKey.isEmpty()) {
        shown.replace(m_options.apiKey, QByteArrayLiteral("[redacted]"));
        const std::string key = m_options.apiKey.toStdString();
        const std::string_view view(shown.constData(), static_cast<size_t>(shown.size()));
        if (replyCarriesKey(view, false, key) || replyCarriesKey(view, true, key))
            return QStringLiteral("[body not shown: it carries the API key]");
    }
    QString s = QString::fromUtf8(shown.left(300)).simplified();
    if (shown.size() > 300)
        s += QLatin1String("...");
    return redact(s);
}

void ChatClient::submit(quint64 id, QByteArray body, bool stream)
{
    if (m_stopped)
        return;
    m_queue.push_back(Job{id, std::move(body), stream, 0});
    dispatch();
}

void ChatClient::dispatch()
{
    while (!m_stopped && !m_queue.empty() && inFlight() < m_options.concurrency) {
        const qint64 now = m_clock.elapsed();
        if (now < m_pauseUntilMs) {
            m_dispatchTimer.start(static_cast<int>(m_pauseUntilMs - now));
            return;
        }
        if (!m_bucket.tryTake(now)) {
            m_dispatchTimer.start(static_cast<int>(std::max<qint64>(1, m_bucket.msUntilNext(now))));
            return;
        }
        Job job = std::move(m_queue.front());
        m_queue.pop_front();
        start(std::move(job));
    }
}

void ChatClient::start(Job job)
{
    const size_t mi =
        static_cast<size_t>(std::min_element(m_managerLoad.begin(), m_managerLoad.end()) - m_managerLoad.begin());
    QNetworkReply *reply = m_managers[mi]->post(job.stream ? m_streamRequest : m_jsonRequest, job.body);
    // One byte more than the cap fits, so a reply over it is seen (enforceLimits) rather than stalled.
    reply->setReadBufferSize(m_options.maxReplyBytes + 1);
    ++m_managerLoad[mi];
    ++m_requestsSent;
    auto active = std::make_unique<Active>();
    active->job = std::move(job);
    active->manager = mi;
    active->timer.start();
    m_active.emplace(reply, std::move(active));
    if (!m_limitTimer.isActive())
        m_limitTimer.start();
}

void ChatClient::enforceLimits()
{
    if (m_active.empty()) {
        m_limitTimer.stop();
        return;
    }
    std::vector<QNetworkReply *> over;
    for (auto &[reply, a] : m_active) {
        if (!a->abortReason.isEmpty())
            continue;
        if (reply->bytesAvailable() > m_options.maxReplyBytes)
            a->abortReason = QStringLiteral("the reply is larger than the %1 MiB limit (--max-reply-mb); cut off")
                                 .arg(double(m_options.maxReplyBytes) / (1 << 20));
        else if (m_options.deadlineMs > 0 && a->timer.elapsed() > m_options.deadlineMs)
            a->abortReason = QStringLiteral("no complete reply within the %1 s deadline (--deadline)")
                                 .arg(m_options.deadlineMs / 1000.0);
        else
            continue;
        over.push_back(reply);
    }
    for (QNetworkReply *reply : over)
        reply->abort(); // finished() -> onFinished(), which retries with the reason
}

void ChatClient::onFinished(QNetworkReply *reply)
{
    auto it = m_active.find(reply);
    if (it == m_active.end())
        return;
    std::unique_ptr<Active> a = std::move(it->second);
    m_active.erase(it);
    --m_managerLoad[a->manager];
    reply->deleteLater();
    // A stream is decoded once it has ended: nothing shows tokens live, so keeping a decoder per request
    // and waking it per chunk buys nothing. (Qt still hands over each HTTP chunk separately: that is the
    // extra cost of --stream measured in bench/sampler.)
    if (reply->isOpen() && a->abortReason.isEmpty())
        a->raw = reply->readAll();
    if (a->abortReason.isEmpty() && a->raw.size() > m_options.maxReplyBytes)
        a->abortReason = QStringLiteral("the reply is larger than the %1 MiB limit (--max-reply-mb)")
                             .arg(double(m_options.maxReplyBytes) / (1 << 20));

    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError error = reply->error();

    if (!a->abortReason.isEmpty()) {
        a->raw.clear();
        retryLater(std::move(a->job), a->abortReason, std::nullopt);
    } else if (status == 0) {
        // No HTTP answer at all: refused, reset, timed out (transferTimeout aborts with
        // OperationCanceledError; stop() disconnects before aborting, so nothing else cancels here).
        const QString why = error == QNetworkReply::OperationCanceledError
                                ? QStringLiteral("timeout (no data for %1 s)").arg(m_options.timeoutMs / 1000.0)
                                : redact(reply->errorString());
        retryLater(std::move(a->job), QStringLiteral("network error: ") + why, std::nullopt);
    } else if (isRetryableStatus(status)) {
        retryLater(std::move(a->job), QStringLiteral("HTTP %1: %2").arg(status).arg(excerpt(a->raw)),
                   parseRetryAfterMs(reply->rawHeader("Retry-After"), QDateTime::currentDateTimeUtc()));
    } else if (status < 200 || status >= 300) {
        failFatal(QStringLiteral("the endpoint %1 answered HTTP %2, which retrying cannot fix: %3")
                      .arg(m_url.toDisplayString(QUrl::RemoveUserInfo))
                      .arg(status)
                      .arg(excerpt(a->raw)));
    } else if (error != QNetworkReply::NoError) {
        // A 200 whose body was cut (reset, timeout mid-stream).
        retryLater(std::move(a->job), QStringLiteral("reply cut short: ") + redact(reply->errorString()), std::nullopt);
    } else {
        ChatReply out;
        try {
            if (a->job.stream) {
                SseDecoder sse;
                sse.feed(std::string_view(a->raw.constData(), static_cast<size_t>(a->raw.size())));
                sse.finish();
                out.parts = sse.parts();
            } else {
                out.parts = parseCompletion(std::string_view(a->raw.constData(), static_cast<size_t>(a->raw.size())));
            }
        } catch (const WireError &e) {
            retryLater(std::move(a->job), redact(QString::fromUtf8(e.what())), std::nullopt);
            dispatch();
            return;
        }
        m_consecutiveFailures = 0;
        out.id = a->job.id;
        out.raw = std::move(a->raw);
        if (!m_options.apiKey.isEmpty()) {
            // A server that echoes the key must not get it into the corpus, in any encoding of the reply.
            const std::string key = m_options.apiKey.toStdString();
            bool echoed = redactIn(out.parts.content, key);
            echoed = redactIn(out.parts.reasoning, key) || echoed;
            echoed = redactIn(out.parts.finishReason, key) || echoed;
            if (echoed || replyCarriesKey(std::string_view(out.raw.constData(), static_cast<size_t>(out.raw.size())),
                                          a->job.stream, key)) {
                out.raw = QByteArray::fromStdString(
                    redactedReply(out.parts.content, out.parts.reasoning, out.parts.finishReason));
                qCWarning(lcChat) << "request" << a->job.id << "the endpoint echoed the API key; stored redacted";
            }
        }
        out.retries = a->job.retries;
        out.latencyMs = a->timer.elapsed();
        Q_EMIT replied(out);
    }
    dispatch();
}

void ChatClient::retryLater(Job job, const QString &reason, std::optional<int> retryAfterMs)
{
    if (m_stopped)
        return;
    ++m_consecutiveFailures;
    if (m_consecutiveFailures >= m_options.maxFailures) {
        failFatal(QStringLiteral("the endpoint %1 failed %2 times in a row; last error: %3")
                      .arg(m_url.toDisplayString(QUrl::RemoveUserInfo))
                      .arg(m_consecutiveFailures)
                      .arg(reason));
        return;
    }
    const int delay = backoffDelayMs(m_options.backoff, job.retries, retryAfterMs, m_rng);
    if (retryAfterMs) // the server is overloaded as a whole: hold back every new request, not just this one
        m_pauseUntilMs = std::max(m_pauseUntilMs, m_clock.elapsed() + delay);
    ++job.retries;
    ++m_retriesTotal;
    ++m_waitingRetry;
    qCInfo(lcChat).noquote() << "request" << job.id << "retry" << job.retries << "in" << delay << "ms:" << reason;
    Q_EMIT retrying(job.id, job.retries, reason, delay);
    QTimer::singleShot(delay, this, [this, job = std::move(job)]() mutable {
        --m_waitingRetry;
        if (m_stopped)
            return;
        m_queue.push_front(std::move(job));
        dispatch();
    });
}

void ChatClient::failFatal(const QString &message)
{
    stop();
    Q_EMIT fatal(redact(message));
}

void ChatClient::stop()
{
    m_stopped = true;
    m_dispatchTimer.stop();
    m_limitTimer.stop();
    m_queue.clear();
    auto active = std::move(m_active);
    m_active.clear();
    for (auto &[reply, a] : active) {
        reply->abort(); // its finished() reaches onFinished(), which no longer knows it
        reply->deleteLater();
    }
    std::fill(m_managerLoad.begin(), m_managerLoad.end(), 0);
}

} // namespace sieve::net
