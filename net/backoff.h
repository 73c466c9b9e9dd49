#pragma once
// Retry timing for endpoint errors: exponential backoff with jitter (so that many clients that failed
// together do not retry together), never shorter than what the server asked for with Retry-After.
#include <QByteArray>
#include <QDateTime>

#include <optional>
#include <random>

namespace sieve::net {

struct BackoffPolicy
{
    int baseMs = 1000;
    int capMs = 60000;
    int retryAfterCapMs = 600000; // a server asking for more than this is answered with this
};

// Delay before retry number `retry` (0 = first retry): half of min(cap, base*2^retry) plus a uniform
// random share of the other half ("equal jitter"), so it grows but is never zero. When the server sent
// Retry-After, the delay is at least that (capped by retryAfterCapMs).
int backoffDelayMs(const BackoffPolicy &policy, int retry, std::optional<int> retryAfterMs, std::mt19937_64 &rng);

// Retry-After is either delta-seconds or an HTTP-date (RFC 9110 10.2.3). nullopt when absent or unreadable.
std::optional<int> parseRetryAfterMs(const QByteArray &value, const QDateTime &now);

// A token bucket: `rate` requests per second with bursts of up to max(1, rate). rate <= 0: unlimited.
class TokenBucket
{
public:
    explicit TokenBucket(double rate = 0);
    // Takes a token when one is available at `nowMs` (a monotonic clock).
    bool tryTake(qint64 nowMs);
    // Milliseconds until the next token (0 when one is available now).
    qint64 msUntilNext(qint64 nowMs);

private:
    void refill(qint64 nowMs);
    double m_rate;
    double m_capacity;
    double m_tokens;
    qint64 m_lastMs = -1;
};

} // namespace sieve::net
