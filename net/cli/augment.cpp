// sieve-cli augment --teacher: the teacher proposes input configurations for tasks (shapes and dtypes that
// change the right implementation; core/teacher/augmentanswer.h), and each is kept only after the task's
// reference ran on it in the verifier worker (gpu/verify/referencechecker.h), up to a cap per task, as a
// variant linked to its parent (core/tasks/augment.h) with the teacher's provenance. Without --teacher the
// command is the gpu layer's augment (gpu/cli/augment.cpp), which this one extends: sieve-cli lists this
// one in its place when it is built with the net layer, so the gpu layer never depends on the network.
#include "net/cli/commands.h"

#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/export/export.h"
#include "core/prompt/prompttemplate.h"
#include "core/tasks/augment.h"
#include "core/teacher/augmentanswer.h"
#include "core/util/hashing.h"
#include "gpu/cli/commands.h"
#include "gpu/verify/referencechecker.h"
#include "net/cli/endpointargs.h"
#include "net/teacherpass.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <ostream>

namespace sieve::net {

namespace {

using augment::DropKind;

// The endpoint's own --timeout (seconds without data) would clash with augment's (the reference's time
// limit), so the teacher's idle timeout keeps its default here; --deadline still bounds a request.
std::vector<cli::OptionSpec> endpointOptionsForAugment()
{
    std::vector<cli::OptionSpec> out;
    for (cli::OptionSpec &o :
         endpointOptions("Teacher (--teacher; the endpoint options of sample, judge and explain):", "0.7"))
        if (o.name != "timeout")
            out.push_back(std::move(o));
    return out;
}

struct TaskAsk
{
    std::int64_t id = 0;
    std::string name, backend, dtype, reference;
    std::vector<augment::Constant> constants;
    int before = 0; // teacher variants it had already
    std::optional<std::string> reply;
};

struct Counts
{
    int proposed = 0, kept = 0, unparseable = 0;
    std::map<std::string, int> dropped; // by augment::dropKindName
};

nlohmann::json proposalJson(const augment::Proposal &p, const std::string &state, const std::string &reason,
                            const std::string &name)
{
    nlohmann::json j = {{"proposal", p.index},
                        {"state", state},
                        {"shapes", p.shapes.is_null() ? nlohmann::json() : p.shapes},
                        {"dtype", p.dtype ? nlohmann::json(*p.dtype) : nlohmann::json()}};
    if (!reason.empty())
        j["reason"] = reason;
    if (!name.empty())
        j["name"] = name;
    return j;
}

int runTeacherAugment(const cli::Args &args, cli::Context &ctx)
{
    if (args.positional.size() != 1)
        throw cli::UsageError("expected exactly one argument: the corpus file");
    const auto &names = args.all("task");
    if (names.empty())
        throw cli::UsageError("--task T names a task to make variants of (repeatable with --teacher)");
    for (const char *o : {"shapes", "dtypes", "grid", "no-check"})
        if (args.has(o))
            throw cli::UsageError(std::string("--teacher and --") + o +
                                  " exclude each other (the teacher's variants are always checked)");
    if (args.has("cpu") && args.has("gpu"))
        throw cli::UsageError("--cpu and --gpu exclude each other");
    const long long cap = args.integer("max-variants").value_or(5);
    if (cap < 1 || cap > 100)
        throw cli::UsageError("--max-variants is a count between 1 and 100");
    const auto timeoutArg = args.integer("timeout").value_or(300);
    if (timeoutArg < 1 || timeoutArg > 86400)
        throw cli::UsageError("--timeout is seconds between 1 and 86400");
    const std::string device = args.has("cpu") ? "cpu" : "cuda:" + args.value("gpu", "0");
    cli::Args endpointArgs = args;
    endpointArgs.values.erase("timeout");
    EndpointArgs e = endpointFromArgs(endpointArgs, 0.7);
    const std::string promptName = args.value("prompt", augment::kPromptName);
    const PromptTemplate prompt = PromptTemplate::load(promptName);
    const std::string promptHash = hashing::sha256Hex(prompt.text());
    const std::string promptLabel = templateLabel(promptName);
    const bool json = args.has("json");

    Corpus corpus = Corpus::open(args.positional[0]);
    std::vector<TaskAsk> asks;
    std::vector<qint64> ids;
    nlohmann::json skippedTasks = nlohmann::json::array();
    for (const std::string &name : names) {
        db::Statement st = corpus.db().prepare("SELECT t.id, t.backend, t.dtype, p.reference_code FROM tasks t LEFT "
                                               "JOIN task_payloads p ON p.task_id = t.id WHERE t.name = ?1");
        st.bind(1, name);
        if (!st.step())
            throw cli::UsageError("no task named '" + name + "' in " + args.positional[0]);
        if (st.isNull(3))
            throw std::runtime_error("task '" + name + "' has no reference code to make variants of");
        TaskAsk a{st.int64(0), name, st.text(1), st.text(2), payload::unpack(st.blob(3)), {}, 0, std::nullopt};
        a.constants = augment::integerConstants(a.reference);
        a.before = variantsProposedBy(corpus.db(), name, "teacher");
        if (a.before >= cap) {
            skippedTasks.push_back(
                {{"task", name}, {"reason", "has its " + std::to_string(a.before) + " teacher variants"}});
            continue;
        }
        if (a.constants.empty()) {
            skippedTasks.push_back({{"task", name}, {"reason", "its reference has no module-level integer constants"}});
            continue;
        }
        if (std::any_of(asks.begin(), asks.end(), [&](const TaskAsk &b) { return b.id == a.id; }))
            continue;
        ids.push_back(a.id);
        asks.push_back(std::move(a));
    }

    const auto app = consoleApplication();
    loadApiKey(args, e, ctx.err, "augment");
    ctx.err << "augment: asking the teacher about " << asks.size() << " tasks (" << skippedTasks.size()
            << " skipped), up to " << cap << " variants each, prompt " << promptLabel << " sha256 "
            << promptHash.substr(0, 12) << '\n';
    std::map<qint64, TaskAsk *> byId;
    for (TaskAsk &a : asks)
        byId[a.id] = &a;
    TeacherPass pass(
        e.client, e.stream,
        [&](qint64 id) {
            const TaskAsk &a = *byId.at(id);
            // Ask for more than are missing: some will not survive the checks.
            const int count = static_cast<int>(2 * (cap - a.before));
            return promptBody(e, prompt,
                              {{"task", a.name},
                               {"backend", a.backend},
                               {"dtype", a.dtype},
                               {"constants", augment::constantsLine(a.constants)},
                               {"count", std::to_string(count)},
                               {"reference", std::string(trimTrailingSpace(a.reference))}});
        },
        [&](qint64 id, const ChatReply &reply) { byId.at(id)->reply = reply.parts.content; });
    const TeacherPassSummary summary = runTeacherPass(pass, ids, "augment", ctx);

    // The replies that came are checked and stored even when the pass stopped early (an endpoint that
    // failed later): a run again asks only for what is still missing. Ctrl-C stops here too.
    Counts counts;
    nlohmann::json tasksOut = nlohmann::json::array();
    std::unique_ptr<gpu::ReferenceChecker> checker;
    bool interrupted = summary.state == QLatin1String("interrupted");
    nlohmann::json unanswered = nlohmann::json::array();
    for (const TaskAsk &a : asks) {
        if (!a.reply || interrupted) {
            unanswered.push_back(a.name); // asked again by the next run
            continue;
        }
        nlohmann::json t = {{"task", a.name}, {"teacher_variants_before", a.before}};
        const augment::Parsed parsed = augment::parseAnswer(*a.reply, a.constants, a.dtype);
        int kept = 0;
        nlohmann::json proposals = nlohmann::json::array();
        if (!parsed.ok) {
            ++counts.unparseable;
            t["error"] = "the teacher's answer about '" + a.name + "' is unparseable: " + parsed.error;
            if (!json)
                ctx.err << "augment: " << t["error"].get<std::string>() << '\n';
        }
        for (const augment::Proposal &p : parsed.proposals) {
            ++counts.proposed;
            auto drop = [&](DropKind k, const std::string &why, const std::string &name = {}) {
                ++counts.dropped[augment::dropKindName(k)];
                proposals.push_back(proposalJson(p, augment::dropKindName(k), why, name));
            };
            if (p.dropped) {
                drop(*p.dropped, p.reason);
                continue;
            }
            if (a.before + kept >= cap) {
                drop(DropKind::OverCap, "proposal " + std::to_string(p.index) + ": the task has its " +
                                            std::to_string(cap) + " teacher variants");
                continue;
            }
            if (cli::interrupted()) {
                interrupted = true;
                break;
            }
            if (!checker)
                checker = std::make_unique<gpu::ReferenceChecker>(device, static_cast<int>(timeoutArg));
            VariantSpec spec;
            if (!p.shapes.empty())
                spec.shapesJson = nlohmann::json::array({p.shapes}).dump();
            spec.dtype = p.dtype;
            spec.generatorJson = nlohmann::json{{"by", "teacher"},       {"model", e.model},
                                                {"prompt", promptLabel}, {"prompt_sha256", promptHash},
                                                {"proposal", p.index},   {"why", p.why}}
                                     .dump();
            const auto outcome =
                augmentTask(corpus, a.name, {spec}, [&](const VariantTask &v) { return checker->check(v); }).at(0);
            if (outcome.state == "created") {
                ++kept;
                ++counts.kept;
                proposals.push_back(proposalJson(p, "kept", {}, outcome.task.name));
            } else if (outcome.state == "exists") {
                drop(DropKind::Duplicate,
                     "proposal " + std::to_string(p.index) + ": already in the corpus as " + outcome.task.name,
                     outcome.task.name);
            } else {
                const bool tooLarge = outcome.message.find("REF_TOO_LARGE") != std::string::npos;
                drop(tooLarge ? DropKind::TooLarge : DropKind::Failed,
                     "proposal " + std::to_string(p.index) + ": " + outcome.message, outcome.task.name);
            }
        }
        t["kept"] = kept;
        t["proposals"] = proposals;
        tasksOut.push_back(std::move(t));
        if (interrupted)
            break;
    }

    if (json) {
        nlohmann::json j = teacherPassJson(summary, skippedTasks.size(), e, "prompt", promptLabel, promptHash);
        j.erase("samples");
        if (interrupted)
            j["state"] = "interrupted";
        j["tasks_asked"] = asks.size();
        j["skipped_tasks"] = skippedTasks;
        j["max_variants"] = cap;
        j["checked_on"] = device;
        j["proposed"] = counts.proposed;
        j["kept"] = counts.kept;
        j["dropped"] = counts.dropped;
        j["unparseable_answers"] = counts.unparseable;
        j["unanswered_tasks"] = unanswered;
        j["tasks"] = tasksOut;
        ctx.out << j.dump() << '\n';
    } else {
        for (const auto &t : tasksOut)
            for (const auto &p : t["proposals"])
                ctx.out << p["state"].get<std::string>() << '\t' << t["task"].get<std::string>() << '\t'
                        << (p.contains("name") ? p["name"].get<std::string>() : "-") << '\t'
                        << (p.contains("reason") ? p["reason"].get<std::string>() : "") << '\n';
        for (const auto &name : unanswered)
            ctx.out << "unanswered\t" << name.get<std::string>() << "\t-\tno answer in this run: run again\n";
        for (const auto &s : skippedTasks)
            ctx.out << "skipped\t" << s["task"].get<std::string>() << "\t-\t" << s["reason"].get<std::string>() << '\n';
        ctx.out << "augment " << (interrupted ? std::string("interrupted") : summary.state.toStdString()) << ": "
                << counts.kept << " of " << counts.proposed << " proposals kept (checked on " << device << ")";
        for (const auto &[kind, n] : counts.dropped)
            ctx.out << ", " << kind << " " << n;
        ctx.out << "; " << counts.unparseable << " unparseable answers, " << unanswered.size() << " tasks unanswered, "
                << skippedTasks.size() << " tasks skipped; " << summary.progress.requests << " requests, "
                << summary.progress.retries << " retries\n";
    }
    if (interrupted)
        return cli::Interrupted;
    return teacherPassExitCode(summary);
}

int runAugment(const cli::Args &args, cli::Context &ctx)
{
    if (args.has("teacher"))
        return runTeacherAugment(args, ctx);
    if (args.all("task").size() > 1)
        throw cli::UsageError("--task is given once without --teacher");
    for (const cli::OptionSpec &o : endpointOptionsForAugment())
        if (args.has(o.name))
            throw cli::UsageError("--" + o.name + " is a teacher option: it needs --teacher");
    for (const char *o : {"max-variants", "prompt"})
        if (args.has(o))
            throw cli::UsageError(std::string("--") + o + " needs --teacher");
    return gpu::augmentCommand().run(args, ctx);
}

} // namespace

cli::Command augmentCommand()
{
    cli::Command c = gpu::augmentCommand();
    c.summary = "task variants across shapes and dtypes (given, or proposed by a teacher), each checked by running "
                "its reference";
    c.usage += "\nsieve-cli augment DB --teacher --task T... --endpoint URL --model M [--max-variants N]\n"
               "  [--prompt P] [--cpu | --gpu N] [--timeout S] [--json] [ENDPOINT OPTIONS]";
    c.description +=
        "\nWith --teacher, a teacher model proposes the configurations instead (seed 000: TritonRL keeps up to\n"
        "five execution-validated input variants per task): one request per task with the prompt\n"
        "resources/prompts/augment.txt, showing the reference and its module-level integer constants. The answer\n"
        "is a JSON list of {\"shapes\": {NAME: INT}, \"dtype\": D, \"why\": TEXT} in a fenced block (docs/EXPORT.md).\n"
        "Proposals are tried in order; each that names only the reference's constants with positive integers,\n"
        "is new, and whose reference runs in the verifier worker is kept, until the task has --max-variants\n"
        "teacher variants. The others are dropped with a reason, counted by kind: invalid, too_large, duplicate,\n"
        "reference_failed, over_cap. A kept variant's provenance names the teacher: model, prompt, prompt SHA-256,\n"
        "proposal number and its why.\n";
    for (cli::OptionSpec &o : c.options)
        if (o.name == "task") {
            o.repeatable = true;
            o.help = "the task to make variants of (required; repeatable with --teacher)";
        }
    c.options.push_back({.name = "teacher",
                         .help = "ask a teacher endpoint for the configurations (needs --endpoint and --model)",
                         .section = "Teacher-proposed variants:"});
    c.options.push_back({.name = "max-variants",
                         .takesValue = true,
                         .valueName = "N",
                         .help = "keep at most N teacher variants per task, those made by earlier runs included "
                                 "(default 5); a task that has them is not asked again"});
    c.options.push_back({.name = "prompt",
                         .takesValue = true,
                         .valueName = "P",
                         .help = "the prompt (default: augment, resources/prompts/augment.txt); its SHA-256 is "
                                 "stored with every variant it made"});
    for (cli::OptionSpec &o : endpointOptionsForAugment())
        c.options.push_back(std::move(o));
    c.notes = "With --teacher, dropped proposals do not fail the command (exit 0). Endpoint errors are retried as\n"
              "in 'sample'; the answers that came are checked and stored even when the endpoint fails on a later\n"
              "task (exit 1); Ctrl-C stops before the next check (130). The same command again asks only about\n"
              "tasks still under --max-variants, never storing a variant twice (its content key).\n"
              "The endpoint's idle --timeout is not an option here (--timeout is the reference's): 600 s.\n";
    c.run = runAugment;
    return c;
}

} // namespace sieve::net
