// sieve-cli import: streams task/sample files into a corpus and prints what was added, what was already
// there and every rejected record (file:line: field: message).
#include "core/cli/commands.h"
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/import/importer.h"
#include "core/tasks/category.h"
#include "core/tasks/taskhygiene.h"
#include "core/util/progress.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace sieve::cli {

namespace {

int runImport(const Args &args, Context &ctx)
{
    if (args.positional.size() < 2)
        throw UsageError("expected the corpus file and at least one input path");
    const auto formatName = args.value("format");
    if (!formatName)
        throw UsageError("--format is required (kernelbench, kernelbook, cuda-archive or sieve)");
    const auto format = parseImportFormat(*formatName);
    if (!format)
        throw UsageError("unknown format '" + *formatName +
                         "' (expected kernelbench, kernelbook, cuda-archive or sieve)");
    const bool json = args.has("json");
    const bool quiet = args.has("quiet");
    std::vector<std::string> paths(args.positional.begin() + 1, args.positional.end());

    Corpus corpus = Corpus::open(args.positional[0]);
    installInterruptHandler();
    Progress progress(ctx.err, "importing (KiB)", 0, !quiet);
    ImportOptions options;
    if (auto n = args.integer("batch")) {
        if (*n < 1)
            throw UsageError("--batch must be at least 1");
        options.commitRecords = static_cast<std::size_t>(*n);
        options.batchRecords = std::min<std::size_t>(options.commitRecords, 4096);
    }
    if (const auto c = args.value("compression")) {
        if (*c == "zstd")
            options.codec = payload::Codec::Zstd;
        else if (*c != "lz4")
            throw UsageError("unknown --compression '" + *c + "' (expected lz4 or zstd)");
    }
    options.onProgress = [&](std::uint64_t done, std::uint64_t total) {
        progress.setTotal(total / 1024);
        progress.update(done / 1024);
    };
    options.cancelled = [] { return interrupted(); };
    options.onWaitForLock = [&] { ctx.err << "import: another import of this corpus is running; waiting for it\n"; };
    if (!json)
        options.onError = [&](const ImportError &e) { ctx.err << e.text() << '\n'; };
    const ImportReport report = importFiles(corpus, *format, paths, options);
    progress.finish();
    // References whose imports the verifier cannot satisfy (einops, transformers, a model download) are
    // marked now (task_hygiene 'import_missing'), not found out sample by sample at verify time.
    const std::vector<ImportScanResult> missing = scanNewTaskImports(corpus.db());
    // Tasks without an operator category get one inferred from their reference (core/tasks/category.h).
    int categorised = 0;
    for (const CategoryChange &c : inferTaskCategories(corpus.db(), false, false))
        categorised += c.after.has_value();
    auto findingText = [](const ImportFinding &f) {
        return f.code == "TASK_NEEDS_DOWNLOAD" ? f.name + "() downloads a model" : "imports " + f.name;
    };

    if (json) {
        nlohmann::json j = report.toJson();
        nlohmann::json m = nlohmann::json::array();
        for (const ImportScanResult &r : missing) {
            nlohmann::json f = nlohmann::json::array();
            for (const ImportFinding &x : r.findings)
                f.push_back({{"code", x.code},
                             {x.code == "TASK_NEEDS_DOWNLOAD" ? "call" : "module", x.name},
                             {"line", x.line}});
            m.push_back({{"task", r.taskName}, {"findings", f}});
        }
        j["tasks_import_missing"] = m;
        j["categories_inferred"] = categorised;
        ctx.out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        for (const auto &f : report.files) {
            ctx.out << f.path << ": " << f.tasksAdded << " tasks added, " << f.samplesAdded << " samples added, "
                    << f.unchanged << " unchanged, " << f.rejected << " rejected\n";
        }
        ctx.out << "total: " << report.tasksAdded() << " tasks added, " << report.samplesAdded() << " samples added, "
                << report.unchanged() << " unchanged, " << report.rejected() << " rejected (" << report.seconds
                << " s, import " << report.importId << ")\n";
        if (categorised > 0)
            ctx.out << categorised
                    << " tasks without a category got one inferred from their reference "
                       "(sieve-cli tasks set to change it)\n";
        if (!missing.empty()) {
            ctx.out << missing.size()
                    << " tasks need what the verifier's environment lacks (TASK_IMPORT_MISSING; "
                       "their samples will be UNVERIFIABLE):\n";
            for (const ImportScanResult &r : missing) {
                ctx.out << "  " << r.taskName << ":";
                for (std::size_t i = 0; i < r.findings.size(); ++i)
                    ctx.out << (i ? ", " : " ") << findingText(r.findings[i]) << " (line " << r.findings[i].line << ")";
                ctx.out << '\n';
            }
        }
    }
    if (report.interrupted) {
        ctx.err << "interrupted: what was imported so far is saved; run the same command again to finish\n";
        return Interrupted;
    }
    return report.rejected() > 0 ? PartialInput : Ok;
}

} // namespace

Command importCommand()
{
    return {
        .name = "import",
        .summary = "import tasks and samples (kernelbench, kernelbook, cuda-archive, sieve)",
        .usage = "sieve-cli import DB --format F PATH... [--json] [--quiet] [--batch N] [--compression C]",
        .description = "Streams PATHs into the corpus DB. Formats (see docs/FORMATS.md):\n"
                       "  kernelbench    a folder of KernelBench problems (levelN/ID_Name.py), single problem files,\n"
                       "                 or the JSONL form with code, level, name, problem_id\n"
                       "  kernelbook     KernelBook JSONL: python_code becomes the task, triton_code an expert sample\n"
                       "  cuda-archive   AI-CUDA-Engineer archive JSONL: task, CUDA sample and the archive's labels\n"
                       "                 (kept as an external verdict, never as Sieve's own)\n"
                       "  sieve          Sieve's JSONL: task rows (with reference_code) and sample rows\n\n"
                       "Re-importing the same data adds nothing: tasks and samples have content keys. Bad records are\n"
                       "listed as FILE:LINE: FIELD: MESSAGE and skipped; good ones are imported. Work is committed in\n"
                       "batches, so an interrupted import keeps what it did and a re-run completes it.\n",
        .options =
            {{.name = "format",
              .takesValue = true,
              .valueName = "F",
              .help = "input format (required)",
              .choices = {"kernelbench", "kernelbook", "cuda-archive", "sieve"}},
             {.name = "json", .help = "print the report as JSON (rejected records listed in it, not on stderr)"},
             {.name = "quiet", .help = "no progress output"},
             {.name = "batch", .takesValue = true, .valueName = "N", .help = "records per transaction (default 16384)"},
             {.name = "compression",
              .takesValue = true,
              .valueName = "C",
              .help = "how code, reasoning and responses are stored: lz4 (default; fastest to write and "
                      "read) or zstd (about 0.7 of the bytes, 2.5x the CPU time to pack)",
              .choices = {"lz4", "zstd"}}},
        .notes = "Exit codes: 0 all records imported or already present; 3 some records rejected;\n"
                 "1 the corpus could not be written; 2 usage error; 130 interrupted (re-run to finish).\n",
        .run = runImport};
}

} // namespace sieve::cli
