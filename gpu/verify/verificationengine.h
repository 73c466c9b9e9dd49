#pragma once
// The verification engine: takes samples from the corpus, runs them through worker processes (one per
// GPU, or one for the CPU interpreter) and writes verdicts back through one writer thread. Plain C++ and
// std::thread so that sieve-cli and the GUI (from a background thread, through VerifyObserver) share it.
//
// Candidate code never runs in this process: workers fork a sandboxed child per sample. The engine's
// own defences are against the workers: a worker that dies is a harness fault, so its in-flight samples
// run again on a fresh worker, alone (a sample in flight at three deaths is CRASH, with each death as the
// evidence); one that stops answering is killed as a process group by a per-sample watchdog (its sample runs
// again alone, TIMEOUT only at the third); a sample the worker says the harness failed gets no verdict and stays
// PENDING (RunSummary::leftPending); cancel() kills them all and leaves the run resumable.
#include "gpu/verify/verifytypes.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <sys/types.h>
#include <vector>

namespace sieve::gpu {

class VerificationEngine
{
public:
    explicit VerificationEngine(VerifyOptions options);
    ~VerificationEngine();
    VerificationEngine(const VerificationEngine &) = delete;
    VerificationEngine &operator=(const VerificationEngine &) = delete;

    // Not owned; must outlive run(). Events arrive on the engine's threads.
    void setObserver(VerifyObserver *observer) { m_observer = observer; }
    // Polled about ten times a second during run(); true stops the run like cancel() (sieve-cli passes
    // cli::interrupted).
    void setStopCheck(std::function<bool()> check) { m_stopCheck = std::move(check); }

    // Creates (or resumes) the run, verifies its samples, and returns when all are done or the run was
    // cancelled. When the selection holds nothing to verify no run is created (state 'empty', runId 0). Blocks the
    // calling thread. Throws std::runtime_error when the run cannot start (no corpus, no interpreter); later failures
    // end up in RunSummary::error with state 'interrupted'.
    RunSummary run();

    // Serve mode (VerifyOptions::serve), thread-safe, before or during run(): queues a sample, and ends
    // the input (run() returns once what was queued is verified).
    void submit(std::int64_t sampleId, std::int64_t taskId);
    void closeInput();

    // Thread-safe; run() returns soon after, with state 'interrupted'.
    void cancel() { m_cancel.store(true); }
    bool cancelled() const { return m_cancel.load(); }

    // The worker processes now running (tests kill them to prove the engine survives).
    std::vector<pid_t> workerPids() const;

private:
    class Slot;
    friend class Slot;
    struct Shared;

    VerifyOptions m_options;
    VerifyObserver *m_observer = nullptr;
    std::function<bool()> m_stopCheck;
    std::atomic<bool> m_cancel{false};
    std::unique_ptr<Shared> m_shared;
    mutable std::mutex m_pidMutex;
    std::vector<pid_t> m_pids;
    // Serve mode: samples submitted and not yet moved to the run's queue.
    std::mutex m_feedMutex;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_feed;
    bool m_inputClosed = false;
    bool waitingForInput(); // serve mode with the input still open
    void drainFeed();
};

} // namespace sieve::gpu
