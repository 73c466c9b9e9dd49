#pragma once
// One verifier worker process (python -m sieve_worker) seen from the engine: started with fork/exec in
// its own process group, spoken to over JSON Lines on pipes that are read without blocking, killed as a
// group. Not thread-safe: one engine thread owns each WorkerProcess.
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace sieve::gpu {

// The verdict channel. The engine makes a key per worker session (32 random bytes, 64 hex digits) and
// sends it in the hello request, on the worker's stdin, never in its environment or argv. The worker
// writes every stdout line as "<tag> <seq> <json>": seq counts lines from 0, tag is HMAC-SHA256 under the
// key of "<seq> <json>" (64 hex digits). A line whose tag or sequence number is wrong did not come from
// the worker's protocol code (a candidate, or something else, wrote it) and is dropped and logged.
std::string newChannelKey();
std::string channelTag(const std::string &keyHex, std::uint64_t seq, std::string_view json);
// The JSON of a tagged line when its tag is right and its seq is `seq` (then incremented); otherwise
// nullopt, with `why` saying what was wrong.
std::optional<std::string> openChannelLine(const std::string &keyHex, std::uint64_t &seq, const std::string &line,
                                           std::string &why);

// A readable account of a waitpid() status: "exited with status 3", "killed by SIGSEGV (segmentation
// fault)". Used in CRASH messages, so a reviewer sees why a worker went away.
std::string describeWaitStatus(int status);
// "SIGKILL" for 9, "signal 77" for unknown numbers.
std::string signalName(int sig);

class WorkerProcess
{
public:
    struct Spec
    {
        std::string python;                      // interpreter
        std::vector<std::string> args;           // after the interpreter: -m sieve_worker ...
        std::map<std::string, std::string> env;  // set on top of the inherited environment
        std::size_t stderrTailBytes = 16 * 1024; // how much of the worker's stderr is kept
        std::string stderrLogPath;               // when set, all of its stderr is appended here
    };

    explicit WorkerProcess(Spec spec);
    ~WorkerProcess(); // kills the group if still running
    WorkerProcess(const WorkerProcess &) = delete;
    WorkerProcess &operator=(const WorkerProcess &) = delete;

    // Throws std::runtime_error when the pipes or fork fail. An exec failure shows up as exit 127.
    void start();
    bool running() const { return m_pid > 0 && !m_exited; }
    pid_t pid() const { return m_pid; }

    // Queues a line (a newline is appended) for the worker's stdin; written as poll() allows.
    void send(const std::string &line);
    // Closes stdin after the queued lines are written (the worker sees EOF).
    void closeInput();

    // Waits up to `timeout` for output, writes pending input, and appends complete stdout lines to
    // `lines`. Returns false once stdout reached EOF and the process has been reaped.
    bool pump(std::chrono::milliseconds timeout, std::vector<std::string> &lines);

    // SIGKILL to the whole process group (the worker and the candidate children it forked), then reap.
    void kill();
    // Asks politely (shutdown message already sent by the caller): waits up to `grace` for exit, then
    // SIGTERM, then SIGKILL to the group.
    void stop(std::chrono::milliseconds grace);

    // Valid once the process has been reaped.
    std::optional<int> waitStatus() const { return m_status; }
    std::string exitDescription() const;
    // The last bytes the worker wrote to stderr (its own log and Python tracebacks).
    std::string stderrTail() const;

private:
    void readFd(int &fd, std::string &buffer, bool isStdout, std::vector<std::string> &lines);
    void flushInput();
    bool reap(bool block);
    void closeFds();

    Spec m_spec;
    pid_t m_pid = -1;
    bool m_exited = false;
    std::optional<int> m_status;
    int m_in = -1, m_out = -1, m_err = -1;
    int m_log = -1;
    std::string m_outBuf;
    std::string m_errTail;
    std::string m_pendingInput;
    bool m_closeInputWhenFlushed = false;
};

} // namespace sieve::gpu
