// KernelBench's own prompts, byte for byte: tests/data/kernelbench_prompts/rendered holds prompts that
// KernelBench's prompt constructor rendered (at the commit in COMMIT) for three of its problems; the
// problems are imported with sieve-cli, exported with --template kernelbench / kernelbench-zero-shot /
// kernelbench-few-shot, and each row's user message must be those bytes. Also the template syntax the
// KernelBench templates need ({{! comments }}, {{%verbatim}}).
#include "core/prompt/prompttemplate.h"
#include "tests/unit/export/test_export_fixture.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

using namespace sieve;

namespace {

const std::string kFixtures = test::testData("kernelbench_prompts");

// The three problems imported as KernelBench tasks, each with a Triton and a CUDA answer.
std::string makeCorpus(test::TempDir &dir)
{
    const std::string db = dir.file("kb.sieve");
    EXPECT_TRUE(test::importKernelBench(db, kFixtures + "/problems"));
    Corpus c = Corpus::open(db);
    std::vector<std::int64_t> tasks;
    auto st = c.db().prepare("SELECT id FROM tasks ORDER BY name");
    while (st.step())
        tasks.push_back(st.int64(0));
    EXPECT_EQ(tasks.size(), 3u);
    for (std::int64_t t : tasks) {
        test::addSample(c, t, {"triton-answer", 1, "PASS", 1.2});
        test::SampleSpec cuda{"cuda-answer", 2, "PASS", 1.1};
        cuda.backend = "cuda";
        test::addSample(c, t, cuda);
    }
    return db;
}

// Exports with `templateName` and returns user message by "level1_19_ReLU.triton".
std::map<std::string, std::string> exportPrompts(test::TempDir &dir, const std::string &db,
                                                 const std::string &templateName, const std::string &out)
{
    const auto r = test::runCli({"export", db, dir.file(out), "--split", "0", "--template", templateName, "--system",
                                 "none", "--reasoning", "none"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    std::map<std::string, std::string> prompts;
    for (const auto &row : test::readJsonl(dir.file(out + "/train.jsonl"))) {
        EXPECT_EQ(row["messages"].size(), 2u);
        EXPECT_EQ(row["messages"][0]["role"], "user");
        std::string task = row["meta"]["task"]; // kernelbench/level1/19_ReLU
        task = task.substr(std::string("kernelbench/").size());
        task[task.find('/')] = '_';
        prompts[task + "." + row["meta"]["backend"].get<std::string>()] = row["messages"][0]["content"];
    }
    return prompts;
}

const char *const kProblems[] = {"level1_19_ReLU", "level2_12_Gemm_Multiply_LeakyReLU", "level3_1_MLP"};

} // namespace

TEST(KernelBenchPrompts, FixturesAreKernelBenchsOwn)
{
    EXPECT_EQ(test::readFile(kFixtures + "/COMMIT"), "423217d9fda91e0c2d67e4a43bf62f96f6d104f1\n");
    // The one-shot Triton prompt KernelBench renders for 19_ReLU (issue #33 measured 4,318 characters).
    EXPECT_EQ(test::readFile(kFixtures + "/rendered/level1_19_ReLU.triton.one_shot.fp32.txt").size(), 4318u);
}

TEST(KernelBenchPrompts, EachTemplateRendersKernelBenchsBytes)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    const std::pair<const char *, const char *> options[] = {
        {"kernelbench", "one_shot"}, {"kernelbench-zero-shot", "zero_shot"}, {"kernelbench-few-shot", "few_shot"}};
    int compared = 0;
    for (const auto &[templateName, option] : options) {
        const auto prompts = exportPrompts(dir, db, templateName, templateName);
        ASSERT_EQ(prompts.size(), 6u) << templateName;
        for (const char *problem : kProblems)
            for (const char *backend : {"triton", "cuda"}) {
                const std::string fixture = std::string(problem) + "." + backend + "." + option + ".fp32.txt";
                const auto it = prompts.find(std::string(problem) + "." + backend);
                ASSERT_NE(it, prompts.end()) << fixture;
                EXPECT_EQ(it->second, test::readFile(kFixtures + "/rendered/" + fixture))
                    << "--template " << templateName << " differs from " << fixture;
                ++compared;
            }
    }
    EXPECT_EQ(compared, 18);
}

TEST(KernelBenchPrompts, PrecisionNoteFollowsTheTasksDtype)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    {
        Corpus c = Corpus::open(db);
        c.db().exec("UPDATE tasks SET dtype='fp16' WHERE name='kernelbench/level1/19_ReLU'");
    }
    auto prompts = exportPrompts(dir, db, "kernelbench", "fp16");
    EXPECT_EQ(prompts["level1_19_ReLU.triton"],
              test::readFile(kFixtures + "/rendered/level1_19_ReLU.triton.one_shot.fp16.txt"));
    {
        Corpus c = Corpus::open(db);
        c.db().exec("UPDATE tasks SET dtype='bf16' WHERE name='kernelbench/level1/19_ReLU'");
    }
    prompts = exportPrompts(dir, db, "kernelbench-zero-shot", "bf16");
    EXPECT_EQ(prompts["level1_19_ReLU.cuda"],
              test::readFile(kFixtures + "/rendered/level1_19_ReLU.cuda.zero_shot.bf16.txt"));
}

TEST(KernelBenchPrompts, ABackendKernelBenchHasNoPromptForIsAnError)
{
    test::TempDir dir;
    const std::string db = makeCorpus(dir);
    {
        Corpus c = Corpus::open(db);
        test::SampleSpec nki{"nki-answer", 3, "PASS", 1.0};
        nki.backend = "nki";
        test::addSample(c, 1, nki);
    }
    const auto r = test::runCli({"export", db, dir.file("nki"), "--split", "0", "--template", "kernelbench"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("renders an empty prompt for backend 'nki'"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("nki/train.jsonl")));
}

TEST(KernelBenchPrompts, CommentsAndTheVerbatimPragma)
{
    const auto plain = PromptTemplate::fromString("{{! a header\n   over two lines }}\nHello {{name}}\n\n");
    EXPECT_FALSE(plain.verbatim());
    EXPECT_EQ(plain.render({{"name", "Ada"}}), "Hello Ada\n\n");
    EXPECT_EQ(plain.renderPrompt({{"name", "Ada"}}), "Hello Ada"); // a file's final newline trimmed
    EXPECT_EQ(plain.names(), std::vector<std::string>{"name"});
    const auto exact = PromptTemplate::fromString("{{%verbatim}}\nHello {{name}}\n");
    EXPECT_TRUE(exact.verbatim());
    EXPECT_EQ(exact.renderPrompt({{"name", "Ada"}}), "Hello Ada\n");
    try {
        PromptTemplate::fromString("x\n{{%strict}}", "t.txt");
        FAIL() << "an unknown pragma was accepted";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("t.txt:2: unknown pragma '{{%strict}}'"), std::string::npos) << e.what();
    }
    EXPECT_EQ(precisionDisplay("bf16"), "BF16 (bfloat16)");
    EXPECT_EQ(precisionDisplay(""), "FP32 (32-bit floating point)");
}
