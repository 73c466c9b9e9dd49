// Schema step 2 (sample_runs, sample_run_items): a version-1 file migrates in place and keeps its rows.
#include "core/db/corpus.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace sieve;

TEST(SchemaSampleRuns, Version1FixtureMigratesAndKeepsRows)
{
    test::TempDir dir;
    const std::string path = dir.file("v1.sieve");
    std::filesystem::copy_file(test::testData("schema/v1.sieve"), path);
    {
        db::Database raw(path, db::Database::Mode::ReadOnly);
        ASSERT_EQ(schema::version(raw), 1);
    }
    Corpus c = Corpus::open(path);
    EXPECT_EQ(c.schemaVersion(), Corpus::kSchemaVersion);
    // The fixture's rows (tests/data/schema/README.md) are still there.
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM tasks").value_or(-1), 4);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples").value_or(-1), 7);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM sample_runs").value_or(-1), 0);
    c.db().exec("INSERT INTO sample_runs(name, mode, endpoint, model, params_json, started_at) "
                "VALUES('r', 'keep-all', 'http://127.0.0.1:1/v1', 'm', '{}', 0)");
    c.db().exec("INSERT INTO sample_run_items(run_id, task_id, attempt, sample_id, created_at) "
                "SELECT 1, task_id, 1, id, 0 FROM samples ORDER BY id LIMIT 1");
    // The key (run, task, attempt) is what makes a resumed run unable to store an attempt twice.
    EXPECT_THROW(c.db().exec("INSERT INTO sample_run_items(run_id, task_id, attempt, created_at) "
                             "SELECT 1, task_id, 1, 0 FROM samples ORDER BY id LIMIT 1"),
                 db::Error);
}

TEST(SchemaSampleRuns, StepIsIdempotent)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("a.sieve"));
    for (const auto &m : schema::migrations()) {
        if (m.toVersion == 2) {
            EXPECT_NO_THROW(m.apply(c.db()));
        }
    }
    EXPECT_EQ(c.db()
                  .queryInt("SELECT count(*) FROM sqlite_master WHERE name IN ('sample_runs','sample_run_items')")
                  .value_or(0),
              2);
}
