// Task augmentation: variants across shapes and dtypes linked to their family, the export's split
// keeping a family together, statistics per family, and `sieve-cli augment` checking each variant's
// reference in the real verifier worker (CPU interpreter).
#include "core/export/export.h"
#include "core/select/stats.h"
#include "core/tasks/augment.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/gpu/test_verify_support.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>

using namespace sieve;

namespace {

const char *kReference =
    "import torch\n\nM = 16\nN = 256\n\nclass Model(torch.nn.Module):\n"
    "    def forward(self, x):\n        return torch.relu(x)\n\n"
    "def get_inputs():\n    assert N % 2 == 0, 'N must be even'\n    return [torch.randn(M, N)]\n\n"
    "def get_init_inputs():\n    return []\n";

std::vector<nlohmann::json> readRows(const std::string &path)
{
    std::vector<nlohmann::json> rows;
    std::istringstream in(test::readFile(path));
    std::string line;
    while (std::getline(in, line))
        rows.push_back(nlohmann::json::parse(line));
    return rows;
}

} // namespace

TEST(Augment, ShapeSetsAndSpecs)
{
    EXPECT_EQ(parseShapeSet("M=128,N=256"), R"([{"M":128,"N":256}])");
    EXPECT_EQ(parseShapeSet("M=7;M=4096, flag=true"), R"([{"M":7},{"M":4096,"flag":true}])");
    EXPECT_EQ(parseShapeSet("SIZE=[2,3],eps=1e-6"), R"([{"SIZE":[2,3],"eps":1e-06}])");
    EXPECT_THROW(parseShapeSet("M=abc"), std::invalid_argument);
    EXPECT_THROW(parseShapeSet("1M=3"), std::invalid_argument);
    EXPECT_THROW(parseShapeSet("M"), std::invalid_argument);
    EXPECT_EQ(variantSpecs({"M=1", "M=2"}, {"bf16"}, false).size(), 3u);
    const auto grid = variantSpecs({"M=1", "M=2"}, {"bf16", "float16"}, true);
    ASSERT_EQ(grid.size(), 4u);
    EXPECT_EQ(*grid[1].dtype, "fp16");
    EXPECT_THROW(variantSpecs({}, {"int8"}, false), std::invalid_argument);
}

TEST(Augment, VariantsAreLinkedCheckedAndKeptTogetherBySplitsAndStats)
{
    test::TempDir dir;
    const std::string db = dir.file("aug.sieve");
    {
        Corpus c = Corpus::create(db);
        for (int i = 0; i < 10; ++i) {
            // One reference per task: a variant's key is its content, so tasks with one reference would
            // share their variants.
            const auto t = test::addTask(c, "op" + std::to_string(i), 1, "activation", "triton",
                                         std::string(kReference) + "# op" + std::to_string(i) + "\n");
            test::addSample(c, t, {"op" + std::to_string(i) + "-a1", 1, "PASS", 1.2});
        }
        int checked = 0;
        const VariantCheck check = [&](const VariantTask &v) {
            ++checked;
            return v.shapesJson && v.shapesJson->find("\"N\":3}") != std::string::npos
                       ? std::string("REF_FAILED: N must be even")
                       : std::string();
        };
        const auto specs = variantSpecs({"M=8,N=64", "N=3"}, {"bf16"}, false);
        auto out = augmentTask(c, "op0", specs, check);
        ASSERT_EQ(out.size(), 3u);
        EXPECT_EQ(out[0].state, "created");
        EXPECT_EQ(out[0].task.name, "op0@M=8,N=64");
        EXPECT_EQ(out[1].state, "failed");
        EXPECT_EQ(out[1].message, "REF_FAILED: N must be even");
        EXPECT_EQ(out[2].state, "created");
        EXPECT_EQ(out[2].task.name, "op0@bf16");
        EXPECT_EQ(out[2].task.atol.value_or(0), 1e-2); // KernelBench's half-precision tolerance
        EXPECT_EQ(checked, 3);
        EXPECT_FALSE(c.db().queryInt("SELECT count(*) FROM tasks WHERE name='op0@N=3'").value_or(1));
        // Again: nothing new, nothing checked; a variant of a variant joins the root's family.
        out = augmentTask(c, "op0", specs, check);
        EXPECT_EQ(out[0].state, "exists");
        EXPECT_EQ(checked, 4); // only the failed one is checked again
        out = augmentTask(c, "op0@bf16", variantSpecs({"M=4,N=32"}, {}, false), check);
        EXPECT_EQ(out[0].state, "created");
        const auto prov = nlohmann::json::parse(
            c.db().queryText("SELECT provenance_json FROM tasks WHERE name='op0@bf16@M=4,N=32'").value_or("{}"));
        EXPECT_EQ(prov["parent"], "op0@bf16");
        EXPECT_EQ(prov["variant_of"], c.db().queryText("SELECT task_key FROM tasks WHERE name='op0'").value_or(""));
        EXPECT_EQ(prov["shapes"], nlohmann::json::parse(R"([{"M":4,"N":32}])"));
        for (int i = 1; i < 10; ++i)
            augmentTask(c, "op" + std::to_string(i), variantSpecs({"M=8"}, {"fp16"}, false), check);
        // Samples for the variants, so they are exported.
        db::Statement v = c.db().prepare("SELECT id, name FROM tasks WHERE name LIKE '%@%' ORDER BY id");
        std::vector<std::pair<std::int64_t, std::string>> variants;
        while (v.step())
            variants.emplace_back(v.int64(0), v.text(1));
        v.reset();
        for (const auto &[id, name] : variants)
            test::addSample(c, id, {name + "-a1", 1, "PASS", 1.1});
        const auto fam = taskFamilies(c.db());
        std::map<std::string, int> sizes;
        for (const auto &[id, f] : fam)
            ++sizes[f];
        EXPECT_EQ(sizes["op0"], 4);
        EXPECT_EQ(sizes["op5"], 3);
        const auto stats = corpusStats(c);
        EXPECT_EQ(stats["metrics_by"]["family"]["op0"]["tasks"], 4);
        EXPECT_EQ(stats["metrics_by"]["family"].size(), 10u);
    }
    ExportOptions o;
    o.validationFraction = 0.3;
    o.selection.seed = 4;
    exportCorpus(db, dir.file("out"), o);
    std::map<std::string, std::set<std::string>> splitsOfFamily;
    std::map<std::string, int> rowsPerSplit;
    for (const char *split : {"train", "validation"})
        for (const auto &row : readRows(dir.file(std::string("out/") + split + ".jsonl"))) {
            const std::string task = row["meta"]["task"];
            splitsOfFamily[task.substr(0, task.find('@'))].insert(split);
            ++rowsPerSplit[split];
        }
    ASSERT_EQ(splitsOfFamily.size(), 10u);
    for (const auto &[family, splits] : splitsOfFamily)
        EXPECT_EQ(splits.size(), 1u) << family << " is split";
    EXPECT_GT(rowsPerSplit["validation"], 0);
    const auto m = nlohmann::json::parse(test::readFile(dir.file("out/manifest.json")));
    EXPECT_EQ(m["counts"]["validation"]["tasks"].get<int>() + m["counts"]["train"]["tasks"].get<int>(), 31);
}

TEST(Augment, CommandChecksEachVariantInTheVerifierWorker)
{
    if (test::requireVerifierPython().empty())
        return;
    test::TempDir dir;
    const std::string db = dir.file("aug.sieve");
    {
        Corpus c = Corpus::create(db);
        test::addTask(c, "relu", 1, "activation", "triton", kReference);
    }
    auto r =
        test::runCli({"augment", db, "--task", "relu", "--shapes", "M=8,N=64", "--shapes", "N=3", "--cpu", "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.err; // one variant failed its check
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["variants"].size(), 2u) << r.out;
    EXPECT_EQ(j["variants"][0]["state"], "created") << r.out;
    EXPECT_EQ(j["variants"][1]["state"], "failed") << r.out;
    EXPECT_FALSE(j["variants"][1]["message"].get<std::string>().empty());
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM tasks").value_or(0), 2);
    r = test::runCli({"augment", db, "--task", "relu", "--shapes", "M=8,N=64", "--no-check"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("1 already in the corpus"), std::string::npos) << r.out;
    r = test::runCli({"augment", db, "--task", "nope", "--shapes", "M=1", "--no-check"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no task named 'nope'"), std::string::npos) << r.err;
}

TEST(Augment, AVariantsReferenceCarriesItsOwnConstants)
{
    const std::string ref = "import torch\n\nM = 16\nN: int = 256  # columns\nSIZE = (2, 3)\nEPS = 1e-5\n"
                            "    M = 99\nMM = 7\nM == 3\n";
    EXPECT_EQ(withShapeConstants(ref, R"([{"M":8,"N":64,"SIZE":[4,5]},{"M":1}])"),
              "import torch\n\nM = 8\nN: int = 64  # columns\nSIZE = (4, 5)\nEPS = 1e-5\n    M = 99\nMM = 7\nM == 3\n");
    EXPECT_EQ(withShapeConstants("flag = False\n", R"([{"flag":true}])"), "flag = True\n");
    EXPECT_EQ(withShapeConstants(ref, "not json"), ref);

    test::TempDir dir;
    const std::string db = dir.file("aug.sieve");
    {
        Corpus c = Corpus::create(db);
        test::addTask(c, "relu", 1, "activation", "triton", kReference);
        const auto out = augmentTask(c, "relu", variantSpecs({"M=8,N=64"}, {"fp16"}, false), nullptr);
        ASSERT_EQ(out.size(), 2u);
        for (const auto &o : out) {
            ASSERT_EQ(o.state, "created");
            test::addSample(c, *o.taskId, {o.task.name + "-a1", 1, "PASS", 1.1});
        }
    }
    ExportOptions o;
    o.validationFraction = 0;
    exportCorpus(db, dir.file("out"), o);
    int seen = 0;
    for (const auto &row : readRows(dir.file("out/train.jsonl"))) {
        const std::string prompt = row["messages"][1]["content"];
        if (row["meta"]["task"] == "relu@M=8,N=64") {
            ++seen;
            EXPECT_NE(prompt.find("M = 8\nN = 64\n"), std::string::npos) << prompt; // without --tags shapes
            EXPECT_EQ(prompt.find("M = 16"), std::string::npos) << prompt;
        } else if (row["meta"]["task"] == "relu@fp16") {
            ++seen;
            EXPECT_NE(prompt.find("M = 16\nN = 256\n"), std::string::npos) << prompt; // the parent's shapes
        }
    }
    EXPECT_EQ(seen, 2);
}

TEST(Augment, CpuCheckKeepsAKernelBenchVariantScaledDownForTheInterpreter)
{
    if (test::requireVerifierPython().empty())
        return;
    test::TempDir dir;
    const std::string db = dir.file("kb.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    ASSERT_EQ(test::runCli({"import", db, "--format", "kernelbench",
                            test::testData("import/kernelbench/level1/23_Softmax.py"), "--quiet"})
                  .exitCode,
              0);
    std::string task;
    {
        Corpus c = Corpus::open(db, true);
        task = c.db().queryText("SELECT name FROM tasks").value_or("");
    }
    // 16 x 16384 and 8 x 16384 inputs are over the CPU interpreter's element limit: the worker scales them
    // down and lists them in dropped_shapes, though it checked them at the smaller size.
    const auto r =
        test::runCli({"augment", db, "--task", task, "--shapes", "batch_size=8,dim=16384", "--cpu", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["variants"].size(), 1u);
    EXPECT_EQ(j["variants"][0]["state"], "created") << r.out;
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM tasks").value_or(0), 2);
}

// Issue #33 point 3, checked on a real KernelBench problem at its shipped shapes (19_ReLU at commit 423217d:
// 4096 x 393216 fp32): on the CPU each variant, the full-size one too, is kept (checked scaled down), and a
// variant's KernelBench prompt shows its own constants, not the parent's.
TEST(Augment, KernelBenchReluAtItsShippedShapesOnTheCpuAndItsVariantsPrompt)
{
    if (test::requireVerifierPython().empty())
        return;
    test::TempDir dir;
    const std::string db = dir.file("kb.sieve");
    ASSERT_TRUE(test::importKernelBench(db, test::testData("kernelbench_prompts/problems/level1/19_ReLU.py")));
    const auto r =
        test::runCli({"augment", db, "--task", "kernelbench/level1/19_ReLU", "--shapes", "batch_size=64,dim=2048",
                      "--shapes", "batch_size=4096,dim=393216", "--cpu", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["variants"].size(), 2u);
    for (const auto &v : j["variants"])
        EXPECT_EQ(v["state"], "created") << r.out;
    {
        Corpus c = Corpus::open(db);
        const auto id =
            c.db().queryInt("SELECT id FROM tasks WHERE name='kernelbench/level1/19_ReLU@batch_size=64,dim=2048'");
        ASSERT_TRUE(id);
        test::addSample(c, *id, {"relu-64", 1, "PASS", 1.1});
    }
    const auto e =
        test::runCli({"export", db, dir.file("out"), "--split", "0", "--template", "kernelbench", "--system", "none"});
    ASSERT_EQ(e.exitCode, 0) << e.err;
    const auto rows = readRows(dir.file("out/train.jsonl"));
    ASSERT_EQ(rows.size(), 1u);
    const std::string prompt = rows[0]["messages"][0]["content"];
    EXPECT_NE(prompt.find("batch_size = 64\ndim = 2048\n"), std::string::npos) << prompt;
    EXPECT_EQ(prompt.find("393216"), std::string::npos) << prompt;
}
