// `sieve-cli verify --skip-static` (issue 30 point 7), with the real worker on the CPU: a measurement run of the
// runtime walls alone. Stage 0 does not run (a wrapper around torch is left to the runtime checks), the run
// records the option, every verdict carries the flag STATIC_SKIPPED, and a resumed run keeps the option.
#include "core/db/corpus.h"
#include "tests/unit/gpu/test_verify_support.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace sieve;
using namespace sieve::test;

namespace {

std::int64_t count(Corpus &c, const std::string &sql)
{
    return c.db().queryInt(sql).value_or(-1);
}

nlohmann::json summaryOf(const std::string &out)
{
    std::istringstream in(out);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty())
            last = line;
    const auto j = nlohmann::json::parse(last, nullptr, false);
    return j.is_object() && j.contains("summary") ? j["summary"] : nlohmann::json();
}

TEST(VerifySkipStatic, RecordedInTheRunAndEveryVerdict)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus::create(db);
    const auto ids = addFixturesToCorpus(db, pickFixtures({"softmax", "static_no_kernel"}));
    const auto r =
        runCli({"verify", db, "--cpu", "--json", "--quiet", "--skip-static", "--cache-dir", tmp.file("cache")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(summaryOf(r.out).value("skip_static", false), true) << r.out;
    Corpus c = Corpus::open(db, true);
    const auto params = nlohmann::json::parse(c.db().queryText("SELECT params_json FROM verify_runs").value_or("{}"));
    const auto env = nlohmann::json::parse(c.db().queryText("SELECT env_json FROM verify_runs").value_or("{}"));
    EXPECT_EQ(params.value("skip_static", false), true) << params.dump();
    EXPECT_EQ(env.value("skip_static", false), true) << env.dump();
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts"), 2);
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts WHERE ',' || flags || ',' LIKE '%,STATIC_SKIPPED,%'"), 2);
    // the torch wrapper was not read by stage 0: the runtime's proof of work refused it instead
    const std::string wrapper =
        c.db()
            .queryText("SELECT status FROM samples WHERE id=" + std::to_string(ids.at("static_no_kernel")))
            .value_or("");
    EXPECT_NE(wrapper, "FAIL_STATIC");
    EXPECT_NE(wrapper, "PASS");
    EXPECT_EQ(c.db().queryText("SELECT status FROM samples WHERE id=" + std::to_string(ids.at("softmax"))).value_or(""),
              "PASS");
    // and that PASS is not admitted by export's selection unless asked for
    const auto sel = runCli({"select", db, "--json"});
    ASSERT_EQ(sel.exitCode, 0) << sel.err;
    EXPECT_EQ(nlohmann::json::parse(sel.out)["samples"], 0) << sel.out;
    const auto with = runCli({"select", db, "--json", "--include-skip-static"});
    ASSERT_EQ(with.exitCode, 0) << with.err;
    EXPECT_EQ(nlohmann::json::parse(with.out)["samples"], 1) << with.out;
}

TEST(VerifySkipStatic, AResumedRunKeepsIt)
{
    if (requireVerifierPython().empty())
        return;
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus c = Corpus::create(db);
    addFixturesToCorpus(db, pickFixtures({"static_no_kernel"}));
    // an interrupted measurement run, resumed by the plain command
    c.db().exec("INSERT INTO verify_runs(started_at, state, mode, params_json) VALUES(0, 'interrupted', 'cpu', "
                "'{\"mode\":\"cpu\",\"skip_static\":true,\"selection\":{\"all\":false,\"tasks\":[],\"ids\":[],"
                "\"limit\":null}}')");
    const auto r = runCli({"verify", db, "--cpu", "--json", "--quiet", "--cache-dir", tmp.file("cache")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto s = summaryOf(r.out);
    EXPECT_EQ(s.value("resumed", false), true) << r.out;
    EXPECT_EQ(s.value("skip_static", false), true) << r.out;
    EXPECT_EQ(count(c, "SELECT count(*) FROM verdicts WHERE run_id=1 AND status != 'FAIL_STATIC' AND "
                       "',' || flags || ',' LIKE '%,STATIC_SKIPPED,%'"),
              1);
}

TEST(VerifySkipStatic, NotAddedToAnUnfinishedRunWithoutIt)
{
    TempDir tmp;
    const std::string db = tmp.file("c.db");
    Corpus c = Corpus::create(db);
    c.db().exec("INSERT INTO verify_runs(started_at, state, mode, params_json) VALUES(0, 'interrupted', 'cpu', "
                "'{\"mode\":\"cpu\",\"selection\":{\"all\":false,\"tasks\":[],\"ids\":[],\"limit\":null}}')");
    const auto r = runCli({"verify", db, "--cpu", "--skip-static"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--new-run"), std::string::npos) << r.err;
    const auto serve = runCli({"verify", db, "--cpu", "--serve", "--skip-static", "--new-run"});
    EXPECT_EQ(serve.exitCode, 2) << serve.err;
}

} // namespace
