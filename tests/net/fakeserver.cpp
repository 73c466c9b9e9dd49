#include "tests/net/fakeserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

namespace sieve::test {

namespace {
QByteArray defaultContent(int n)
{
    return "Here is the kernel.\n\n```python\nimport torch\nimport triton\nimport triton.language as tl\n\n"
           "@triton.jit\ndef k(x_ptr, n):\n    pass\n\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n"
           "        return x  # reply " +
           QByteArray::number(n) + "\n```\n";
}

QByteArray statusText(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

QByteArray chunk(const QByteArray &data)
{
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}
} // namespace

FakeServer::FakeServer(QObject *parent) : QObject(parent)
{
    m_clock.start();
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *s = m_server.nextPendingConnection()) {
            m_conns[s] = Conn{};
            connect(s, &QTcpSocket::readyRead, this, [this, s] { onReadyRead(s); });
            connect(s, &QTcpSocket::disconnected, this, [this, s] {
                m_conns.erase(s);
                s->deleteLater();
            });
        }
    });
}

FakeServer::~FakeServer()
{
    // Sockets die with m_server, after the other members: they must not reach back into m_conns.
    for (auto &[s, c] : m_conns) {
        disconnect(s, nullptr, this, nullptr);
        s->abort();
    }
    m_conns.clear();
    m_server.close();
}

quint16 FakeServer::listen(quint16 port)
{
    m_server.setMaxPendingConnections(1024);
    if (!m_server.listen(QHostAddress::LocalHost, port))
        return 0;
    return m_server.serverPort();
}

QByteArray FakeServer::baseUrl() const
{
    return "http://127.0.0.1:" + QByteArray::number(m_server.serverPort()) + "/v1";
}

void FakeServer::onReadyRead(QTcpSocket *s)
{
    auto it = m_conns.find(s);
    if (it == m_conns.end())
        return;
    QByteArray &buf = it->second.buffer;
    buf += s->readAll();
    for (;;) {
        const int headerEnd = buf.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        const QList<QByteArray> lines = buf.left(headerEnd).split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        qsizetype length = 0;
        QByteArray auth;
        for (int i = 1; i < lines.size(); ++i) {
            const QByteArray l = lines[i].trimmed();
            const int colon = l.indexOf(':');
            if (colon < 0)
                continue;
            const QByteArray name = l.left(colon).trimmed().toLower();
            const QByteArray value = l.mid(colon + 1).trimmed();
            if (name == "content-length")
                length = value.toLongLong();
            else if (name == "authorization")
                auth = value;
        }
        if (buf.size() < headerEnd + 4 + length)
            return;
        const QByteArray body = buf.mid(headerEnd + 4, length);
        buf.remove(0, headerEnd + 4 + length);
        handle(s, requestLine.value(1), auth, body);
        if (!m_conns.count(s))
            return;
    }
}

void FakeServer::handle(QTcpSocket *s, const QByteArray &path, const QByteArray &auth, const QByteArray &body)
{
    ++m_received;
    ++m_concurrent;
    m_maxConcurrent = std::max(m_maxConcurrent, m_concurrent);
    FakeAction a;
    if (!m_script.empty()) {
        a = m_script.front();
        m_script.pop_front();
    }
    if (m_recording)
        m_requests.push_back(FakeRequest{m_clock.elapsed(), path, auth, body, a.kind});
    const bool stream = body.contains("\"stream\":true");
    if (path != "/v1/chat/completions") {
        respond(s, 404, R"({"error":{"message":"no such route"}})");
        return;
    }
    switch (a.kind) {
    case FakeAction::Ok:
        if (m_latencyMs > 0) {
            QPointer<QTcpSocket> p(s);
            QTimer::singleShot(m_latencyMs, this, [this, p, body, stream] {
                if (p)
                    answerOk(p, body, stream);
                else
                    done();
            });
        } else {
            answerOk(s, body, stream);
        }
        return;
    case FakeAction::Slow: {
        QPointer<QTcpSocket> p(s);
        QTimer::singleShot(a.delayMs, this, [this, p, body, stream] {
            if (p && p->state() == QAbstractSocket::ConnectedState)
                answerOk(p, body, stream);
            else
                done();
        });
        return;
    }
    case FakeAction::Status:
        respond(s, a.status, a.body.isEmpty() ? QByteArray(R"({"error":{"message":"injected"}})") : a.body,
                a.retryAfter.isEmpty() ? QByteArray() : "Retry-After: " + a.retryAfter + "\r\n");
        return;
    case FakeAction::Reset:
        // A reply already under way cannot be resent by Qt's HTTP layer (a connection closed before
        // any reply byte can be, silently), so the client itself has to see and retry this one.
        s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"id\":\"x\",");
        s->flush();
        done();
        s->abort();
        return;
    case FakeAction::Truncated: {
        const QByteArray cut =
            R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"```python\nclass ModelNew)";
        respond(s, 200, cut);
        return;
    }
    case FakeAction::CutStream: {
        QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
        head += chunk(R"(data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"```python\nclass Mod"}}]})"
                      "\n\n");
        s->write(head);
        s->flush();
        done();
        s->disconnectFromHost();
        return;
    }
    case FakeAction::EchoAuth:
        respond(s, 500, "{\"error\":{\"message\":\"bad header: " + auth + "\"}}");
        return;
    case FakeAction::SlowLoris: {
        const QByteArray reply =
            R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"slow"},"finish_reason":"stop"}]})";
        s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                 QByteArray::number(reply.size()) + "\r\n\r\n");
        done();
        trickle(QPointer<QTcpSocket>(s), reply, a.delayMs > 0 ? a.delayMs : 1000);
        return;
    }
    case FakeAction::Huge: {
        // Written in pieces as the socket drains, so the server itself does not hold the whole body.
        const qint64 total = qint64(a.status) << 20;
        const QByteArray head = "{\"choices\":[{\"message\":{\"content\":\"";
        const QByteArray tail = "\"}}]}";
        s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(total) +
                 "\r\n\r\n" + head);
        done();
        auto left = std::make_shared<qint64>(total - head.size() - tail.size());
        QPointer<QTcpSocket> p(s);
        auto pump = std::make_shared<std::function<void()>>();
        *pump = [p, left, tail] {
            if (!p || p->state() != QAbstractSocket::ConnectedState)
                return;
            while (*left > 0 && p->bytesToWrite() < (4 << 20)) {
                const qint64 n = std::min<qint64>(*left, 1 << 20);
                p->write(QByteArray(n, 'x'));
                *left -= n;
            }
            if (*left == 0) {
                p->write(tail);
                *left = -1;
            }
        };
        connect(s, &QTcpSocket::bytesWritten, this, [pump](qint64) { (*pump)(); });
        (*pump)();
        return;
    }
    case FakeAction::Garbage:
        respond(s, 200, "<html><body>502 proxy error \xff\xfe</body></html>");
        return;
    case FakeAction::NoDoneStream:
    case FakeAction::EchoKey:
        answerOk(s, body, stream || a.kind == FakeAction::NoDoneStream, auth.mid(7),
                 a.kind == FakeAction::NoDoneStream ? QByteArray("nodone") : a.body);
        return;
    }
}

void FakeServer::trickle(QPointer<QTcpSocket> s, QByteArray rest, int delayMs)
{
    if (!s || s->state() != QAbstractSocket::ConnectedState || rest.isEmpty())
        return;
    s->write(rest.left(1));
    s->flush();
    QTimer::singleShot(delayMs, this, [this, s, rest = rest.mid(1), delayMs] { trickle(s, rest, delayMs); });
}

namespace {
// `text` with every character of `key` written as a \uXXXX escape inside JSON (a valid encoding of the
// same string that a byte search for the key misses).
QByteArray escapeKey(QByteArray json, const QByteArray &key)
{
    QByteArray esc;
    for (char c : key)
        esc += "\\u" + QByteArray::number(static_cast<unsigned char>(c), 16).rightJustified(4, '0');
    return json.replace(key, esc);
}
} // namespace

void FakeServer::answerOk(QTcpSocket *s, const QByteArray &body, bool stream, const QByteArray &key,
                          const QByteArray &keyEncoding)
{
    QByteArray content = m_content ? m_content(body, m_okCount) : defaultContent(m_okCount);
    ++m_okCount;
    QString model = QJsonDocument::fromJson(body).object().value(QStringLiteral("model")).toString();
    const bool echo = !key.isEmpty() && keyEncoding != "nodone";
    if (echo && keyEncoding == "field")
        model = QString::fromUtf8("m " + key);
    else if (echo)
        content += "\nYour header was " + key + " (echoed)\n";
    if (!stream) {
        QJsonObject msg{{QStringLiteral("role"), QStringLiteral("assistant")},
                        {QStringLiteral("content"), QString::fromUtf8(content)},
                        {QStringLiteral("reasoning_content"), QString::fromUtf8(m_reasoning)}};
        QJsonObject reply{{QStringLiteral("id"), QStringLiteral("chatcmpl-%1").arg(m_okCount)},
                          {QStringLiteral("object"), QStringLiteral("chat.completion")},
                          {QStringLiteral("model"), model},
                          {QStringLiteral("choices"),
                           QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                  {QStringLiteral("message"), msg},
                                                  {QStringLiteral("finish_reason"), QStringLiteral("stop")}}}},
                          {QStringLiteral("usage"), QJsonObject{{QStringLiteral("completion_tokens"), 42}}}};
        QByteArray json = QJsonDocument(reply).toJson(QJsonDocument::Compact);
        if (echo && keyEncoding == "escaped")
            json = escapeKey(json, key);
        if (echo && keyEncoding == "deflate") {
            const QByteArray z = qCompress(json).mid(4); // zlib stream without Qt's length prefix
            s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: deflate\r\n"
                     "Content-Length: " +
                     QByteArray::number(z.size()) + "\r\n\r\n" + z);
            done();
            return;
        }
        respond(s, 200, json);
        return;
    }
    auto event = [&](const QJsonObject &delta, const QJsonValue &finish) {
        QJsonObject o{{QStringLiteral("id"), QStringLiteral("chatcmpl-%1").arg(m_okCount)},
                      {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                      {QStringLiteral("model"), model},
                      {QStringLiteral("choices"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                                         {QStringLiteral("delta"), delta},
                                                                         {QStringLiteral("finish_reason"), finish}}}}};
        QByteArray json = QJsonDocument(o).toJson(QJsonDocument::Compact);
        if (echo && keyEncoding == "escaped")
            json = escapeKey(json, key);
        return chunk("data: " + json + "\n\n");
    };
    QByteArray out = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n";
    out += event(QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")}}, QJsonValue::Null);
    // Split reasoning and content into several deltas, as a real server does token by token. An echoed
    // key is cut in two at its middle, so that no single event carries it.
    for (qsizetype i = 0; i < m_reasoning.size(); i += 7)
        out += event(QJsonObject{{QStringLiteral("reasoning_content"), QString::fromUtf8(m_reasoning.mid(i, 7))}},
                     QJsonValue::Null);
    const qsizetype keyAt = echo ? content.indexOf(key) : -1;
    std::vector<qsizetype> cuts;
    for (qsizetype i = 0; i < content.size(); i += 16)
        if (keyAt < 0 || i <= keyAt || i >= keyAt + key.size())
            cuts.push_back(i);
    if (keyAt >= 0)
        cuts.push_back(keyAt + key.size() / 2);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (size_t c = 0; c < cuts.size(); ++c) {
        const qsizetype end = c + 1 < cuts.size() ? cuts[c + 1] : content.size();
        out += event(QJsonObject{{QStringLiteral("content"), QString::fromUtf8(content.mid(cuts[c], end - cuts[c]))}},
                     QJsonValue::Null);
    }
    out += event(QJsonObject{}, QStringLiteral("stop"));
    if (keyEncoding != "nodone")
        out += chunk(": keep-alive comment\n\ndata: [DONE]\n\n");
    out += "0\r\n\r\n";
    s->write(out);
    done();
}

void FakeServer::respond(QTcpSocket *s, int status, const QByteArray &body, const QByteArray &extraHeaders)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + " " + statusText(status) +
                     "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
                     "\r\n" + extraHeaders + "\r\n" + body;
    s->write(out);
    done();
}

void FakeServer::done()
{
    --m_concurrent;
    ++m_answered;
}

} // namespace sieve::test
