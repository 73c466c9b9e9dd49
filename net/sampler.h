#pragma once
// The sample–verify–keep loop over one corpus and one teacher endpoint, on the caller's event loop.
//  keep-all:   K samples per task, all requested at once (the client bounds what is in flight), all kept.
//  first-pass: up to N attempts per task, one at a time; each is stored, then verified, and the first
//              PASS ends the task. Tasks run side by side.
// Endpoint errors are the client's business (retried, no attempt consumed). A run is recorded in
// sample_runs under a name; starting the same name again resumes it: stored attempts are skipped,
// unverified ones verified, and attempts that were in flight are asked again under the same number.
#include "core/store/samplestore.h"
#include "net/attemptverifier.h"
#include "net/chatclient.h"

#include <QElapsedTimer>
#include <QObject>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace sieve::net {

enum class SampleMode { KeepAll, FirstPass };

struct SamplerOptions
{
    std::string dbPath;
    ClientOptions client;
    std::string runName; // empty: a new run named after the time
    SampleMode mode = SampleMode::KeepAll;
    int k = 1;         // keep-all: samples per task
    int attempts = 16; // first-pass: attempts per task at most
    std::string model;
    double temperature = 1.0;
    std::optional<int> maxTokens;
    nlohmann::json extra = nlohmann::json::object(); // merged into every request body
    bool stream = false;
    std::vector<std::string> tasks; // task names; empty = all
};

struct SamplerProgress
{
    int tasksTotal = 0;
    int tasksDone = 0;
    int tasksPassed = 0;       // first-pass: tasks with a PASS
    quint64 samplesStored = 0; // in this run, including before a resume
    quint64 storedThisSession = 0;
    int inFlight = 0; // requests on the wire
    int queued = 0;   // waiting for a slot, the rate limit or a retry
    int verifying = 0;
    quint64 requests = 0; // sent this session, retries included
    quint64 retries = 0;
    int failuresInRow = 0;
};

struct SamplerSummary
{
    qint64 runId = 0;
    QString runName;
    QString state; // finished | failed | interrupted
    QString error;
    bool resumed = false;
    SamplerProgress progress;
    double wallSeconds = 0;
};

class Sampler final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Sampler)
public:
    // `verifier` (not owned) is required for first-pass and unused for keep-all.
    Sampler(SamplerOptions options, AttemptVerifier *verifier, QObject *parent = nullptr);
    ~Sampler() override;

    // Opens the corpus and the run, then works on the event loop. Throws std::runtime_error (RunMismatch,
    // db::Error, an unknown task) when the run cannot start; everything later ends in finished().
    void start();
    // Stops now; the run is left 'interrupted' and resumable.
    void cancel();

    const SamplerProgress &progress() const { return m_progress; }
    store::SampleStore *store() { return m_store.get(); }
    // The request body for a task (exposed for tests of key hygiene and parameter passing).
    QByteArray requestBody(const store::TaskRef &task);

Q_SIGNALS:
    void started(qint64 runId, const QString &runName, bool resumed);
    void progressChanged(const sieve::net::SamplerProgress &progress);
    void notice(const QString &text);
    void finished(const sieve::net::SamplerSummary &summary);

private:
    struct Attempt
    {
        qint64 sampleId = 0;
        std::optional<std::string> status;
    };
    struct TaskState
    {
        store::TaskRef ref;
        std::map<int, Attempt> stored;
        QByteArray body;
        bool submitted = false; // keep-all: requests queued
        bool requesting = false;
        bool verifying = false;
        bool done = false;
        bool passed = false;
    };
    void advance(size_t ti);
    void submit(size_t ti, int attempt);
    void markDone(size_t ti, bool passed);
    void onReplied(const ChatReply &reply);
    void onVerified(qint64 sampleId, const QString &status);
    void finish(const QString &state, const QString &error);
    void checkFinished();
    void emitProgress();
    nlohmann::json paramsJson(const std::vector<store::TaskRef> &tasks) const;

    SamplerOptions m_options;
    AttemptVerifier *m_verifier;
    std::unique_ptr<store::SampleStore> m_store;
    std::unique_ptr<ChatClient> m_client;
    store::RunRecord m_run;
    std::vector<TaskState> m_tasks;
    std::unordered_map<quint64, std::pair<size_t, int>> m_jobs;     // request id -> (task, attempt)
    std::unordered_map<qint64, std::pair<size_t, int>> m_verifying; // sample id -> (task, attempt)
    quint64 m_nextJob = 1;
    SamplerProgress m_progress;
    QElapsedTimer m_wall;
    bool m_finished = false;
    bool m_started = false;
};

} // namespace sieve::net
