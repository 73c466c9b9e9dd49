#pragma once
// The per-format parsers: each turns one JSON record into task/sample records (or an error naming the
// field). Internal to the importers; see docs/FORMATS.md for the formats themselves.
#include "core/import/importer.h"
#include "core/import/importrecords.h"
#include "core/import/importrow.h"

#include <filesystem>
#include <string_view>
#include <vector>

namespace sieve::importing {

struct RowFormat
{
    ImportFormat format;
    // True when a record carries this format's tell-tale keys (to catch a file given the wrong --format).
    bool (*looksLike)(const Row &row);
    void (*parse)(Row &row, std::vector<Item> &out, std::uint64_t line);
};

const RowFormat &rowFormat(ImportFormat format);
const std::vector<RowFormat> &rowFormats();

// KernelBench problem files (levelN/ID_Name.py): true for a path that lies in a levelN folder.
bool inKernelBenchLevelFolder(const std::filesystem::path &file);
// The problem files under `root` in path order. A subfolder that cannot be read adds an error naming it
// to `errors` (when given) and the walk goes on with the rest of the tree.
std::vector<std::filesystem::path> kernelBenchFiles(const std::filesystem::path &root, std::vector<Item> *errors);
// The path as UTF-8 for messages and reports: bytes that are not UTF-8 are written as \xNN.
std::string printablePath(const std::filesystem::path &file);
// Reads one problem file (at most JsonlReader::kMaxLine bytes) into a task, or an error.
void parseKernelBenchFile(const std::filesystem::path &file, std::vector<Item> &out);

// Shared helpers.
std::optional<std::string> normaliseDtype(std::string_view dtype);
double defaultTolerance(std::string_view dtype);
// Checks that code is a KernelBench-style reference (class Model + get_inputs); empty when it is.
std::string referenceProblem(std::string_view code, std::string_view className = "Model");
// Computes the key (the reference is packed later, by packPayloads()).
void finishTask(TaskRecord &t);
// Fills payloads, extracts the answer from a raw response when no code is given, hashes.
void finishSample(SampleRecord &s, std::optional<std::string_view> code, std::optional<std::string_view> response,
                  std::optional<std::string_view> reasoning);

} // namespace sieve::importing
