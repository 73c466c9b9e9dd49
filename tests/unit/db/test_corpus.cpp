#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/util/hashing.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

using namespace sieve;

TEST(Corpus, CreateSetsCurrentSchemaVersionAndWal)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("a.sieve"));
    EXPECT_EQ(c.schemaVersion(), Corpus::kSchemaVersion);
    EXPECT_EQ(c.db().queryText("PRAGMA journal_mode").value_or(""), "wal");
}

TEST(Corpus, CreateRefusesExistingFile)
{
    test::TempDir dir;
    Corpus::create(dir.file("a.sieve"));
    EXPECT_THROW(Corpus::create(dir.file("a.sieve")), db::Error);
}

TEST(Corpus, OpenRejectsForeignSqliteFile)
{
    test::TempDir dir;
    {
        db::Database d(dir.file("x.db"), db::Database::Mode::Create);
        d.exec("CREATE TABLE foo(a)");
    }
    try {
        Corpus::open(dir.file("x.db"));
        FAIL() << "expected an error";
    } catch (const db::Error &e) {
        EXPECT_NE(std::string(e.what()).find("not a Sieve corpus"), std::string::npos) << e.what();
    }
}

TEST(Corpus, OpenRejectsNewerSchema)
{
    test::TempDir dir;
    {
        Corpus c = Corpus::create(dir.file("a.sieve"));
        c.db().exec("UPDATE meta SET value='999' WHERE key='schema_version'");
    }
    EXPECT_THROW(Corpus::open(dir.file("a.sieve")), db::Error);
}

TEST(Corpus, TransactionRollsBackUnlessCommitted)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("a.sieve"));
    {
        db::Transaction tx(c.db());
        c.db().exec("INSERT INTO meta VALUES('k','v')");
    }
    EXPECT_FALSE(c.db().queryText("SELECT value FROM meta WHERE key='k'").has_value());
}

TEST(Payload, RoundTripsSmallAndLargeText)
{
    const std::string small = "x = 1";
    std::string large;
    for (int i = 0; i < 1000; ++i)
        large += "tl.store(y_ptr + offs, x, mask=mask)  # line " + std::to_string(i) + "\n";
    EXPECT_EQ(payload::unpack(payload::pack(small)), small);
    const std::string packed = payload::pack(large);
    EXPECT_LT(packed.size(), large.size() / 4);
    EXPECT_EQ(payload::unpack(packed), large);
    EXPECT_THROW(payload::unpack("q123"), std::runtime_error);
}

TEST(Payload, BlobsPackedAtAnotherZstdLevelStillUnpack)
{
    // Corpora written before pack() moved from zstd level 3 to a faster one hold level-3 frames; a
    // zstd frame decodes whatever level made it. This one is `zstd -3` of the text below.
    std::string text = "import triton\nimport triton.language as tl\n";
    for (int i = 0; i < 6; ++i)
        text += "# line " + std::to_string(i) + ": load, clamp at zero, store\n";
    const char *hex = "28b52ffd640900ad02007204101790c5396ba114b8b233222a4d72d713dbfffab696bc7c4ac86114c4696ef349bd"
                      "80f766eaa8f82c4f7432f856420706d7ed3e74005a47c1acdca4ebd5642a050700e09680bc8064012901b984d4"
                      "0bc53195c5fe3362";
    std::string blob = "z";
    for (const char *p = hex; p[0] && p[1]; p += 2)
        blob.push_back(static_cast<char>(std::stoi(std::string(p, 2), nullptr, 16)));
    EXPECT_EQ(payload::unpack(blob), text);
    EXPECT_EQ(payload::unpack(payload::pack(text)), text);
}

TEST(Hashing, Sha256MatchesKnownVectors)
{
    EXPECT_EQ(hashing::sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hashing::sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(hashing::sha256Hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Hashing, ContentKeySeparatesParts)
{
    EXPECT_NE(hashing::contentKey({"ab", "c"}), hashing::contentKey({"a", "bc"}));
    EXPECT_EQ(hashing::contentKey({"a", "b"}), hashing::contentKey({"a", "b"}));
    EXPECT_EQ(hashing::contentKey({"a"}).size(), 32u);
}

TEST(Cli, InitThenStatsOnEmptyCorpus)
{
    test::TempDir dir;
    const auto init = test::runCli({"init", dir.file("c.sieve")});
    ASSERT_EQ(init.exitCode, 0) << init.err;
    const auto stats = test::runCli({"stats", dir.file("c.sieve"), "--json"});
    ASSERT_EQ(stats.exitCode, 0) << stats.err;
    EXPECT_NE(stats.out.find("\"samples\": 0"), std::string::npos) << stats.out;
}

TEST(Cli, UnknownOptionIsAUsageError)
{
    test::TempDir dir;
    const auto r = test::runCli({"list", dir.file("c.sieve"), "--bogus"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("unknown option --bogus"), std::string::npos) << r.err;
}

TEST(Corpus, NestedTransactionRollsBackOnlyItsOwnWork)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("a.sieve"));
    {
        db::Transaction outer(c.db());
        c.db().exec("INSERT INTO meta VALUES('outer','1')");
        {
            db::Transaction inner(c.db());
            c.db().exec("INSERT INTO meta VALUES('inner','1')");
        }
        outer.commit();
    }
    EXPECT_TRUE(c.db().queryText("SELECT value FROM meta WHERE key='outer'").has_value());
    EXPECT_FALSE(c.db().queryText("SELECT value FROM meta WHERE key='inner'").has_value());
}
