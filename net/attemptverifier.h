#pragma once
// How stop-at-first-pass sampling learns whether an attempt passed. The sampler stores a sample, asks
// verify(), and only then decides between the next attempt and the end of the task. Asynchronous so
// that the sampler's event loop keeps other tasks' requests moving while one sample is verified.
#include <QObject>
#include <QString>

namespace sieve::net {

class AttemptVerifier : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    // Verifies the stored sample; answers with exactly one of verified() or failed() for it.
    virtual void verify(qint64 sampleId) = 0;
    // Drops queued work and stops what runs; no signal follows.
    virtual void cancel() = 0;

Q_SIGNALS:
    // `status` is the verifier's (PASS, FAIL_COMPILE, ...). Any status but PASS consumes the attempt.
    void verified(qint64 sampleId, const QString &status);
    // The verifier itself could not give a verdict (it crashed, was missing): the run stops and the
    // sample stays stored and unverified, so a resumed run verifies it instead of asking again.
    void failed(qint64 sampleId, const QString &error);
};

} // namespace sieve::net
