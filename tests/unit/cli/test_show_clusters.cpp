// sieve-cli show (one sample's verdicts, per-shape errors, log, environment, reviews, cluster) and
// sieve-cli clusters, on the demo corpus verified for real by the CPU verifier.
#include "tests/unit/gpu/test_verify_support.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

using namespace sieve;

namespace {

const std::string kDemo = std::string(SIEVE_SOURCE_DIR) + "/resources/demo/";

std::vector<nlohmann::json> jsonLines(const std::string &text)
{
    std::vector<nlohmann::json> rows;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            rows.push_back(nlohmann::json::parse(line));
    return rows;
}

} // namespace

TEST(ShowCli, OneSamplesVerdictsReviewsAndClusterAsTextAndJson)
{
    if (test::requireVerifierPython().empty())
        return;
    test::TempDir dir;
    const std::string db = dir.file("demo.sieve");
    ASSERT_EQ(test::runCli({"init", db}).exitCode, 0);
    ASSERT_EQ(
        test::runCli({"import", db, "--format", "sieve", kDemo + "tasks.jsonl", kDemo + "samples.jsonl", "--quiet"})
            .exitCode,
        0);
    std::map<std::string, std::string> ids;
    for (const auto &row : jsonLines(test::runCli({"list", db, "--json"}).out))
        ids[row["sample"]] = std::to_string(row["id"].get<long long>());
    const auto v = test::runCli({"verify", db, "--cpu", "--quiet", "--sample", ids["rmsnorm-A"], "--sample",
                                 ids["rmsnorm-A-dup"], "--sample", ids["rmsnorm-layernorm"]});
    ASSERT_EQ(v.exitCode, 0) << v.err;
    ASSERT_EQ(test::runCli({"review", db, "rmsnorm-A", "--accept", "--reason", "clean", "--note", "one pass"}).exitCode,
              0);
    ASSERT_EQ(test::runCli({"dedup", db}).exitCode, 0);

    // A failing sample: its reasons and the per-shape errors that made it fail, the environment, the log.
    auto r = test::runCli({"show", db, "rmsnorm-layernorm", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["sample"]["name"], "rmsnorm-layernorm");
    EXPECT_EQ(j["sample"]["task"], "demo/rmsnorm");
    ASSERT_TRUE(j["verdict"].is_object()) << r.out;
    EXPECT_EQ(j["verdict"]["status"], "FAIL_MISMATCH");
    EXPECT_EQ(j["verdict"]["status"], j["sample"]["status"]);
    EXPECT_NE(std::find(j["verdict"]["reasons"].begin(), j["verdict"]["reasons"].end(), "MISMATCH"),
              j["verdict"]["reasons"].end())
        << j["verdict"]["reasons"];
    bool failedCheck = false;
    for (const auto &c : j["verdict"]["checks"])
        failedCheck |= !c["ok"].get<bool>() && c["max_abs"].get<double>() > 0;
    EXPECT_TRUE(failedCheck) << j["verdict"]["checks"];
    EXPECT_TRUE(j["verdict"]["environment"].contains("torch")) << j["verdict"]["environment"];
    EXPECT_EQ(j["verdicts"].size(), 1u);
    EXPECT_TRUE(j["reviews"].empty());

    // A reviewed, clustered one, as text.
    r = test::runCli({"show", db, ids["rmsnorm-A"]});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char *part :
         {"sample ", "rmsnorm-A", "status PASS", "review accepted", "newest verdict", "checks (shape, seed",
          "environment: ", "reviews (newest first):", "reason clean", "one pass", "cluster "})
        EXPECT_NE(r.out.find(part), std::string::npos) << "no '" << part << "' in:\n" << r.out;
    j = nlohmann::json::parse(test::runCli({"show", db, "rmsnorm-A", "--json", "--code"}).out);
    ASSERT_EQ(j["reviews"].size(), 1u);
    EXPECT_EQ(j["reviews"][0]["decision"], "accepted");
    ASSERT_TRUE(j["cluster"].is_object()) << j;
    EXPECT_GE(j["cluster"]["size"].get<int>(), 2); // rmsnorm-A-dup is its duplicate
    EXPECT_NE(j["code"].get<std::string>().find("@triton.jit"), std::string::npos);

    // Not verified yet; unknown; bad options.
    r = test::runCli({"show", db, "softmax-1"});
    EXPECT_NE(r.out.find("no verdict: not verified yet"), std::string::npos) << r.out;
    r = test::runCli({"show", db, "nosuch"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no sample with id or name 'nosuch'"), std::string::npos) << r.err;
    EXPECT_EQ(test::runCli({"show", db}).exitCode, 2);
    EXPECT_EQ(test::runCli({"show", db, "rmsnorm-A", "--log-lines", "-1"}).exitCode, 2);

    // The clusters: the duplicate pair with its members' statuses.
    r = test::runCli({"clusters", db, "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    bool pair = false;
    for (const auto &c : jsonLines(r.out)) {
        EXPECT_GE(c["size"].get<int>(), 2); // default: clusters with duplicates only
        std::set<std::string> names;
        for (const auto &m : c["members"])
            names.insert(m["sample"].get<std::string>());
        if (names.count("rmsnorm-A") && names.count("rmsnorm-A-dup")) {
            pair = true;
            EXPECT_EQ(c["statuses"]["PASS"], 2) << c;
            EXPECT_EQ(c["representative"], std::stoll(ids["rmsnorm-A"])) << c; // the accepted one
        }
    }
    EXPECT_TRUE(pair) << r.out;
    r = test::runCli({"clusters", db});
    EXPECT_NE(r.out.find("representative " + ids["rmsnorm-A"]), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("PASS 2"), std::string::npos) << r.out;
    const auto all = jsonLines(test::runCli({"clusters", db, "--all", "--json"}).out);
    EXPECT_GT(all.size(), jsonLines(test::runCli({"clusters", db, "--json"}).out).size());
    EXPECT_EQ(test::runCli({"clusters", db, "--task", "nosuch"}).exitCode, 2);
}
