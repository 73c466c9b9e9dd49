// Fixture files of every earlier schema version must open (and migrate) with their data intact.
// tests/data/schema/vN.sieve was written by sieve-cli at schema version N (see tests/data/schema/README.md).
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace sieve;

namespace {
// A copy of tests/data/schema/vN.sieve (never touch the committed file), checked to be at version N.
std::string fixtureCopy(const test::TempDir &dir, int version)
{
    const std::string name = "v" + std::to_string(version) + ".sieve", copy = dir.file(name);
    std::filesystem::copy_file(test::testData("schema/" + name), copy);
    db::Database raw(copy, db::Database::Mode::ReadOnly);
    EXPECT_EQ(raw.queryText("SELECT value FROM meta WHERE key='schema_version'").value_or(""), std::to_string(version));
    return copy;
}
} // namespace

TEST(SchemaFixture, VersionOneOpensWithItsData)
{
    test::TempDir dir;
    Corpus c = Corpus::open(fixtureCopy(dir, 1));
    EXPECT_EQ(c.schemaVersion(), Corpus::kSchemaVersion);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM tasks").value_or(-1), 4);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples").value_or(-1), 7);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM external_verdicts").value_or(-1), 3);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM imports WHERE finished_at IS NOT NULL").value_or(-1), 2);
    EXPECT_EQ(c.db().queryText("SELECT shapes_json FROM tasks WHERE name='t/double'").value_or(""),
              "[{\"N\":7},{\"N\":1000}]");
    db::Statement st = c.db().prepare(
        "SELECT p.code FROM sample_payloads p JOIN samples s ON s.id = p.sample_id WHERE s.name = 'code-1'");
    ASSERT_TRUE(st.step());
    EXPECT_NE(payload::unpack(st.blob(0)).find("class ModelNew(nn.Module)"), std::string::npos);
}

TEST(SchemaFixture, VersionTwoOpensWithItsData)
{
    test::TempDir dir;
    const std::string copy = fixtureCopy(dir, 2);
    EXPECT_EQ(db::Database(copy, db::Database::Mode::ReadOnly)
                  .queryInt("SELECT count(*) FROM sqlite_master WHERE name='payload_dicts'"),
              0);
    Corpus c = Corpus::open(copy);
    EXPECT_EQ(c.schemaVersion(), Corpus::kSchemaVersion);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM tasks").value_or(-1), 4);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples").value_or(-1), 7);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM reviews").value_or(-1), 1);
    EXPECT_EQ(c.db().queryText("SELECT review FROM samples WHERE name='code-1'").value_or(""), "accepted");
    // Version 3 added the (empty) dictionary table; version 2's blobs need none.
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM payload_dicts").value_or(-1), 0);
    EXPECT_EQ(c.payloadDictionary(), 0u);
    db::Statement st = c.db().prepare("SELECT code FROM sample_payloads WHERE code IS NOT NULL");
    int n = 0;
    while (st.step()) {
        EXPECT_FALSE(payload::unpack(st.blob(0)).empty());
        ++n;
    }
    EXPECT_GT(n, 0);
}

TEST(SchemaFixture, VersionThreeRebuildsSamplesWithANamedKeyIndexAndKeepsWhatPointsAtThem)
{
    test::TempDir dir;
    const std::string copy = fixtureCopy(dir, 3);
    EXPECT_EQ(db::Database(copy, db::Database::Mode::ReadOnly)
                  .queryInt("SELECT count(*) FROM sqlite_master WHERE name='sqlite_autoindex_samples_1'"),
              1);
    Corpus c = Corpus::open(copy);
    EXPECT_EQ(c.schemaVersion(), Corpus::kSchemaVersion);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM sqlite_master WHERE name='sqlite_autoindex_samples_1'"), 0);
    EXPECT_EQ(c.db().queryText("SELECT sql FROM sqlite_master WHERE name='samples_key'").value_or(""),
              "CREATE UNIQUE INDEX samples_key ON samples(sample_key)");
    EXPECT_EQ(c.db().queryInt("PRAGMA foreign_keys"), 1) << "on again after the migration";
    EXPECT_FALSE(c.db().prepare("PRAGMA foreign_key_check").step());
    // Rebuilding the table cascaded nowhere: the payloads, verdicts and review that point at samples stay.
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples").value_or(-1), 7);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM sample_payloads").value_or(-1), 7);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM external_verdicts").value_or(-1), 3);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM reviews").value_or(-1), 1);
    EXPECT_EQ(c.db().queryText("SELECT review FROM samples WHERE name='code-1'").value_or(""), "accepted");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples s JOIN sample_payloads p ON p.sample_id = s.id"), 7);
    // The key is still unique.
    EXPECT_THROW(c.db().exec("INSERT INTO samples(sample_key, name, task_id, backend, origin, has_answer, created_at) "
                             "SELECT sample_key, 'copy', task_id, backend, origin, has_answer, 0 FROM samples LIMIT 1"),
                 db::Error);
}

TEST(SchemaFixture, VersionFourIndexesOnlyTheSpeedupsAndClustersThatExist)
{
    test::TempDir dir;
    const std::string copy = fixtureCopy(dir, 4);
    Corpus c = Corpus::open(copy);
    EXPECT_EQ(c.schemaVersion(), Corpus::kSchemaVersion);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    EXPECT_EQ(c.db().queryText("SELECT sql FROM sqlite_master WHERE name='samples_speedup'").value_or(""),
              "CREATE INDEX samples_speedup ON samples(speedup) WHERE speedup IS NOT NULL");
    EXPECT_EQ(c.db().queryText("SELECT sql FROM sqlite_master WHERE name='samples_cluster'").value_or(""),
              "CREATE INDEX samples_cluster ON samples(cluster_id) WHERE cluster_id IS NOT NULL");
    // The fixture's dedup run put 6 of its 7 samples in 3 clusters; the review stays.
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples").value_or(-1), 7);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples INDEXED BY samples_cluster WHERE cluster_id = 2"), 2);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples WHERE cluster_id IS NULL"), 1);
    EXPECT_EQ(c.db().queryText("SELECT review FROM samples WHERE name='code-1'").value_or(""), "accepted");
    // A lookup by value, and the values part of a sort, still go through them.
    auto plan = [&](const std::string &sql) {
        db::Statement st = c.db().prepare("EXPLAIN QUERY PLAN " + sql);
        std::string out;
        while (st.step())
            out += st.text(3) + "\n";
        return out;
    };
    EXPECT_NE(plan("SELECT id FROM samples WHERE cluster_id = ?1").find("samples_cluster"), std::string::npos);
    EXPECT_NE(plan("SELECT id FROM samples WHERE speedup IS NOT NULL ORDER BY speedup DESC, id DESC LIMIT 5")
                  .find("samples_speedup"),
              std::string::npos);
}

TEST(SchemaFixture, VersionFiveGetsAnEmptyTaskHygieneTableAndKeepsItsTasks)
{
    test::TempDir dir;
    const std::string copy = fixtureCopy(dir, 5);
    EXPECT_EQ(db::Database(copy, db::Database::Mode::ReadOnly)
                  .queryInt("SELECT count(*) FROM sqlite_master WHERE name='task_hygiene'"),
              0);
    Corpus c = Corpus::open(copy);
    EXPECT_EQ(c.schemaVersion(), Corpus::kSchemaVersion);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM tasks").value_or(-1), 4);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples").value_or(-1), 7);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM task_hygiene").value_or(-1), 0);
    // A hygiene row belongs to its task: it goes with it.
    c.db().exec("INSERT INTO task_hygiene(task_id, state, codes, device, checked_at, report_json) "
                "SELECT id, 'ok', '', 'cpu', 0, '{}' FROM tasks WHERE name='t/double'");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM task_hygiene h JOIN tasks t ON t.id=h.task_id").value_or(-1), 1);
    EXPECT_EQ(c.db().queryText("SELECT review FROM samples WHERE name='code-1'").value_or(""), "accepted");
}

TEST(SchemaFixture, VersionSixGetsEmptyTeacherTablesThatBelongToTheirSamples)
{
    test::TempDir dir;
    const std::string copy = fixtureCopy(dir, 6);
    EXPECT_EQ(db::Database(copy, db::Database::Mode::ReadOnly)
                  .queryInt("SELECT count(*) FROM sqlite_master WHERE name IN ('judge_suggestions', "
                            "'teacher_reasoning')"),
              0);
    Corpus c = Corpus::open(copy);
    EXPECT_EQ(c.schemaVersion(), Corpus::kSchemaVersion);
    EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM samples").value_or(-1), 7);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM judge_suggestions").value_or(-1), 0);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM teacher_reasoning").value_or(-1), 0);
    EXPECT_EQ(c.db().queryText("SELECT review FROM samples WHERE name='code-1'").value_or(""), "accepted");
    // Both belong to their sample: deleting it takes them along; neither touches the sample's own rows.
    c.db().exec("INSERT INTO judge_suggestions(sample_id, model, rubric, rubric_hash, verdict, confidence, created_at) "
                "SELECT id, 'm', 'judge', 'h', 'implements', 0.5, 0 FROM samples WHERE name='code-1'");
    c.db().exec("INSERT INTO teacher_reasoning(sample_id, model, prompt, prompt_hash, created_at, reasoning) "
                "SELECT id, 'm', 'explain', 'h', 0, x'00' FROM samples WHERE name='code-1'");
    EXPECT_THROW(c.db().exec("INSERT INTO judge_suggestions(sample_id, model, rubric, rubric_hash, verdict, "
                             "created_at) VALUES(99999, 'm', 'judge', 'h', 'wrong', 0)"),
                 db::Error);
    c.db().exec("DELETE FROM reviews; DELETE FROM samples WHERE name='code-1'");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM judge_suggestions").value_or(-1), 0);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM teacher_reasoning").value_or(-1), 0);
}

TEST(SchemaFixture, ReadOnlyCommandsPointAtMigrateWhichUpgradesTheFile)
{
    test::TempDir dir;
    const std::string copy = fixtureCopy(dir, 2);
    const auto refused = test::runCli({"stats", copy});
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_NE(refused.err.find("schema version 2"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("sieve-cli migrate " + copy), std::string::npos) << refused.err;

    const auto migrated = test::runCli({"migrate", copy});
    EXPECT_EQ(migrated.exitCode, 0) << migrated.err;
    EXPECT_NE(migrated.out.find("from schema version 2 to " + std::to_string(Corpus::kSchemaVersion)),
              std::string::npos)
        << migrated.out;
    const auto stats = test::runCli({"stats", copy, "--json"});
    EXPECT_EQ(stats.exitCode, 0) << stats.err;
    const auto again = test::runCli({"migrate", copy});
    EXPECT_EQ(again.exitCode, 0);
    EXPECT_NE(again.out.find("already"), std::string::npos) << again.out;
}
