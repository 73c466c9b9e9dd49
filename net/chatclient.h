#pragma once
// A client for OpenAI-compatible `/v1/chat/completions` endpoints (vLLM, SGLang, hosted APIs) over Qt
// Network. It owns the concurrency limit, the rate limit and the retry policy, so callers only submit
// request bodies and receive replies: endpoint errors (429, 5xx, timeouts, resets, malformed or
// truncated bodies) are retried with backoff and never reach the caller; only a run of `maxFailures`
// consecutive errors, or an answer that retrying cannot fix (401, 404, ...), ends in fatal().
//
// The API key goes into the Authorization header and nowhere else: every text this class emits is
// passed through redact() in case a server echoes the header back, and a reply that carries the key in
// any decoding (net/redaction.h) is handed on rebuilt from its decoded text without it.
#include "net/backoff.h"
#include "net/chatwire.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QNetworkRequest>
#include <QObject>
#include <QTimer>
#include <QUrl>

#include <deque>
#include <memory>
#include <random>
#include <unordered_map>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace sieve::net {

struct ClientOptions
{
    QUrl endpoint;          // the base URL (http://host:8000/v1) or the full .../chat/completions URL
    QByteArray apiKey;      // empty: no Authorization header (a local vLLM needs none)
    int concurrency = 8;    // requests in flight at most
    double rate = 0;        // new requests per second at most (0 = unlimited)
    int maxFailures = 8;    // consecutive endpoint errors that end the run
    int timeoutMs = 600000; // no bytes for this long = timeout (a reasoning model may think a while)
    // A whole request, first byte to last, may take this long at most: an endpoint that trickles a byte
    // now and then never trips timeoutMs. 0 = no deadline. Ten minutes: a long reasoning reply streams in
    // a few minutes; a trickle is cut off and retried without holding a request slot for an hour.
    static constexpr int kDefaultDeadlineMs = 600000;
    int deadlineMs = kDefaultDeadlineMs;
    // A reply larger than this is cut off and retried (a runaway or hostile endpoint); Qt buffers at most
    // this much per request, so memory stays bounded by concurrency x maxReplyBytes.
    qint64 maxReplyBytes = qint64(64) << 20;
    BackoffPolicy backoff;
    quint64 seed = 0; // for the jitter; 0 = from the clock
};

struct ChatReply
{
    quint64 id = 0;
    QByteArray raw; // the body as received: one JSON object, or the event-stream text
    ReplyParts parts;
    int retries = 0;      // endpoint errors this request met before it succeeded
    qint64 latencyMs = 0; // of the successful try
};

class ChatClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatClient)
public:
    explicit ChatClient(ClientOptions options, QObject *parent = nullptr);
    ~ChatClient() override;

    // `base` as given by a user: ".../v1" gets "/chat/completions" appended, a full URL is kept.
    static QUrl completionsUrl(const QUrl &base);

    // Queues one request; `body` is the JSON sent as is (it must hold "stream": true when stream).
    void submit(quint64 id, QByteArray body, bool stream);
    // Aborts everything in flight and queued; no signal is emitted afterwards.
    void stop();

    int inFlight() const { return static_cast<int>(m_active.size()); }
    int queued() const { return static_cast<int>(m_queue.size()) + m_waitingRetry; }
    quint64 retriesTotal() const { return m_retriesTotal; }
    quint64 requestsSent() const { return m_requestsSent; }
    int consecutiveFailures() const { return m_consecutiveFailures; }
    QString redact(const QString &text) const;

Q_SIGNALS:
    void replied(const sieve::net::ChatReply &reply);
    void retrying(quint64 id, int retry, const QString &reason, int delayMs);
    void fatal(const QString &message);

private:
    struct Job
    {
        quint64 id = 0;
        QByteArray body;
        bool stream = false;
        int retries = 0;
    };
    struct Active
    {
        Job job;
        QElapsedTimer timer;
        QByteArray raw;
        size_t manager = 0;
        QString abortReason; // set when this client aborted the request (deadline, size cap)
    };
    void dispatch();
    void start(Job job);
    void onFinished(QNetworkReply *reply);
    void retryLater(Job job, const QString &reason, std::optional<int> retryAfterMs);
    void failFatal(const QString &message);
    void enforceLimits();
    QString excerpt(const QByteArray &body) const;

    ClientOptions m_options;
    QUrl m_url;
    QNetworkRequest m_jsonRequest; // built once: a copy per request shares its headers
    QNetworkRequest m_streamRequest;
    std::vector<QNetworkAccessManager *> m_managers;
    std::vector<int> m_managerLoad;
    std::deque<Job> m_queue;
    std::unordered_map<QNetworkReply *, std::unique_ptr<Active>> m_active;
    int m_waitingRetry = 0;
    int m_consecutiveFailures = 0;
    quint64 m_retriesTotal = 0;
    quint64 m_requestsSent = 0;
    bool m_stopped = false;
    QElapsedTimer m_clock;
    qint64 m_pauseUntilMs = 0;
    TokenBucket m_bucket;
    QTimer m_dispatchTimer;
    QTimer m_limitTimer; // checks deadlines and reply sizes of the requests in flight
    std::mt19937_64 m_rng;
};

} // namespace sieve::net
