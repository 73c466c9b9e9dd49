#pragma once
// What every command that talks to a teacher endpoint reads from its command line, in one place: the
// endpoint and model, the API key's variable, the request parameters and the client's pacing, faults
// and retries (net/chatclient.h). `sample`, `judge` and `explain` take the same options with the same
// meaning and the same key hygiene.
#include "core/cli/cli.h"
#include "core/db/database.h"
#include "net/chatclient.h"

#include "core/prompt/prompttemplate.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sieve::net {

class TeacherPass;
struct TeacherPassSummary;

struct EndpointArgs
{
    ClientOptions client; // endpoint, key, concurrency, rate, timeouts, retries
    std::string model;
    double temperature = 1.0;
    std::optional<int> maxTokens;
    nlohmann::json extra = nlohmann::json::object(); // merged into every request body
    bool stream = false;
};

// The options, for a command's spec list: the first carries the heading `section`.
// `defaultTemperature` is what --help says the temperature defaults to.
std::vector<sieve::cli::OptionSpec> endpointOptions(const std::string &section, const std::string &defaultTemperature);

// A command's own options followed by the endpoint options under the heading "Endpoint:".
std::vector<sieve::cli::OptionSpec> withEndpointOptions(std::vector<sieve::cli::OptionSpec> own,
                                                        const std::string &defaultTemperature);

// Reads them (UsageError on a bad value). The API key is not read here: see loadApiKey.
EndpointArgs endpointFromArgs(const sieve::cli::Args &args, double defaultTemperature);

// Reads the API key from the variable --api-key-env names (default OPENAI_API_KEY) into `e.client`;
// says on `err`, prefixed with `command`, when it is not set.
void loadApiKey(const sieve::cli::Args &args, EndpointArgs &e, std::ostream &err, const char *command);

// A QCoreApplication for a console run when none exists (the caller keeps it alive while it works).
std::unique_ptr<QCoreApplication> consoleApplication();

// The request body: model, messages, temperature, max_tokens, the extra fields, stream.
QByteArray requestBody(const EndpointArgs &e, const nlohmann::json &messages);

// One user message rendered from `prompt` with `values`, as a request body.
QByteArray promptBody(const EndpointArgs &e, const PromptTemplate &prompt,
                      const std::map<std::string, std::string> &values);

// The options of judge and explain: the prompt option (`promptOption`, e.g. "rubric"), --json, the
// scope options and the endpoint options.
std::vector<sieve::cli::OptionSpec> teacherCommandOptions(const char *promptOption, const std::string &promptHelp,
                                                          const std::string &againHelp,
                                                          const std::string &defaultTemperature);

// The summary line both print with --json: state, counts, model, prompt and its SHA-256, requests.
nlohmann::json teacherPassJson(const TeacherPassSummary &s, std::size_t skipped, const EndpointArgs &e,
                               const char *promptKey, const std::string &promptLabel, const std::string &promptHash);

// The samples a teacher pass works on (judge, explain): --sample, --task, --status, --limit, --again.
std::vector<sieve::cli::OptionSpec> sampleScopeOptions(const std::string &againHelp);
// The samples with an answer, by id, that the scope options name, less those in `done` unless --again.
std::vector<qint64> scopedSamples(const db::Database &db, const sieve::cli::Args &args,
                                  const std::set<std::int64_t> &done, std::size_t &skipped);

// What a teacher prompt about one sample is made of.
struct SampleFacts
{
    std::string task, backend, dtype, reference, code, reasoning;
};
SampleFacts sampleFacts(const db::Database &db, std::int64_t sampleId);

// Runs `pass` over `samples` on a local event loop with a progress line on `ctx.err` and Ctrl-C handling,
// and prints the end on `ctx.err` when it failed or was interrupted. Returns the summary.
TeacherPassSummary runTeacherPass(TeacherPass &pass, std::vector<qint64> samples, const char *command,
                                  sieve::cli::Context &ctx);
// The exit code of a pass that ended in `state`.
int teacherPassExitCode(const TeacherPassSummary &s);

} // namespace sieve::net
