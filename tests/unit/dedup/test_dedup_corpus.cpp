#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/dedup/dedup_corpus.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sieve;

namespace {

std::int64_t addTask(Corpus &c, const std::string &name)
{
    c.db().prepare("INSERT INTO tasks(task_key, name, created_at) VALUES(?1, ?1, 0)").bind(1, name).run();
    return c.db().lastInsertId();
}

std::int64_t addSample(Corpus &c, std::int64_t task, const std::string &name, const std::string &code,
                       const std::string &status = "PENDING", std::optional<double> speedup = {},
                       const std::string &review = "none")
{
    c.db()
        .prepare("INSERT INTO samples(sample_key, name, task_id, backend, origin, has_answer, status, speedup, review, "
                 "created_at) VALUES(?1, ?1, ?2, 'triton', 'test', 1, ?3, ?4, ?5, 0)")
        .bind(1, name)
        .bind(2, task)
        .bind(3, status)
        .bind(4, speedup)
        .bind(5, review)
        .run();
    const std::int64_t id = c.db().lastInsertId();
    c.db()
        .prepare("INSERT INTO sample_payloads(sample_id, code) VALUES(?1, ?2)")
        .bind(1, id)
        .bindBlob(2, payload::pack(code))
        .run();
    return id;
}

std::string fixture(const std::string &name)
{
    return test::readFile(test::testData("dedup/" + name));
}

std::int64_t clusterOf(Corpus &c, std::int64_t sample)
{
    return c.db().queryInt("SELECT cluster_id FROM samples WHERE id = " + std::to_string(sample)).value_or(-1);
}
std::int64_t representativeOf(Corpus &c, std::int64_t cluster)
{
    return c.db().queryInt("SELECT representative_id FROM clusters WHERE id = " + std::to_string(cluster)).value_or(-1);
}

} // namespace

TEST(DedupCorpus, StoresClustersForRmsnormVariants)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto t = addTask(c, "rmsnorm");
    const auto a = addSample(c, t, "a", fixture("rmsnorm_a.py"));
    const auto b = addSample(c, t, "b", fixture("rmsnorm_b.py"));
    const auto cc = addSample(c, t, "c", fixture("rmsnorm_c.py"));
    const auto copy = addSample(c, t, "copy", fixture("rmsnorm_a_copy.py"));
    const DedupReport r = dedupCorpus(c, {});
    EXPECT_EQ(r.samples, 4u);
    EXPECT_EQ(r.clusters.size(), 3u);
    EXPECT_EQ(clusterOf(c, copy), clusterOf(c, a));
    EXPECT_NE(clusterOf(c, a), clusterOf(c, b));
    EXPECT_NE(clusterOf(c, a), clusterOf(c, cc));
    EXPECT_NE(clusterOf(c, b), clusterOf(c, cc));
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM cluster_members").value_or(0), 4);
    EXPECT_EQ(c.db().queryInt("SELECT size FROM clusters WHERE id = " + std::to_string(clusterOf(c, a))).value_or(0),
              2);
    EXPECT_EQ(c.db().queryText("SELECT scope FROM clusters LIMIT 1").value_or(""), "task");
}

TEST(DedupCorpus, RepresentativeFollowsTheRule)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto t = addTask(c, "rmsnorm");
    const std::string code = fixture("rmsnorm_a.py");
    const auto failing = addSample(c, t, "failing", code, "FAIL_CORRECT");
    const auto slow = addSample(c, t, "slow", code, "PASS", 1.2);
    const auto fast = addSample(c, t, "fast", code, "PASS", 1.5);
    const auto rejected = addSample(c, t, "rejected", code, "PASS", 3.0, "rejected");
    dedupCorpus(c, {});
    const auto cluster = clusterOf(c, failing);
    ASSERT_EQ(clusterOf(c, rejected), cluster);
    EXPECT_EQ(representativeOf(c, cluster), fast); // passing over failing, faster over slower, rejected last
    (void)slow;

    // A reviewer accepts the failing one: accepted beats unreviewed whatever the status.
    c.db().exec("UPDATE samples SET review = 'accepted' WHERE id = " + std::to_string(failing));
    EXPECT_EQ(refreshRepresentatives(c, {cluster}), std::vector<std::int64_t>{cluster});
    EXPECT_EQ(representativeOf(c, cluster), failing);
    EXPECT_TRUE(refreshRepresentatives(c, {cluster}).empty()); // nothing changed since

    // Ties fall to the earliest sample.
    c.db().exec("UPDATE samples SET review = 'none', status = 'PASS', speedup = NULL");
    refreshRepresentatives(c, {cluster});
    EXPECT_EQ(representativeOf(c, cluster), failing);
}

TEST(DedupCorpus, NewSamplesJoinOrCreateClustersIncrementally)
{
    test::TempDir dir;
    Corpus c = Corpus::create(dir.file("c.sieve"));
    const auto t = addTask(c, "rmsnorm");
    const auto other = addTask(c, "vector_add");
    const auto a = addSample(c, t, "a", fixture("rmsnorm_a.py"));
    const auto b = addSample(c, t, "b", fixture("rmsnorm_b.py"));
    const auto v = addSample(c, other, "v", fixture("vector_add.cu"));
    dedupCorpus(c, {});
    const auto clusterA = clusterOf(c, a), clusterB = clusterOf(c, b), clusterV = clusterOf(c, v);

    const auto edit = addSample(c, t, "edit", fixture("rmsnorm_a_edit.py"), "PASS", 2.0);
    const auto cc = addSample(c, t, "c", fixture("rmsnorm_c.py"));
    const DedupReport r = updateClusters(c, {}, {edit, cc});
    EXPECT_EQ(r.samples, 4u); // only the task that got new samples
    EXPECT_EQ(clusterOf(c, edit), clusterA);
    EXPECT_EQ(clusterOf(c, b), clusterB);
    EXPECT_EQ(clusterOf(c, v), clusterV);
    EXPECT_NE(clusterOf(c, cc), clusterA);
    EXPECT_NE(clusterOf(c, cc), clusterB);
    EXPECT_GT(clusterOf(c, cc), 0);
    EXPECT_EQ(representativeOf(c, clusterA), edit); // it passed; a has no verdict yet
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM clusters").value_or(0), 4);
}

TEST(DedupCorpus, CliPrintsClustersAndDryRunWritesNothing)
{
    test::TempDir dir;
    const std::string path = dir.file("c.sieve");
    std::int64_t a = 0;
    {
        Corpus c = Corpus::create(path);
        const auto t = addTask(c, "rmsnorm");
        a = addSample(c, t, "a", fixture("rmsnorm_a.py"));
        addSample(c, t, "b", fixture("rmsnorm_b.py"));
        addSample(c, t, "copy", fixture("rmsnorm_a_copy.py"));
    }
    const auto dry = test::runCli({"dedup", path, "--dry-run", "--json"});
    ASSERT_EQ(dry.exitCode, 0) << dry.err;
    const auto j = nlohmann::json::parse(dry.out);
    EXPECT_EQ(j["samples"], 3);
    EXPECT_EQ(j["clusters"], 2);
    EXPECT_EQ(j["duplicates"], 1);
    ASSERT_EQ(j["duplicate_clusters"].size(), 1u);
    EXPECT_EQ(j["duplicate_clusters"][0]["representative"], a);
    EXPECT_EQ(j["duplicate_clusters"][0]["members"][1]["similarity"], 1.0);
    EXPECT_EQ(Corpus::open(path).db().queryInt("SELECT count(*) FROM clusters").value_or(-1), 0);

    const auto run = test::runCli({"dedup", path, "--threshold", "0.9", "--scope", "global"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("3 samples in 2 clusters"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("representative " + std::to_string(a)), std::string::npos) << run.out;
    EXPECT_EQ(Corpus::open(path).db().queryInt("SELECT count(*) FROM clusters WHERE scope = 'global'").value_or(-1), 2);

    const auto bad = test::runCli({"dedup", path, "--scope", "world"});
    EXPECT_EQ(bad.exitCode, 2);
}
