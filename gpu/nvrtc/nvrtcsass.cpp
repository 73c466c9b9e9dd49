#include "gpu/nvrtc/nvrtcsass.h"

#include "gpu/verify/pythonenv.h"

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace fs = std::filesystem;

namespace sieve::gpu {

namespace {

std::string onPath(const std::string &tool)
{
    std::vector<std::string> dirs;
    if (const char *path = std::getenv("PATH")) {
        std::string p = path;
        for (std::size_t start = 0, end; start <= p.size(); start = end + 1) {
            end = p.find(':', start);
            if (end == std::string::npos)
                end = p.size();
            if (end > start)
                dirs.push_back(p.substr(start, end - start));
        }
    }
    for (const char *var : {"SIEVE_CUDA_HOME", "CUDA_HOME", "CUDA_PATH"})
        if (const char *v = std::getenv(var); v && *v)
            dirs.push_back(std::string(v) + "/bin");
#ifdef SIEVE_CUDA_TOOLKIT_ROOT
    dirs.emplace_back(SIEVE_CUDA_TOOLKIT_ROOT "/bin");
#endif
    dirs.emplace_back("/usr/local/cuda/bin");
    // Triton's wheel ships nvdisasm and cuobjdump: the verifier's own Python environment has them even
    // where the CUDA toolkit's binary utilities are not installed.
    std::vector<fs::path> venvs{defaultVenvDir()};
    if (const char *v = std::getenv("SIEVE_VENV"); v && *v)
        venvs.insert(venvs.begin(), v);
    if (const char *py = std::getenv("SIEVE_PYTHON"); py && *py)
        venvs.insert(venvs.begin(), fs::path(py).parent_path().parent_path());
    std::error_code ec;
    for (const auto &venv : venvs)
        for (const auto &lib : fs::directory_iterator(venv / "lib", ec))
            if (lib.path().filename().string().rfind("python", 0) == 0)
                dirs.push_back((lib.path() / "site-packages/triton/backends/nvidia/bin").string());
    for (const auto &d : dirs) {
        const fs::path candidate = fs::path(d) / tool;
        if (access(candidate.c_str(), X_OK) == 0)
            return candidate.string();
    }
    return {};
}

} // namespace

std::string findDisassembler()
{
    if (auto p = onPath("nvdisasm"); !p.empty())
        return p;
    return onPath("cuobjdump");
}

std::optional<std::string> disassemble(const std::string &cubin, std::string *why)
{
    const std::string tool = findDisassembler();
    if (tool.empty()) {
        if (why)
            *why = "no SASS: neither nvdisasm nor cuobjdump was found (install the CUDA toolkit's binary utilities, or "
                   "triton in the verifier's Python environment)";
        return std::nullopt;
    }
    char dir[] = "/tmp/sieve-sass-XXXXXX";
    if (!mkdtemp(dir)) {
        if (why)
            *why = "no SASS: cannot create a temporary folder";
        return std::nullopt;
    }
    const std::string cubinPath = std::string(dir) + "/kernel.cubin";
    const std::string outPath = std::string(dir) + "/sass.txt";
    std::ofstream(cubinPath, std::ios::binary).write(cubin.data(), static_cast<std::streamsize>(cubin.size()));

    const bool nvdisasm = fs::path(tool).filename() == "nvdisasm";
    std::vector<std::string> args{tool};
    if (nvdisasm)
        args.insert(args.end(), {"-c", "-g", cubinPath});
    else
        args.insert(args.end(), {"-sass", cubinPath});
    std::vector<char *> argv;
    for (auto &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, tool.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (spawned == 0)
        waitpid(pid, &status, 0);
    std::ifstream in(outPath);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (why)
            *why = "no SASS: " + tool + " failed: " + text.substr(0, 500);
        return std::nullopt;
    }
    return text;
}

} // namespace sieve::gpu
