#pragma once
// Importers: stream task and sample files into a corpus in constant memory, with a per-record report.
// One thread reads, parses and compresses; the calling thread is the one SQLite writer and commits
// in batches, so a crash leaves the file consistent and a re-run adds only what is missing (stable
// content keys + INSERT OR IGNORE). Formats are documented in docs/FORMATS.md.
#include "core/db/payload.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {

class Corpus;

enum class ImportFormat { KernelBench, KernelBook, CudaArchive, Sieve };

std::optional<ImportFormat> parseImportFormat(std::string_view name);
std::string_view importFormatName(ImportFormat format);
const std::vector<ImportFormat> &allImportFormats();

// One rejected record: `file:line: field: message`. line 0 means the file as a whole.
struct ImportError
{
    std::string file;
    std::uint64_t line = 0;
    std::string field;
    std::string message;
    std::string text() const;
};

struct ImportFileReport
{
    std::string path;
    std::uint64_t tasksAdded = 0;
    std::uint64_t samplesAdded = 0;
    std::uint64_t unchanged = 0;
    std::uint64_t rejected = 0;
    std::vector<ImportError> errors; // the first ImportOptions::maxListedErrors
    std::uint64_t errorsNotListed = 0;
};

struct ImportReport
{
    std::string format;
    std::int64_t importId = 0;
    std::vector<ImportFileReport> files;
    bool interrupted = false;
    double seconds = 0;
    // CPU time per stage (timing splits for tuning): reading and parsing, compressing, writing.
    double parseCpuSeconds = 0, packCpuSeconds = 0, writeCpuSeconds = 0, indexCpuSeconds = 0;
    double indexSeconds = 0; // wall time of building the dropped indices at the end (part of `seconds`)
    // The samples indices were dropped for the import and built again at its end.
    bool indicesRebuilt = false;

    std::uint64_t tasksAdded() const;
    std::uint64_t samplesAdded() const;
    std::uint64_t unchanged() const;
    std::uint64_t rejected() const;
    nlohmann::json toJson() const;
};

struct ImportOptions
{
    std::size_t batchRecords = 4096;                  // records handed from parsing to writing at a time
    std::size_t commitRecords = 16384;                // records per transaction (rounded up to whole batches)
    std::size_t maxListedErrors = 1000;               // per file; the rest are only counted
    bool pipeline = true;                             // parse, compress and write on separate threads
    bool deferIndices = true;                         // large import into a small table: build indices at the end
    std::size_t maxRememberedSamples = 4000000;       // names and keys checked in memory meanwhile (32 bytes each)
    unsigned workers = 0;                             // compressing threads; 0: one per core (at most 8)
    payload::Codec codec = payload::Codec::Lz4;       // for code, reasoning, responses and reference code
    std::function<void(const ImportError &)> onError; // each rejected record, as it happens
    std::function<void(std::uint64_t done, std::uint64_t total)> onProgress; // bytes of input
    std::function<bool()> cancelled;     // polled between batches; work so far is kept
    std::function<void()> onWaitForLock; // another import of the corpus runs: this one waits for it
};

// Imports `paths` (files; for kernelbench also folders of levelN/ID_Name.py) into `corpus`.
// Bad records are reported, not thrown; throws only when the corpus itself cannot be written.
// One import per corpus at a time: a second one waits for the first (core/import/importlock.h).
ImportReport importFiles(Corpus &corpus, ImportFormat format, const std::vector<std::string> &paths,
                         const ImportOptions &options = {});

} // namespace sieve
