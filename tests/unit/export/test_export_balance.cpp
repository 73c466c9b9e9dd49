// Balance in export: quotas by backend, hard tasks up-weighted, a curriculum order (easy -> hard), each
// recorded in the manifest and read back from it.
#include "core/export/export.h"
#include "core/select/selection.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace sieve;

namespace {

std::vector<nlohmann::json> readRows(const std::string &path)
{
    std::vector<nlohmann::json> rows;
    std::istringstream in(test::readFile(path));
    for (std::string line; std::getline(in, line);)
        rows.push_back(nlohmann::json::parse(line));
    return rows;
}

std::string makeDemo(test::TempDir &dir)
{
    const std::string path = dir.file("c.sieve");
    Corpus c = Corpus::create(path);
    test::buildDemo(c);
    return path;
}

int rank(const std::string &difficulty)
{
    return difficulty == "easy" ? 0 : difficulty == "unknown" ? 1 : difficulty == "hard" ? 2 : 3;
}

} // namespace

TEST(ExportBalance, QuotaByBackend)
{
    EXPECT_EQ(parseQuota("backend=cuda:3").field, "backend");
    EXPECT_THROW(parseQuota("colour=red:3"), std::invalid_argument);
    test::TempDir dir;
    const std::string db = makeDemo(dir);
    Corpus c = Corpus::open(db, true);
    SelectionOptions o;
    const auto all = selectionSummary(selectSamples(c.db(), o));
    ASSERT_TRUE(all["by_backend"].contains("cuda")) << all;
    o.quotas = {parseQuota("backend=cuda:0")};
    const auto s = selectionSummary(selectSamples(c.db(), o));
    EXPECT_FALSE(s["by_backend"].contains("cuda")) << s;
    EXPECT_EQ(s["by_backend"]["triton"], all["by_backend"]["triton"]);
    EXPECT_EQ(s["excluded"]["quota"], 1) << s; // the cuda task's one passing sample
}

TEST(ExportBalance, HardTasksUpWeightedAndACurriculumOrderRecordedInTheManifest)
{
    test::TempDir dir;
    const std::string db = makeDemo(dir);
    ExportOptions o;
    o.validationFraction = 0;
    exportCorpus(db, dir.file("plain"), o);
    const auto plain = readRows(dir.file("plain/train.jsonl"));
    ASSERT_EQ(plain.size(), 8u);
    int hard = 0;
    bool sorted = true;
    for (std::size_t i = 0; i < plain.size(); ++i) {
        hard += plain[i]["meta"]["difficulty"] == "hard";
        if (i > 0 && rank(plain[i]["meta"]["difficulty"]) < rank(plain[i - 1]["meta"]["difficulty"]))
            sorted = false;
    }
    ASSERT_EQ(hard, 2);   // softmax and conv passed after a failed attempt
    EXPECT_FALSE(sorted); // by task name, difficulties are mixed

    o.hardWeight = 3;
    o.curriculum = true;
    const auto r = exportCorpus(db, dir.file("weighted"), o);
    const auto rows = readRows(dir.file("weighted/train.jsonl"));
    ASSERT_EQ(rows.size(), 8u + 2u * 2u); // each hard row twice more
    for (std::size_t i = 1; i < 8; ++i)
        EXPECT_LE(rank(rows[i - 1]["meta"]["difficulty"]), rank(rows[i]["meta"]["difficulty"])) << i;
    for (std::size_t i = 8; i < rows.size(); ++i)
        EXPECT_EQ(rows[i]["meta"]["difficulty"], "hard") << i; // the copies after the first pass
    EXPECT_EQ(rows[8], rows[6]);
    EXPECT_EQ(r.manifest["parameters"]["hard_weight"], 3);
    EXPECT_EQ(r.manifest["parameters"]["order"], "curriculum");
    EXPECT_EQ(r.manifest["counts"]["train"]["rows"], 12);
    const ExportOptions back = exportOptionsFromManifest(r.manifest, "m");
    EXPECT_EQ(back.hardWeight, 3);
    EXPECT_TRUE(back.curriculum);
    // A manifest from before these options: the defaults.
    auto old = r.manifest;
    old["parameters"].erase("hard_weight");
    old["parameters"].erase("order");
    EXPECT_EQ(exportOptionsFromManifest(old, "m").hardWeight, 1);

    // From the command line, and rebuilt from its manifest byte for byte.
    auto cli =
        test::runCli({"export", db, dir.file("cli"), "--split", "0", "--hard-weight", "3", "--order", "curriculum"});
    ASSERT_EQ(cli.exitCode, 0) << cli.err;
    EXPECT_EQ(test::readFile(dir.file("cli/train.jsonl")), test::readFile(dir.file("weighted/train.jsonl")));
    cli = test::runCli({"export", db, dir.file("cli"), "--manifest", dir.file("cli/manifest.json")});
    EXPECT_EQ(cli.exitCode, 0) << cli.err;
    EXPECT_EQ(test::runCli({"export", db, dir.file("x"), "--hard-weight", "0"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"export", db, dir.file("x"), "--format", "preference", "--order", "curriculum"}).exitCode,
              2);
}

TEST(ExportBalance, NkiRowsExportWithTheirOwnTemplate)
{
    test::TempDir dir;
    const std::string db = dir.file("nki.sieve");
    {
        Corpus c = Corpus::create(db);
        const auto t = test::addTask(c, "nki_add", 1, "elementwise", "nki");
        test::addSample(c, t, {"nki-a1", 1, "UNVERIFIABLE"});
        c.db().exec("UPDATE samples SET review = 'accepted'");
    }
    ExportOptions o;
    o.validationFraction = 0;
    o.selection.require = RequirePolicy::Accepted;
    const auto r = exportCorpus(db, dir.file("out"), o);
    const auto rows = readRows(dir.file("out/train.jsonl"));
    ASSERT_EQ(rows.size(), 1u);
    const std::string prompt = rows[0]["messages"][1]["content"];
    EXPECT_NE(prompt.find("custom NKI (AWS Neuron Kernel Interface) kernels"), std::string::npos) << prompt;
    EXPECT_NE(prompt.find("class Model"), std::string::npos) << prompt;
    EXPECT_TRUE(r.manifest["templates"]["user"].contains("nki")) << r.manifest["templates"];
}
