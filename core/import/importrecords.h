#pragma once
// What the parsing side of an import hands to the writer: finished records (content hashed; payloads
// raw until packPayloads() compresses them on a worker thread) or the reason a record was rejected.
// Internal to the importers.
#include "core/db/payload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace sieve::importing {

struct TaskRecord
{
    std::string name;
    // true when the name comes from the user (sieve's task_id): a clash with other content is an
    // error; derived names (kernelbench paths, archive ids) get a suffix instead.
    bool userNamed = false;
    std::string nameField = "task_id";
    std::string referenceCode;
    std::string packedReference; // filled by packPayloads()
    std::optional<std::int64_t> level;
    std::optional<std::string> category, target, shapesJson, source, license, provenanceJson, flags;
    std::string backend = "triton";
    std::string dtype = "fp32";
    std::optional<double> atol, rtol;
    std::string key;
};

// Labels that came with imported data; stored in external_verdicts, never as our verdict.
struct ExternalVerdict
{
    std::string source;
    std::optional<std::int64_t> correct;
    std::optional<double> maxDiff, runtimeMs, refRuntimeMs, refCompileRuntimeMs, speedupNative, speedupCompile;
    std::optional<std::string> error;
};

struct SampleRecord
{
    std::string name;
    bool userNamed = false;
    std::string taskName;
    std::optional<std::string> backend; // none: the task's backend
    std::string origin;
    std::optional<std::string> model;
    std::optional<double> temperature;
    std::optional<std::int64_t> attempt;
    bool hasAnswer = false;
    std::optional<std::string> codeHash;
    std::int64_t codeBytes = 0;
    // Raw text until packPayloads(), payload::pack()ed after it.
    std::optional<std::string> code, reasoning, response;
    std::string contentKey; // over origin, name, code and response; the writer mixes in the task's key
    std::optional<ExternalVerdict> verdict;
};

struct RecordError
{
    std::string field;
    std::string message;
    std::string file; // empty: the input path the batch belongs to
};

struct Item
{
    std::uint64_t line = 0;
    std::variant<TaskRecord, SampleRecord, RecordError> value;
};

struct Batch
{
    std::uint64_t seq = 0; // batches are written in this order, whichever worker packed them
    std::size_t fileIndex = 0;
    std::vector<Item> items;
    std::uint64_t bytesDone = 0; // input bytes consumed so far, over all files
    bool packed = false;
};

// Compresses every payload of the batch (the expensive part of an import; runs on worker threads), with
// the payload dictionary `dictionary` (0: none).
void packPayloads(Batch &batch, std::uint32_t dictionary, payload::Codec codec);

// Stable keys. Numbers are printed exactly so that equal values give equal keys.
std::string taskKey(const TaskRecord &t);
std::string formatDouble(std::optional<double> v);

} // namespace sieve::importing
