// sieve-cli select (a dry run of the selection) and sieve-cli export (JSONL + manifest).
#include "cli.h"
#include "corpus.h"
#include "export.h"
#include "selection.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <sstream>

namespace sieve::cli {

namespace {

const char *const kSelectionHelp =
    "Selection (applied in this order):\n"
    "  --require P        passed (default: passed the verifier, not rejected), accepted (a reviewer\n"
    "                     accepted it) or passed-and-accepted. Rejected samples never go out.\n"
    "  --all-in-cluster   keep every member of a dedup cluster (default: one per cluster)\n"
    "  --max-per-task N   keep at most N samples per task (accepted, passing, fastest, earliest first)\n"
    "  --easy N           all hard tasks plus N easy tasks drawn at random (others left out)\n"
    "  --easy-fraction F  the same with a fraction F of the easy tasks\n"
    "  --quota F=V:N      at most N tasks with category/level V (F: category or level; V may be *);\n"
    "                     repeatable; tasks are taken in a seeded random order\n"
    "  --seed S           seed of every random draw (default 0)\n";

std::vector<OptionSpec> selectionOptions()
{
    return {{"require", true}, {"all-in-cluster"}, {"max-per-task", true}, {"easy", true},
            {"easy-fraction", true}, {"quota", true, true}, {"seed", true}};
}

SelectionOptions selectionFromArgs(const Args &args)
{
    SelectionOptions o;
    if (const auto r = args.value("require")) {
        const auto p = parseRequire(*r);
        if (!p)
            throw UsageError("--require is passed, accepted or passed-and-accepted, not '" + *r + "'");
        o.require = *p;
    }
    o.onePerCluster = !args.has("all-in-cluster");
    if (const auto n = args.integer("max-per-task")) {
        if (*n < 0)
            throw UsageError("--max-per-task must be >= 0");
        o.maxPerTask = static_cast<int>(*n);
    }
    if (args.has("easy") && args.has("easy-fraction"))
        throw UsageError("give --easy or --easy-fraction, not both");
    if (const auto n = args.integer("easy")) {
        if (*n < 0)
            throw UsageError("--easy must be >= 0");
        o.easyCount = static_cast<int>(*n);
    }
    if (const auto f = args.number("easy-fraction")) {
        if (*f < 0 || *f > 1)
            throw UsageError("--easy-fraction must be between 0 and 1");
        o.easyFraction = *f;
    }
    for (const std::string &q : args.all("quota")) {
        try {
            o.quotas.push_back(parseQuota(q));
        } catch (const std::invalid_argument &e) {
            throw UsageError(e.what());
        }
    }
    if (const auto s = args.integer("seed"))
        o.seed = static_cast<std::uint64_t>(*s);
    return o;
}

void printBreakdown(std::ostream &out, const char *title, const nlohmann::json &part, const char *unit)
{
    out << title << ":";
    for (auto it = part.begin(); it != part.end(); ++it)
        out << "  " << it.key() << "=" << it.value()["tasks"].get<long long>() << "/" << it.value()[unit].get<long long>();
    out << '\n';
}

void printSelection(std::ostream &out, const nlohmann::json &s)
{
    out << "selected: " << s["tasks"].get<long long>() << " tasks, " << s["samples"].get<long long>() << " samples (of "
        << s["candidates"].get<long long>() << ")\n";
    out << "(tasks/samples)\n";
    for (const char *k : {"by_difficulty", "by_level", "by_category", "by_backend", "by_model"})
        printBreakdown(out, k + 3, s[k], "samples");
    out << "excluded:";
    for (auto it = s["excluded"].begin(); it != s["excluded"].end(); ++it)
        out << "  " << it.key() << "=" << it.value().get<long long>();
    out << '\n';
}

int runSelect(const Args &args, Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    const SelectionOptions o = selectionFromArgs(args);
    Corpus c = Corpus::open(args.positional[0], true);
    const nlohmann::json s = selectionSummary(selectSamples(c.db(), o));
    if (args.has("json"))
        ctx.out << s.dump(2) << '\n';
    else
        printSelection(ctx.out, s);
    return Ok;
}

int runExport(const Args &args, Context &ctx)
{
    if (args.positional.size() != 2)
        throw UsageError("expected the corpus file and the output folder");
    ExportOptions o;
    o.selection = selectionFromArgs(args);
    if (const auto f = args.value("format")) {
        const auto p = parseFormat(*f);
        if (!p)
            throw UsageError("--format is messages or prompt-completion, not '" + *f + "'");
        o.format = *p;
    }
    if (const auto r = args.value("reasoning")) {
        const auto p = parseReasoning(*r);
        if (!p)
            throw UsageError("--reasoning is field, think or none, not '" + *r + "'");
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
    o.userTemplate = args.value("template", "");
    o.systemTemplate = args.value("system", "system");
    if (const auto t = args.value("tags")) {
        std::stringstream ss(*t);
        std::string tag;
        while (std::getline(ss, tag, ',')) {
            if (tag != "backend" && tag != "target" && tag != "difficulty" && tag != "level" && tag != "category")
                throw UsageError("--tags takes backend, target, difficulty, level, category; not '" + tag + "'");
            o.tags.push_back(tag);
        }
    }
    o.dryRun = args.has("dry-run");
    const ExportResult r = exportCorpus(args.positional[0], args.positional[1], o);
    const auto &m = r.manifest;
    if (args.has("json")) {
        ctx.out << m.dump(2) << '\n';
        return Ok;
    }
    printSelection(ctx.out, nlohmann::json::parse(m["selection"].dump()));
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
    if (o.dryRun)
        ctx.out << "dry run: nothing written\n";
    else
        ctx.out << "wrote " << args.positional[1] << "/{train.jsonl,validation.jsonl,manifest.json} (export "
                << *r.exportId << ")\n";
    return Ok;
}

} // namespace

Command selectCommand()
{
    std::vector<OptionSpec> opts = selectionOptions();
    opts.push_back({"json"});
    return {"select", "dry run of a selection recipe: the resulting distribution",
            std::string("Usage: sieve-cli select DB [selection options] [--json]\n\n"
                        "Prints the tasks and samples a selection keeps, per difficulty, level, category,\n"
                        "backend and teacher model, and why the rest was left out. Nothing is stored:\n"
                        "'sieve-cli export' stores the selection it writes.\n\n") +
                kSelectionHelp + "  --json             the distribution as JSON\n",
            opts, runSelect};
}

Command exportCommand()
{
    std::vector<OptionSpec> opts = selectionOptions();
    for (const char *v : {"format", "reasoning", "split", "max-tokens", "tokenizer", "template", "system", "tags"})
        opts.push_back({v, true});
    opts.push_back({"dry-run"});
    opts.push_back({"json"});
    return {"export", "write an SFT set: train/validation JSONL and a manifest",
            std::string("Usage: sieve-cli export DB OUT_DIR [--format messages|prompt-completion]\n"
                        "         [--reasoning field|think|none] [--split F] [--max-tokens N --tokenizer FILE]\n"
                        "         [--template NAME|FILE] [--system NAME|FILE|none] [--tags LIST] [--seed S]\n"
                        "         [--require ...] [selection options] [--dry-run] [--json]\n\n"
                        "Writes OUT_DIR/train.jsonl, OUT_DIR/validation.jsonl and OUT_DIR/manifest.json and records\n"
                        "the export in the corpus. Same corpus, options and seed give byte-identical files.\n"
                        "  --format F        messages (system/user/assistant; default) or prompt-completion\n"
                        "  --reasoning R     field (reasoning_content; default), think (<think> tags before the\n"
                        "                    answer) or none\n"
                        "  --split F         the fraction of tasks for validation (default 0.2); by task, never\n"
                        "                    by sample, stratified by difficulty\n"
                        "  --max-tokens N    leave out rows over N tokens (listed in the manifest); needs\n"
                        "  --tokenizer FILE  a Hugging Face tokenizer.json (byte-level BPE); counts equal the\n"
                        "                    tokenizers library's, summed over the row's text fields\n"
                        "  --template T      user prompt template (default: resources/prompts/<backend>.txt)\n"
                        "  --system T        system prompt template (default: system), or none\n"
                        "  --tags LIST       metadata tags in the prompt: backend,target,difficulty,level,category\n"
                        "  --dry-run         print the distribution, write nothing\n"
                        "  --json            print the manifest\n\n") +
                kSelectionHelp,
            opts, runExport};
}

} // namespace sieve::cli
