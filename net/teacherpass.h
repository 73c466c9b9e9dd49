#pragma once
// One request per sample to a teacher endpoint, each reply handed to the caller to store: the loop under
// `sieve-cli judge` and `sieve-cli explain`. The client is the sampler's (net/chatclient.h), with its
// concurrency and rate limits, retries with backoff and key redaction; endpoint errors never reach the
// caller, and a run of them ends the pass ('failed'). The caller stores each reply in its own
// transaction as it comes, so a pass that stops (failed, Ctrl-C) has lost only the requests in flight:
// the same command again asks for the samples that have nothing stored yet.
// Request bodies are built only as slots free up, so a pass over a large corpus holds a few in memory.
#include "net/chatclient.h"

#include <QElapsedTimer>
#include <QObject>

#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace sieve::net {

struct TeacherPassProgress
{
    int total = 0;
    int done = 0; // replies stored
    int inFlight = 0;
    int queued = 0;
    quint64 requests = 0; // sent, retries included
    quint64 retries = 0;
};

struct TeacherPassSummary
{
    QString state; // finished | failed | interrupted
    QString error;
    TeacherPassProgress progress;
    double wallSeconds = 0;
};

class TeacherPass final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeacherPass)
public:
    // Both may throw std::exception: the pass then ends 'failed' with its message.
    using BodyFn = std::function<QByteArray(qint64 sampleId)>;
    using StoreFn = std::function<void(qint64 sampleId, const ChatReply &reply)>;
    TeacherPass(ClientOptions client, bool stream, BodyFn body, StoreFn store, QObject *parent = nullptr);
    ~TeacherPass() override;

    // Starts on the event loop; finished() comes later, never from inside start().
    void start(std::vector<qint64> samples);
    void cancel();

Q_SIGNALS:
    void progressChanged(const sieve::net::TeacherPassProgress &progress);
    void notice(const QString &text);
    void finished(const sieve::net::TeacherPassSummary &summary);

private:
    void fill();
    void onReplied(const ChatReply &reply);
    void finish(const QString &state, const QString &error);
    void emitProgress();

    ClientOptions m_options;
    bool m_stream;
    BodyFn m_body;
    StoreFn m_store;
    std::unique_ptr<ChatClient> m_client;
    std::vector<qint64> m_samples;
    std::size_t m_next = 0;
    std::unordered_map<quint64, qint64> m_jobs; // request id -> sample id
    TeacherPassProgress m_progress;
    QElapsedTimer m_wall;
    bool m_finished = false;
    bool m_started = false;
};

} // namespace sieve::net
