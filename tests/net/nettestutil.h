#pragma once
// Shared by the net tests: a corpus with a few tasks, spinning the event loop until something holds,
// a verifier whose verdicts the test decides, and running sieve-cli while the in-process server serves.
#include "core/db/corpus.h"
#include "net/attemptverifier.h"
#include "tests/unit/testutil.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sieve::test {

// Creates a corpus at `path` with tasks named `names` (KernelBench-like references).
void makeCorpus(const std::string &path, const std::vector<std::string> &names);

// Runs the event loop until `done()` or `timeoutMs`; returns done().
bool spinUntil(const std::function<bool()> &done, int timeoutMs = 20000);

// Decides verdicts by (task name, attempt): PASS when `passAt[task] == attempt`; answers from the event
// loop like a real verifier. `fail` makes the verifier itself fail (no verdict).
class ScriptedVerifier final : public net::AttemptVerifier
{
public:
    ScriptedVerifier(std::string dbPath, std::map<std::string, int> passAt);
    void verify(qint64 sampleId) override;
    void cancel() override { m_cancelled = true; }
    bool fail = false;
    int calls = 0;
    std::vector<qint64> verifiedIds;

private:
    std::string m_dbPath;
    std::map<std::string, int> m_passAt;
    bool m_cancelled = false;
};

// Runs sieve-cli with `args` and `env` additions while this process's event loop keeps serving.
ProcessResult runCliServing(const QStringList &args, const QStringList &env = {}, int timeoutMs = 60000);

// Every text an attacker could read in a corpus: the file bytes (+ WAL) and all unpacked payloads.
std::string corpusEverything(const std::string &path);

} // namespace sieve::test
