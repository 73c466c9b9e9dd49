#pragma once
// An OpenAI-compatible chat-completions server for the tests and the benchmark: HTTP/1.1 keep-alive on
// 127.0.0.1, JSON replies or server-sent events (chunked, `data:` lines with deltas and `[DONE]`), and
// fault injection from a script: each request takes the next action of the script; when the script is
// empty it is answered normally.
#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>

#include <deque>
#include <functional>
#include <map>

class QTcpSocket;

namespace sieve::test {

struct FakeAction
{
    enum Kind {
        Ok,           // a normal reply (streamed when the request asked for it)
        Status,       // HTTP `status` with `body` (and Retry-After when retryAfter is set)
        Reset,        // start a 200 reply, then reset the connection mid-body
        Truncated,    // 200 whose JSON is cut in half (Content-Length matches what is sent)
        CutStream,    // a streamed reply that stops mid-way (no [DONE], no finish_reason)
        Slow,         // a normal reply after delayMs
        EchoAuth,     // 500 whose body repeats the request's Authorization header (a hostile server)
        SlowLoris,    // 200 headers, then one byte of a valid reply every delayMs (never trips an idle timeout)
        Huge,         // 200 whose JSON body is `status` MiB (a runaway endpoint)
        Garbage,      // 200 with a body that is not JSON at all
        NoDoneStream, // a streamed reply that ends with finish_reason but without `data: [DONE]`
        EchoKey,      // a normal reply whose content carries the request's key, encoded as `body` says:
                      // literal | escaped (\uXXXX) | split (across stream deltas) | field (in "model") |
                      // deflate (Content-Encoding: deflate; a non-streamed body only)
    };
    Kind kind = Ok;
    int status = 200;
    QByteArray body;
    QByteArray retryAfter;
    int delayMs = 0;
};

struct FakeRequest
{
    qint64 atMs = 0;
    QByteArray path;
    QByteArray authorization;
    QByteArray body;
    FakeAction::Kind answeredWith = FakeAction::Ok;
};

class FakeServer final : public QObject
{
    Q_OBJECT
public:
    explicit FakeServer(QObject *parent = nullptr);
    ~FakeServer() override;
    // Listens on 127.0.0.1 (port 0 = any free port); returns the port, or 0.
    quint16 listen(quint16 port = 0);
    QByteArray baseUrl() const; // http://127.0.0.1:PORT/v1

    void script(std::deque<FakeAction> actions) { m_script = std::move(actions); }
    void push(FakeAction a) { m_script.push_back(std::move(a)); }
    // Produces the assistant's content for the n-th normal reply (0-based); default: a ModelNew block.
    void setContent(std::function<QByteArray(const QByteArray &requestBody, int n)> f) { m_content = std::move(f); }
    void setReasoning(QByteArray r) { m_reasoning = std::move(r); }
    // Every normal reply waits this long (the benchmark's "model time").
    void setLatencyMs(int ms) { m_latencyMs = ms; }
    // Keep request records (tests); the benchmark turns this off.
    void setRecording(bool on) { m_recording = on; }

    const QList<FakeRequest> &requests() const { return m_requests; }
    int answered() const { return m_answered; }
    int maxConcurrent() const { return m_maxConcurrent; }
    quint64 received() const { return m_received; }

private:
    struct Conn
    {
        QByteArray buffer;
    };
    void onReadyRead(QTcpSocket *s);
    void handle(QTcpSocket *s, const QByteArray &path, const QByteArray &auth, const QByteArray &body);
    void answerOk(QTcpSocket *s, const QByteArray &body, bool stream, const QByteArray &key = {},
                  const QByteArray &keyEncoding = {});
    void trickle(QPointer<QTcpSocket> s, QByteArray rest, int delayMs);
    void respond(QTcpSocket *s, int status, const QByteArray &body, const QByteArray &extraHeaders = {});
    void done();

    QTcpServer m_server;
    std::deque<FakeAction> m_script;
    std::function<QByteArray(const QByteArray &, int)> m_content;
    QByteArray m_reasoning = "Let me think about the kernel.";
    QList<FakeRequest> m_requests;
    std::map<QTcpSocket *, Conn> m_conns;
    QElapsedTimer m_clock;
    int m_latencyMs = 0;
    bool m_recording = true;
    int m_answered = 0;
    int m_okCount = 0;
    int m_concurrent = 0;
    int m_maxConcurrent = 0;
    quint64 m_received = 0;
};

} // namespace sieve::test
