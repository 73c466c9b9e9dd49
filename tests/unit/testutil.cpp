#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace sieve::test {

TempDir::TempDir()
{
    std::random_device rd;
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : std::string("sieve");
    for (char &c : name)
        if (!isalnum(static_cast<unsigned char>(c)) && c != '.')
            c = '_';
    m_path = std::filesystem::temp_directory_path() / ("sieve-test-" + name + "-" + std::to_string(rd()));
    std::filesystem::create_directories(m_path);
}

TempDir::~TempDir()
{
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

ProcessResult runCli(const std::vector<std::string> &args, const std::string &stdinText)
{
    std::vector<std::string> command{SIEVE_CLI_PATH};
    command.insert(command.end(), args.begin(), args.end());
    return runProgram(command, stdinText);
}

ProcessResult runProgram(const std::vector<std::string> &command, const std::string &stdinText)
{
    // stdout and stderr go to temp files so that neither pipe can fill up and block the child.
    TempDir tmp;
    const std::string outPath = tmp.file("out"), errPath = tmp.file("err"), inPath = tmp.file("in");
    writeFile(inPath, stdinText);
    std::vector<std::string> argvStore = command;
    std::vector<char *> argv;
    for (auto &a : argvStore)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        const int in = open(inPath.c_str(), O_RDONLY);
        const int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ProcessResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = readFile(outPath);
    r.err = readFile(errPath);
    return r;
}

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const std::string &path, const std::string &content)
{
    std::ofstream out(path, std::ios::binary);
    out << content;
}

std::string testData(const std::string &relative)
{
    return std::string(SIEVE_TEST_DATA) + "/" + relative;
}

} // namespace sieve::test

namespace sieve::test {

std::vector<nlohmann::json> readJsonl(const std::string &path)
{
    std::vector<nlohmann::json> rows;
    std::istringstream in(readFile(path));
    std::string line;
    while (std::getline(in, line))
        rows.push_back(nlohmann::json::parse(line));
    return rows;
}

bool importKernelBench(const std::string &db, const std::string &path)
{
    const auto init = runCli({"init", db});
    EXPECT_EQ(init.exitCode, 0) << init.err;
    const auto r = runCli({"import", db, "--format", "kernelbench", path, "--quiet"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return init.exitCode == 0 && r.exitCode == 0;
}

} // namespace sieve::test
