// The samples indices that a bulk import drops and builds again (schema::dropSampleIndices /
// ensureSampleIndices) must come back exactly as schema v1 made them.
#include "corpus.h"
#include "importer.h"
#include "testutil.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace sieve;

namespace {
std::string sampleIndexSql(db::Database &db)
{
    db::Statement st = db.prepare(
        "SELECT group_concat(name || ':' || sql, '\n') FROM (SELECT name, sql FROM sqlite_master "
        "WHERE type='index' AND tbl_name='samples' AND sql IS NOT NULL ORDER BY name)");
    return st.step() && !st.isNull(0) ? st.text(0) : std::string();
}
} // namespace

TEST(CorpusIndices, DroppedSampleIndicesComeBackAsVersionOneMadeThem)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("a.sieve"));
    const std::string made = sampleIndexSql(c.db());
    for (const char *name : {"samples_task", "samples_status", "samples_speedup", "samples_review", "samples_cluster"})
        EXPECT_NE(made.find(std::string(name) + ":CREATE INDEX"), std::string::npos) << name;

    schema::dropSampleIndices(c.db());
    EXPECT_EQ(sampleIndexSql(c.db()).find("samples_status"), std::string::npos);
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
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples INDEXED BY samples_status WHERE status='PENDING'"),
              12000);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");

    const auto small = importFiles(c, ImportFormat::Sieve, {test::testData("import/sieve_samples.jsonl")});
    EXPECT_FALSE(small.indicesRebuilt);
}
