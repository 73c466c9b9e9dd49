#include "gpu/verify/referencechecker.h"

#include "gpu/verify/pythonenv.h"
#include "gpu/verify/workerprocess.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace sieve::gpu {

namespace fs = std::filesystem;

ReferenceChecker::ReferenceChecker(const std::string &device, int timeoutSeconds) : m_timeout(timeoutSeconds)
{
    const PythonEnv py = findPythonEnv();
    WorkerProcess::Spec spec;
    spec.python = py.python;
    spec.args = {"-m", "sieve_worker", "--device", device, "--parallel", "1"};
    const char *pp = std::getenv("PYTHONPATH");
    spec.env["PYTHONPATH"] = py.workerDir + (pp && *pp ? ":" + std::string(pp) : "");
    spec.env["PYTHONUNBUFFERED"] = "1";
    if (device == "cpu")
        spec.env["TRITON_INTERPRET"] = "1";
    const char *xdg = std::getenv("XDG_CACHE_HOME");
    const char *home = std::getenv("HOME");
    const std::string cache =
        std::string(xdg && *xdg ? xdg : (home && *home ? std::string(home) + "/.cache" : "/tmp")) + "/sieve/verify";
    fs::create_directories(cache);
    m_scratch = (fs::temp_directory_path() / "sieve-augment-XXXXXX").string();
    if (!mkdtemp(m_scratch.data()))
        throw std::runtime_error("cannot create a scratch folder under " + fs::temp_directory_path().string());
    m_worker = std::make_unique<WorkerProcess>(std::move(spec));
    m_worker->start();
    m_worker->send(nlohmann::json{{"op", "hello"}, {"cache_dir", cache}, {"scratch_root", m_scratch}}.dump());
    const nlohmann::json hello = waitFor("hello", "", 120);
    m_env = hello.value("env", nlohmann::json::object());
}

ReferenceChecker::~ReferenceChecker()
{
    if (m_worker && m_worker->running()) {
        m_worker->send(R"({"op":"shutdown"})");
        m_worker->closeInput();
        m_worker->stop(std::chrono::seconds(5));
    }
    std::error_code ec;
    fs::remove_all(m_scratch, ec);
}

std::string ReferenceChecker::check(const VariantTask &t)
{
    nlohmann::json msg = {{"op", "task"},
                          {"task_key", t.key},
                          {"name", t.name},
                          {"dtype", t.dtype},
                          {"seeds", {0, 1, 2}},
                          {"reference_timeout", m_timeout},
                          {"reference_code", t.referenceCode},
                          {"init_inputs_style", "kernelbench"}};
    if (t.atol)
        msg["atol"] = *t.atol;
    if (t.rtol)
        msg["rtol"] = *t.rtol;
    msg["shapes"] = t.shapesJson ? nlohmann::json::parse(*t.shapesJson) : nlohmann::json::array();
    m_worker->send(msg.dump());
    const nlohmann::json ready = waitFor("task_ready", t.key, m_timeout + 60);
    const bool ok = ready.value("ok", false);
    std::string why;
    for (const auto &h : ready.value("hygiene", nlohmann::json::array()))
        if (!ok || h.value("code", std::string()) == "REF_TOO_LARGE")
            why += (why.empty() ? "" : "; ") + h.value("code", std::string("?")) + ": " +
                   h.value("message", std::string());
    // On the CPU every shape scaled down for the interpreter is listed in dropped_shapes too, though it
    // was checked (at its smaller size): what counts is whether any shape was kept.
    const auto dropped = ready.value("dropped_shapes", nlohmann::json::array());
    if (ok && ready.value("shapes", nlohmann::json::array()).empty())
        why = "every shape was dropped: " + dropped.dump();
    if (!ok && why.empty())
        why = "the worker rejected the reference";
    return why;
}

nlohmann::json ReferenceChecker::waitFor(const std::string &op, const std::string &key, int seconds)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        std::vector<std::string> lines;
        const bool alive = m_worker->pump(std::chrono::milliseconds(200), lines);
        for (const std::string &line : lines) {
            const auto j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_object() && j.value("op", std::string()) == op &&
                (key.empty() || j.value("task_key", std::string()) == key))
                return j;
        }
        if (!alive)
            throw std::runtime_error("the verifier worker " + m_worker->exitDescription() + ": " +
                                     m_worker->stderrTail());
    }
    m_worker->kill();
    throw std::runtime_error("the verifier worker sent no '" + op + "' within " + std::to_string(seconds) + " s");
}

} // namespace sieve::gpu
