#pragma once
// The one SQLite writer of an import: resolves task names, applies content keys (INSERT OR IGNORE on
// the UNIQUE keys, so a re-run adds nothing; or, while a large import has those indices dropped, the
// same decisions from an in-memory lookup, checkSamplesInMemory()) and keeps the per-file report. A
// transaction spans batches until ImportOptions::commitRecords records are in it: fewer, larger
// commits write hot index pages to the WAL fewer times.
#include "core/db/database.h"
#include "core/import/importer.h"
#include "core/import/importrecords.h"

#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sieve {
class Corpus;
}

namespace sieve::importing {

// 64-bit hashes to sample row ids, several rows per hash: an open-addressing table of 16-byte slots.
// A hit only says "maybe"; the caller reads the row to be sure.
class SampleLookup
{
public:
    void add(std::uint64_t hash, std::int64_t rowid);
    template <typename F> void forEach(std::uint64_t hash, F &&f) const
    {
        if (m_slots.empty())
            return;
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = hash & mask; m_slots[i].rowid != kEmpty; i = (i + 1) & mask)
            if (m_slots[i].hash == hash)
                f(m_slots[i].rowid);
    }
    std::size_t size() const { return m_used; }

private:
    static constexpr std::int64_t kEmpty = INT64_MIN;
    struct Slot
    {
        std::uint64_t hash = 0;
        std::int64_t rowid = kEmpty;
    };
    void grow();
    std::vector<Slot> m_slots;
    std::size_t m_used = 0;
};

class ImportWriter
{
public:
    ImportWriter(Corpus &corpus, std::int64_t importId, ImportReport &report, const ImportOptions &options);
    // While the import has samples_name and samples_key dropped (schema::dropSampleIndices(db, true)):
    // loads the names and keys of the samples already there, and checks every new sample against them
    // and the ones written before it in memory. Past ImportOptions::maxRememberedSamples the two
    // indices are built again and the writer goes on with them, so memory stays bounded.
    void checkSamplesInMemory();
    void write(Batch &batch);
    // Commits the open transaction (at the end, or before stopping early).
    void commit();
    // Stores a payload dictionary in the transaction that the next batch goes into, so that no blob
    // made with it is ever committed without it.
    void storeDictionary(std::string_view dictionary, std::int64_t trainedOn);

private:
    struct TaskRef
    {
        std::int64_t id = 0;
        std::string key;
        std::string backend;
    };
    void writeTask(std::size_t file, std::uint64_t line, TaskRecord &t);
    void writeSample(std::size_t file, std::uint64_t line, SampleRecord &s);
    void reject(std::size_t file, std::uint64_t line, RecordError e);
    std::optional<TaskRef> findTask(const std::string &name);
    void beginIfNeeded();
    void stopCheckingInMemory();
    std::string differingField(std::int64_t taskId, const TaskRecord &t);
    void remember(const std::string &name, TaskRef ref);

    Corpus &m_corpus;
    db::Database &m_db;
    std::int64_t m_importId;
    ImportReport &m_report;
    const ImportOptions &m_options;
    std::int64_t m_now;
    db::Statement m_findTask, m_findTaskByKey, m_insertTask, m_insertTaskPayload, m_findSample, m_insertSample,
        m_insertSamplePayload, m_insertVerdict;
    // Names seen in this import (including aliases: a derived name whose content already exists under
    // another name). Bounded: cleared when large, then refilled from the database.
    std::unordered_map<std::string, TaskRef> m_tasks;
    struct InMemory
    {
        SampleLookup names, keys;
        db::Statement row; // a sample's key, name, task and origin by id, to confirm a hit
        // Calls f(row) for each sample whose hash is `hash` in `lookup`, row positioned on it.
        template <typename F> void confirm(const SampleLookup &lookup, std::uint64_t hash, F &&f)
        {
            lookup.forEach(hash, [&](std::int64_t id) {
                row.reset();
                row.bind(1, id);
                if (row.step())
                    f(row);
                row.reset();
            });
        }
    };
    std::unique_ptr<InMemory> m_memory;
    std::optional<db::Transaction> m_tx; // rolls back if the import throws
    std::size_t m_uncommitted = 0;
};

} // namespace sieve::importing
