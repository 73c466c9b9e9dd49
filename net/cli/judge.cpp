// sieve-cli judge: the teacher reviews samples with a versioned rubric and leaves a suggestion per sample
// (core/store/teacherstore.h); the verifier's verdicts and the reviews stay as they are.
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

#include <map>
#include <ostream>

namespace sieve::net {

namespace {

int runJudge(const cli::Args &args, cli::Context &ctx)
{
    if (args.positional.size() != 1)
        throw cli::UsageError("expected exactly one argument: the corpus file");
    EndpointArgs e = endpointFromArgs(args, 0.0);
    const std::string rubricName = args.value("rubric", judge::kRubricName);
    const PromptTemplate rubric = PromptTemplate::load(rubricName);
    const std::string rubricHash = hashing::sha256Hex(rubric.text());
    const std::string rubricLabel = templateLabel(rubricName);
    const bool json = args.has("json");

    Corpus corpus = Corpus::open(args.positional[0]);
    std::size_t skipped = 0;
    const std::vector<qint64> samples = scopedSamples(corpus.db(), args, store::judgedSamples(corpus.db()), skipped);

    const auto app = consoleApplication();
    loadApiKey(args, e, ctx.err, "judge");
    ctx.err << "judge: " << samples.size() << " samples to judge (" << skipped
            << " already judged, skipped; --again to judge them again), rubric " << rubricLabel << " sha256 "
            << rubricHash.substr(0, 12) << '\n';

    std::map<std::string, int> verdicts;
    std::map<qint64, std::string> codes; // the code each request was made from, to check quoted lines
    TeacherPass pass(
        e.client, e.stream,
        [&](qint64 id) {
            const SampleFacts f = sampleFacts(corpus.db(), id);
            const std::map<std::string, std::string> values = {
                {"task", f.task},
                {"backend", f.backend},
                {"reference", std::string(trimTrailingSpace(f.reference))},
                {"code", judge::numberedLines(trimTrailingSpace(f.code))},
                {"reasoning", std::string(trimTrailingSpace(f.reasoning))}};
            codes[id] = f.code;
            return promptBody(e, rubric, values);
        },
        [&](qint64 id, const ChatReply &reply) {
            const judge::Parsed parsed = judge::parseAnswer(reply.parts.content, codes[id]);
            codes.erase(id);
            store::JudgeSuggestion s;
            s.sampleId = id;
            s.model = e.model;
            s.rubric = rubricLabel;
            s.rubricHash = rubricHash;
            s.verdict = parsed.ok ? parsed.verdict : judge::kUnparseable;
            s.confidence = parsed.confidence;
            s.details = judge::detailsJson(parsed);
            s.answer = reply.parts.content;
            store::putJudgeSuggestion(corpus.db(), s);
            ++verdicts[s.verdict];
        });
    const TeacherPassSummary summary = runTeacherPass(pass, samples, "judge", ctx);
    const TeacherPassProgress &p = summary.progress;
    if (json) {
        nlohmann::json j = teacherPassJson(summary, skipped, e, "rubric", rubricLabel, rubricHash);
        j["judged"] = p.done;
        j["verdicts"] = verdicts;
        ctx.out << j.dump() << '\n';
    } else {
        ctx.out << "judge " << summary.state.toStdString() << ": " << p.done << "/" << p.total << " samples judged ("
                << skipped << " skipped as judged before)";
        for (const auto &[v, n] : verdicts)
            ctx.out << ", " << v << " " << n;
        ctx.out << "; " << p.requests << " requests, " << p.retries << " retries, " << summary.wallSeconds << " s\n";
    }
    return teacherPassExitCode(summary);
}

} // namespace

cli::Command judgeCommand()
{
    return {
        .name = "judge",
        .summary = "ask a teacher whether samples implement their task's operator (a suggestion per sample)",
        .usage = "sieve-cli judge DB --endpoint URL --model M [OPTIONS]",
        .description =
            "Asks a teacher model behind an OpenAI-compatible endpoint to judge each sample against its task with a\n"
            "versioned rubric: does the code implement the reference's operator itself (implements), or do torch or a\n"
            "library do the work (delegates), does it compute something else (wrong), or can it not tell (unsure);\n"
            "is the reasoning consistent with the code; which lines show it. The answer is one JSON object; one that\n"
            "cannot be read is stored as 'unparseable' with the reason. Each sample gets one suggestion (model,\n"
            "rubric and its SHA-256, verdict, confidence, quoted lines, the raw answer): 'sieve-cli show' prints it,\n"
            "'stats' counts it, 'select'/'export --judge require|exclude' use it. It never changes the verifier's\n"
            "verdict or a review.\n",
        .options = teacherCommandOptions("rubric",
                                         "the rubric prompt (default: judge, resources/prompts/judge.txt); its "
                                         "SHA-256 is stored with every suggestion",
                                         "judge samples that have a suggestion again (it is replaced)", "0"),
        .notes = "The client is the sampler's: endpoint errors (429, 5xx, timeouts, resets, malformed replies) are\n"
                 "retried with backoff, and --max-failures in a row stop the command (exit code 1). Each suggestion\n"
                 "is stored as its reply arrives; run the same command again to judge the samples that have none\n"
                 "yet (Ctrl-C: exit code 130, resumable the same way).\n",
        .run = runJudge};
}

} // namespace sieve::net
