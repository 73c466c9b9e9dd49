// sieve-cli export: an SFT or preference set, train/validation JSONL and a manifest.
#include "core/export/export.h"
#include "core/cli/commands.h"
#include "core/cli/selectcommon.h"
#include "core/db/corpus.h"
#include "core/prompt/prompttemplate.h"
#include "core/util/hashing.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <ostream>
#include <sstream>

namespace sieve::cli {

namespace {

ExportOptions optionsFromArgs(const Args &args)
{
    ExportOptions o;
    o.selection = selectionFromArgs(args);
    if (const auto f = args.value("format")) {
        const auto p = parseFormat(*f);
        if (!p)
            throw UsageError("--format is messages, prompt-completion, chat-prompt-completion, preference or "
                             "preference-text, not '" +
                             *f + "'");
        o.format = *p;
    }
    if (const auto r = args.value("reasoning")) {
        const auto p = parseReasoning(*r);
        if (!p)
            throw UsageError("--reasoning is think, field or none, not '" + *r + "'");
        o.reasoning = *p;
    }
    if (const auto f = args.number("split")) {
        if (*f < 0 || *f > 1)
            throw UsageError("--split (the validation fraction) must be between 0 and 1");
        o.validationFraction = *f;
    }
    if (const auto n = args.integer("max-tokens")) {
        if (*n <= 0)
            throw UsageError("--max-tokens must be > 0");
        o.maxTokens = static_cast<std::size_t>(*n);
    }
    o.tokenizerPath = args.value("tokenizer", "");
    if (o.maxTokens && o.tokenizerPath.empty())
        throw UsageError("--max-tokens needs --tokenizer FILE (a Hugging Face tokenizer.json)");
    o.chatTemplatePath = args.value("chat-template", "");
    if (!o.chatTemplatePath.empty() && o.tokenizerPath.empty())
        throw UsageError("--chat-template needs --tokenizer FILE (the model's tokenizer.json)");
    if (args.has("rows") && o.chatTemplatePath.empty())
        throw UsageError("--rows is for --chat-template");
    o.chatRows = args.value("rows", "text") == "tokens" ? ChatRows::Tokens : ChatRows::Text;
    o.userTemplate = args.value("template", "");
    o.systemTemplate = args.value("system", "system");
    if (const auto t = args.value("tags")) {
        std::stringstream ss(*t);
        std::string tag;
        while (std::getline(ss, tag, ','))
            o.tags.push_back(tag); // each one of promptTagNames(): parse() checked them
    }
    const bool preference = o.format == ExportFormat::Preference || o.format == ExportFormat::PreferenceText;
    if (!preference && (args.has("max-pairs-per-task") || args.has("hostile-negatives")))
        throw UsageError("--max-pairs-per-task and --hostile-negatives are for --format preference|preference-text");
    if (const auto n = args.integer("max-pairs-per-task")) {
        if (*n < 0)
            throw UsageError("--max-pairs-per-task must be >= 0 (0: no cap)");
        o.pairs.maxPairsPerTask = static_cast<int>(*n);
    }
    o.pairs.keepHostile = args.has("hostile-negatives");
    if (preference && (args.has("hard-weight") || args.has("order")))
        throw UsageError("--hard-weight and --order are for the SFT formats, not --format preference|preference-text");
    if (const auto k = args.integer("hard-weight")) {
        if (*k < 1 || *k > 100)
            throw UsageError("--hard-weight must be between 1 and 100");
        o.hardWeight = static_cast<int>(*k);
    }
    o.curriculum = args.value("order", "task") == "curriculum";
    o.teacherReasoning = args.has("teacher-reasoning");
    return o;
}

// `export DB OUT --manifest M`: the options of M, the tokenizer given again when M used one, and a
// check afterwards that the files are M's.
ExportOptions optionsFromManifest(const Args &args, nlohmann::ordered_json &original)
{
    const std::string path = *args.value("manifest");
    for (const auto &[name, values] : args.values)
        if (name != "manifest" && name != "tokenizer" && name != "template" && name != "system" &&
            name != "chat-template")
            throw UsageError("--manifest takes every option from the manifest; --" + name + " cannot be given with it");
    for (const std::string &flag : args.flags)
        if (flag != "json")
            throw UsageError("--manifest takes every option from the manifest; --" + flag + " cannot be given with it");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read '" + path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    try {
        original = nlohmann::ordered_json::parse(ss.str());
    } catch (const nlohmann::json::parse_error &e) {
        throw std::runtime_error(path + ": not valid JSON: " + e.what());
    }
    ExportOptions o = exportOptionsFromManifest(original, path);
    const auto &tok = original["parameters"]["tokenizer"];
    if (!tok.is_null()) {
        if (!args.has("tokenizer"))
            throw UsageError(path + " counted tokens with " + tok.value("file", std::string("a tokenizer")) +
                             " (sha256 " + tok.value("sha256", std::string()) + "): give it with --tokenizer FILE");
        o.tokenizerPath = *args.value("tokenizer");
        if (hashing::sha256File(o.tokenizerPath) != tok.value("sha256", std::string()))
            throw std::runtime_error("'" + o.tokenizerPath + "' is not the tokenizer of " + path +
                                     " (its sha256 differs)");
    } else if (args.has("tokenizer")) {
        throw UsageError(path + " used no tokenizer; --tokenizer cannot be given");
    }
    const auto &chat = original["parameters"]["chat_template"];
    if (!chat.is_null()) {
        if (!args.has("chat-template"))
            throw UsageError(path + " rendered rows with " + chat.value("file", std::string("a chat template")) +
                             " (sha256 " + chat.value("sha256", std::string()) +
                             "): give it with --chat-template FILE");
        o.chatTemplatePath = *args.value("chat-template");
        if (hashing::sha256File(o.chatTemplatePath) != chat.value("sha256", std::string()))
            throw std::runtime_error("'" + o.chatTemplatePath + "' is not the chat template of " + path +
                                     " (its sha256 differs)");
    } else if (args.has("chat-template")) {
        throw UsageError(path + " rendered no chat template; --chat-template cannot be given");
    }
    // Templates given by path are named by their file name in a manifest: give them again.
    if (const auto t = args.value("template"))
        o.userTemplate = *t;
    if (const auto t = args.value("system"))
        o.systemTemplate = *t;
    return o;
}

int runExport(const Args &args, Context &ctx)
{
    if (args.positional.size() != 2)
        throw UsageError("expected the corpus file and the output folder");
    nlohmann::ordered_json original;
    const bool rebuild = args.has("manifest");
    ExportOptions o = rebuild ? optionsFromManifest(args, original) : optionsFromArgs(args);
    o.dryRun = args.has("dry-run");
    const ExportResult r = exportCorpus(args.positional[0], args.positional[1], o);
    if (!r.warning.empty())
        ctx.err << "sieve-cli export: warning: " << r.warning << '\n';
    const auto &m = r.manifest;
    if (rebuild) {
        // Same options, same content: the same files. Name what differs otherwise.
        std::vector<std::string> diffs;
        for (const char *k : {"corpus", "templates", "files"})
            if (m[k] != original[k])
                diffs.push_back(k);
        if (!diffs.empty()) {
            ctx.err << "the rebuilt export differs from " << *args.value("manifest") << " in:";
            for (const auto &d : diffs)
                ctx.err << " " << d;
            ctx.err << "\n";
            if (m["corpus"] != original["corpus"])
                ctx.err << "  corpus content: " << original["corpus"].value("content_sha256", std::string()) << " ("
                        << original["corpus"].value("content_rows", 0) << " rows) then, "
                        << m["corpus"].value("content_sha256", std::string()) << " ("
                        << m["corpus"].value("content_rows", 0) << " rows) now: the corpus changed\n";
            if (m["templates"] != original["templates"])
                ctx.err << "  templates: " << original["templates"].dump() << " then, " << m["templates"].dump()
                        << " now\n";
            return Failure;
        }
    }
    if (args.has("json")) {
        ctx.out << m.dump(2) << '\n';
        return Ok;
    }
    printSelection(ctx.out, nlohmann::json::parse(m["selection"].dump()));
    if (m.contains("pairs")) {
        const auto &p = m["pairs"];
        ctx.out << "pairs: " << p["pairs"].get<long long>() << " (" << p["negatives"].get<long long>()
                << " negatives; by class:";
        for (auto it = p["by_class"].begin(); it != p["by_class"].end(); ++it)
            ctx.out << " " << it.key() << "=" << it.value().get<long long>();
        ctx.out << "); tasks without a negative: " << p["tasks_without_negative"].get<long long>() << "\n";
        ctx.out << "negatives left out:";
        for (auto it = p["excluded_negatives"].begin(); it != p["excluded_negatives"].end(); ++it)
            ctx.out << "  " << it.key() << "=" << it.value().get<long long>();
        ctx.out << '\n';
    }
    for (const char *split : {"train", "validation"}) {
        const auto &c = m["counts"][split];
        ctx.out << split << ": " << c["tasks"].get<long long>() << " tasks, " << c["rows"].get<long long>() << " rows";
        if (c.contains("tokens"))
            ctx.out << ", " << c["tokens"].get<long long>() << " tokens";
        ctx.out << '\n';
        printBreakdown(ctx.out, "  difficulty", nlohmann::json::parse(c["by_difficulty"].dump()), "rows");
    }
    ctx.out << "left out: " << m["excluded"].size() << " rows";
    for (const auto &e : m["excluded"])
        if (&e == &m["excluded"][0])
            ctx.out << " (e.g. " << e["sample"].get<std::string>() << ": " << e["reason"].get<std::string>() << ")";
    ctx.out << '\n';
    ctx.out << "corpus content: " << m["corpus"]["content_sha256"].get<std::string>() << '\n';
    if (o.dryRun) {
        ctx.out << "dry run: nothing written\n";
    } else {
        ctx.out << "wrote " << args.positional[1] << "/{";
        for (auto it = m["files"].begin(); it != m["files"].end(); ++it)
            ctx.out << it.key() << ",";
        ctx.out << "manifest.json}";
        if (r.exportId)
            ctx.out << " (export " << *r.exportId << ")";
        for (const char *f : {"train.jsonl", "validation.jsonl"})
            if (!m["files"].contains(f))
                ctx.out << "; no " << f << " (no rows)";
        ctx.out << '\n';
        if (rebuild)
            ctx.out << "rebuilt: the files are those of " << *args.value("manifest") << '\n';
    }
    return Ok;
}

} // namespace

Command exportCommand()
{
    std::vector<OptionSpec> options = {
        {.name = "format",
         .takesValue = true,
         .valueName = "F",
         .help = "messages (system/user/assistant; default), prompt-completion (text), chat-prompt-completion "
                 "(TRL's conversational prompt-completion), preference (prompt/chosen/rejected as messages, for "
                 "DPO) or preference-text (the same as plain text)",
         .choices = {"messages", "prompt-completion", "chat-prompt-completion", "preference", "preference-text"}},
        {.name = "reasoning",
         .takesValue = true,
         .valueName = "R",
         .help = "think (in <think> tags before the answer, in the trained text; default), field "
                 "(reasoning_content on the assistant message, for chat templates that read it; not with text "
                 "formats) or none",
         .choices = {"think", "field", "none"}},
        {.name = "max-pairs-per-task",
         .takesValue = true,
         .valueName = "N",
         .help = "preference: at most N pairs per task (default 4; 0: no cap)"},
        {.name = "hostile-negatives",
         .help = "preference: keep sandbox, sham and harness-patching failures as negatives (default: left out)"},
        {.name = "manifest",
         .takesValue = true,
         .valueName = "M",
         .help = "make the files of manifest M again, with its options (a tokenizer it used is given again with "
                 "--tokenizer and checked); fails naming what differs when the corpus content or a template "
                 "changed"},
        {.name = "split",
         .takesValue = true,
         .valueName = "F",
         .help = "the fraction of tasks for validation (default 0.2); by task, never by sample, stratified by "
                 "difficulty"},
        {.name = "max-tokens",
         .takesValue = true,
         .valueName = "N",
         .help = "leave out rows over N tokens (listed in the manifest); needs --tokenizer"},
        {.name = "tokenizer",
         .takesValue = true,
         .valueName = "FILE",
         .help = "a Hugging Face tokenizer.json (byte-level BPE); counts equal the tokenizers library's, summed "
                 "over the row's text fields; with --chat-template any tokenizer.json (byte fallback, Metaspace)"},
        {.name = "chat-template",
         .takesValue = true,
         .valueName = "FILE",
         .help = "a tokenizer_config.json: each row is written as the trainer sees it, rendered with its "
                 "chat_template and tokenized with --tokenizer; --max-tokens counts the rendered row "
                 "(--format messages only; needs jinja2 and tokenizers in Sieve's Python)"},
        {.name = "rows",
         .takesValue = true,
         .valueName = "text|tokens",
         .help = "with --chat-template: text (the rendered text and the assistant's character span) or "
                 "tokens (input_ids, labels with -100 outside the assistant turn, assistant_masks)",
         .choices = {"text", "tokens"}},
        {.name = "template",
         .takesValue = true,
         .valueName = "T",
         .help = "user prompt template (default: resources/prompts/<backend>.txt)"},
        {.name = "system",
         .takesValue = true,
         .valueName = "T",
         .help = "system prompt template (default: system), or none"},
        {.name = "tags",
         .takesValue = true,
         .valueName = "LIST",
         .help = "metadata tags in the prompt, comma-separated",
         .choices = promptTagNames(),
         .listSeparator = ','},
        {.name = "hard-weight",
         .takesValue = true,
         .valueName = "K",
         .help = "write the train rows of hard and unsolved tasks K times (the copies after the first pass; "
                 "default 1)"},
        {.name = "order",
         .takesValue = true,
         .valueName = "O",
         .help = "task (default: by task name) or curriculum (easy tasks first, then unknown, hard, unsolved; "
                 "then by level), for trainers that keep the file's order",
         .choices = {"task", "curriculum"}},
        {.name = "teacher-reasoning",
         .help = "for samples without reasoning of their own, the reasoning a teacher wrote (sieve-cli explain); "
                 "such rows carry meta.reasoning_source \"teacher\" and the manifest counts them"},
        {.name = "dry-run", .help = "print the distribution, write nothing"},
        {.name = "json", .help = "print the manifest"}};
    for (OptionSpec &o : selectionOptions())
        options.push_back(std::move(o));
    return {.name = "export",
            .summary = "write an SFT set: train/validation JSONL and a manifest",
            .usage = "sieve-cli export DB OUT_DIR [--format FORMAT] [--reasoning think|field|none]\n"
                     "  [--split F] [--max-tokens N --tokenizer FILE] [--template NAME|FILE]\n"
                     "  [--chat-template tokenizer_config.json --tokenizer FILE [--rows text|tokens]]\n"
                     "  [--system NAME|FILE|none] [--tags LIST] [--seed S] [--require ...]\n"
                     "  [--max-pairs-per-task N] [--hostile-negatives] [--hard-weight K] [--order task|curriculum]\n"
                     "  [selection options] [--dry-run] [--json]\n"
                     "sieve-cli export DB OUT_DIR --manifest M [--tokenizer FILE] [--chat-template FILE] [--json]",
            .description =
                "Writes OUT_DIR/train.jsonl, OUT_DIR/validation.jsonl and OUT_DIR/manifest.json and records\n"
                "the export in the corpus. Same corpus content, options and seed give byte-identical files;\n"
                "a split without rows gets no file, and an export without any row fails.\n",
            .options = std::move(options),
            .run = runExport};
}

} // namespace sieve::cli
