#include "net/backoff.h"

#include <algorithm>
#include <cmath>

namespace sieve::net {

int backoffDelayMs(const BackoffPolicy &policy, int retry, std::optional<int> retryAfterMs, std::mt19937_64 &rng)
{
    const double exp = std::min<double>(policy.capMs, policy.baseMs * std::pow(2.0, std::min(retry, 30)));
    std::uniform_real_distribution<double> share(0.0, 1.0);
    int delay = static_cast<int>(exp / 2 + share(rng) * exp / 2);
    if (retryAfterMs)
        delay = std::max(delay, std::min(*retryAfterMs, policy.retryAfterCapMs));
    return std::max(delay, 0);
}

std::optional<int> parseRetryAfterMs(const QByteArray &value, const QDateTime &now)
{
    const QByteArray v = value.trimmed();
    if (v.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double seconds = v.toDouble(&ok);
    if (ok)
        return seconds < 0 ? std::nullopt : std::optional<int>(static_cast<int>(std::min(seconds, 1e6) * 1000));
    // HTTP-date, e.g. "Sun, 06 Nov 1994 08:49:37 GMT"; RFC 2822 parsing accepts that form.
    QString date = QString::fromLatin1(v);
    if (date.endsWith(QLatin1String(" GMT"))) // Qt 6.4's RFC 2822 parser wants a numeric zone
        date = date.left(date.size() - 4) + QLatin1String(" +0000");
    const QDateTime at = QDateTime::fromString(date, Qt::RFC2822Date);
    if (!at.isValid())
        return std::nullopt;
    const qint64 ms = now.msecsTo(at);
    return static_cast<int>(std::clamp<qint64>(ms, 0, 1000000000));
}

TokenBucket::TokenBucket(double rate) : m_rate(rate), m_capacity(std::max(1.0, rate)), m_tokens(m_capacity) {}

void TokenBucket::refill(qint64 nowMs)
{
    if (m_lastMs >= 0 && nowMs > m_lastMs)
        m_tokens = std::min(m_capacity, m_tokens + (nowMs - m_lastMs) * m_rate / 1000.0);
    if (nowMs > m_lastMs)
        m_lastMs = nowMs;
}

bool TokenBucket::tryTake(qint64 nowMs)
{
    if (m_rate <= 0)
        return true;
    refill(nowMs);
    if (m_tokens < 1.0)
        return false;
    m_tokens -= 1.0;
    return true;
}

qint64 TokenBucket::msUntilNext(qint64 nowMs)
{
    if (m_rate <= 0)
        return 0;
    refill(nowMs);
    if (m_tokens >= 1.0)
        return 0;
    return static_cast<qint64>(std::ceil((1.0 - m_tokens) * 1000.0 / m_rate));
}

} // namespace sieve::net
