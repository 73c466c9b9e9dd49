// Task hygiene: the import-time scan of a reference's imports, `sieve-cli tasks check` on the CPU with a
// real worker (tests/data/tasks_check: a scalar loss that is fine, a broken reference, values below the
// tolerance, KernelBench's hinge-loss literal, a literal the shrinker cannot see, einops and transformers
// imports), and `verify --policy` reaching the worker's requests and the run's record.
#include "core/db/corpus.h"
#include "core/tasks/taskhygiene.h"
#include "tests/unit/gpu/test_verify_support.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

using namespace sieve;

namespace {

const char *kTasks[] = {"scalar_loss", "hinge_literal", "literal_only",     "tiny_values",
                        "broken",      "uses_einops",   "uses_transformers"};

// A sieve-format JSONL with one task per file of tests/data/tasks_check, named tc/<file stem>.
std::string tasksJsonl(const test::TempDir &dir)
{
    const std::string path = dir.file("tasks.jsonl");
    std::string text;
    for (const char *t : kTasks)
        text +=
            nlohmann::json{{"task_id", std::string("tc/") + t},
                           {"reference_code", test::readFile(test::testData(std::string("tasks_check/") + t + ".py"))}}
                .dump() +
            "\n";
    test::writeFile(path, text);
    return path;
}

std::vector<nlohmann::json> jsonLines(const std::string &text)
{
    std::vector<nlohmann::json> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty() && line.front() == '{')
            out.push_back(nlohmann::json::parse(line));
    return out;
}

std::string hygieneState(Corpus &c, const std::string &task)
{
    return c.db()
        .queryText("SELECT h.state FROM task_hygiene h JOIN tasks t ON t.id = h.task_id WHERE t.name='" + task + "'")
        .value_or("(none)");
}

} // namespace

TEST(ReferenceImportScan, NamesModulesTheVerifierLacksAndDownloads)
{
    const auto f = scanReferenceImports("import torch\nimport torch.nn as nn, math\nfrom einops import rearrange\n"
                                        "def f():\n    import transformers.models\n"
                                        "    m = AutoModel.from_pretrained('x')\n"
                                        "src = \"\"\"\nimport notamodule\n\"\"\"\n# import commented\n"
                                        "from . import sibling\nimport numpy as np  # import hidden\n");
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].code, "TASK_IMPORT_MISSING");
    EXPECT_EQ(f[0].name, "einops");
    EXPECT_EQ(f[0].line, 3);
    EXPECT_EQ(f[1].name, "transformers");
    EXPECT_EQ(f[1].line, 5);
    EXPECT_EQ(f[2].code, "TASK_NEEDS_DOWNLOAD");
    EXPECT_EQ(f[2].name, "from_pretrained");
    EXPECT_TRUE(scanReferenceImports("import torch\nimport triton.language as tl\nimport collections.abc\n").empty());
}

TEST(TasksImport, ReportsAndStoresTasksWhoseImportsAreMissing)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    const auto r = test::runCli({"import", db, "--format", "sieve", tasksJsonl(dir), "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("2 tasks need what the verifier's environment lacks"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("tc/uses_einops: imports einops (line 4)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("tc/uses_transformers: imports transformers (line 11), from_pretrained() downloads a model"),
              std::string::npos)
        << r.out;
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(hygieneState(c, "tc/uses_einops"), "import_missing");
    EXPECT_EQ(c.db().queryText("SELECT codes FROM task_hygiene h JOIN tasks t ON t.id=h.task_id WHERE t.name="
                               "'tc/uses_transformers'"),
              "TASK_IMPORT_MISSING,TASK_NEEDS_DOWNLOAD");
    EXPECT_EQ(hygieneState(c, "tc/scalar_loss"), "unchecked");

    // --json carries the same list.
    const std::string db2 = dir.file("d.sieve");
    ASSERT_EQ(test::runCli({"init", db2}).exitCode, 0);
    const auto j = test::runCli({"import", db2, "--format", "sieve", tasksJsonl(dir), "--json", "--quiet"});
    ASSERT_EQ(j.exitCode, 0) << j.err;
    const auto report = nlohmann::json::parse(j.out);
    ASSERT_EQ(report["tasks_import_missing"].size(), 2u) << j.out;
    EXPECT_EQ(report["tasks_import_missing"][0]["task"], "tc/uses_einops");
    EXPECT_EQ(report["tasks_import_missing"][0]["findings"][0]["module"], "einops");
}

TEST(TasksCheck, JudgesEachTaskOnTheCpuAndStoresIt)
{
    const std::string py = test::requireVerifierPython();
    if (py.empty())
        return;
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    ASSERT_EQ(test::runCli({"import", db, "--format", "sieve", tasksJsonl(dir), "--quiet"}).exitCode, 0);
    const auto r = test::runCli(
        {"tasks", "check", db, "--cpu", "--json", "--quiet", "--python", py, "--cache-dir", dir.file("cache")});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    std::map<std::string, nlohmann::json> by;
    const auto rows = jsonLines(r.out);
    ASSERT_EQ(rows.size(), std::size(kTasks) + 1) << r.out;
    for (const auto &row : rows)
        if (row.contains("task"))
            by[row["task"]] = row;
    EXPECT_EQ(rows.back()["summary"]["tasks"], std::size(kTasks));

    // A loss: one number per call, not a "constant" output.
    EXPECT_EQ(by["tc/scalar_loss"]["state"], "ok") << by["tc/scalar_loss"].dump();
    EXPECT_EQ(by["tc/scalar_loss"]["codes"].get<std::string>().find("REF_CONSTANT"), std::string::npos);
    // Shrunk on the CPU: what could not be judged at the shipped shape is said.
    EXPECT_NE(by["tc/scalar_loss"]["codes"].get<std::string>().find("REF_UNJUDGED_AT_SCALE"), std::string::npos);
    // The hinge loss shrinks its int and its tuple literal together.
    EXPECT_EQ(by["tc/hinge_literal"]["state"], "ok") << by["tc/hinge_literal"].dump();
    const auto hinge = by["tc/hinge_literal"]["shapes"][0]["shape"];
    EXPECT_EQ(hinge["input_shape"], nlohmann::json::array({hinge["batch_size"]})) << hinge.dump();
    // A literal the shrinker cannot see: not judged here, not broken.
    EXPECT_EQ(by["tc/literal_only"]["state"], "unjudged") << by["tc/literal_only"].dump();
    EXPECT_EQ(by["tc/literal_only"]["codes"], "REF_UNJUDGED_AT_SCALE");
    EXPECT_EQ(by["tc/tiny_values"]["state"], "broken");
    EXPECT_NE(by["tc/tiny_values"]["codes"].get<std::string>().find("REF_BELOW_TOL"), std::string::npos);
    EXPECT_EQ(by["tc/broken"]["state"], "broken");
    EXPECT_EQ(by["tc/broken"]["codes"], "REF_FAILED");
    EXPECT_EQ(by["tc/uses_einops"]["state"], "import_missing");
    EXPECT_NE(by["tc/uses_einops"]["hygiene"][0]["message"].get<std::string>().find("'einops'"), std::string::npos);
    EXPECT_EQ(by["tc/uses_transformers"]["state"], "import_missing");

    // Stored per task, replacing what the import wrote.
    Corpus c = Corpus::open(db, true);
    EXPECT_EQ(hygieneState(c, "tc/scalar_loss"), "ok");
    EXPECT_EQ(hygieneState(c, "tc/tiny_values"), "broken");
    EXPECT_EQ(hygieneState(c, "tc/uses_einops"), "import_missing");
    EXPECT_EQ(c.db().queryText("SELECT DISTINCT device FROM task_hygiene").value_or(""), "cpu");
    const auto report = nlohmann::json::parse(
        c.db()
            .queryText("SELECT report_json FROM task_hygiene h JOIN tasks t ON t.id=h.task_id WHERE t.name='tc/broken'")
            .value());
    EXPECT_FALSE(report["ok"].get<bool>());

    // --task selects; an unknown name is a usage error.
    const auto one = test::runCli(
        {"tasks", "check", db, "--cpu", "--task", "tc/broken", "--python", py, "--cache-dir", dir.file("cache")});
    EXPECT_EQ(one.exitCode, 0) << one.err;
    EXPECT_NE(one.out.find("1 tasks checked on cpu"), std::string::npos) << one.out;
    // Progress into a pipe (a log): whole lines, no carriage return.
    EXPECT_EQ(one.err.find('\r'), std::string::npos) << one.err;
    EXPECT_NE(one.err.find("tasks check 1/1 (100%)"), std::string::npos) << one.err;
    EXPECT_EQ(test::runCli({"tasks", "check", db, "--cpu", "--task", "nope", "--python", py}).exitCode, 2);
    EXPECT_EQ(test::runCli({"tasks", "frobnicate", db}).exitCode, 2);
}

// KernelBench's activations draw torch.rand (all >= 0), on which each is the identity: `tasks check` names
// the weakness and the derived input set that separates (issue 31); the task stays usable.
TEST(TasksCheck, NamesAReferenceThatIsTheIdentityOnItsOwnInputs)
{
    const std::string py = test::requireVerifierPython();
    if (py.empty())
        return;
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    const std::string jsonl = dir.file("kb.jsonl");
    std::string text;
    for (const char *t : {"19_ReLU", "20_LeakyReLU", "31_ELU", "32_HardTanh"})
        text += nlohmann::json{{"task_id", std::string("kb/") + t},
                               {"reference_code",
                                test::readFile(test::testData(std::string("verifier/inputs/tasks/") + t + ".py"))}}
                    .dump() +
                "\n";
    test::writeFile(jsonl, text);
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    ASSERT_EQ(test::runCli({"import", db, "--format", "sieve", jsonl, "--quiet"}).exitCode, 0);
    const auto r = test::runCli(
        {"tasks", "check", db, "--cpu", "--json", "--quiet", "--python", py, "--cache-dir", dir.file("cache")});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    std::map<std::string, nlohmann::json> by;
    for (const auto &row : jsonLines(r.out))
        if (row.contains("task"))
            by[row["task"]] = row;
    ASSERT_EQ(by.size(), 4u) << r.out;
    for (const auto &[name, row] : by) {
        EXPECT_EQ(row["state"], "ok") << row.dump();
        EXPECT_NE(row["codes"].get<std::string>().find("REF_IDENTITY_ON_INPUTS"), std::string::npos) << row.dump();
        std::string messages;
        for (const auto &h : row["hygiene"])
            messages += h.value("message", "") + "\n";
        EXPECT_NE(messages.find("the derived set `"), std::string::npos) << name << ": " << messages;
    }
    EXPECT_NE(by["kb/32_HardTanh"].dump().find("the derived set `wide` separates"), std::string::npos);
}

TEST(VerifyPolicy, ReachesTheWorkerAndIsRecordedInTheRun)
{
    const std::string py = test::requireVerifierPython();
    if (py.empty())
        return;
    test::TempDir dir;
    const std::string db = dir.file("c.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    ASSERT_EQ(test::runCli({"import", db, "--format", "sieve", test::testData("import/sieve_tasks.jsonl"),
                            test::testData("import/sieve_samples.jsonl"), "--quiet"})
                  .exitCode,
              0);
    EXPECT_EQ(test::runCli({"verify", db, "--cpu", "--policy", "lenient"}).exitCode, 2);
    // An interpreter that records the worker's stdin: the requests the engine sends.
    const std::string log = dir.file("requests.log"), shim = dir.file("python");
    test::writeFile(shim, "#!/bin/sh\ntee -a '" + log + "' | exec '" + py + "' \"$@\"\n");
    std::filesystem::permissions(shim, std::filesystem::perms::owner_all);
    const auto r = test::runCli({"verify", db, "--cpu", "--policy", "kernelbench", "--limit", "1", "--quiet",
                                 "--python", shim, "--cache-dir", dir.file("cache")});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    bool sawVerify = false;
    for (const auto &req : jsonLines(test::readFile(log)))
        if (req.value("op", "") == "verify") {
            sawVerify = true;
            EXPECT_EQ(req.value("policy", ""), "kernelbench") << req.dump();
        }
    EXPECT_TRUE(sawVerify);
    Corpus c = Corpus::open(db, true);
    const auto params = nlohmann::json::parse(c.db().queryText("SELECT params_json FROM verify_runs").value());
    EXPECT_EQ(params.value("policy", ""), "kernelbench");
    const auto env = nlohmann::json::parse(c.db().queryText("SELECT env_json FROM verify_runs").value());
    EXPECT_EQ(env.value("policy", ""), "kernelbench");
    // Without --policy a run is strict.
    ASSERT_EQ(test::runCli({"verify", db, "--cpu", "--all", "--limit", "1", "--quiet", "--python", py, "--cache-dir",
                            dir.file("cache")})
                  .exitCode,
              0);
    EXPECT_EQ(
        nlohmann::json::parse(c.db().queryText("SELECT params_json FROM verify_runs ORDER BY id DESC LIMIT 1").value())
            .value("policy", ""),
        "strict");
}
