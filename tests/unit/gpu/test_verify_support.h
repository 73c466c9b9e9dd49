#pragma once
// Shared by the verifier's tests: the fixtures of tests/data/verifier/manifest.json loaded into a real
// corpus, and the checks that the verifier's Python is there (a missing venv is a failure, not a skip:
// CI creates it).
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sieve::test {

struct VerifierFixture
{
    std::string name, task, answer, backend, expect;
    std::string reason; // "" when the manifest says null
    bool gpu = false, skipStatic = false, cpuOnly = false;
    nlohmann::json taskMeta, raw;
};

// gtest prints a parameter with this instead of a byte dump.
inline void PrintTo(const VerifierFixture &f, std::ostream *os)
{
    *os << f.name;
}

std::vector<VerifierFixture> verifierFixtures();
// The fixtures a CPU run covers (no gpu ones).
std::vector<VerifierFixture> cpuFixtures();
// The named fixtures of the manifest (a test failure names the ones it lacks).
std::vector<VerifierFixture> pickFixtures(const std::vector<std::string> &names);

// The corpus name of a fixture's task (one task per task file + meta).
std::string fixtureTaskName(const VerifierFixture &f);

// Inserts the fixtures' tasks (one per task file + meta) and samples into the corpus at dbPath (which
// must exist). Returns fixture name -> sample id. `copies` > 1 adds that many samples per fixture,
// named NAME#i.
std::map<std::string, std::int64_t> addFixturesToCorpus(const std::string &dbPath,
                                                        const std::vector<VerifierFixture> &fixtures, int copies = 1);

// Verifies the fixtures that addFixturesToCorpus put into dbPath: one engine run per group of fixtures
// that share stage timeouts, each with its skip_static, task overrides and planted environment; on GPU
// `gpu` (std::nullopt: the CPU interpreter). Returns "" when every run finished, else why one did not.
std::string verifyFixturesInCorpus(const std::string &dbPath, const std::vector<VerifierFixture> &fixtures,
                                   const std::map<std::string, std::int64_t> &ids, const std::string &cacheDir,
                                   std::optional<int> gpu);

// The verifier interpreter; empty after recording a test failure that says how to create it.
std::string requireVerifierPython();

} // namespace sieve::test
