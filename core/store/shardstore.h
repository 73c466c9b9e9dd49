#pragma once
// The SQL that cuts shard files out of a corpus and checks them before a merge (gpu/shard.h,
// gpu/shardmerge.h): the meta table, copying rows between two files with the same schema, and the
// reads that compare a shard's samples and task flags with the corpus's. Plain types only.
#include "core/db/database.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sieve::store {

// meta[key], nullopt when there is no such key.
std::optional<std::string> metaValue(const db::Database &db, const std::string &key);
// meta 'corpus_id'; "" for a file that has none yet.
std::string corpusId(const db::Database &db);
// INSERT OR REPLACE of every pair, inside the caller's transaction.
void writeMeta(db::Database &db, const std::map<std::string, std::string> &meta);

// SQLite's quick_check: "ok" for a sound file; nullopt when it says nothing.
std::optional<std::string> quickCheck(const db::Database &db);
// Rows in samples; nullopt when the query gives none.
std::optional<std::int64_t> sampleCount(const db::Database &db);
// journal_mode=DELETE: the file stands alone, without a -wal beside it.
void useRollbackJournal(db::Database &db);
// Checkpoints the WAL into the file at `path` and leaves it in rollback-journal mode.
void sealDatabaseFile(const std::string &path);

// Copies rows of `table` with the given id (task_id / sample_id for the payload tables) from src to
// dst, column for column (the values as they are, blobs included).
class RowCopier
{
public:
    RowCopier(const db::Database &src, db::Database &dst, const std::string &table, const std::string &columns);
    // False when the source has no such row.
    bool copy(std::int64_t id);

private:
    static std::string keyColumn(const std::string &table);
    db::Statement m_select, m_insert;
};

// Every sample's id, content key and task id in id order (the key valid during the call).
void forEachSampleKey(const db::Database &db,
                      const std::function<void(std::int64_t id, std::string_view key, std::int64_t taskId)> &fn);

// A task's key and flags by id; prepared once.
class TaskFlagsById
{
public:
    explicit TaskFlagsById(const db::Database &db);
    struct Row
    {
        std::string taskKey;
        std::optional<std::string> flags;
    };
    std::optional<Row> get(std::int64_t taskId);

private:
    db::Statement m_select;
};

// Every task's key and flags (a shard's, after its run).
void forEachTaskFlags(
    const db::Database &db,
    const std::function<void(const std::string &taskKey, const std::optional<std::string> &flags)> &fn);

// tasks.flags by task key; prepared once.
class TaskFlagsByKeyUpdater
{
public:
    explicit TaskFlagsByKeyUpdater(db::Database &db);
    void update(const std::string &taskKey, const std::optional<std::string> &flags);

private:
    db::Statement m_update;
};

// The payload dictionaries in the order they were stored: (dictionary, trained_on).
void forEachPayloadDictionary(const db::Database &db,
                              const std::function<void(const std::string &dict, std::int64_t trainedOn)> &fn);

// A corpus sample by content key: id, code hash ("" when none) and its task's key. Prepared once.
class SampleByKey
{
public:
    explicit SampleByKey(const db::Database &db);
    struct Row
    {
        std::int64_t id = 0;
        std::string codeHash, taskKey;
    };
    std::optional<Row> find(const std::string &sampleKey);

private:
    db::Statement m_lookup;
};

struct SampleIdentity
{
    std::string sampleKey, codeHash, taskKey, name; // codeHash "" when none
};
// Every sample of the file with its task's key (a shard's, to compare with the corpus).
void forEachSampleIdentity(const db::Database &db, const std::function<void(const SampleIdentity &)> &fn);

} // namespace sieve::store
