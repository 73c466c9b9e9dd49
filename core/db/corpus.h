#pragma once
// A corpus is one SQLite file: tasks, samples, verification runs and verdicts, reviews, dedup clusters,
// tags and exports. Opening a file migrates it to the current schema in one transaction.
#include "core/db/database.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {

class Corpus
{
public:
    static constexpr int kSchemaVersion = 7;

    // Creates the file at the current schema version; fails if it already holds a corpus.
    static Corpus create(const std::string &path);
    // Opens an existing corpus and migrates it when it is older. Throws db::Error when the file is not
    // a corpus or is newer than this build.
    // `anyVersion` (read-only only) opens an older file as it is, for reporting its version.
    static Corpus open(const std::string &path, bool readOnly = false, bool anyVersion = false);

    db::Database &db() { return m_db; }
    const db::Database &db() const { return m_db; }
    const std::string &path() const { return m_db.path(); }
    int schemaVersion() const;

    // Settings suited to one writer that batches work (import, verify) into transactions.
    void tuneForBulkWrites();
    // SQLite's automatic checkpoint threshold (pages) while tuned for bulk writes.
    static constexpr int kBulkAutoCheckpoint = 4096;

    // Payload dictionaries (core/db/payload.h): opening a corpus registers all of its own. The newest one's
    // id, 0 when there is none.
    std::uint32_t payloadDictionary() const;
    // Stores a trained dictionary (inside the caller's transaction, if any) and registers it.
    void addPayloadDictionary(std::string_view dictionary, std::int64_t trainedOn,
                              std::optional<std::int64_t> importId);

private:
    explicit Corpus(db::Database db) : m_db(std::move(db)) {}
    static void configure(db::Database &db);
    db::Database m_db;
};

namespace schema {
// One step per version: steps[i] takes a file from version i to i+1. Steps are cumulative and
// idempotent (CREATE ... IF NOT EXISTS, guarded ALTERs) so a half-applied older tool cannot wedge a file.
struct Migration
{
    int toVersion;
    std::function<void(db::Database &)> apply;
};
const std::vector<Migration> &migrations();
// Brings db to `target` (default: current) inside one transaction.
void migrate(db::Database &db, int target = Corpus::kSchemaVersion);
int version(const db::Database &db);

// The indices on samples for a reviewer's sorts and filters (task, status, speedup, review, cluster; the
// speedup and cluster ones only over the samples that have one, since v5), plus the two an import looks
// rows up by: samples_name and the content key's uniqueness, samples_key (a named UNIQUE index since v4).
// A bulk import into a table that is small next to its input drops them and builds them once at the end,
// which costs a third of updating them row by row (bench/RESULTS.md, Import); with `keyed` it drops
// samples_name and samples_key too and checks names and keys in memory meanwhile
// (core/import/importwriter.h). They are derived data: a killed import leaves them missing, and the next
// read-write open puts them back (ensureSampleIndices), so queries stay correct meanwhile, only slower.
void dropSampleIndices(db::Database &db, bool keyed = false);
// Creates whichever are missing; true when all exist afterwards. Never throws on a busy database
// (another process's import holds the write lock): it tries again at the next open.
bool ensureSampleIndices(db::Database &db);
// For a writer that inserts samples relying on samples_key (INSERT OR IGNORE) or looking them up by
// name, inside its write transaction: builds those two if a running import has dropped them, so that no
// key is written twice.
void requireSampleKeyIndex(db::Database &db);
} // namespace schema

} // namespace sieve
