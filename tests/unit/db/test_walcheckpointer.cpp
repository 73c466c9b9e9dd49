// db::WalCheckpointer: a bulk writer's checkpoints run on another connection and thread, and the WAL
// still rewinds once it reaches its bound.
#include "core/db/corpus.h"
#include "core/db/walcheckpointer.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace sieve;

TEST(WalCheckpointer, CheckpointsInTheBackgroundAndKeepsTheWalBounded)
{
    test::TempDir dir;
    const std::string path = dir.file("c.sieve");
    Corpus c = Corpus::create(path);
    db::Database &db = c.db();
    db.exec("CREATE TABLE bulk(id INTEGER PRIMARY KEY, body BLOB)");
    const std::string body(3000, 'b');
    std::uintmax_t largestWal = 0;
    std::uint64_t background = 0, writer = 0;
    {
        db::WalCheckpointer checkpointer(db, 256, 1000);
        db::Statement ins = db.prepare("INSERT INTO bulk(body) VALUES(?1)");
        for (int t = 0; t < 200; ++t) {
            db::Transaction tx(db);
            for (int i = 0; i < 40; ++i) { // about 15 pages of 8 KiB per transaction
                ins.reset();
                ins.bindBlob(1, body).run();
            }
            tx.commit();
            largestWal = std::max(largestWal, std::filesystem::file_size(path + "-wal"));
        }
        background = checkpointer.backgroundRuns();
        writer = checkpointer.writerRuns();
    }
    EXPECT_GT(background, 0u);
    // 200 transactions of ~15 pages against a bound of 256 pages: the writer steps in now and then.
    EXPECT_GE(writer, 5u);
    EXPECT_LT(writer, 200u);
    // The WAL rewound instead of holding all 3,000 pages: at most the bound plus a transaction or two.
    EXPECT_LT(largestWal, std::uintmax_t(400) * 8192);
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM bulk"), 8000);
    EXPECT_EQ(db.queryText("PRAGMA integrity_check").value_or(""), "ok");
    // SQLite's own checkpointing is back, with the threshold asked for.
    EXPECT_EQ(db.queryInt("PRAGMA wal_autocheckpoint"), 1000);
}
