// Task categories: inferred from the ops a reference calls (at import for tasks without one, and by
// `tasks categorize` for corpora made before), set by hand with `tasks set`, never inferred over a
// category that was imported or set by hand; and balanced by in selection and export.
#include "core/db/corpus.h"
#include "core/tasks/category.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

using namespace sieve;

namespace {

const std::string kKernelBench = test::testData("import/kernelbench");

std::string ref(const std::string &init, const std::string &forward)
{
    return "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\nclass Model(nn.Module):\n"
           "    \"\"\"Performs a matmul, a softmax and a conv (the docstring is not code).\"\"\"\n"
           "    def __init__(self):\n        super().__init__()\n" +
           (init.empty() ? std::string() : "        " + init + "\n") + "\n    def forward(self, x):\n        " +
           forward +
           "  # torch.matmul(x) in a comment\n\n"
           "def get_inputs():\n    return [torch.randn(4, 4).sum(dim=0)]\n\n"
           "def get_init_inputs():\n    return []\n";
}

std::map<std::string, std::string> categories(const std::string &db)
{
    std::map<std::string, std::string> out;
    Corpus c = Corpus::open(db, true);
    db::Statement st = c.db().prepare("SELECT name, coalesce(category, '') FROM tasks");
    while (st.step())
        out[st.text(0)] = st.text(1);
    return out;
}

} // namespace

TEST(Category, InferredFromTheOpsTheReferenceCalls)
{
    EXPECT_EQ(inferCategory(ref("self.fc = nn.Linear(8, 8)", "return self.fc(x)")), "gemm");
    EXPECT_EQ(inferCategory(ref("", "return x @ x.T")), "gemm");
    EXPECT_EQ(inferCategory(ref("", "return torch.bmm(x, x)")), "gemm");
    EXPECT_EQ(inferCategory(ref("self.conv = nn.Conv2d(3, 8, 3)", "return self.conv(x)")), "convolution");
    EXPECT_EQ(inferCategory(ref("self.ln = nn.LayerNorm(8)", "return self.ln(x)")), "normalization");
    EXPECT_EQ(inferCategory(ref("", "return F.gelu(x)")), "activation");
    EXPECT_EQ(inferCategory(ref("", "return torch.softmax(x, dim=1)")), "activation");
    EXPECT_EQ(inferCategory(ref("", "return x.sum(dim=1)")), "reduction");
    EXPECT_EQ(inferCategory(ref("", "return torch.argmax(x, dim=1)")), "reduction");
    EXPECT_EQ(inferCategory(ref("self.pool = nn.MaxPool2d(2)", "return self.pool(x)")), "pooling");
    EXPECT_EQ(inferCategory(ref("self.loss = nn.SmoothL1Loss()", "return self.loss(x, x).mean()")), "loss");
    EXPECT_EQ(inferCategory(ref("", "return F.cross_entropy(x, x)")), "loss");
    EXPECT_EQ(inferCategory(ref("", "return F.scaled_dot_product_attention(x, x, x)")), "attention");
    EXPECT_EQ(inferCategory(ref("", "return x * 2.0 + 1.0")), "elementwise");
    EXPECT_EQ(inferCategory(ref("self.conv = nn.Conv2d(3, 8, 3)", "return torch.relu(self.conv(x))")), "fusion");
    // A decorator is not the matmul operator; no forward, no category.
    EXPECT_EQ(inferCategory("import torch\nclass Model(torch.nn.Module):\n    @torch.no_grad()\n"
                            "    def forward(self, x):\n        return x + 1\n"),
              "elementwise");
    EXPECT_EQ(inferCategory("x = 1\n"), std::nullopt);
    // KernelBench's own problem files.
    EXPECT_EQ(inferCategory(test::readFile(kKernelBench + "/level1/19_ReLU.py")), "activation");
    EXPECT_EQ(inferCategory(test::readFile(kKernelBench + "/level2/12_Gemm_Multiply_LeakyReLU.py")), "fusion");
}

TEST(Category, ImportInfersThemAndTasksSetAndCategorizeChangeThem)
{
    test::TempDir dir;
    const std::string db = dir.file("kb.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    auto r = test::runCli({"import", db, "--format", "kernelbench", kKernelBench, "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("3 tasks without a category got one inferred"), std::string::npos) << r.out;
    auto cats = categories(db);
    ASSERT_EQ(cats.size(), 3u);
    std::map<std::string, int> byCategory;
    for (const auto &[name, category] : cats)
        ++byCategory[category];
    EXPECT_EQ(byCategory["activation"], 2) << r.out; // ReLU, Softmax
    EXPECT_EQ(byCategory["fusion"], 1);
    std::string softmax;
    for (const auto &[name, category] : cats)
        if (name.find("Softmax") != std::string::npos)
            softmax = name;
    ASSERT_FALSE(softmax.empty());

    // By hand, then inferring again (with --redo) leaves the hand-set one alone.
    r = test::runCli({"tasks", "set", db, "--task", softmax, "--category", "reduction"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("activation -> reduction"), std::string::npos) << r.out;
    r = test::runCli({"tasks", "categorize", db, "--redo", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.find(softmax), std::string::npos) << r.out; // not looked at
    EXPECT_EQ(categories(db)[softmax], "reduction");

    // A corpus made before: categories cleared; categorize --dry-run writes nothing, categorize does.
    {
        Corpus c = Corpus::open(db);
        c.db().exec("UPDATE tasks SET category = NULL, provenance_json = NULL");
    }
    r = test::runCli({"tasks", "categorize", db, "--dry-run"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("3 tasks looked at, 3 would change"), std::string::npos) << r.out;
    EXPECT_EQ(categories(db)[softmax], "");
    r = test::runCli({"tasks", "categorize", db});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(categories(db)[softmax], "activation");

    // Usage: unknown task, options of another subcommand.
    r = test::runCli({"tasks", "set", db, "--task", "nosuch", "--category", "gemm"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no task named 'nosuch'"), std::string::npos) << r.err;
    EXPECT_EQ(test::runCli({"tasks", "set", db, "--category", "gemm"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"tasks", "categorize", db, "--cpu"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"tasks", "check", db, "--cpu", "--category", "gemm"}).exitCode, 2);
}
