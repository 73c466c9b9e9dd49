#include "gpu/verify/workerprocess.h"

#include "core/util/hashing.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace sieve::gpu {

namespace {

std::string hexOf(const unsigned char *p, size_t n)
{
    static const char *digits = "0123456789abcdef";
    std::string s(2 * n, '0');
    for (size_t i = 0; i < n; ++i) {
        s[2 * i] = digits[p[i] >> 4];
        s[2 * i + 1] = digits[p[i] & 15];
    }
    return s;
}

std::string bytesOfHex(std::string_view hex)
{
    auto val = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    std::string out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
        const int hi = val(hex[i]), lo = val(hex[i + 1]);
        if (hi < 0 || lo < 0)
            throw std::invalid_argument("not a hex string");
        out.push_back(static_cast<char>(hi * 16 + lo));
    }
    return out;
}

// HMAC-SHA256 (RFC 2104) on the project's SHA-256; the key is shorter than the 64-byte block.
std::string hmacSha256Hex(const std::string &key, std::string_view message)
{
    std::string k = key.size() > 64 ? bytesOfHex(hashing::sha256Hex(key)) : key;
    k.resize(64, '\0');
    std::string ipad(64, '\0'), opad(64, '\0');
    for (size_t i = 0; i < 64; ++i) {
        ipad[i] = static_cast<char>(k[i] ^ 0x36);
        opad[i] = static_cast<char>(k[i] ^ 0x5c);
    }
    hashing::Sha256 inner;
    inner.update(ipad);
    inner.update(message);
    const std::string innerBytes = bytesOfHex(inner.finishHex());
    hashing::Sha256 outer;
    outer.update(opad);
    outer.update(innerBytes);
    return outer.finishHex();
}

bool equalConstantTime(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    unsigned char d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        d |= static_cast<unsigned char>(a[i] ^ b[i]);
    return d == 0;
}

} // namespace

std::string newChannelKey()
{
    unsigned char key[32];
    size_t got = 0;
    while (got < sizeof key) {
        const ssize_t n = ::getrandom(key + got, sizeof key - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
        got += static_cast<size_t>(n);
    }
    return hexOf(key, sizeof key);
}

std::string channelTag(const std::string &keyHex, std::uint64_t seq, std::string_view json)
{
    return hmacSha256Hex(bytesOfHex(keyHex), std::to_string(seq) + " " + std::string(json));
}

std::optional<std::string> openChannelLine(const std::string &keyHex, std::uint64_t &seq, const std::string &line,
                                           std::string &why)
{
    const size_t a = line.find(' ');
    const size_t b = a == std::string::npos ? a : line.find(' ', a + 1);
    if (a != 64 || b == std::string::npos) {
        why = "no channel tag";
        return std::nullopt;
    }
    const std::string_view tag(line.data(), 64);
    const std::string_view seqText(line.data() + a + 1, b - a - 1);
    const std::string_view json(line.data() + b + 1, line.size() - b - 1);
    if (seqText != std::to_string(seq)) {
        why = "sequence number " + std::string(seqText.substr(0, 20)) + " where " + std::to_string(seq) + " was due";
        return std::nullopt;
    }
    if (!equalConstantTime(tag, channelTag(keyHex, seq, json))) {
        why = "wrong channel tag";
        return std::nullopt;
    }
    ++seq;
    return std::string(json);
}

std::string signalName(int sig)
{
    switch (sig) {
    case SIGHUP:
        return "SIGHUP";
    case SIGINT:
        return "SIGINT";
    case SIGQUIT:
        return "SIGQUIT";
    case SIGILL:
        return "SIGILL";
    case SIGTRAP:
        return "SIGTRAP";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGKILL:
        return "SIGKILL";
    case SIGSEGV:
        return "SIGSEGV";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGALRM:
        return "SIGALRM";
    case SIGTERM:
        return "SIGTERM";
    case SIGXCPU:
        return "SIGXCPU";
    case SIGXFSZ:
        return "SIGXFSZ";
    case SIGSYS:
        return "SIGSYS";
    default:
        return "signal " + std::to_string(sig);
    }
}

std::string describeWaitStatus(int status)
{
    if (WIFEXITED(status)) {
        const int code = WEXITSTATUS(status);
        if (code == 127)
            return "exited with status 127 (the interpreter could not be started)";
        return "exited with status " + std::to_string(code);
    }
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        std::string what = "killed by " + signalName(sig);
        if (const char *text = strsignal(sig))
            what += std::string(" (") + text + ")";
        if (sig == SIGKILL)
            what += "; the kernel's out-of-memory killer or a watchdog may have sent it";
        return what;
    }
    return "stopped with wait status " + std::to_string(status);
}

WorkerProcess::WorkerProcess(Spec spec) : m_spec(std::move(spec)) {}

WorkerProcess::~WorkerProcess()
{
    if (m_pid > 0 && !m_exited)
        kill();
    closeFds();
    if (m_log >= 0)
        ::close(m_log);
}

void WorkerProcess::closeFds()
{
    for (int *fd : {&m_in, &m_out, &m_err}) {
        if (*fd >= 0)
            ::close(*fd);
        *fd = -1;
    }
}

void WorkerProcess::start()
{
    if (running())
        throw std::logic_error("worker already running");
    closeFds();
    m_pid = -1;
    m_exited = false;
    m_status.reset();
    m_outBuf.clear();
    m_errTail.clear();
    m_pendingInput.clear();
    m_closeInputWhenFlushed = false;
    if (!m_spec.stderrLogPath.empty() && m_log < 0)
        m_log = ::open(m_spec.stderrLogPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("pipe: ") + strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("pipe: ") + strerror(errno));

    // Everything the child needs is built before fork(): after it only async-signal-safe calls run.
    std::map<std::string, std::string> envMap;
    for (char **e = environ; *e; ++e) {
        const std::string kv = *e;
        const auto eq = kv.find('=');
        if (eq != std::string::npos)
            envMap[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    for (const auto &[k, v] : m_spec.env)
        envMap[k] = v;
    std::vector<std::string> envStore;
    for (const auto &[k, v] : envMap)
        envStore.push_back(k + "=" + v);
    std::vector<char *> envp;
    for (auto &s : envStore)
        envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> argStore{m_spec.python};
    argStore.insert(argStore.end(), m_spec.args.begin(), m_spec.args.end());
    std::vector<char *> argv;
    for (auto &s : argStore)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    const pid_t parent = getpid();

    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error(std::string("fork: ") + strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);
        // If Sieve dies (even by SIGKILL) the worker must not live on holding a GPU.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(126);
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        // The engine ignores SIGPIPE; the worker gets default dispositions back.
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_IGN); // Ctrl-C is for sieve-cli, which then stops the worker itself
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    setpgid(pid, pid); // both sides call it, so the group exists whichever runs first
    m_pid = pid;
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    m_in = in[1];
    m_out = out[0];
    m_err = err[0];
    for (int fd : {m_in, m_out, m_err})
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void WorkerProcess::send(const std::string &line)
{
    m_pendingInput += line;
    m_pendingInput += '\n';
    flushInput();
}

void WorkerProcess::closeInput()
{
    m_closeInputWhenFlushed = true;
    flushInput();
}

void WorkerProcess::flushInput()
{
    while (m_in >= 0 && !m_pendingInput.empty()) {
        const ssize_t n = ::write(m_in, m_pendingInput.data(), m_pendingInput.size());
        if (n > 0) {
            m_pendingInput.erase(0, static_cast<size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        // EPIPE: the worker is gone; its exit is noticed through stdout EOF.
        m_pendingInput.clear();
        break;
    }
    if (m_in >= 0 && m_pendingInput.empty() && m_closeInputWhenFlushed) {
        ::close(m_in);
        m_in = -1;
    }
}

void WorkerProcess::readFd(int &fd, std::string &buffer, bool isStdout, std::vector<std::string> &lines)
{
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n > 0) {
            if (isStdout) {
                buffer.append(chunk, static_cast<size_t>(n));
                size_t start = 0;
                for (size_t nl; (nl = buffer.find('\n', start)) != std::string::npos; start = nl + 1)
                    if (nl > start)
                        lines.emplace_back(buffer, start, nl - start);
                buffer.erase(0, start);
            } else {
                if (m_log >= 0 && ::write(m_log, chunk, static_cast<size_t>(n)) < 0) {
                    ::close(m_log); // a full disk must not stop verification; the tail is still kept
                    m_log = -1;
                }
                m_errTail.append(chunk, static_cast<size_t>(n));
                if (m_errTail.size() > 2 * m_spec.stderrTailBytes)
                    m_errTail.erase(0, m_errTail.size() - m_spec.stderrTailBytes);
            }
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        ::close(fd); // EOF or error
        fd = -1;
        return;
    }
}

bool WorkerProcess::reap(bool block)
{
    if (m_pid <= 0 || m_exited)
        return true;
    int status = 0;
    for (;;) {
        const pid_t r = waitpid(m_pid, &status, block ? 0 : WNOHANG);
        if (r == m_pid) {
            m_exited = true;
            m_status = status;
            return true;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) { // not our child any more (should not happen): treat as gone
            m_exited = true;
            m_status = 0;
            return true;
        }
        return false;
    }
}

bool WorkerProcess::pump(std::chrono::milliseconds timeout, std::vector<std::string> &lines)
{
    if (m_pid <= 0)
        return false;
    pollfd fds[3];
    int n = 0;
    if (m_out >= 0)
        fds[n++] = {m_out, POLLIN, 0};
    if (m_err >= 0)
        fds[n++] = {m_err, POLLIN, 0};
    if (m_in >= 0 && !m_pendingInput.empty())
        fds[n++] = {m_in, POLLOUT, 0};
    if (n > 0) {
        const int r = ::poll(fds, static_cast<nfds_t>(n), static_cast<int>(timeout.count()));
        if (r < 0 && errno != EINTR)
            throw std::runtime_error(std::string("poll: ") + strerror(errno));
    } else {
        std::this_thread::sleep_for(std::min(timeout, std::chrono::milliseconds(20)));
    }
    if (m_err >= 0)
        readFd(m_err, m_errTail, false, lines);
    if (m_out >= 0)
        readFd(m_out, m_outBuf, true, lines);
    flushInput();
    if (m_out < 0) {
        // stdout closed: the worker exited (or closed it, which the protocol does not allow). Drain
        // stderr so that the tail holds its last words, then reap it.
        if (m_err >= 0)
            readFd(m_err, m_errTail, false, lines);
        if (!reap(false)) {
            // Give a process that closed stdout a moment to exit before it counts as broken.
            for (int i = 0; i < 50 && !reap(false); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (!m_exited) {
                ::kill(-m_pid, SIGKILL);
                reap(true);
            }
        }
        if (m_err >= 0)
            readFd(m_err, m_errTail, false, lines);
        closeFds();
        return false;
    }
    return true;
}

void WorkerProcess::kill()
{
    if (m_pid <= 0 || m_exited)
        return;
    ::kill(-m_pid, SIGKILL);
    ::kill(m_pid, SIGKILL); // in case setpgid lost a race with exec
    reap(true);
    std::vector<std::string> ignored;
    if (m_err >= 0)
        readFd(m_err, m_errTail, false, ignored);
    closeFds();
}

void WorkerProcess::stop(std::chrono::milliseconds grace)
{
    if (m_pid <= 0 || m_exited)
        return;
    closeInput();
    const auto deadline = std::chrono::steady_clock::now() + grace;
    std::vector<std::string> ignored;
    while (std::chrono::steady_clock::now() < deadline) {
        if (!pump(std::chrono::milliseconds(50), ignored))
            break;
        ignored.clear();
        if (reap(false))
            break;
    }
    if (!m_exited) {
        ::kill(-m_pid, SIGTERM);
        for (int i = 0; i < 25 && !reap(false); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!m_exited)
        kill();
    else
        ::kill(-m_pid, SIGKILL); // candidate children left in the group
    closeFds();
}

std::string WorkerProcess::exitDescription() const
{
    if (!m_status)
        return m_pid > 0 ? "still running" : "never started";
    return describeWaitStatus(*m_status);
}

std::string WorkerProcess::stderrTail() const
{
    if (m_errTail.size() <= m_spec.stderrTailBytes)
        return m_errTail;
    return m_errTail.substr(m_errTail.size() - m_spec.stderrTailBytes);
}

} // namespace sieve::gpu
