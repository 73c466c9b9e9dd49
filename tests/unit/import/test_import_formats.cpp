// Each importer on small real files: what lands in which table, and that a second run adds nothing.
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/import/importer.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sieve;

namespace {

struct Fixture
{
    test::TempDir dir;
    Corpus corpus = Corpus::create(dir.file("c.sieve"));

    ImportReport run(ImportFormat f, std::vector<std::string> paths, bool pipeline = true)
    {
        for (auto &p : paths)
            if (!p.empty() && p[0] != '/')
                p = test::testData("import/" + p);
        ImportOptions o;
        o.pipeline = pipeline;
        return importFiles(corpus, f, paths, o);
    }
    long long count(const std::string &sql) { return corpus.db().queryInt(sql).value_or(-1); }
    std::string text(const std::string &sql) { return corpus.db().queryText(sql).value_or("<none>"); }
    std::string payloadOf(const std::string &sql)
    {
        db::Statement st = corpus.db().prepare(sql);
        return st.step() && !st.isNull(0) ? payload::unpack(st.blob(0)) : std::string("<null>");
    }
};

} // namespace

TEST(ImportKernelBench, FolderBecomesTasksNamedByLevelAndFile)
{
    Fixture fx;
    const auto r = fx.run(ImportFormat::KernelBench, {"kernelbench"});
    EXPECT_EQ(r.tasksAdded(), 3u);
    EXPECT_EQ(r.rejected(), 0u) << r.toJson().dump(2);
    EXPECT_EQ(fx.count("SELECT level FROM tasks WHERE name='kernelbench/level2/12_Gemm_Multiply_LeakyReLU'"), 2);
    EXPECT_EQ(fx.text("SELECT source FROM tasks WHERE name='kernelbench/level1/19_ReLU'"), "kernelbench");
    EXPECT_EQ(fx.payloadOf("SELECT reference_code FROM task_payloads p JOIN tasks t ON t.id=p.task_id "
                           "WHERE t.name='kernelbench/level1/19_ReLU'"),
              test::readFile(test::testData("import/kernelbench/level1/19_ReLU.py")));
}

TEST(ImportKernelBench, JsonlFormGivesTheSameTasksAsTheFolder)
{
    Fixture fx;
    fx.run(ImportFormat::KernelBench, {"kernelbench"});
    const auto r = fx.run(ImportFormat::KernelBench, {"kernelbench.jsonl"});
    EXPECT_EQ(r.tasksAdded(), 0u);
    EXPECT_EQ(r.unchanged(), 2u);
    EXPECT_EQ(fx.count("SELECT count(*) FROM tasks"), 3);
}

TEST(ImportKernelBook, PythonCodeIsTheTaskTritonCodeAnExpertSample)
{
    Fixture fx;
    const auto r = fx.run(ImportFormat::KernelBook, {"kernelbook.jsonl"});
    EXPECT_EQ(r.tasksAdded(), 2u);
    EXPECT_EQ(r.samplesAdded(), 2u);
    EXPECT_EQ(fx.count("SELECT count(*) FROM samples WHERE origin='expert' AND backend='triton' AND has_answer=1"), 2);
    const auto prov =
        nlohmann::json::parse(fx.text("SELECT provenance_json FROM tasks WHERE name='kernelbook/11_SumAggregator'"));
    EXPECT_EQ(prov["repo_name"], "example/graphsage");
    EXPECT_EQ(prov["stars"], 42);
    EXPECT_EQ(prov["licenses"], nlohmann::json::array({"MIT"}));
    EXPECT_EQ(prov["sha"], "0123456789abcdef0123456789abcdef01234567");
    const auto flags =
        nlohmann::json::parse(fx.text("SELECT flags FROM tasks WHERE name='kernelbook/11_SumAggregator'"));
    EXPECT_EQ(flags["init_inputs"], "args_kwargs");
    EXPECT_EQ(flags["reference_class"], "SumAggregator");
    EXPECT_EQ(fx.text("SELECT license FROM tasks WHERE name='kernelbook/12_MeanAggregator'"), "MIT, Apache-2.0");
}

TEST(ImportCudaArchive, LabelsGoToExternalVerdictsNeverToOurs)
{
    Fixture fx;
    const auto r = fx.run(ImportFormat::CudaArchive, {"cuda_archive.jsonl"});
    EXPECT_EQ(r.rejected(), 0u) << r.toJson().dump(2);
    EXPECT_EQ(r.tasksAdded(), 2u); // matmul (two kernels share it) and ReLU
    EXPECT_EQ(r.samplesAdded(), 3u);
    EXPECT_EQ(fx.count("SELECT count(*) FROM external_verdicts WHERE source='ai-cuda-engineer'"), 3);
    EXPECT_EQ(fx.count("SELECT count(*) FROM verdicts"), 0);
    EXPECT_EQ(fx.count("SELECT count(*) FROM samples WHERE status <> 'PENDING'"), 0);
    EXPECT_EQ(fx.count("SELECT correct FROM external_verdicts v JOIN samples s ON s.id=v.sample_id "
                       "WHERE s.name='tiled_matmul_32'"),
              0);
    EXPECT_EQ(fx.text("SELECT error FROM external_verdicts v JOIN samples s ON s.id=v.sample_id "
                      "WHERE s.name='tiled_matmul_32'"),
              "CUDA error: too many resources requested for launch");
    EXPECT_EQ(fx.text("SELECT t.name FROM samples s JOIN tasks t ON t.id=s.task_id WHERE s.name='tiled_matmul_16'"),
              "cuda-archive/level1/1_Square_matrix_multiplication_");
    EXPECT_EQ(fx.count("SELECT count(*) FROM samples WHERE backend='cuda' AND origin='archive'"), 3);
}

TEST(ImportSieve, TasksAndSamplesFromSeparateFilesWithAnswerExtraction)
{
    Fixture fx;
    const auto r = fx.run(ImportFormat::Sieve, {"sieve_tasks.jsonl", "sieve_samples.jsonl"});
    EXPECT_EQ(r.rejected(), 0u) << r.toJson().dump(2);
    EXPECT_EQ(r.tasksAdded(), 2u);
    EXPECT_EQ(r.samplesAdded(), 4u);
    EXPECT_EQ(fx.text("SELECT shapes_json FROM tasks WHERE name='t/double'"), "[{\"N\":7},{\"N\":1000}]");
    EXPECT_EQ(fx.text("SELECT atol FROM tasks WHERE name='t/double-fp16'"), "0.01"); // the fp16 default
    EXPECT_EQ(fx.count("SELECT has_answer FROM samples WHERE name='resp-none'"), 0);
    const std::string code = fx.payloadOf("SELECT code FROM sample_payloads p JOIN samples s ON s.id=p.sample_id "
                                          "WHERE s.name='resp-1'");
    EXPECT_NE(code.find("class ModelNew"), std::string::npos);
    EXPECT_EQ(code.find("print(1)"), std::string::npos);
    EXPECT_EQ(fx.payloadOf("SELECT reasoning FROM sample_payloads p JOIN samples s ON s.id=p.sample_id "
                           "WHERE s.name='resp-1'"),
              "elementwise, one block per 128");
    EXPECT_EQ(fx.payloadOf("SELECT reasoning FROM sample_payloads p JOIN samples s ON s.id=p.sample_id "
                           "WHERE s.name='resp-2'"),
              "Use a wider block.");
    EXPECT_NE(fx.payloadOf("SELECT response FROM sample_payloads p JOIN samples s ON s.id=p.sample_id "
                           "WHERE s.name='resp-2'")
                  .find("\"choices\""),
              std::string::npos);
    EXPECT_EQ(fx.count("SELECT count(*) FROM samples WHERE import_id IS NOT NULL"), 4);
    EXPECT_EQ(
        fx.count("SELECT count(*) FROM imports WHERE finished_at IS NOT NULL AND report_json LIKE '%samples_added%'"),
        1);
}

TEST(ImportSieve, ReimportingAddsNothingAndCountsUnchanged)
{
    for (bool pipeline : {true, false}) {
        Fixture fx;
        fx.run(ImportFormat::Sieve, {"sieve_tasks.jsonl", "sieve_samples.jsonl"}, pipeline);
        const auto again = fx.run(ImportFormat::Sieve, {"sieve_tasks.jsonl", "sieve_samples.jsonl"}, pipeline);
        EXPECT_EQ(again.tasksAdded() + again.samplesAdded(), 0u);
        EXPECT_EQ(again.unchanged(), 6u);
        EXPECT_EQ(fx.count("SELECT count(*) FROM samples"), 4);
        EXPECT_EQ(fx.count("SELECT count(*) FROM sample_payloads"), 4);
    }
}

TEST(ImportAll, EveryFormatReimportsToNothing)
{
    Fixture fx;
    const std::vector<std::pair<ImportFormat, std::string>> inputs = {{ImportFormat::KernelBench, "kernelbench"},
                                                                      {ImportFormat::KernelBook, "kernelbook.jsonl"},
                                                                      {ImportFormat::CudaArchive, "cuda_archive.jsonl"},
                                                                      {ImportFormat::Sieve, "sieve_tasks.jsonl"}};
    for (const auto &[f, p] : inputs)
        fx.run(f, {p});
    const long long tasks = fx.count("SELECT count(*) FROM tasks"), samples = fx.count("SELECT count(*) FROM samples");
    for (const auto &[f, p] : inputs) {
        const auto r = fx.run(f, {p});
        EXPECT_EQ(r.tasksAdded() + r.samplesAdded() + r.rejected(), 0u) << p;
    }
    EXPECT_EQ(fx.count("SELECT count(*) FROM tasks"), tasks);
    EXPECT_EQ(fx.count("SELECT count(*) FROM samples"), samples);
}

TEST(ImportAll, DerivedNamesThatClashGetASuffixInsteadOfAnError)
{
    Fixture fx;
    // Same KernelBench path, other content: the second gets a disambiguated name.
    const std::string a = fx.dir.file("a"), b = fx.dir.file("b");
    std::filesystem::create_directories(a + "/level1");
    std::filesystem::create_directories(b + "/level1");
    const std::string code = test::readFile(test::testData("import/kernelbench/level1/19_ReLU.py"));
    test::writeFile(a + "/level1/19_ReLU.py", code);
    test::writeFile(b + "/level1/19_ReLU.py", code + "\n# changed\n");
    fx.run(ImportFormat::KernelBench, {a});
    const auto r = fx.run(ImportFormat::KernelBench, {b});
    EXPECT_EQ(r.tasksAdded(), 1u);
    EXPECT_EQ(r.rejected(), 0u);
    EXPECT_EQ(fx.count("SELECT count(*) FROM tasks WHERE name LIKE 'kernelbench/level1/19_ReLU~%'"), 1);
}

TEST(ImportAll, CancellingKeepsCommittedBatchesAndARerunFinishes)
{
    for (bool pipeline : {true, false}) {
        Fixture fx;
        ImportOptions o;
        o.pipeline = pipeline;
        o.batchRecords = 1;
        int polls = 0;
        o.cancelled = [&] { return ++polls >= 3; };
        const std::vector<std::string> paths = {test::testData("import/sieve_tasks.jsonl"),
                                                test::testData("import/sieve_samples.jsonl")};
        const auto first = importFiles(fx.corpus, ImportFormat::Sieve, paths, o);
        EXPECT_TRUE(first.interrupted);
        EXPECT_EQ(first.tasksAdded() + first.samplesAdded(), 3u);
        EXPECT_EQ(fx.count("SELECT count(*) FROM imports WHERE report_json LIKE '%\"interrupted\":true%'"), 1);
        const auto second = importFiles(fx.corpus, ImportFormat::Sieve, paths);
        EXPECT_FALSE(second.interrupted);
        EXPECT_EQ(fx.count("SELECT count(*) FROM tasks"), 2);
        EXPECT_EQ(fx.count("SELECT count(*) FROM samples"), 4);
        EXPECT_EQ(second.unchanged(), 3u);
    }
}
