// The bad-input corpus: every rejected record is reported with file, line and field, and the good
// records of the same file are still imported.
#include "core/db/corpus.h"
#include "core/import/importer.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <tuple>

using namespace sieve;

namespace {

using Expected = std::tuple<std::string, std::uint64_t, std::string>; // file suffix, line, field

struct Fixture
{
    test::TempDir dir;
    Corpus corpus = Corpus::create(dir.file("c.sieve"));
    ImportReport run(ImportFormat f, const std::string &path)
    {
        return importFiles(corpus, f, {path[0] == '/' ? path : test::testData("import/" + path)});
    }
};

void expectErrors(const ImportReport &r, const std::vector<Expected> &want)
{
    ASSERT_EQ(r.files.size(), 1u);
    const auto &errors = r.files[0].errors;
    ASSERT_EQ(errors.size(), want.size()) << r.toJson().dump(2);
    for (std::size_t i = 0; i < want.size(); ++i) {
        const auto &[file, line, field] = want[i];
        EXPECT_TRUE(errors[i].file.size() >= file.size() &&
                    errors[i].file.compare(errors[i].file.size() - file.size(), file.size(), file) == 0)
            << errors[i].text();
        EXPECT_EQ(errors[i].line, line) << errors[i].text();
        EXPECT_EQ(errors[i].field, field) << errors[i].text();
        EXPECT_FALSE(errors[i].message.empty());
    }
    EXPECT_EQ(r.rejected(), want.size());
}

} // namespace

TEST(ImportBadInput, SieveCorpusReportsEachLineAndImportsTheGoodOnes)
{
    Fixture fx;
    const std::string f = "sieve_bad.jsonl";
    const auto r = fx.run(ImportFormat::Sieve, "bad/sieve_bad.jsonl");
    expectErrors(r, {{f, 2, "record"},
                     {f, 3, "reference_code"},
                     {f, 4, "atol"},
                     {f, 5, "shapes"},
                     {f, 6, "dtype"},
                     {f, 7, "model"},
                     {f, 8, "task_id"},
                     {f, 9, "code"},
                     {f, 10, "temperature"},
                     {f, 11, "record"},
                     {f, 12, "sample_id"},
                     {f, 13, "reference_code"},
                     {f, 14, "attempt"}});
    EXPECT_EQ(r.tasksAdded(), 1u);
    EXPECT_EQ(r.samplesAdded(), 1u);
    EXPECT_NE(r.files[0].errors[5].message.find("invalid UTF-8"), std::string::npos);
    EXPECT_NE(r.files[0].errors[11].message.find("different reference_code"), std::string::npos);
}

TEST(ImportBadInput, OtherFormatsNameTheirOwnColumns)
{
    Fixture fx;
    expectErrors(fx.run(ImportFormat::KernelBook, "bad/kernelbook_bad.jsonl"),
                 {{"kernelbook_bad.jsonl", 1, "stars"},
                  {"kernelbook_bad.jsonl", 2, "python_code"},
                  {"kernelbook_bad.jsonl", 3, "entry_point"}});
    expectErrors(fx.run(ImportFormat::CudaArchive, "bad/cuda_archive_bad.jsonl"),
                 {{"cuda_archive_bad.jsonl", 1, "Level_ID"},
                  {"cuda_archive_bad.jsonl", 2, "CUDA_Code"},
                  {"cuda_archive_bad.jsonl", 3, "Correct"}});
    expectErrors(fx.run(ImportFormat::KernelBench, "bad/kernelbench_bad.jsonl"),
                 {{"kernelbench_bad.jsonl", 1, "problem_id"}, {"kernelbench_bad.jsonl", 2, "code"}});
    expectErrors(
        fx.run(ImportFormat::KernelBench, "bad/kernelbench_folder"),
        {{"level1/5_NoModel.py", 1, "code"}, {"level1/6_BadUtf8.py", 5, "code"}, {"level1/badname.py", 0, "path"}});
}

TEST(ImportBadInput, AFileOfAnotherFormatIsSkippedWithOneError)
{
    Fixture fx;
    const auto r = fx.run(ImportFormat::Sieve, "kernelbook.jsonl");
    expectErrors(r, {{"kernelbook.jsonl", 1, "format"}});
    EXPECT_NE(r.files[0].errors[0].message.find("'kernelbook'"), std::string::npos);
    const auto py = fx.run(ImportFormat::Sieve, "kernelbench/level1/19_ReLU.py");
    expectErrors(py, {{"19_ReLU.py", 1, "record"}});
    EXPECT_NE(py.files[0].errors[0].message.find("not a JSON Lines file"), std::string::npos);
    EXPECT_EQ(fx.corpus.db().queryInt("SELECT count(*) FROM tasks").value_or(-1), 0);
}

TEST(ImportBadInput, UnreadablePathsAreReportedAndTheOtherFilesStillImported)
{
    Fixture fx;
    const auto r =
        importFiles(fx.corpus, ImportFormat::Sieve,
                    {fx.dir.file("missing.jsonl"), fx.dir.path().string(), test::testData("import/sieve_tasks.jsonl")});
    ASSERT_EQ(r.files.size(), 3u);
    ASSERT_EQ(r.files[0].errors.size(), 1u);
    EXPECT_EQ(r.files[0].errors[0].field, "path");
    EXPECT_EQ(r.files[0].errors[0].line, 0u);
    EXPECT_NE(r.files[0].errors[0].message.find("No such file"), std::string::npos);
    ASSERT_EQ(r.files[1].errors.size(), 1u);
    EXPECT_NE(r.files[1].errors[0].message.find("directory"), std::string::npos);
    EXPECT_EQ(r.files[2].tasksAdded, 2u);
}

TEST(ImportBadInput, ALineOverSixteenMebibytesIsRejectedAndTheNextOneImported)
{
    Fixture fx;
    const std::string path = fx.dir.file("big.jsonl");
    {
        std::ofstream out(path, std::ios::binary);
        out << "{\"sample_id\":\"big\",\"task_id\":\"t\",\"code\":\"" << std::string(16u << 20, 'x') << "\"}\n";
        out << test::readFile(test::testData("import/sieve_tasks.jsonl"));
    }
    const auto r = importFiles(fx.corpus, ImportFormat::Sieve, {path});
    expectErrors(r, {{"big.jsonl", 1, "record"}});
    EXPECT_NE(r.files[0].errors[0].message.find("16 MiB"), std::string::npos);
    EXPECT_EQ(r.tasksAdded(), 2u);
}

TEST(ImportBadInput, ASampleIdReusedWithOtherContentIsAnError)
{
    Fixture fx;
    fx.run(ImportFormat::Sieve, "sieve_tasks.jsonl");
    const std::string path = fx.dir.file("s.jsonl");
    test::writeFile(path, "{\"sample_id\":\"a\",\"task_id\":\"t/double\",\"code\":\"x = 1\"}\n"
                          "{\"sample_id\":\"a\",\"task_id\":\"t/double\",\"code\":\"x = 2\"}\n"
                          "{\"sample_id\":\"a\",\"task_id\":\"t/double\",\"code\":\"x = 1\"}\n");
    const auto r = importFiles(fx.corpus, ImportFormat::Sieve, {path});
    expectErrors(r, {{"s.jsonl", 2, "sample_id"}});
    EXPECT_EQ(r.samplesAdded(), 1u);
    EXPECT_EQ(r.unchanged(), 1u);
}

TEST(ImportBadInput, ListedErrorsAreCappedButAllCounted)
{
    Fixture fx;
    std::string text;
    for (int i = 0; i < 50; ++i)
        text += "{oops\n";
    test::writeFile(fx.dir.file("x.jsonl"), text);
    ImportOptions o;
    o.maxListedErrors = 10;
    std::size_t seen = 0;
    o.onError = [&](const ImportError &) { ++seen; };
    const auto r = importFiles(fx.corpus, ImportFormat::Sieve, {fx.dir.file("x.jsonl")}, o);
    EXPECT_EQ(r.rejected(), 50u);
    EXPECT_EQ(r.files[0].errors.size(), 10u);
    EXPECT_EQ(r.files[0].errorsNotListed, 40u);
    EXPECT_EQ(seen, 50u);
}
