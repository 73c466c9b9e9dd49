// sieve-cli augment --teacher as a user runs it: the teacher (the OpenAI-compatible test server on
// loopback) proposes input configurations for KernelBench-style tasks, each is checked by running the
// task's reference in the real verifier worker on the CPU, and the survivors are stored as variants linked
// to their parent with the teacher's provenance; an interrupted run resumed stores nothing twice. The
// answer's format (core/teacher/augmentanswer.h) is checked first, field by field.
#include "core/db/corpus.h"
#include "core/teacher/augmentanswer.h"
#include "gpu/cli/commands.h"
#include "gpu/verify/pythonenv.h"
#include "net/cli/commands.h"
#include "tests/net/fakeserver.h"
#include "tests/net/nettestutil.h"

#include <QStringList>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <set>

using namespace sieve;
using sieve::test::FakeAction;
using sieve::test::FakeServer;

namespace {

const char *kGroupNorm = "kernelbench/level1/901_GroupNorm";
const char *kRelu = "kernelbench/level1/19_ReLU";

std::vector<augment::Constant> groupNormConstants()
{
    return augment::integerConstants(test::readFile(test::testData("augment/level1/901_GroupNorm.py")));
}

std::string fenced(const nlohmann::json &j)
{
    return "Here are the configurations.\n```json\n" + j.dump(1) + "\n```\n";
}

// Seven proposals for the group norm (features 32, num_groups 4, batch 8, length 256, fp32): 4 good, one
// the reference rejects (30 channels in 4 groups), one naming a variable the reference does not have, one
// that is proposal 1 again once the task's own batch_size is left out.
const nlohmann::json kGroupNormProposals = nlohmann::json::parse(R"([
  {"shapes": {"length": 4096}, "why": "a long row: a blocked reduction"},
  {"shapes": {"features": 30}, "why": "odd channel count"},
  {"shapes": {"batch_size": 2, "seq_len": 100}},
  {"shapes": {"features": 128, "num_groups": 16}, "dtype": "bf16", "why": "many small groups in bf16"},
  {"shapes": {"length": 4096, "batch_size": 8}},
  {"shapes": {"batch_size": 1, "length": 1000}, "why": "one sample, a masked tail"},
  {"shapes": {"features": 64, "num_groups": 8, "length": 64}, "dtype": "float16"}
])");
const nlohmann::json kReluProposals =
    nlohmann::json::parse(R"([{"shapes": {"dim": 1000}}, {"shapes": {"batch_size": 3, "dim": 4096}}])");

QByteArray teacherAnswer(const QByteArray &body, int)
{
    if (body.contains("901_GroupNorm"))
        return QByteArray::fromStdString(fenced(kGroupNormProposals));
    if (body.contains("19_ReLU"))
        return QByteArray::fromStdString(fenced(kReluProposals));
    return "no idea";
}

QStringList augmentArgs(const std::string &db, const FakeServer &server)
{
    return {QStringLiteral("augment"),  QString::fromStdString(db),      QStringLiteral("--teacher"),
            QStringLiteral("--task"),   QString::fromLatin1(kGroupNorm), QStringLiteral("--task"),
            QString::fromLatin1(kRelu), QStringLiteral("--endpoint"),    QString::fromUtf8(server.baseUrl()),
            QStringLiteral("--model"),  QStringLiteral("teacher-m"),     QStringLiteral("--backoff-ms"),
            QStringLiteral("10"),       QStringLiteral("--concurrency"), QStringLiteral("1"),
            QStringLiteral("--cpu"),    QStringLiteral("--json")};
}

std::int64_t count(const std::string &db, const std::string &sql)
{
    return db::Database(db, db::Database::Mode::ReadOnly).queryInt(sql).value_or(-1);
}

std::map<std::string, std::string> states(const nlohmann::json &task)
{
    std::map<std::string, std::string> out;
    for (const auto &p : task["proposals"])
        out[std::to_string(p["proposal"].get<int>())] = p["state"];
    return out;
}

} // namespace

TEST(AugmentAnswer, FindsTheReferencesIntegerConstants)
{
    const auto c = augment::integerConstants("import torch\nM = 16\nN: int = 1024  # cols\nSIZE = (2, 3)\n"
                                             "EPS = 1e-5\nname = 'x'\n    K = 4\nM = 99\nL=[7]\n");
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].name, "M");
    EXPECT_EQ(c[0].value, 16);
    EXPECT_EQ(c[1].name, "N");
    EXPECT_EQ(c[2].value, nlohmann::json::parse("[2,3]"));
    EXPECT_EQ(c[3].name, "L");
    EXPECT_EQ(augment::constantsLine(c), "M = 16, N = 1024, SIZE = [2,3], L = [7]");
    EXPECT_EQ(augment::constantsLine(groupNormConstants()),
              "batch_size = 8, features = 32, num_groups = 4, length = 256");
}

TEST(AugmentAnswer, DropsEachBadProposalWithAReasonNamingItAndTheField)
{
    const auto p = augment::parseAnswer(fenced(nlohmann::json::parse(R"([
        {"shapes": {"length": 512}},
        {"shapes": {"seq": 5}},
        {"shapes": {"length": -3}},
        {"shapes": {"length": 2.5}},
        {"shapes": {"length": 99999999999}},
        {"shapes": {"length": 64}, "dtype": "int8"},
        {"shapes": {"length": 64}, "colour": "red"},
        "length=64",
        {"dtype": "fp16"},
        {"shapes": {"length": 256}},
        {"shapes": {"length": 512}, "dtype": "fp32"},
        {"shapes": {}, "dtype": "bf16"},
        {"shapes": {}}
    ])")),
                                        groupNormConstants(), "fp32");
    ASSERT_TRUE(p.ok) << p.error;
    ASSERT_EQ(p.proposals.size(), 13u);
    auto reason = [&](int i) { return p.proposals[i - 1].reason; };
    auto kind = [&](int i) {
        const auto &d = p.proposals[i - 1].dropped;
        return d ? std::string(augment::dropKindName(*d)) : std::string("kept");
    };
    EXPECT_EQ(kind(1), "kept");
    EXPECT_EQ(p.proposals[0].shapes, nlohmann::json::parse(R"({"length":512})"));
    EXPECT_EQ(kind(2), "invalid");
    EXPECT_EQ(reason(2), "proposal 2: unknown variable 'seq' in 'shapes' (the reference's constants: batch_size, "
                         "features, num_groups, length)");
    EXPECT_EQ(reason(3), "proposal 3: 'shapes.length' is -3, not a positive integer");
    EXPECT_EQ(kind(4), "invalid");
    EXPECT_EQ(kind(5), "too_large");
    EXPECT_NE(reason(5).find("over 2147483647"), std::string::npos) << reason(5);
    EXPECT_EQ(reason(6), "proposal 6: 'dtype' \"int8\" is not fp32, fp16, bf16 or fp64");
    EXPECT_EQ(reason(7), "proposal 7: unknown field 'colour' (fields: shapes, dtype, why)");
    EXPECT_EQ(reason(8), "proposal 8: not an object but string");
    EXPECT_EQ(reason(9), "proposal 9: no 'shapes' field");
    EXPECT_EQ(kind(10), "duplicate"); // length 256 is the task's own
    EXPECT_EQ(reason(10), "proposal 10: the task itself (its own values and dtype)");
    EXPECT_EQ(reason(11), "proposal 11: the same as proposal 1"); // fp32 is the task's dtype
    EXPECT_EQ(kind(12), "kept");                                  // a dtype variant at the task's shapes
    EXPECT_EQ(*p.proposals[11].dtype, "bf16");
    EXPECT_EQ(reason(13), "proposal 13: 'shapes' is empty and no 'dtype' is given: nothing changes");
}

TEST(AugmentAnswer, AnAnswerThatIsNotAListOfProposalsIsUnparseable)
{
    const auto constants = groupNormConstants();
    EXPECT_EQ(augment::parseAnswer("Use length 4096.", constants, "fp32").error, "the answer is not a JSON list");
    EXPECT_EQ(augment::parseAnswer("```json\n{\"shapes\": {}}\n```", constants, "fp32").error,
              "the answer is a JSON object, not a list of proposals");
    EXPECT_NE(augment::parseAnswer("```json\n[{\"shapes\": \n```", constants, "fp32")
                  .error.find("the answer's JSON does not parse"),
              std::string::npos);
    EXPECT_EQ(augment::parseAnswer("```json\n[]\n```\n```json\n[]\n```", constants, "fp32").error,
              "the answer holds more than one code block");
    const auto bare =
        augment::parseAnswer("<think>lengths</think>\n[{\"shapes\": {\"length\": 8}}]", constants, "fp32");
    EXPECT_TRUE(bare.ok) << bare.error;
    EXPECT_EQ(bare.proposals.size(), 1u);
}

// Issue #33 point 3: 7 proposals, 2 invalid (the reference fails on one, one names an unknown variable), 1
// duplicate -> 4 kept (cap 5), linked to the parent, listed by `tasks list`; the run was cut short by the
// endpoint failing on the second task, and the same command again stores nothing twice.
TEST(AugmentTeacherCli, KeepsCheckedProposalsLinkedToTheParentAndResumesWithoutDuplicates)
{
    try {
        gpu::findPythonEnv();
    } catch (const std::exception &e) {
        FAIL() << "this test needs the verifier's Python (torch, triton): " << e.what();
    }
    test::TempDir dir;
    const std::string db = dir.file("kb.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    const auto imp =
        test::runCli({"import", db, "--format", "kernelbench", test::testData("augment/level1/901_GroupNorm.py"),
                      test::testData("import/kernelbench/level1/19_ReLU.py"), "--quiet"});
    ASSERT_EQ(imp.exitCode, 0) << imp.err;
    ASSERT_EQ(count(db, "SELECT count(*) FROM tasks"), 2);

    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent(teacherAnswer);
    // The group norm is answered; then the endpoint fails until the run gives up on the ReLU.
    server.script({FakeAction{FakeAction::Ok}, FakeAction{FakeAction::Status, 500}, FakeAction{FakeAction::Status, 502},
                   FakeAction{FakeAction::Status, 503}});
    QStringList first = augmentArgs(db, server);
    first << QStringLiteral("--max-failures") << QStringLiteral("2");
    const auto r = test::runCliServing(first, {}, 240000);
    ASSERT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["state"], "failed");
    EXPECT_EQ(j["proposed"], 7);
    EXPECT_EQ(j["kept"], 4) << r.out;
    EXPECT_EQ(j["dropped"], nlohmann::json::parse(R"({"invalid":1,"reference_failed":1,"duplicate":1})")) << r.out;
    ASSERT_EQ(j["tasks"].size(), 1u);
    EXPECT_EQ(j["unanswered_tasks"], nlohmann::json::array({kRelu}));
    const auto s = states(j["tasks"][0]);
    EXPECT_EQ(s, (std::map<std::string, std::string>{{"1", "kept"},
                                                     {"2", "reference_failed"},
                                                     {"3", "invalid"},
                                                     {"4", "kept"},
                                                     {"5", "duplicate"},
                                                     {"6", "kept"},
                                                     {"7", "kept"}}))
        << r.out;
    EXPECT_NE(j["tasks"][0]["proposals"][1]["reason"].get<std::string>().find("must be divisible by num_groups"),
              std::string::npos)
        << r.out;
    // The prompt showed the reference and its constants.
    const QByteArray asked = server.requests().value(0).body;
    EXPECT_TRUE(asked.contains("sieve augment prompt, version 1")) << asked.left(400).toStdString();
    EXPECT_TRUE(asked.contains("batch_size = 8, features = 32, num_groups = 4, length = 256"));

    // Linked to the parent, with the teacher's provenance, and the variant's own constants in its reference.
    const std::string parentKey =
        db::Database(db, db::Database::Mode::ReadOnly)
            .queryText(std::string("SELECT task_key FROM tasks WHERE name='") + kGroupNorm + "'")
            .value_or("");
    EXPECT_EQ(count(db, "SELECT count(*) FROM tasks WHERE json_extract(provenance_json, '$.variant_of') = '" +
                            parentKey + "' AND json_extract(provenance_json, '$.parent') = '" + kGroupNorm +
                            "' AND json_extract(provenance_json, '$.generator.by') = 'teacher' AND "
                            "json_extract(provenance_json, '$.generator.model') = 'teacher-m' AND "
                            "length(json_extract(provenance_json, '$.generator.prompt_sha256')) = 64"),
              4);
    EXPECT_EQ(count(db, std::string("SELECT count(*) FROM tasks WHERE name = '") + kGroupNorm +
                            "@features=128,num_groups=16/bf16' AND dtype = 'bf16'"),
              1);

    const auto list = test::runCli({"tasks", "list", db, "--family", kGroupNorm});
    ASSERT_EQ(list.exitCode, 0) << list.err;
    EXPECT_NE(list.out.find(std::string(kGroupNorm) + "@length=4096\t"), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("teacher teacher-m"), std::string::npos) << list.out;

    // The same command again: the group norm is asked again (it has 4 of 5), its 4 survivors are already
    // in the corpus (duplicates, not stored twice), and the ReLU gets its variants.
    const auto again = test::runCliServing(augmentArgs(db, server), {}, 240000);
    ASSERT_EQ(again.exitCode, 0) << again.out << again.err;
    const auto k = nlohmann::json::parse(again.out);
    EXPECT_EQ(k["state"], "finished");
    EXPECT_EQ(k["kept"], 2) << again.out;
    EXPECT_EQ(k["dropped"]["duplicate"], 5) << again.out;
    EXPECT_EQ(count(db, std::string("SELECT count(*) FROM tasks WHERE json_extract(provenance_json, '$.parent') = '") +
                            kGroupNorm + "'"),
              4);
    EXPECT_EQ(count(db, "SELECT count(*) FROM tasks"), 2 + 4 + 2);
    EXPECT_EQ(count(db, "SELECT count(*) FROM (SELECT task_key FROM tasks GROUP BY task_key HAVING count(*) > 1)"), 0);

    // With a cap of 2 both tasks have their teacher variants: neither is asked again.
    const int requests = static_cast<int>(server.requests().size());
    QStringList capped = augmentArgs(db, server);
    capped << QStringLiteral("--max-variants") << QStringLiteral("2");
    const auto third = test::runCliServing(capped, {}, 240000);
    ASSERT_EQ(third.exitCode, 0) << third.out << third.err;
    const auto t = nlohmann::json::parse(third.out);
    EXPECT_EQ(t["tasks_asked"], 0);
    EXPECT_EQ(t["skipped_tasks"].size(), 2u);
    EXPECT_EQ(static_cast<int>(server.requests().size()), requests);
}

TEST(AugmentTeacherCli, TeacherOptionsAreCheckedBeforeAnythingRuns)
{
    test::TempDir dir;
    const std::string db = dir.file("kb.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    auto r = test::runCli({"augment", db, "--teacher", "--task", "x", "--shapes", "M=1", "--endpoint",
                           "http://127.0.0.1:9/v1", "--model", "m"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--teacher and --shapes exclude each other"), std::string::npos) << r.err;
    r = test::runCli({"augment", db, "--task", "x", "--shapes", "M=1", "--model", "m"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--model is a teacher option: it needs --teacher"), std::string::npos) << r.err;
    r = test::runCli({"augment", db, "--teacher", "--task", "nope", "--endpoint", "http://127.0.0.1:9/v1", "--model",
                      "m", "--max-variants", "0"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--max-variants"), std::string::npos) << r.err;
    r = test::runCli(
        {"augment", db, "--teacher", "--task", "nope", "--endpoint", "http://127.0.0.1:9/v1", "--model", "m"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no task named 'nope'"), std::string::npos) << r.err;
}

TEST(AugmentTeacherCli, AnUnparseableAnswerMakesNothingAndSaysWhy)
{
    test::TempDir dir;
    const std::string db = dir.file("kb.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    ASSERT_EQ(test::runCli({"import", db, "--format", "kernelbench",
                            test::testData("import/kernelbench/level1/19_ReLU.py"), "--quiet"})
                  .exitCode,
              0);
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent([](const QByteArray &, int) { return QByteArray("Try dim = 4096, it is a nice size."); });
    QStringList args = {QStringLiteral("augment"),           QString::fromStdString(db),
                        QStringLiteral("--teacher"),         QStringLiteral("--task"),
                        QString::fromLatin1(kRelu),          QStringLiteral("--endpoint"),
                        QString::fromUtf8(server.baseUrl()), QStringLiteral("--model"),
                        QStringLiteral("teacher-m"),         QStringLiteral("--cpu")};
    const auto r = test::runCliServing(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("the teacher's answer about '" + std::string(kRelu) +
                         "' is unparseable: the answer is not a JSON list"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("0 of 0 proposals kept"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 unparseable answers"), std::string::npos) << r.out;
    EXPECT_EQ(count(db, "SELECT count(*) FROM tasks"), 1);
}

TEST(AugmentTeacherCli, ExtendsTheGpuLayersAugmentWithoutClashingOptions)
{
    const cli::Command gpuAugment = gpu::augmentCommand();
    const cli::Command augment = net::augmentCommand();
    EXPECT_EQ(augment.name, "augment");
    std::set<std::string> names;
    for (const cli::OptionSpec &o : augment.options)
        EXPECT_TRUE(names.insert(o.name).second) << "--" << o.name << " twice"; // parse() would take the first
    for (const cli::OptionSpec &o : gpuAugment.options)
        EXPECT_TRUE(names.count(o.name)) << "--" << o.name;
    for (const char *teacher : {"teacher", "max-variants", "prompt", "endpoint", "model", "max-failures"})
        EXPECT_TRUE(names.count(teacher)) << "--" << teacher;
}
