// sieve-cli judge and explain as users run them, against the OpenAI-compatible test server on loopback, on
// corpora imported from the real fixture files: suggestions and explanations stored with their provenance,
// resumable, faults retried, unreadable answers recorded, and how select/export/show/stats use them.
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/store/teacherstore.h"
#include "core/teacher/judgeanswer.h"
#include "tests/net/fakeserver.h"
#include "tests/net/nettestutil.h"

#include <QStringList>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace sieve;
using sieve::test::FakeAction;
using sieve::test::FakeServer;

namespace {

// A corpus imported from tests/data/import: the sieve fixture (tasks, samples with and without reasoning)
// and KernelBook rows (no reasoning).
std::string importedCorpus(const test::TempDir &dir)
{
    const std::string db = dir.file("c.sieve");
    EXPECT_EQ(test::runCli({"init", db}).exitCode, 0);
    const auto a = test::runCli({"import", db, "--format", "sieve", test::testData("import/sieve_tasks.jsonl"),
                                 test::testData("import/sieve_samples.jsonl")});
    EXPECT_EQ(a.exitCode, 0) << a.err;
    const auto b = test::runCli({"import", db, "--format", "kernelbook", test::testData("import/kernelbook.jsonl")});
    EXPECT_EQ(b.exitCode, 0) << b.err;
    return db;
}

std::int64_t count(const std::string &db, const std::string &sql)
{
    return db::Database(db, db::Database::Mode::ReadOnly).queryInt(sql).value_or(-1);
}

// The judge's answer: `implements` for the samples whose code launches the doubling kernel, `delegates`
// for the rest, quoting line 1.
QByteArray judgeAnswer(const QByteArray &requestBody, int)
{
    const bool ours = requestBody.contains("double_kernel[");
    nlohmann::json a = {{"verdict", ours ? "implements" : "delegates"},
                        {"confidence", ours ? 0.9 : 0.7},
                        {"delegated_to", ours ? nlohmann::json::array() : nlohmann::json::array({"torch.sum"})},
                        {"reasoning_consistent", true},
                        {"lines", {{{"line", 1}, {"text", "import torch"}, {"why", "imports"}}}},
                        {"summary", "checked"}};
    return QByteArray::fromStdString("```json\n" + a.dump() + "\n```");
}

QStringList teacherArgs(const char *command, const std::string &db, const FakeServer &server)
{
    return {QString::fromLatin1(command),        QString::fromStdString(db), QStringLiteral("--endpoint"),
            QString::fromUtf8(server.baseUrl()), QStringLiteral("--model"),  QStringLiteral("judge-m"),
            QStringLiteral("--backoff-ms"),      QStringLiteral("10"),       QStringLiteral("--json")};
}

std::vector<nlohmann::json> rows(const std::string &path)
{
    std::vector<nlohmann::json> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        out.push_back(nlohmann::json::parse(line));
    return out;
}

} // namespace

TEST(JudgeAnswer, ReadsTheShapeAndChecksQuotedLines)
{
    const std::string code = "import torch\nclass ModelNew:\n    def forward(self, x):\n        return torch.relu(x)\n";
    const auto p = judge::parseAnswer(
        R"J({"verdict":"Delegates","confidence":0.8,"delegated_to":["torch.relu"],"reasoning_consistent":false,)J"
        R"J("lines":[{"line":4,"text":"   4|         return torch.relu(x)","why":"torch"},{"line":2,"text":"nope"}],)J"
        R"J("summary":"torch does it"})J",
        code);
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.verdict, "delegates");
    EXPECT_EQ(p.confidence, 0.8);
    EXPECT_EQ(p.reasoningConsistent, false);
    ASSERT_EQ(p.lines.size(), 2u);
    EXPECT_TRUE(p.lines[0].matches);
    EXPECT_FALSE(p.lines[1].matches) << "a quote that is not the code's line is marked, not trusted";
    EXPECT_TRUE(judge::isFlagged(p.verdict));
    const auto thought = judge::parseAnswer("<think>{\"verdict\": \"wrong\"}</think>\n{\"verdict\": \"implements\", "
                                            "\"confidence\": 1}",
                                            code);
    ASSERT_TRUE(thought.ok) << thought.error;
    EXPECT_EQ(thought.verdict, "implements") << "the answer follows the thinking";
}

TEST(JudgeAnswer, AnythingElseIsUnparseableWithAReasonNeverAGuess)
{
    for (const char *bad :
         {"", "It implements the operator.", "{\"verdict\": \"implements\"}",
          "{\"verdict\": \"probably\", \"confidence\": 0.5}", "{\"verdict\": \"implements\", \"confidence\": 7}",
          "[1,2]", "{\"verdict\": ", "```json\n{\"verdict\":\"wrong\",\"confidence\":1}\n```\n```json\n{}\n```",
          "{\"verdict\":\"wrong\",\"confidence\":1,\"lines\":[{\"line\":-3,\"text\":\"x\"}]}"}) {
        const auto p = judge::parseAnswer(bad, "x = 1\n");
        EXPECT_FALSE(p.ok) << bad;
        EXPECT_FALSE(p.error.empty()) << bad;
        EXPECT_TRUE(p.verdict.empty()) << bad;
    }
}

TEST(JudgeCli, StoresSuggestionsNeverTouchesVerdictsAndResumeSkips)
{
    test::TempDir dir;
    const std::string db = importedCorpus(dir);
    const std::int64_t answered = count(db, "SELECT count(*) FROM samples WHERE has_answer = 1");
    ASSERT_GE(answered, 4);
    const std::int64_t pendingBefore = count(db, "SELECT count(*) FROM samples WHERE status = 'PENDING'");
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent(judgeAnswer);
    const auto r = test::runCliServing(teacherArgs("judge", db, server));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["state"], "finished");
    EXPECT_EQ(j["judged"], answered);
    EXPECT_EQ(count(db, "SELECT count(*) FROM judge_suggestions"), answered);
    EXPECT_GT(count(db, "SELECT count(*) FROM judge_suggestions WHERE verdict = 'implements'"), 0);
    EXPECT_GT(count(db, "SELECT count(*) FROM judge_suggestions WHERE verdict = 'delegates'"), 0);
    EXPECT_EQ(count(db, "SELECT count(DISTINCT rubric_hash) FROM judge_suggestions WHERE model = 'judge-m' AND "
                        "rubric = 'judge' AND length(rubric_hash) = 64"),
              1);
    // A suggestion only: the verifier's status, verdicts and reviews are untouched.
    EXPECT_EQ(count(db, "SELECT count(*) FROM samples WHERE status = 'PENDING'"), pendingBefore);
    EXPECT_EQ(count(db, "SELECT count(*) FROM verdicts") + count(db, "SELECT count(*) FROM reviews"), 0);
    // The request carried the rubric with the numbered code and the task's reference.
    const QByteArray first = server.requests().value(0).body;
    EXPECT_TRUE(first.contains("sieve judge rubric")) << first.left(300).toStdString();
    EXPECT_TRUE(first.contains("   1| ")) << first.left(300).toStdString();
    const auto s = store::judgeSuggestion(db::Database(db, db::Database::Mode::ReadOnly), 1);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->details["lines"][0]["matches"], true);
    EXPECT_NE(s->answer.find("\"verdict\""), std::string::npos);

    const int before = static_cast<int>(server.requests().size());
    const auto again = test::runCliServing(teacherArgs("judge", db, server));
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(nlohmann::json::parse(again.out)["skipped"], answered);
    EXPECT_EQ(static_cast<int>(server.requests().size()), before) << "judged samples are not asked about again";

    QStringList redo = teacherArgs("judge", db, server);
    redo << QStringLiteral("--again") << QStringLiteral("--limit") << QStringLiteral("2");
    const auto r3 = test::runCliServing(redo);
    ASSERT_EQ(r3.exitCode, 0) << r3.err;
    EXPECT_EQ(static_cast<int>(server.requests().size()), before + 2);
    EXPECT_EQ(count(db, "SELECT count(*) FROM judge_suggestions"), answered);
}

TEST(JudgeCli, AnUnparseableAnswerIsRecordedAsSuch)
{
    test::TempDir dir;
    const std::string db = importedCorpus(dir);
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent([](const QByteArray &, int) { return QByteArray("I think it implements it, mostly."); });
    QStringList args = teacherArgs("judge", db, server);
    args << QStringLiteral("--limit") << QStringLiteral("1");
    const auto r = test::runCliServing(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["verdicts"]["unparseable"], 1);
    const auto s = store::judgeSuggestion(db::Database(db, db::Database::Mode::ReadOnly), 1);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->verdict, "unparseable");
    EXPECT_FALSE(s->confidence);
    EXPECT_EQ(s->details["error"], "the answer is not a JSON object");
    EXPECT_EQ(s->answer, "I think it implements it, mostly.");
}

TEST(JudgeCli, EndpointFaultsAreRetriedAndAStoppedRunLosesNothing)
{
    test::TempDir dir;
    const std::string db = importedCorpus(dir);
    const std::int64_t answered = count(db, "SELECT count(*) FROM samples WHERE has_answer = 1");
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent(judgeAnswer);
    // The sampler's fault modes, then a run of errors that stops the command.
    server.script({FakeAction{FakeAction::Ok}, FakeAction{FakeAction::Status, 429, {}, "0"},
                   FakeAction{FakeAction::Reset}, FakeAction{FakeAction::Truncated}, FakeAction{FakeAction::Garbage},
                   FakeAction{FakeAction::Ok}, FakeAction{FakeAction::Status, 500}, FakeAction{FakeAction::Status, 502},
                   FakeAction{FakeAction::Status, 503}, FakeAction{FakeAction::Status, 500},
                   FakeAction{FakeAction::Status, 504}});
    QStringList args = teacherArgs("judge", db, server);
    args << QStringLiteral("--concurrency") << QStringLiteral("1") << QStringLiteral("--max-failures")
         << QStringLiteral("5");
    const auto r = test::runCliServing(args);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("run the same command again"), std::string::npos) << r.err;
    EXPECT_EQ(count(db, "SELECT count(*) FROM judge_suggestions"), 2);
    EXPECT_EQ(count(db, "SELECT count(*) FROM judge_suggestions WHERE verdict = 'unparseable'"), 0)
        << "a malformed reply is an endpoint fault, retried, not an answer";

    const auto resumed = test::runCliServing(teacherArgs("judge", db, server));
    ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
    const auto j = nlohmann::json::parse(resumed.out);
    EXPECT_EQ(j["skipped"], 2);
    EXPECT_EQ(j["judged"], answered - 2);
    EXPECT_EQ(count(db, "SELECT count(*) FROM judge_suggestions"), answered);
}

TEST(JudgeCli, SelectAndExportKeepOrDropWhatTheJudgeSays)
{
    test::TempDir dir;
    const std::string db = importedCorpus(dir);
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent(judgeAnswer);
    ASSERT_EQ(test::runCliServing(teacherArgs("judge", db, server)).exitCode, 0);
    const std::int64_t answered = count(db, "SELECT count(*) FROM samples WHERE has_answer = 1");
    const std::int64_t implements = count(db, "SELECT count(*) FROM judge_suggestions WHERE verdict = 'implements'");
    // Leave one sample unjudged: require drops it, exclude keeps it.
    db::Database(db, db::Database::Mode::ReadWrite)
        .exec("DELETE FROM judge_suggestions WHERE sample_id = (SELECT max(sample_id) FROM judge_suggestions WHERE "
              "verdict = 'delegates')");
    const std::int64_t flagged = count(db, "SELECT count(*) FROM judge_suggestions WHERE verdict = 'delegates'");
    std::vector<std::string> accept = {"review", db};
    for (std::int64_t id = 1; id <= count(db, "SELECT max(id) FROM samples"); ++id)
        accept.push_back(std::to_string(id));
    accept.push_back("--accept");
    ASSERT_EQ(test::runCli(accept).exitCode, 0);

    auto exported = [&](const std::string &judgeMode) {
        const std::string out = dir.file("out-" + judgeMode);
        std::vector<std::string> a = {"export", db, out, "--require", "accepted", "--all-in-cluster", "--split", "0"};
        if (!judgeMode.empty()) {
            a.push_back("--judge");
            a.push_back(judgeMode);
        }
        const auto r = test::runCli(a);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        std::ifstream m(out + "/manifest.json");
        return std::pair(rows(out + "/train.jsonl"), nlohmann::json::parse(m));
    };
    const auto [all, mAll] = exported("");
    const auto [req, mReq] = exported("require");
    const auto [exc, mExc] = exported("exclude");
    EXPECT_EQ(static_cast<std::int64_t>(all.size()), answered);
    EXPECT_EQ(static_cast<std::int64_t>(req.size()), implements);
    EXPECT_EQ(static_cast<std::int64_t>(exc.size()), answered - flagged);
    EXPECT_EQ(mReq["parameters"]["judge"], "require");
    EXPECT_EQ(mReq["selection"]["excluded"]["judge: not implements"], answered - implements);
    EXPECT_EQ(mExc["selection"]["excluded"]["judge: flagged"], flagged);
    EXPECT_FALSE(mAll["parameters"].contains("judge")) << "manifests without the option stay as they were";

    const auto sel = test::runCli({"select", db, "--require", "accepted", "--all-in-cluster", "--judge", "bogus"});
    EXPECT_EQ(sel.exitCode, 2) << sel.err;
}

TEST(JudgeCli, ShowAndStatsReportTheSuggestion)
{
    test::TempDir dir;
    const std::string db = importedCorpus(dir);
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent(judgeAnswer);
    ASSERT_EQ(test::runCliServing(teacherArgs("judge", db, server)).exitCode, 0);
    const auto shown = test::runCli({"show", db, "1", "--json"});
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    const auto j = nlohmann::json::parse(shown.out);
    EXPECT_EQ(j["judge"]["model"], "judge-m");
    EXPECT_EQ(j["judge"]["verdict"], "implements");
    EXPECT_EQ(j["judge"]["lines"][0]["text"], "import torch");
    const auto text = test::runCli({"show", db, "1"});
    EXPECT_NE(text.out.find("judge (suggestion): implements, confidence 0.9, model judge-m"), std::string::npos)
        << text.out;

    // Verified PASS but flagged by the judge: a disagreement.
    db::Database(db, db::Database::Mode::ReadWrite)
        .exec("UPDATE samples SET status = 'PASS' WHERE id IN (SELECT sample_id FROM judge_suggestions)");
    const auto stats = test::runCli({"stats", db, "--json"});
    ASSERT_EQ(stats.exitCode, 0) << stats.err;
    const auto s = nlohmann::json::parse(stats.out);
    EXPECT_EQ(s["judge"]["judged"], count(db, "SELECT count(*) FROM judge_suggestions"));
    EXPECT_EQ(s["judge"]["disagree"]["pass_but_flagged"],
              count(db, "SELECT count(*) FROM judge_suggestions WHERE verdict = 'delegates'"));
}

TEST(ExplainCli, StoresApartWithProvenanceAndExportsOnlyWhenAsked)
{
    test::TempDir dir;
    const std::string db = importedCorpus(dir);
    const std::int64_t answered = count(db, "SELECT count(*) FROM samples WHERE has_answer = 1");
    std::set<std::int64_t> without;
    std::map<std::int64_t, std::string> own;
    {
        db::Database d(db, db::Database::Mode::ReadOnly);
        without = store::samplesWithoutOwnReasoning(d);
        db::Statement st = d.prepare("SELECT sample_id, reasoning FROM sample_payloads WHERE reasoning IS NOT NULL");
        while (st.step())
            own[st.int64(0)] = payload::unpack(st.blob(1));
    }
    ASSERT_GE(without.size(), 2u);
    ASSERT_LT(static_cast<std::int64_t>(without.size()), answered) << "the fixture has samples with reasoning";
    FakeServer server;
    ASSERT_NE(server.listen(), 0);
    server.setContent([](const QByteArray &, int n) {
        QByteArray text("<think>scratch</think>\nThe operator sums rows; one program per row. #");
        text += QByteArray::number(n);
        return text;
    });
    server.script({FakeAction{FakeAction::Status, 503}, FakeAction{FakeAction::Reset}});
    const auto r = test::runCliServing(teacherArgs("explain", db, server));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["explained"], without.size());
    EXPECT_EQ(j["own_reasoning"], answered - static_cast<std::int64_t>(without.size()));
    EXPECT_EQ(count(db, "SELECT count(*) FROM teacher_reasoning WHERE model = 'judge-m' AND prompt = 'explain' AND "
                        "length(prompt_hash) = 64 AND created_at > 0"),
              static_cast<std::int64_t>(without.size()));
    {
        db::Database d(db, db::Database::Mode::ReadOnly);
        const auto t = store::teacherReasoning(d, *without.begin());
        ASSERT_TRUE(t);
        EXPECT_EQ(t->reasoning.rfind("The operator sums rows; one program per row.", 0), 0u) << t->reasoning;
        // The samples' own traces are exactly as imported.
        db::Statement st = d.prepare("SELECT sample_id, reasoning FROM sample_payloads WHERE reasoning IS NOT NULL");
        std::map<std::int64_t, std::string> after;
        while (st.step())
            after[st.int64(0)] = payload::unpack(st.blob(1));
        EXPECT_EQ(after, own);
    }
    const int before = static_cast<int>(server.requests().size());
    ASSERT_EQ(test::runCliServing(teacherArgs("explain", db, server)).exitCode, 0);
    EXPECT_EQ(static_cast<int>(server.requests().size()), before) << "explained samples are skipped";

    std::vector<std::string> accept = {"review", db};
    for (std::int64_t id = 1; id <= count(db, "SELECT max(id) FROM samples"); ++id)
        accept.push_back(std::to_string(id));
    accept.push_back("--accept");
    ASSERT_EQ(test::runCli(accept).exitCode, 0);
    auto exported = [&](bool teacher) {
        const std::string out = dir.file(teacher ? "with" : "without");
        std::vector<std::string> a = {"export", db, out, "--require", "accepted", "--all-in-cluster", "--split", "0"};
        if (teacher)
            a.push_back("--teacher-reasoning");
        const auto e = test::runCli(a);
        EXPECT_EQ(e.exitCode, 0) << e.err;
        std::ifstream m(out + "/manifest.json");
        return std::pair(rows(out + "/train.jsonl"), nlohmann::json::parse(m));
    };
    const auto [plain, mPlain] = exported(false);
    const auto [taught, mTaught] = exported(true);
    ASSERT_EQ(plain.size(), taught.size());
    int marked = 0;
    for (std::size_t i = 0; i < taught.size(); ++i) {
        const std::int64_t id = taught[i]["meta"]["sample_id"];
        const std::string content = taught[i]["messages"].back()["content"];
        const std::string plainContent = plain[i]["messages"].back()["content"];
        EXPECT_FALSE(plain[i]["meta"].contains("reasoning_source"));
        if (without.count(id)) {
            ++marked;
            EXPECT_EQ(taught[i]["meta"]["reasoning_source"], "teacher");
            EXPECT_EQ(taught[i]["meta"]["reasoning_model"], "judge-m");
            EXPECT_EQ(content.rfind("<think>\nThe operator sums rows", 0), 0u) << content;
            EXPECT_EQ(plainContent.find("<think>"), std::string::npos);
        } else {
            EXPECT_EQ(content, plainContent) << "a sample's own reasoning is never replaced";
            EXPECT_FALSE(taught[i]["meta"].contains("reasoning_source"));
        }
    }
    EXPECT_EQ(marked, static_cast<int>(without.size()));
    EXPECT_EQ(mTaught["teacher_reasoning"]["rows"], marked);
    EXPECT_EQ(mTaught["parameters"]["teacher_reasoning"], true);
    EXPECT_FALSE(mPlain.contains("teacher_reasoning"));

    const auto shown = test::runCli({"show", db, std::to_string(*without.begin()), "--code"});
    EXPECT_NE(shown.out.find("teacher-written reasoning (model judge-m, prompt explain sha256 "), std::string::npos)
        << shown.out;
}
