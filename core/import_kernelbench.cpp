// KernelBench problems: a folder of levelN/ID_Name.py files, or the JSONL form (code, level, name,
// problem_id) of the published dataset. Tasks only; names are derived: kernelbench/level1/19_ReLU.
#include "importformats.h"
#include "jsonlreader.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>

namespace sieve::importing {

namespace {

std::optional<int> levelOfFolder(const std::string &dir)
{
    static const std::regex re(R"(level(\d+))");
    std::smatch m;
    if (!std::regex_match(dir, m, re))
        return std::nullopt;
    return std::stoi(m[1]);
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

bool looksLikeKernelBench(const Row &row) { return row.has("problem_id"); }

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
    std::string prov = "{\"problem_id\":" + std::to_string(*problemId) + ",\"name\":" +
                       simdjson::minify(row.element("name").value()) + "}";
    out.push_back({line, kernelBenchTask(std::string(*code), *level, stem, std::move(prov))});
}

} // namespace

RowFormat kernelBenchRowFormat() { return {ImportFormat::KernelBench, looksLikeKernelBench, parseKernelBenchRow}; }

bool inKernelBenchLevelFolder(const std::filesystem::path &file)
{
    return file.extension() == ".py" && levelOfFolder(file.parent_path().filename().string()).has_value();
}

void parseKernelBenchFile(const std::filesystem::path &file, std::vector<Item> &out)
{
    const std::string path = file.string();
    auto fail = [&](std::uint64_t line, std::string field, std::string message) {
        out.push_back({line, RecordError{std::move(field), std::move(message), path}});
    };
    static const std::regex nameRe(R"((\d+)_([A-Za-z0-9_.\-]+)\.py)");
    std::smatch m;
    const std::string fname = file.filename().string();
    const auto level = levelOfFolder(file.parent_path().filename().string());
    if (!level) {
        fail(0, "path", "expected a file in a levelN folder (levelN/ID_Name.py)");
        return;
    }
    if (!std::regex_match(fname, m, nameRe)) {
        fail(0, "path", "expected a file named ID_Name.py (e.g. 19_ReLU.py)");
        return;
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) {
        fail(0, "path", "cannot read: " + ec.message());
        return;
    }
    if (size > JsonlReader::kMaxLine) {
        fail(0, "code", "file is larger than the 16 MiB limit");
        return;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        fail(0, "path", std::string("cannot open: ") + std::strerror(errno));
        return;
    }
    std::string code(static_cast<std::size_t>(size), '\0');
    in.read(code.data(), static_cast<std::streamsize>(size));
    code.resize(static_cast<std::size_t>(in.gcount()));
    if (const std::size_t bad = firstInvalidUtf8(code); bad != code.size()) {
        fail(lineOfOffset(code, bad), "code", "invalid UTF-8 at byte " + std::to_string(bad));
        return;
    }
    if (const std::string problem = referenceProblem(code); !problem.empty()) {
        fail(1, "code", problem);
        return;
    }
    const std::string stem = fname.substr(0, fname.size() - 3);
    std::string prov = "{\"problem_id\":" + std::string(m[1]) + ",\"file\":\"level" + std::to_string(*level) + "/" +
                       fname + "\"}";
    out.push_back({1, kernelBenchTask(std::move(code), *level, stem, std::move(prov))});
}

} // namespace sieve::importing
