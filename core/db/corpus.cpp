#include "core/db/corpus.h"

#include "core/import/importlock.h"

#include "core/db/corpusfile.h"
#include "core/db/payload.h"
#include "core/db/unixtime.h"

#include <sqlite3.h>

#include <filesystem>
#include <random>

namespace sieve {

namespace schema {

namespace {
// Version 1: the whole initial model. Payload columns (code, logs, reasoning, responses) live in
// *_payloads tables so that list/count queries over samples never read them.
void v1(db::Database &db)
{
    db.exec(R"SQL(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS tasks(
  id INTEGER PRIMARY KEY,
  task_key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL UNIQUE,
  level INTEGER,
  category TEXT,
  backend TEXT NOT NULL DEFAULT 'triton',
  target TEXT,
  dtype TEXT NOT NULL DEFAULT 'fp32',
  atol REAL,
  rtol REAL,
  shapes_json TEXT,
  source TEXT,
  license TEXT,
  provenance_json TEXT,
  flags TEXT,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS task_payloads(
  task_id INTEGER PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
  reference_code BLOB NOT NULL
);

CREATE TABLE IF NOT EXISTS samples(
  id INTEGER PRIMARY KEY,
  sample_key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  task_id INTEGER NOT NULL REFERENCES tasks(id),
  backend TEXT NOT NULL,
  origin TEXT NOT NULL,
  model TEXT,
  temperature REAL,
  attempt INTEGER,
  has_answer INTEGER NOT NULL,
  code_hash TEXT,
  code_bytes INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'PENDING',
  speedup REAL,
  review TEXT NOT NULL DEFAULT 'none',
  cluster_id INTEGER,
  import_id INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS samples_task ON samples(task_id);
CREATE INDEX IF NOT EXISTS samples_status ON samples(status);
CREATE INDEX IF NOT EXISTS samples_speedup ON samples(speedup);
CREATE INDEX IF NOT EXISTS samples_review ON samples(review);
CREATE INDEX IF NOT EXISTS samples_cluster ON samples(cluster_id);
CREATE INDEX IF NOT EXISTS samples_name ON samples(name);

CREATE TABLE IF NOT EXISTS sample_payloads(
  sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
  code BLOB,
  reasoning BLOB,
  response BLOB,
  request BLOB
);

-- Verdicts that came with imported data (e.g. the AI-CUDA-Engineer archive). Never ours.
CREATE TABLE IF NOT EXISTS external_verdicts(
  id INTEGER PRIMARY KEY,
  sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  correct INTEGER,
  max_diff REAL,
  runtime_ms REAL,
  ref_runtime_ms REAL,
  ref_compile_runtime_ms REAL,
  speedup_native REAL,
  speedup_compile REAL,
  error TEXT,
  UNIQUE(sample_id, source)
);

CREATE TABLE IF NOT EXISTS verify_runs(
  id INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,
  finished_at INTEGER,
  state TEXT NOT NULL DEFAULT 'running',
  mode TEXT NOT NULL,
  env_json TEXT,
  params_json TEXT,
  sieve_version TEXT,
  verifier_version TEXT
);
CREATE TABLE IF NOT EXISTS verdicts(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES verify_runs(id),
  sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  stage TEXT,
  reasons TEXT,
  message TEXT,
  device TEXT,
  interpreted INTEGER NOT NULL DEFAULT 0,
  kernels_launched INTEGER,
  custom_kernel_share REAL,
  candidate_ms REAL,
  eager_ms REAL,
  compile_ms REAL,
  speedup REAL,
  flags TEXT,
  duration_ms REAL,
  created_at INTEGER NOT NULL,
  UNIQUE(run_id, sample_id)
);
CREATE INDEX IF NOT EXISTS verdicts_sample ON verdicts(sample_id);
CREATE TABLE IF NOT EXISTS verdict_payloads(
  verdict_id INTEGER PRIMARY KEY REFERENCES verdicts(id) ON DELETE CASCADE,
  log BLOB,
  details BLOB
);
-- One row per (shape, seed) correctness check.
CREATE TABLE IF NOT EXISTS verdict_checks(
  verdict_id INTEGER NOT NULL REFERENCES verdicts(id) ON DELETE CASCADE,
  shape_index INTEGER NOT NULL,
  shape_json TEXT,
  seed INTEGER NOT NULL,
  ok INTEGER NOT NULL,
  max_abs REAL,
  max_rel REAL,
  mismatches INTEGER,
  nonfinite_mismatches INTEGER,
  PRIMARY KEY(verdict_id, shape_index, seed)
) WITHOUT ROWID;
-- One row per (shape, what was timed): candidate, eager, compile.
CREATE TABLE IF NOT EXISTS verdict_timings(
  verdict_id INTEGER NOT NULL REFERENCES verdicts(id) ON DELETE CASCADE,
  shape_index INTEGER NOT NULL,
  which TEXT NOT NULL,
  median_ms REAL,
  mean_ms REAL,
  std_ms REAL,
  runs INTEGER,
  PRIMARY KEY(verdict_id, shape_index, which)
) WITHOUT ROWID;

-- Append-only history; samples.review holds the current decision.
CREATE TABLE IF NOT EXISTS reviews(
  id INTEGER PRIMARY KEY,
  sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
  decision TEXT NOT NULL,
  reason TEXT,
  note TEXT,
  reviewer TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS reviews_sample ON reviews(sample_id);

CREATE TABLE IF NOT EXISTS clusters(
  id INTEGER PRIMARY KEY,
  scope TEXT NOT NULL,
  task_id INTEGER,
  representative_id INTEGER,
  size INTEGER NOT NULL DEFAULT 0,
  params_json TEXT,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS cluster_members(
  sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
  cluster_id INTEGER NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  similarity REAL
);
CREATE INDEX IF NOT EXISTS cluster_members_cluster ON cluster_members(cluster_id);

CREATE TABLE IF NOT EXISTS tags(
  sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  PRIMARY KEY(sample_id, tag)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS exports(
  id INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL,
  out_dir TEXT NOT NULL,
  params_json TEXT,
  manifest_json TEXT
);

CREATE TABLE IF NOT EXISTS imports(
  id INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,
  finished_at INTEGER,
  format TEXT NOT NULL,
  paths_json TEXT,
  report_json TEXT
);
)SQL");
}

// Version 2: teacher sampling runs. One row per run (its sampling parameters, never the API key) and one
// per stored attempt, so that an interrupted run resumes without asking for an attempt twice:
// (run, task, attempt) is the key, and the sample and its item are written in one transaction.
void v2(db::Database &db)
{
    db.exec(R"SQL(
CREATE TABLE IF NOT EXISTS sample_runs(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL DEFAULT 'running',
  mode TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  model TEXT NOT NULL,
  params_json TEXT NOT NULL,
  stats_json TEXT,
  error TEXT,
  sieve_version TEXT,
  started_at INTEGER NOT NULL,
  updated_at INTEGER,
  finished_at INTEGER
);
CREATE TABLE IF NOT EXISTS sample_run_items(
  run_id INTEGER NOT NULL REFERENCES sample_runs(id) ON DELETE CASCADE,
  task_id INTEGER NOT NULL REFERENCES tasks(id),
  attempt INTEGER NOT NULL,
  sample_id INTEGER REFERENCES samples(id) ON DELETE SET NULL,
  status TEXT,
  created_at INTEGER NOT NULL,
  verified_at INTEGER,
  PRIMARY KEY(run_id, task_id, attempt)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sample_run_items_sample ON sample_run_items(sample_id);
)SQL");
}

// Version 3: zstd dictionaries for payloads (core/db/payload.h). The id is the one zstd writes into every
// frame made with the dictionary; a blob names its dictionary itself, so no payload column changes.
void v3(db::Database &db)
{
    db.exec(R"SQL(
CREATE TABLE IF NOT EXISTS payload_dicts(
  id INTEGER PRIMARY KEY,
  dict BLOB NOT NULL,
  trained_on INTEGER NOT NULL,
  import_id INTEGER REFERENCES imports(id),
  created_at INTEGER NOT NULL
);
)SQL");
}
// The samples indices a bulk import may drop and build again at its end: the reviewer's sorts and
// filters (as v1 made them; speedup and cluster over the samples that have one since v5), the name lookup
// and, since v4, the content key's uniqueness.
// tests/unit/db/test_corpus_indices.cpp compares them after a drop and rebuild.
struct IndexDef
{
    const char *name;
    const char *on;
    bool unique;
    bool keyed; // checked in memory by a large import instead (ImportWriter), and only dropped then
};
constexpr IndexDef kSampleIndices[] = {
    {"samples_task", "samples(task_id)", false, false},
    {"samples_status", "samples(status)", false, false},
    {"samples_speedup", "samples(speedup) WHERE speedup IS NOT NULL", false, false},
    {"samples_review", "samples(review)", false, false},
    {"samples_cluster", "samples(cluster_id) WHERE cluster_id IS NOT NULL", false, false},
    {"samples_name", "samples(name)", false, true},
    {"samples_key", "samples(sample_key)", true, true},
};

std::string createIndexSql(const IndexDef &ix)
{
    return std::string(ix.unique ? "CREATE UNIQUE INDEX IF NOT EXISTS " : "CREATE INDEX IF NOT EXISTS ") + ix.name +
           " ON " + ix.on + ";";
}

// The sample indices that are missing (only samples_name and samples_key with `keyedOnly`).
std::vector<const IndexDef *> missingSampleIndices(db::Database &db, bool keyedOnly = false)
{
    std::vector<const IndexDef *> missing;
    db::Statement exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type='index' AND name=?1");
    for (const IndexDef &ix : kSampleIndices) {
        if (keyedOnly && !ix.keyed)
            continue;
        exists.reset();
        exists.bind(1, ix.name);
        if (!exists.step())
            missing.push_back(&ix);
    }
    exists.reset();
    return missing;
}

// Rows whose content key an earlier row already has. Sieve never writes them (a large import checks keys
// in memory, every other writer only with samples_key in place), but a foreign writer (the sqlite3 shell)
// can while an import has the index dropped. Same key, same content: the later copies go, so that the
// unique index can be built and the corpus opens.
void removeDuplicateKeys(db::Database &db)
{
    db.exec(
        "DELETE FROM samples WHERE id IN (SELECT s.id FROM samples s JOIN (SELECT sample_key, min(id) AS keep "
        "FROM samples GROUP BY sample_key HAVING count(*) > 1) d ON d.sample_key = s.sample_key AND s.id <> d.keep)");
}

// CREATE INDEX feeds the table through SQLite's external sorter, which sorts runs as large as the page
// cache, writes them to temporary files and merges them. With temp_store=MEMORY (a bulk writer's
// setting) it never writes a run: all of a million samples' keys become one linked list, whose merge sort
// misses the CPU cache at every step; a large cache makes runs too large for it as well. 2 MiB runs on
// files, and a second sorting thread only for the random content keys (the reviewer's columns arrive
// nearly sorted, where a thread per run only adds work), build the seven indices of a million samples
// in a fifth less time (bench/RESULTS.md, Import). The connection's own settings come back afterwards.
// temp_store cannot change inside a transaction: ensureSampleIndices() sets these up before its own.
class IndexBuildSettings
{
public:
    explicit IndexBuildSettings(db::Database &db)
        : m_db(db), m_cache(db.queryInt("PRAGMA cache_size").value_or(-2000)),
          m_temp(db.queryInt("PRAGMA temp_store").value_or(0)), m_threads(db.queryInt("PRAGMA threads").value_or(0))
    {
        m_db.exec("PRAGMA cache_size=-2048; PRAGMA temp_store=FILE");
    }
    ~IndexBuildSettings()
    {
        try {
            m_db.exec("PRAGMA cache_size=" + std::to_string(m_cache) + "; PRAGMA temp_store=" + std::to_string(m_temp) +
                      "; PRAGMA threads=" + std::to_string(m_threads));
        } catch (...) {
        }
    }
    IndexBuildSettings(const IndexBuildSettings &) = delete;
    IndexBuildSettings &operator=(const IndexBuildSettings &) = delete;

    void before(const IndexDef &ix) { m_db.exec(ix.unique ? "PRAGMA threads=1" : "PRAGMA threads=0"); }

private:
    db::Database &m_db;
    const std::int64_t m_cache, m_temp, m_threads;
};

// Builds `ix` inside the caller's transaction.
void createSampleIndex(db::Database &db, const IndexDef &ix)
{
    try {
        db.exec(createIndexSql(ix)); // IF NOT EXISTS: another process may have built it meanwhile
    } catch (const db::Error &e) {
        if (!ix.unique || (e.code() & 0xff) != SQLITE_CONSTRAINT)
            throw;
        removeDuplicateKeys(db);
        db.exec(createIndexSql(ix));
    }
}

void createSampleIndices(db::Database &db, const std::vector<const IndexDef *> &missing)
{
    for (const IndexDef *ix : missing)
        createSampleIndex(db, *ix);
}

// Version 4: the content key's uniqueness becomes a named index, samples_key, instead of the column's
// UNIQUE constraint (whose index SQLite owns: it cannot be dropped). A large import drops samples_key and
// samples_name with the reviewer's indices, checks keys and names in memory and builds both once at the
// end: inserting a million random keys row by row had cost more than half of the import's writer time
// (bench/RESULTS.md, Import). A constraint cannot be dropped either, so the table is rebuilt the way
// SQLite documents; migrate() turns foreign keys off around it, so dropping the old table cascades nowhere.
void v4(db::Database &db)
{
    if (db.queryInt("SELECT count(*) FROM sqlite_master WHERE name='sqlite_autoindex_samples_1'").value_or(0) > 0) {
        static const char *columns = "id, sample_key, name, task_id, backend, origin, model, temperature, attempt, "
                                     "has_answer, code_hash, code_bytes, status, speedup, review, cluster_id, "
                                     "import_id, created_at";
        db.exec(R"SQL(
CREATE TABLE samples_v4(
  id INTEGER PRIMARY KEY,
  sample_key TEXT NOT NULL,
  name TEXT NOT NULL,
  task_id INTEGER NOT NULL REFERENCES tasks(id),
  backend TEXT NOT NULL,
  origin TEXT NOT NULL,
  model TEXT,
  temperature REAL,
  attempt INTEGER,
  has_answer INTEGER NOT NULL,
  code_hash TEXT,
  code_bytes INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'PENDING',
  speedup REAL,
  review TEXT NOT NULL DEFAULT 'none',
  cluster_id INTEGER,
  import_id INTEGER,
  created_at INTEGER NOT NULL
);
)SQL");
        db.exec(std::string("INSERT INTO samples_v4(") + columns + ") SELECT " + columns + " FROM samples");
        db.exec("DROP TABLE samples; ALTER TABLE samples_v4 RENAME TO samples;");
    }
    createSampleIndices(db, missingSampleIndices(db));
}

// Version 5: samples_speedup and samples_cluster index only the samples that have a speedup or a
// cluster. Until the verifier and dedup run, none has; an index of their NULLs served no query (a lookup
// by value, or the values part of a sort, see ui/data/corpusqueries.cpp) and cost each large import a second.
void v5(db::Database &db)
{
    db.exec("DROP INDEX IF EXISTS samples_speedup; DROP INDEX IF EXISTS samples_cluster;");
    createSampleIndices(db, missingSampleIndices(db));
}

// Version 6: task hygiene, one row per task: what `sieve-cli tasks check` found running the reference
// (on a GPU at its real shapes, or shrunk on the CPU), or what the importer found in its imports
// (core/tasks/taskhygiene.h). tasks.flags stays what the importer and the last verify run wrote.
void v6(db::Database &db)
{
    db.exec(R"SQL(
CREATE TABLE IF NOT EXISTS task_hygiene(
  task_id INTEGER PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
  state TEXT NOT NULL,
  codes TEXT NOT NULL DEFAULT '',
  device TEXT NOT NULL,
  checked_at INTEGER NOT NULL,
  report_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS task_hygiene_state ON task_hygiene(state);
)SQL");
}

// Version 7: what the teacher says about samples besides sampling them (core/store/teacherstore.h). One
// judge suggestion per sample (sieve-cli judge) and teacher-written reasoning (sieve-cli explain), each
// with its provenance. Neither touches samples, verdicts or sample_payloads: a suggestion never changes
// the verifier's verdict, and a teacher's explanation is never mixed up with a sample's own trace. The
// judge filters (select/export --judge, stats) read the (verdict, sample_id) index only; the answer and
// the details sit last in the row.
void v7(db::Database &db)
{
    db.exec(R"SQL(
CREATE TABLE IF NOT EXISTS judge_suggestions(
  sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  rubric TEXT NOT NULL,
  rubric_hash TEXT NOT NULL,
  verdict TEXT NOT NULL,
  confidence REAL,
  created_at INTEGER NOT NULL,
  details_json TEXT NOT NULL DEFAULT '{}',
  answer BLOB
);
CREATE INDEX IF NOT EXISTS judge_suggestions_verdict ON judge_suggestions(verdict);
CREATE TABLE IF NOT EXISTS teacher_reasoning(
  sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  prompt TEXT NOT NULL,
  prompt_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  reasoning BLOB NOT NULL,
  response BLOB
);
)SQL");
}
} // namespace

void dropSampleIndices(db::Database &db, bool keyed)
{
    for (const IndexDef &ix : kSampleIndices)
        if (keyed || !ix.keyed)
            db.exec(std::string("DROP INDEX IF EXISTS ") + ix.name);
}

bool ensureSampleIndices(db::Database &db)
{
    const std::vector<const IndexDef *> missing = missingSampleIndices(db);
    if (missing.empty())
        return true;
    try {
        // One transaction per index: a WAL checkpoint running alongside (core/db/walcheckpointer.h) copies
        // each back while the next one is built.
        IndexBuildSettings settings(db);
        for (const IndexDef *ix : missing) {
            settings.before(*ix);
            db::Transaction tx(db);
            createSampleIndex(db, *ix);
            tx.commit();
        }
        return true;
    } catch (const db::Error &e) {
        if ((e.code() & 0xff) == SQLITE_BUSY || (e.code() & 0xff) == SQLITE_LOCKED)
            return false;
        throw;
    }
}

void requireSampleKeyIndex(db::Database &db)
{
    createSampleIndices(db, missingSampleIndices(db, true));
}

const std::vector<Migration> &migrations()
{
    static const std::vector<Migration> steps = {
        {1, v1}, {2, v2}, {3, v3}, {4, v4}, {5, v5}, {6, v6}, {7, v7},
    };
    return steps;
}

int version(const db::Database &db)
{
    const bool hasMeta =
        db.queryInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'").value_or(0) > 0;
    if (!hasMeta) {
        const auto tables = db.queryInt("SELECT count(*) FROM sqlite_master").value_or(0);
        if (tables > 0)
            throw db::Error("'" + db.path() + "' is an SQLite file but not a Sieve corpus (no meta table)", 0);
        return 0;
    }
    const auto v = db.queryText("SELECT value FROM meta WHERE key='schema_version'");
    if (!v)
        throw db::Error("'" + db.path() + "' has a meta table without schema_version", 0);
    return std::stoi(*v);
}

void migrate(db::Database &db, int target)
{
    const int current = version(db);
    if (current > Corpus::kSchemaVersion)
        throw db::Error("'" + db.path() + "' has schema version " + std::to_string(current) +
                            ", newer than this Sieve (" + std::to_string(Corpus::kSchemaVersion) + ")",
                        0);
    if (current >= target)
        return;
    // A step may rebuild a table (v4): with foreign keys on, dropping the old one would delete every row
    // that references it. The pragma is a no-op inside a transaction, so it is set around it, and the
    // references are checked before the commit instead.
    const bool foreignKeys = db.queryInt("PRAGMA foreign_keys").value_or(0) != 0;
    if (foreignKeys)
        db.exec("PRAGMA foreign_keys=OFF");
    struct Restore
    {
        db::Database &db;
        bool on;
        ~Restore()
        {
            try {
                if (on)
                    db.exec("PRAGMA foreign_keys=ON");
            } catch (const db::Error &) {
                // Only a closed or broken connection refuses it; Corpus::configure sets it on every open.
            }
        }
    } restore{db, foreignKeys};
    db::Transaction tx(db);
    for (const Migration &m : migrations()) {
        if (m.toVersion <= current || m.toVersion > target)
            continue;
        m.apply(db);
        db.prepare("INSERT INTO meta(key, value) VALUES('schema_version', ?1) "
                   "ON CONFLICT(key) DO UPDATE SET value=excluded.value")
            .bind(1, std::to_string(m.toVersion))
            .run();
    }
    db::Statement broken = db.prepare("PRAGMA foreign_key_check");
    if (broken.step())
        throw db::Error("'" + db.path() + "': migrating to schema version " + std::to_string(target) +
                            " would leave table " + broken.text(0) + " row " + std::to_string(broken.int64(1)) +
                            " pointing at a missing " + broken.text(2) + " row; nothing was changed",
                        0);
    broken.reset();
    tx.commit();
}

} // namespace schema

namespace {
std::string randomHex128()
{
    std::random_device rd;
    static const char *digits = "0123456789abcdef";
    std::string s;
    for (int i = 0; i < 4; ++i) {
        std::uint32_t v = rd();
        for (int j = 0; j < 8; ++j, v >>= 4)
            s += digits[v & 15];
    }
    return s;
}

// A random identity, meta 'corpus_id', given when the file is created or first opened read-write by a
// Sieve that knows it. A copy keeps it; shard results name it, so that `sieve-cli merge` can tell results
// of this corpus from another's (gpu/shard/shard.h). Not a schema change: meta is a key-value table, and
// files without the key work as before.
void ensureCorpusId(db::Database &db)
{
    if (db.queryText("SELECT value FROM meta WHERE key='corpus_id'"))
        return;
    try {
        db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES('corpus_id', ?1)").bind(1, randomHex128()).run();
    } catch (const db::Error &) {
        // A file that cannot be written (read-only medium, a busy writer) opened as before; it gets its
        // id the next time it can be.
    }
}
void registerPayloadDictionaries(const db::Database &db)
{
    db::Statement st = db.prepare("SELECT id, dict FROM payload_dicts");
    while (st.step()) {
        try {
            payload::registerDictionary(st.blob(1));
        } catch (const std::runtime_error &e) {
            throw db::Error("'" + db.path() + "', payload_dicts row " + std::to_string(st.int64(0)) + ": " + e.what(),
                            0);
        }
    }
}
} // namespace

std::uint32_t Corpus::payloadDictionary() const
{
    return static_cast<std::uint32_t>(
        m_db.queryInt("SELECT id FROM payload_dicts ORDER BY created_at DESC, rowid DESC LIMIT 1").value_or(0));
}

void Corpus::addPayloadDictionary(std::string_view dictionary, std::int64_t trainedOn,
                                  std::optional<std::int64_t> importId)
{
    payload::registerDictionary(dictionary);
    m_db.prepare("INSERT OR IGNORE INTO payload_dicts(id, dict, trained_on, import_id, created_at) VALUES(?1, ?2, ?3, "
                 "?4, ?5)")
        .bind(1, static_cast<std::int64_t>(payload::dictionaryId(dictionary)))
        .bindBlob(2, dictionary)
        .bind(3, trainedOn)
        .bind(4, importId)
        .bind(5, unixNow())
        .run();
}

void Corpus::configure(db::Database &db)
{
    db.exec("PRAGMA foreign_keys=ON");
    db.exec("PRAGMA synchronous=NORMAL");
}

Corpus Corpus::create(const std::string &path)
{
    if (std::filesystem::exists(path) && std::filesystem::file_size(path) > 0)
        throw db::Error("'" + path + "' already exists", 0);
    db::Database db(path, db::Database::Mode::Create);
    db.exec("PRAGMA page_size=8192");
    db.exec("PRAGMA journal_mode=WAL");
    configure(db);
    schema::migrate(db);
    db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES('created_by', ?1)")
        .bind(1, std::string("sieve ") + SIEVE_VERSION)
        .run();
    ensureCorpusId(db);
    return Corpus(std::move(db));
}

Corpus Corpus::open(const std::string &path, bool readOnly, bool anyVersion)
{
    if (!std::filesystem::exists(path))
        throw db::Error("'" + path + "' does not exist (create it with 'sieve-cli init')", 0);
    // Read-only and damaged files (core/db/corpusfile.h): say so before SQLite does.
    if (!readOnly)
        corpusfile::requireWritable(path);
    db::Database db = readOnly ? corpusfile::openForReading(path) : db::Database(path, db::Database::Mode::ReadWrite);
    corpusfile::checkHeader(db);
    if (!readOnly && sqlite3_db_readonly(db.handle(), "main") == 1)
        corpusfile::refuseWrite(path, "SQLite could open it for reading only");
    db.exec("PRAGMA cell_size_check=ON"); // damaged pages found as they are read, not written over
    corpusfile::checkIntegrity(db, !readOnly);
    if (!readOnly) {
        db.exec("PRAGMA journal_mode=WAL");
        configure(db);
        schema::migrate(db);
        if (!importRunning(path)) // a running import rebuilds the indices it dropped when it ends
            schema::ensureSampleIndices(db);
        ensureCorpusId(db);
    } else {
        const int v = schema::version(db);
        if (v > kSchemaVersion || (v != kSchemaVersion && !anyVersion))
            throw db::Error("'" + path + "' has schema version " + std::to_string(v) + ", this Sieve reads version " +
                                std::to_string(kSchemaVersion) +
                                (v < kSchemaVersion ? "; migrate it first with 'sieve-cli migrate " + path + "'" : ""),
                            0);
        if (v < 3)
            return Corpus(std::move(db)); // as it is: no payload_dicts before version 3
    }
    registerPayloadDictionaries(db);
    return Corpus(std::move(db));
}

int Corpus::schemaVersion() const
{
    return schema::version(m_db);
}

void Corpus::tuneForBulkWrites()
{
    m_db.exec("PRAGMA cache_size=-65536");
    m_db.exec("PRAGMA temp_store=MEMORY");
    m_db.exec("PRAGMA wal_autocheckpoint=" + std::to_string(kBulkAutoCheckpoint));
}

} // namespace sieve
