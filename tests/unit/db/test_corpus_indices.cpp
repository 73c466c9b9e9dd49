// The samples indices that a bulk import drops and builds again (schema::dropSampleIndices /
// ensureSampleIndices) must come back exactly as the schema made them, and a large import that checks
// names and keys in memory meanwhile must decide every record as the indexed path does.
#include "core/db/corpus.h"
#include "core/import/importer.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace sieve;

namespace {
std::string sampleIndexSql(db::Database &db)
{
    db::Statement st =
        db.prepare("SELECT group_concat(name || ':' || sql, '\n') FROM (SELECT name, sql FROM sqlite_master "
                   "WHERE type='index' AND tbl_name='samples' AND sql IS NOT NULL ORDER BY name)");
    return st.step() && !st.isNull(0) ? st.text(0) : std::string();
}
} // namespace

TEST(CorpusIndices, DroppedSampleIndicesComeBackAsVersionOneMadeThem)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("a.sieve"));
    const std::string made = sampleIndexSql(c.db());
    for (const char *name :
         {"samples_task", "samples_status", "samples_speedup", "samples_review", "samples_cluster", "samples_name"})
        EXPECT_NE(made.find(std::string(name) + ":CREATE INDEX"), std::string::npos) << name;
    EXPECT_NE(made.find("samples_key:CREATE UNIQUE INDEX"), std::string::npos) << made;

    schema::dropSampleIndices(c.db());
    EXPECT_EQ(sampleIndexSql(c.db()).find("samples_status"), std::string::npos);
    EXPECT_NE(sampleIndexSql(c.db()).find("samples_key"), std::string::npos) << "dropped only when keyed";
    schema::dropSampleIndices(c.db(), true);
    EXPECT_EQ(sampleIndexSql(c.db()), "");
    EXPECT_TRUE(schema::ensureSampleIndices(c.db()));
    // CREATE INDEX IF NOT EXISTS is stored as written; compare the definitions, not the IF NOT EXISTS.
    auto normalise = [](std::string s) {
        for (std::size_t p; (p = s.find("IF NOT EXISTS ")) != std::string::npos;)
            s.erase(p, 14);
        return s;
    };
    EXPECT_EQ(normalise(sampleIndexSql(c.db())), normalise(made));
}

TEST(CorpusIndices, OpeningReadWriteBuildsIndicesThatAKilledImportLeftMissing)
{
    test::TempDir dir;
    const std::string path = dir.file("a.sieve");
    std::string made;
    {
        Corpus c = Corpus::create(path);
        made = sampleIndexSql(c.db());
        schema::dropSampleIndices(c.db());
    }
    {
        Corpus ro = Corpus::open(path, true);
        EXPECT_EQ(sampleIndexSql(ro.db()).find("samples_task"), std::string::npos);
    }
    Corpus c = Corpus::open(path);
    EXPECT_NE(sampleIndexSql(c.db()).find("samples_task"), std::string::npos);
    EXPECT_NE(sampleIndexSql(c.db()).find("samples_cluster"), std::string::npos);
}

TEST(CorpusIndices, ALargeImportIntoAnEmptyCorpusRebuildsThemAndASmallOneKeepsThem)
{
    test::TempDir dir;
    const std::string data = dir.file("s.jsonl");
    {
        std::ofstream out(data);
        out << test::readFile(test::testData("import/sieve_tasks.jsonl"));
        const std::string body(2100, 'k');
        for (int i = 0; i < 12000; ++i)
            out << "{\"sample_id\":\"s" << i << "\",\"task_id\":\"t/double\",\"code\":\"# " << i << ' ' << body
                << "\"}\n";
    }
    Corpus c = Corpus::create(dir.file("a.sieve"));
    const std::string made = sampleIndexSql(c.db());
    const auto big = importFiles(c, ImportFormat::Sieve, {data});
    EXPECT_TRUE(big.indicesRebuilt);
    EXPECT_EQ(big.samplesAdded(), 12000u);
    EXPECT_NE(sampleIndexSql(c.db()).find("samples_review"), std::string::npos);
    // The index is complete: a lookup through it counts every row.
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples INDEXED BY samples_status WHERE status='PENDING'"), 12000);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");

    const auto small = importFiles(c, ImportFormat::Sieve, {test::testData("import/sieve_samples.jsonl")});
    EXPECT_FALSE(small.indicesRebuilt);
}

namespace {
// 12,000 sample rows of about 2.1 KB (a large import: indices deferred), then a few records that the
// name and key checks must catch. Sieve format: every sample is named by its row.
std::string writeSieveRows(const test::TempDir &dir)
{
    const std::string path = dir.file("named.jsonl");
    std::ofstream out(path);
    out << test::readFile(test::testData("import/sieve_tasks.jsonl"));
    const std::string body(2100, 'k');
    auto row = [&](const std::string &name, const std::string &code) {
        out << "{\"sample_id\":\"" << name << "\",\"task_id\":\"t/double\",\"code\":\"" << code << "\"}\n";
    };
    for (int i = 0; i < 12000; ++i)
        row("s" + std::to_string(i), "# " + std::to_string(i) + ' ' + body);
    row("s5", "# 5 " + body);         // the same record again: unchanged
    row("s7", "# changed " + body);   // the same name with other content: rejected
    row("s11999", "# 11999 " + body); // the last one written, again: unchanged
    row("extra", "# extra " + body);  // new
    return path;
}

// cuda-archive rows: samples named by their kernel, not by the row, so a repeated row is caught by its
// content key alone.
std::string writeArchiveRows(const test::TempDir &dir)
{
    std::ifstream in(test::testData("import/cuda_archive.jsonl"));
    std::string first;
    std::getline(in, first);
    nlohmann::json base = nlohmann::json::parse(first);
    const std::string code = base["CUDA_Code"].get<std::string>() + "\n// " + std::string(2000, 'p');
    const std::string path = dir.file("archive.jsonl");
    std::ofstream out(path);
    std::vector<std::string> lines;
    for (int i = 0; i < 11000; ++i) {
        base["Kernel_Name"] = "k" + std::to_string(i);
        base["CUDA_Code"] = code + "\n// variant " + std::to_string(i);
        lines.push_back(base.dump());
        out << lines.back() << '\n';
    }
    out << lines[3] << '\n' << lines[10999] << '\n' << lines[3] << '\n';
    return path;
}

struct Outcome
{
    nlohmann::json counts;
    std::string errors, rows;
};

Outcome importInto(const std::string &db, ImportFormat format, const std::string &data, const ImportOptions &options)
{
    Corpus c = std::filesystem::exists(db) ? Corpus::open(db) : Corpus::create(db);
    const ImportReport r = importFiles(c, format, {data}, options);
    Outcome o;
    o.counts = {r.tasksAdded(), r.samplesAdded(), r.unchanged(), r.rejected(), r.indicesRebuilt};
    for (const auto &f : r.files)
        for (const auto &e : f.errors)
            o.errors += e.text() + "\n";
    db::Statement st = c.db().prepare("SELECT group_concat(name || ' ' || sample_key || ' ' || task_id, ',') "
                                      "FROM (SELECT * FROM samples ORDER BY id)");
    if (st.step() && !st.isNull(0))
        o.rows = st.text(0);
    st.reset();
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM sqlite_master WHERE name IN ('samples_key', 'samples_name')"), 2);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) - count(DISTINCT sample_key) FROM samples"), 0);
    return o;
}

ImportOptions indexed()
{
    ImportOptions o;
    o.deferIndices = false;
    return o;
}
} // namespace

TEST(CorpusIndices, ALargeImportChecksNamesInMemoryAsTheIndexedPathDoes)
{
    test::TempDir dir;
    const std::string data = writeSieveRows(dir);
    const Outcome memory = importInto(dir.file("memory.sieve"), ImportFormat::Sieve, data, {});
    const Outcome index = importInto(dir.file("index.sieve"), ImportFormat::Sieve, data, indexed());
    EXPECT_EQ(memory.counts, nlohmann::json({2, 12001, 2, 1, true}));
    EXPECT_EQ(index.counts, nlohmann::json({2, 12001, 2, 1, false}));
    EXPECT_NE(
        memory.errors.find(":12004: sample_id: sample 's7' of task 't/double' already exists with different content"),
        std::string::npos)
        << memory.errors;
    EXPECT_EQ(memory.errors, index.errors);
    EXPECT_EQ(memory.rows, index.rows);

    // Again into the same corpus: the 12,001 rows already there are loaded and every record is known.
    const Outcome again = importInto(dir.file("memory.sieve"), ImportFormat::Sieve, data, {});
    EXPECT_EQ(again.counts, nlohmann::json({0, 0, 12005, 1, true}));
    EXPECT_EQ(again.rows, memory.rows);
}

TEST(CorpusIndices, ALargeImportChecksKeysInMemoryAsTheIndexedPathDoes)
{
    test::TempDir dir;
    const std::string data = writeArchiveRows(dir);
    const Outcome memory = importInto(dir.file("memory.sieve"), ImportFormat::CudaArchive, data, {});
    const Outcome index = importInto(dir.file("index.sieve"), ImportFormat::CudaArchive, data, indexed());
    // One task (11,002 times unchanged after the first) and 11,000 samples; the three repeated rows are
    // unchanged samples.
    EXPECT_EQ(memory.counts, nlohmann::json({1, 11000, 11002 + 3, 0, true}));
    EXPECT_EQ(index.counts, nlohmann::json({1, 11000, 11002 + 3, 0, false}));
    EXPECT_EQ(memory.rows, index.rows);
}

TEST(CorpusIndices, PastTheMemoryBoundTheImportBuildsTheKeyIndicesAndGoesOnWithThem)
{
    test::TempDir dir;
    const std::string data = writeSieveRows(dir);
    ImportOptions bounded;
    bounded.maxRememberedSamples = 5000;
    bounded.batchRecords = 1000;
    const Outcome memory = importInto(dir.file("bounded.sieve"), ImportFormat::Sieve, data, bounded);
    const Outcome index = importInto(dir.file("index.sieve"), ImportFormat::Sieve, data, indexed());
    EXPECT_EQ(memory.counts, nlohmann::json({2, 12001, 2, 1, true}));
    EXPECT_EQ(memory.errors, index.errors);
    EXPECT_EQ(memory.rows, index.rows);
}

TEST(CorpusIndices, AWriterThatNeedsTheKeyIndexBuildsItInsideItsTransaction)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("a.sieve"));
    schema::dropSampleIndices(c.db(), true);
    {
        db::Transaction tx(c.db());
        schema::requireSampleKeyIndex(c.db());
        tx.commit();
    }
    const std::string sql = sampleIndexSql(c.db());
    EXPECT_NE(sql.find("samples_key:CREATE UNIQUE INDEX"), std::string::npos) << sql;
    EXPECT_NE(sql.find("samples_name:"), std::string::npos) << sql;
    EXPECT_EQ(sql.find("samples_status"), std::string::npos) << "the import's other indices wait for its end";
}

TEST(CorpusIndices, DuplicateKeysThatAForeignWriterLeftAreRemovedSoTheUniqueIndexCanBeBuilt)
{
    test::TempDir dir;
    const std::string path = dir.file("a.sieve");
    {
        Corpus c = Corpus::create(path);
        importFiles(c, ImportFormat::Sieve, {test::testData("import/sieve_tasks.jsonl")});
        schema::dropSampleIndices(c.db(), true);
        // What the sqlite3 shell could do while an import has samples_key dropped.
        c.db().exec(
            "INSERT INTO samples(sample_key, name, task_id, backend, origin, has_answer, created_at) "
            "VALUES ('k1', 'first', 1, 'triton', 'teacher', 1, 0), ('k2', 'other', 1, 'triton', 'teacher', 1, 0), "
            "('k1', 'second', 1, 'triton', 'teacher', 1, 0)");
    }
    Corpus c = Corpus::open(path);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples"), 2);
    EXPECT_EQ(c.db().queryText("SELECT group_concat(name) FROM (SELECT name FROM samples ORDER BY id)").value_or(""),
              "first,other");
    EXPECT_NE(sampleIndexSql(c.db()).find("samples_key:CREATE UNIQUE INDEX"), std::string::npos);
    EXPECT_THROW(c.db().exec("INSERT INTO samples(sample_key, name, task_id, backend, origin, has_answer, created_at) "
                             "VALUES ('k2', 'third', 1, 'triton', 'teacher', 1, 0)"),
                 db::Error);
}
