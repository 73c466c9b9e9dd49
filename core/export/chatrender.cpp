#include "core/export/chatrender.h"

#include "core/util/python.h"

#include <cerrno>
#include <cstring>
#include <signal.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace sieve {

const char *chatRowsName(ChatRows r)
{
    return r == ChatRows::Text ? "text" : "tokens";
}

ChatRenderer::ChatRenderer(const std::string &configPath, const std::string &tokenizerPath, ChatRows rows)
{
    const std::string python = pythonInterpreter({}, "jinja2 and tokenizers");
    const std::string helper = (resourceDir("tools", "SIEVE_TOOLS_DIR") / "sieve_chat_render.py").string();
    // A socket pair, not pipes: a helper that died makes send() fail with EPIPE instead of a SIGPIPE.
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, sv[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, sv[1], STDOUT_FILENO);
    std::vector<std::string> args = {python, "-I", helper, configPath, tokenizerPath, chatRowsName(rows)};
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const int spawned = posix_spawn(&m_pid, python.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(sv[1]);
    m_fd = sv[0];
    if (spawned != 0) {
        close(m_fd);
        throw std::runtime_error("cannot start " + python + ": " + std::strerror(spawned));
    }
    const auto hello = nlohmann::json::parse(readLine(), nullptr, false);
    if (hello.is_discarded() || !hello.is_object() || hello.contains("error") || !hello.value("ok", false)) {
        const std::string why = hello.is_object() && hello.contains("error") && hello["error"].is_string()
                                    ? hello["error"].get<std::string>()
                                    : "the chat renderer " + helper + " did not start";
        stop();
        throw std::runtime_error(why);
    }
    m_description = hello.value("description", std::string());
}

ChatRenderer::~ChatRenderer()
{
    stop();
}

void ChatRenderer::stop()
{
    if (m_fd >= 0) {
        shutdown(m_fd, SHUT_WR); // end of input: the helper exits
        close(m_fd);
        m_fd = -1;
    }
    if (m_pid > 0) {
        int status = 0;
        while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
        m_pid = -1;
    }
}

void ChatRenderer::writeAll(std::string_view data)
{
    while (!data.empty()) {
        const ssize_t n = send(m_fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error(std::string("the chat renderer stopped: ") + std::strerror(errno));
        data.remove_prefix(static_cast<std::size_t>(n));
    }
}

std::string ChatRenderer::readLine()
{
    for (;;) {
        if (const auto nl = m_buffer.find('\n'); nl != std::string::npos) {
            std::string line = m_buffer.substr(0, nl);
            m_buffer.erase(0, nl + 1);
            return line;
        }
        char chunk[65536];
        const ssize_t n = recv(m_fd, chunk, sizeof chunk, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error("the chat renderer (resources/tools/sieve_chat_render.py) exited without an "
                                     "answer; its error is above");
        m_buffer.append(chunk, static_cast<std::size_t>(n));
    }
}

ChatRenderer::Row ChatRenderer::render(std::string_view messagesJson)
{
    std::string request = "{\"messages\":";
    request += messagesJson;
    request += "}\n";
    writeAll(request);
    const auto reply = nlohmann::json::parse(readLine(), nullptr, false);
    if (reply.is_discarded() || !reply.is_object())
        throw std::runtime_error("the chat renderer answered something that is not JSON");
    if (reply.contains("error"))
        throw std::runtime_error(reply["error"].is_string() ? reply["error"].get<std::string>()
                                                            : reply["error"].dump());
    Row row;
    row.tokens = reply.at("tokens").get<std::size_t>();
    row.fields = reply.at("fields").get<std::string>();
    return row;
}

} // namespace sieve
