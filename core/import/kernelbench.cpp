// KernelBench problems: a folder of levelN/ID_Name.py files, or the JSONL form (code, level, name,
// problem_id) of the published dataset. Tasks only; names are derived: kernelbench/level1/19_ReLU.
#include "core/import/importformats.h"
#include "core/import/jsonlreader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <regex>
#include <sys/stat.h>
#include <unistd.h>

namespace sieve::importing {

namespace {

// A folder named levelN. Its number may still be unusable (level0, level99999999999): such folders'
// files are rejected one by one, naming their path, instead of ending the import.
struct LevelFolder
{
    bool named = false;
    std::optional<std::int64_t> level; // set when N is 1 to kMaxLevel
};

constexpr std::int64_t kMaxLevel = 1000000;

LevelFolder levelOfFolder(const std::string &dir)
{
    LevelFolder out;
    if (dir.size() <= 5 || dir.compare(0, 5, "level") != 0)
        return out;
    for (std::size_t i = 5; i < dir.size(); ++i)
        if (dir[i] < '0' || dir[i] > '9')
            return out;
    out.named = true;
    std::int64_t n = 0;
    const char *first = dir.data() + 5, *last = dir.data() + dir.size();
    if (const auto r = std::from_chars(first, last, n);
        r.ec == std::errc() && r.ptr == last && n >= 1 && n <= kMaxLevel)
        out.level = n;
    return out;
}

TaskRecord kernelBenchTask(std::string code, std::int64_t level, const std::string &stem, std::string provenance)
{
    TaskRecord t;
    t.name = "kernelbench/level" + std::to_string(level) + "/" + stem;
    t.userNamed = false;
    t.nameField = "name";
    t.referenceCode = std::move(code);
    t.level = level;
    t.source = "kernelbench";
    t.provenanceJson = std::move(provenance);
    t.atol = t.rtol = defaultTolerance(t.dtype);
    finishTask(t);
    return t;
}

std::size_t lineOfOffset(std::string_view text, std::size_t offset)
{
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        line += text[i] == '\n';
    return line;
}

bool looksLikeKernelBench(const Row &row)
{
    return row.has("problem_id");
}

void parseKernelBenchRow(Row &row, std::vector<Item> &out, std::uint64_t line)
{
    const auto code = row.string("code", true);
    const auto level = row.integer("level", true);
    const auto name = row.string("name", true);
    const auto problemId = row.integer("problem_id", true);
    if (level && *level < 1)
        row.fail("level", "must be 1 or more");
    if (name && name->empty())
        row.fail("name", "must not be empty");
    if (code) {
        if (const std::string problem = referenceProblem(*code); !problem.empty())
            row.fail("code", problem);
    }
    if (row.failed()) {
        out.push_back({line, row.error()});
        return;
    }
    std::string stem(*name);
    if (stem.size() > 3 && stem.compare(stem.size() - 3, 3, ".py") == 0)
        stem.resize(stem.size() - 3);
    const std::string prefix = std::to_string(*problemId) + "_";
    if (stem.rfind(prefix, 0) != 0)
        stem = prefix + stem;
    std::string prov = "{\"problem_id\":" + std::to_string(*problemId) +
                       ",\"name\":" + simdjson::minify(row.element("name").value()) + "}";
    out.push_back({line, kernelBenchTask(std::string(*code), *level, stem, std::move(prov))});
}

} // namespace

RowFormat kernelBenchRowFormat()
{
    return {ImportFormat::KernelBench, looksLikeKernelBench, parseKernelBenchRow};
}

bool inKernelBenchLevelFolder(const std::filesystem::path &file)
{
    return file.extension() == ".py" && levelOfFolder(file.parent_path().filename().string()).named;
}

std::string printablePath(const std::filesystem::path &file)
{
    const std::string &raw = file.native();
    if (firstInvalidUtf8(raw) == raw.size())
        return raw;
    // Not UTF-8: each byte that breaks it is written as \xNN, so the error (and the import's JSON report)
    // can name the file.
    std::string out;
    std::string_view rest = raw;
    while (!rest.empty()) {
        const std::size_t bad = firstInvalidUtf8(rest);
        out.append(rest.substr(0, bad));
        if (bad == rest.size())
            break;
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(rest[bad]));
        out.append(hex);
        rest.remove_prefix(bad + 1);
    }
    return out;
}

std::vector<std::filesystem::path> kernelBenchFiles(const std::filesystem::path &root, std::vector<Item> *errors)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    auto fail = [&](const fs::path &where, const std::error_code &ec) {
        if (errors)
            errors->push_back(
                {0, RecordError{"path", "cannot read the folder: " + ec.message() + "; the files in it are skipped",
                                printablePath(where)}});
    };
    // Depth first without recursion; symbolic links to folders are not followed (no cycles).
    std::vector<fs::path> pending{root};
    while (!pending.empty()) {
        const fs::path dir = std::move(pending.back());
        pending.pop_back();
        std::error_code ec;
        fs::directory_iterator it(dir, ec), end;
        if (ec) {
            fail(dir, ec);
            continue;
        }
        for (; it != end; it.increment(ec)) {
            const fs::file_status st = it->symlink_status(ec);
            if (ec)
                break;
            if (fs::is_directory(st))
                pending.push_back(it->path());
            else if (!fs::is_symlink(st) || !fs::is_directory(it->status(ec)))
                if (inKernelBenchLevelFolder(it->path()))
                    files.push_back(it->path());
        }
        if (ec)
            fail(dir, ec);
    }
    std::sort(files.begin(), files.end());
    return files;
}

void parseKernelBenchFile(const std::filesystem::path &file, std::vector<Item> &out)
{
    const std::string path = printablePath(file);
    auto fail = [&](std::uint64_t line, std::string field, std::string message) {
        out.push_back({line, RecordError{std::move(field), std::move(message), path}});
    };
    static const std::regex nameRe(R"((\d+)_([A-Za-z0-9_.\-]+)\.py)");
    std::smatch m;
    const std::string fname = file.filename().string();
    if (path != file.native()) {
        fail(0, "path", "the file name is not valid UTF-8");
        return;
    }
    const LevelFolder folder = levelOfFolder(file.parent_path().filename().string());
    if (!folder.named) {
        fail(0, "path", "expected a file in a levelN folder (levelN/ID_Name.py)");
        return;
    }
    if (!folder.level) {
        fail(0, "path",
             "the level of folder '" + file.parent_path().filename().string() + "' must be 1 to " +
                 std::to_string(kMaxLevel));
        return;
    }
    const std::int64_t level = *folder.level;
    if (!std::regex_match(fname, m, nameRe)) {
        fail(0, "path", "expected a file named ID_Name.py (e.g. 19_ReLU.py)");
        return;
    }
    // The id as a number: 007_Lead.py is problem 7 (leading zeros are not JSON).
    std::int64_t problemId = 0;
    const std::string digits = m[1];
    if (const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), problemId);
        r.ec != std::errc() || problemId > 999999999) {
        fail(0, "path", "the problem id '" + digits + "' is out of range");
        return;
    }
    // Opened without blocking and checked before reading: a FIFO, socket or device among the inputs is
    // rejected instead of waiting forever for a writer.
    const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        fail(0, "path", std::string("cannot open: ") + std::strerror(errno));
        return;
    }
    struct Closer
    {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0) {
        fail(0, "path", std::string("cannot read: ") + std::strerror(errno));
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        fail(0, "path", "not a regular file (a FIFO, socket or device); skipped");
        return;
    }
    if (static_cast<std::uint64_t>(st.st_size) > JsonlReader::kMaxLine) {
        fail(0, "code", "file is larger than the 16 MiB limit");
        return;
    }
    std::string code(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < code.size()) {
        const ssize_t n = ::read(fd, code.data() + got, code.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            fail(0, "path", std::string("read error: ") + std::strerror(errno));
            return;
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    code.resize(got);
    if (const std::size_t bad = firstInvalidUtf8(code); bad != code.size()) {
        fail(lineOfOffset(code, bad), "code", "invalid UTF-8 at byte " + std::to_string(bad));
        return;
    }
    if (const std::string problem = referenceProblem(code); !problem.empty()) {
        fail(1, "code", problem);
        return;
    }
    const std::string stem = fname.substr(0, fname.size() - 3);
    std::string prov = "{\"problem_id\":" + std::to_string(problemId) +
                       ",\"file\":" + nlohmann::json("level" + std::to_string(level) + "/" + fname).dump() + "}";
    out.push_back({1, kernelBenchTask(std::move(code), level, stem, std::move(prov))});
}

} // namespace sieve::importing
