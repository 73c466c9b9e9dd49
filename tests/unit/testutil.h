#pragma once
// Helpers shared by the unit tests: a scratch folder per test, running sieve-cli as a real process.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace sieve::test {

// A fresh folder under the system temp dir, removed when the object goes away.
class TempDir
{
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::filesystem::path &path() const { return m_path; }
    std::string file(const std::string &name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

struct ProcessResult
{
    int exitCode = -1;
    std::string out;
    std::string err;
};

// Runs sieve-cli with args (no shell); captures stdout and stderr.
ProcessResult runCli(const std::vector<std::string> &args, const std::string &stdinText = {});
// Runs `command` (program looked up in PATH, then its arguments; no shell) the same way.
ProcessResult runProgram(const std::vector<std::string> &command, const std::string &stdinText = {});

std::string readFile(const std::string &path);
void writeFile(const std::string &path, const std::string &content);
// A JSONL file's objects, in order (an export's train.jsonl).
std::vector<nlohmann::json> readJsonl(const std::string &path);
// A new corpus at `db` with the KernelBench problems of `path` (a file or a folder) imported; false
// (with the reason in a test failure) when sieve-cli could not.
bool importKernelBench(const std::string &db, const std::string &path);
std::string testData(const std::string &relative);

} // namespace sieve::test
