// Metadata tags in prompts, the answer's backend choosing the template, and KernelBench's one-shot
// template; exported from real corpus files.
#include "core/export/export.h"
#include "core/prompt/prompttemplate.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace sieve;

namespace {

std::string makeCorpus(test::TempDir &dir)
{
    const std::string path = dir.file("tags.sieve");
    Corpus c = Corpus::create(path);
    const auto rms = test::addTask(c, "rms_norm", 2, "normalization", "triton");
    c.db().exec("UPDATE tasks SET dtype='fp16', shapes_json='[{\"M\": 4096, \"N\": 1024}, {\"M\": 7, \"N\": 1000}]' "
                "WHERE name='rms_norm'");
    test::addSample(c, rms, {"rms-triton", 1, "PASS", 1.3});
    test::SampleSpec cuda{"rms-cuda", 2, "PASS", 1.1};
    cuda.backend = "cuda"; // a CUDA answer to a Triton task
    test::addSample(c, rms, cuda);
    return path;
}

} // namespace

TEST(PromptTags, ValuesAndShapes)
{
    EXPECT_EQ(shapesText("[{\"M\": 7, \"N\": 1000}, {\"B\": 3}]"), "M=7, N=1000; B=3");
    EXPECT_EQ(shapesText(""), "");
    EXPECT_EQ(shapesText("not json"), "not json");
    PromptFacts f;
    f.reference = "class Model: pass\n\n";
    f.backend = "cuda";
    f.taskBackend = "triton";
    f.dtype = "bf16";
    f.target = "H100";
    f.difficulty = "hard";
    const auto v = promptValues(f, {"difficulty", "backend", "category", "dtype", "target"});
    EXPECT_EQ(v.at("tags"), "[difficulty: hard] [backend: cuda] [dtype: bf16] [target: H100]"); // no empty category
    EXPECT_EQ(v.at("reference"), "class Model: pass");
    EXPECT_EQ(v.at("backend_cuda"), "1");
    EXPECT_EQ(v.at("backend_triton"), "");
    EXPECT_EQ(v.at("task_backend"), "triton");
}

TEST(PromptTags, TheAnswersBackendPicksTheTemplateAndTagsCarryTheTask)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    const auto r = test::runCli({"export", db, dir.file("out"), "--split", "0", "--all-in-cluster", "--tags",
                                 "backend,target,dtype,shapes,difficulty,category"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = test::readJsonl(dir.file("out/train.jsonl"));
    ASSERT_EQ(rows.size(), 2u);
    for (const auto &row : rows) {
        const std::string user = row["messages"][1]["content"];
        const bool cuda = row["meta"]["sample"] == "rms-cuda";
        EXPECT_EQ(row["meta"]["backend"], cuda ? "cuda" : "triton");
        EXPECT_EQ(row["meta"]["task_backend"], "triton");
        EXPECT_EQ(user.rfind(std::string("[backend: ") + (cuda ? "cuda" : "triton") +
                                 "] [target: H200] [dtype: fp16] [shapes: M=4096, N=1024; M=7, N=1000] "
                                 "[difficulty: easy] [category: normalization]\n\n",
                             0),
                  0u)
            << user;
        EXPECT_NE(user.find(cuda ? "You write custom CUDA kernels" : "You write custom Triton kernels"),
                  std::string::npos)
            << user;
    }
    const auto m = nlohmann::json::parse(test::readFile(dir.file("out/manifest.json")));
    EXPECT_TRUE(m["templates"]["user"].contains("cuda"));
    EXPECT_TRUE(m["templates"]["user"].contains("triton"));
    const auto bad = test::runCli({"export", db, dir.file("x"), "--tags", "backend,colour"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("dtype, shapes"), std::string::npos) << bad.err;
}

TEST(PromptTags, KernelBenchOneShotTemplate)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    const auto r = test::runCli({"export", db, dir.file("kb"), "--split", "0", "--template", "kernelbench", "--system",
                                 "none", "--reasoning", "none"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = test::readJsonl(dir.file("kb/train.jsonl"));
    ASSERT_EQ(rows.size(), 2u);
    for (const auto &row : rows) {
        const std::string user = row["messages"][0]["content"];
        const bool cuda = row["meta"]["backend"] == "cuda";
        EXPECT_EQ(user.rfind(cuda ? "You write custom CUDA operators to replace the pytorch operators in the given "
                                    "architecture to get speedups."
                                  : "You write custom Triton kernels to replace the pytorch operators in the given "
                                    "architecture to get speedups.",
                             0),
                  0u)
            << user;
        // One example pair, then the task's own architecture, then the output rules.
        const auto example = user.find(cuda ? "Optimized with CUDA operators:" : "Optimized with Triton kernels:");
        const auto given = user.find("You are given the following architecture:");
        ASSERT_NE(example, std::string::npos);
        ASSERT_NE(given, std::string::npos);
        EXPECT_LT(example, given);
        EXPECT_NE(user.find(cuda ? "load_inline" : "@triton.jit"), std::string::npos);
        EXPECT_EQ(user.find(cuda ? "@triton.jit" : "load_inline"), std::string::npos);
        EXPECT_NE(user.find("return torch.rms_norm(x)", given), std::string::npos);
        EXPECT_NE(user.find("Note: The kernels should be optimized for FP16 (16-bit floating point) precision."),
                  std::string::npos);
        EXPECT_TRUE(user.ends_with("NO testing code!\n")) << user; // KernelBench's final newline kept
    }
    const auto m = nlohmann::json::parse(test::readFile(dir.file("kb/manifest.json")));
    EXPECT_EQ(m["templates"]["user"]["*"]["name"], "kernelbench");
    EXPECT_EQ(m["templates"]["system"], nullptr);
}
