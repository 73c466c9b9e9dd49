// sieve-cli explain: the teacher writes the reasoning for samples that came without their own (KernelBook,
// the cuda archive, expert kernels), stored apart from the samples' own traces with its provenance
// (core/store/teacherstore.h). Export uses it only when asked (--teacher-reasoning).
#include "net/cli/commands.h"

#include "core/db/corpus.h"
#include "core/export/export.h"
#include "core/prompt/prompttemplate.h"
#include "core/store/teacherstore.h"
#include "core/teacher/judgeanswer.h"
#include "core/util/hashing.h"
#include "net/cli/endpointargs.h"
#include "net/teacherpass.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <ostream>

namespace sieve::net {

namespace {

// The explanation in a reply: its content, less a <think> block a reasoning model left in it.
std::string explanation(const ReplyParts &parts)
{
    std::string_view c = parts.content;
    if (const auto end = c.rfind("</think>"); end != std::string_view::npos)
        c.remove_prefix(end + 8);
    return std::string(trimTrailingSpace(c.substr(std::min(c.size(), c.find_first_not_of(" \t\r\n")))));
}

int runExplain(const cli::Args &args, cli::Context &ctx)
{
    if (args.positional.size() != 1)
        throw cli::UsageError("expected exactly one argument: the corpus file");
    EndpointArgs e = endpointFromArgs(args, 0.6);
    const std::string promptName = args.value("prompt", judge::kExplainName);
    const PromptTemplate prompt = PromptTemplate::load(promptName);
    const std::string promptHash = hashing::sha256Hex(prompt.text());
    const std::string promptLabel = templateLabel(promptName);
    const bool json = args.has("json");

    Corpus corpus = Corpus::open(args.positional[0]);
    // Only samples without reasoning of their own: a sample's trace is never replaced or shadowed.
    const std::set<std::int64_t> without = store::samplesWithoutOwnReasoning(corpus.db());
    std::set<std::int64_t> done = store::samplesWithTeacherReasoning(corpus.db());
    std::size_t skipped = 0;
    std::vector<qint64> samples;
    std::size_t ownReasoning = 0;
    for (qint64 id : scopedSamples(corpus.db(), args, done, skipped)) {
        if (without.count(id))
            samples.push_back(id);
        else
            ++ownReasoning;
    }

    const auto app = consoleApplication();
    loadApiKey(args, e, ctx.err, "explain");
    ctx.err << "explain: " << samples.size() << " samples without reasoning to explain (" << skipped
            << " explained before, skipped; " << ownReasoning << " have their own reasoning), prompt " << promptLabel
            << " sha256 " << promptHash.substr(0, 12) << '\n';

    int stored = 0, empty = 0;
    TeacherPass pass(
        e.client, e.stream,
        [&](qint64 id) {
            const SampleFacts f = sampleFacts(corpus.db(), id);
            const std::map<std::string, std::string> values = {
                {"task", f.task},
                {"backend", f.backend},
                {"dtype", f.dtype},
                {"reference", std::string(trimTrailingSpace(f.reference))},
                {"code", std::string(trimTrailingSpace(f.code))}};
            return promptBody(e, prompt, values);
        },
        [&](qint64 id, const ChatReply &reply) {
            store::TeacherReasoning r;
            r.sampleId = id;
            r.model = e.model;
            r.prompt = promptLabel;
            r.promptHash = promptHash;
            r.reasoning = explanation(reply.parts);
            r.response = reply.raw.toStdString();
            if (r.reasoning.empty()) {
                ++empty; // nothing to keep: the next run asks again
                return;
            }
            store::putTeacherReasoning(corpus.db(), r);
            ++stored;
        });
    const TeacherPassSummary summary = runTeacherPass(pass, samples, "explain", ctx);
    const TeacherPassProgress &p = summary.progress;
    if (json) {
        nlohmann::json j = teacherPassJson(summary, skipped, e, "prompt", promptLabel, promptHash);
        j["explained"] = stored;
        j["empty_answers"] = empty;
        j["own_reasoning"] = ownReasoning;
        ctx.out << j.dump() << '\n';
    } else {
        ctx.out << "explain " << summary.state.toStdString() << ": " << stored << "/" << p.total
                << " samples explained (" << empty << " empty answers, not stored; " << skipped
                << " skipped as explained before); " << p.requests << " requests, " << p.retries << " retries, "
                << summary.wallSeconds << " s\n";
    }
    return teacherPassExitCode(summary);
}

} // namespace

cli::Command explainCommand()
{
    return {.name = "explain",
            .summary = "ask a teacher to write the reasoning for samples that have none",
            .usage = "sieve-cli explain DB --endpoint URL --model M [OPTIONS]",
            .description =
                "Asks a teacher model to write the reasoning behind each sample that has an answer but no reasoning\n"
                "of its own (imported kernels: KernelBook, the cuda archive, expert code), from the task's reference\n"
                "and the sample's code. It is stored apart from the sample (model, prompt and its SHA-256, time) and\n"
                "never replaces or mixes with a sample's own trace: samples with reasoning are not asked about.\n"
                "'sieve-cli show' prints it labelled as teacher-written; 'export --teacher-reasoning' uses it for\n"
                "the rows of samples without their own and marks them (meta.reasoning_source, manifest count).\n",
            .options = teacherCommandOptions("prompt",
                                             "the prompt (default: explain, resources/prompts/explain.txt); its "
                                             "SHA-256 is stored with every explanation",
                                             "explain samples that have a teacher explanation again (replaced)", "0.6"),
            .notes = "Endpoint errors are retried as in 'sample' and 'judge'; each explanation is stored as it\n"
                     "arrives, and the same command again asks only for the samples still without one.\n",
            .run = runExplain};
}

} // namespace sieve::net
