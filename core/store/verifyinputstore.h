#pragma once
// What verification reads from the corpus: a task's specification with its reference code, a sample's
// code with its task, a sample's task id. Payload blobs come back packed (core/payload.h): the caller
// unpacks them, so that it decides what a corrupt payload means.
#include "core/db/database.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace sieve::store {

struct TaskSpecRow
{
    std::int64_t id = 0;
    std::string taskKey, name, dtype;
    std::optional<double> atol, rtol;
    std::optional<std::string> shapesJson, source;
    std::optional<std::string> referenceCode; // packed
};

// Every task in id order, with its reference (`sieve-cli tasks check`).
void forEachTaskSpec(const db::Database &db, const std::function<void(const TaskSpecRow &)> &fn);
// One task by id; nullopt when there is none.
std::optional<TaskSpecRow> taskSpec(const db::Database &db, std::int64_t taskId);

struct SampleToVerify
{
    std::string name, backend, taskName, taskKey;
    std::optional<std::string> code; // packed
};
// A sample with its task's name and key and its code; nullopt when there is no such sample.
std::optional<SampleToVerify> sampleToVerify(const db::Database &db, std::int64_t sampleId);

struct SampleCode
{
    std::string name;
    std::optional<std::string> code; // packed
};
// A sample's name and code; nullopt when there is no such sample.
std::optional<SampleCode> sampleCode(const db::Database &db, std::int64_t sampleId);

// A sample's task id by sample id; prepared once.
class SampleTaskLookup
{
public:
    explicit SampleTaskLookup(const db::Database &db);
    std::optional<std::int64_t> taskOf(std::int64_t sampleId);

private:
    db::Statement m_select;
};

} // namespace sieve::store
