// sieve-cli merge: folds the shard results of 'verify --shard' into the corpus, checked and idempotent.
#include "gpu/cli/commands.h"
#include "gpu/shard/shardmerge.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace sieve::gpu {

namespace {

using cli::Args;
using cli::UsageError;

int runMerge(const Args &args, cli::Context &ctx)
{
    if (args.positional.size() < 2)
        throw UsageError("expected the corpus and at least one shard results folder or file");
    const std::string db = args.positional[0];
    const std::vector<std::string> inputs(args.positional.begin() + 1, args.positional.end());
    MergeOptions o;
    o.partial = args.has("partial");
    const MergeReport r = mergeShards(db, inputs, o);

    if (args.has("json")) {
        nlohmann::json merged = nlohmann::json::array(), already = nlohmann::json::array(),
                       problems = nlohmann::json::array();
        for (const auto &m : r.runs) {
            nlohmann::json j = {{"file", m.file}, {"shard", m.shard}, {"run_uid", m.uid}, {"run", m.corpusRunId}};
            if (m.alreadyMerged) {
                already.push_back(j);
            } else {
                j["verdicts"] = m.verdicts;
                j["by_status"] = m.byStatus;
                merged.push_back(j);
            }
        }
        for (const auto &p : r.problems)
            problems.push_back({{"file", p.file}, {"reason", p.reason}});
        ctx.out << nlohmann::json{{"files", r.files},
                                  {"merged", merged},
                                  {"already_merged", already},
                                  {"problems", problems},
                                  {"committed", r.committed}}
                       .dump()
                << '\n';
    } else {
        std::uint64_t verdicts = 0, newRuns = 0, oldRuns = 0;
        for (const auto &m : r.runs) {
            if (m.alreadyMerged) {
                ++oldRuns;
                ctx.out << m.file << ": shard " << m.shard << " run " << m.uid << " was already merged (run "
                        << m.corpusRunId << ")\n";
                continue;
            }
            ++newRuns;
            verdicts += m.verdicts;
            ctx.out << m.file << ": shard " << m.shard << " -> run " << m.corpusRunId << ", " << m.verdicts
                    << " verdicts (";
            bool first = true;
            for (const auto &[status, n] : m.byStatus) {
                ctx.out << (first ? "" : ", ") << status << " " << n;
                first = false;
            }
            ctx.out << ")\n";
        }
        for (const auto &p : r.problems)
            ctx.err << p.file << ": " << p.reason << '\n';
        if (r.committed)
            ctx.out << "merged " << newRuns << " runs (" << verdicts << " verdicts) from " << r.files << " files into "
                    << db << "; " << oldRuns << " runs were already merged\n";
        else
            ctx.err << "nothing merged: " << r.problems.size()
                    << " problems (fix them, or merge the good files with --partial)\n";
    }
    return r.problems.empty() ? cli::Ok : cli::Failure;
}

} // namespace

cli::Command mergeCommand()
{
    return {
        .name = "merge",
        .summary = "fold shard results (verify --shard) into the corpus, checked and idempotent",
        .usage = "sieve-cli merge DB DIR_OR_FILE... [--partial] [--json]",
        .description =
            "Folds the results of 'sieve-cli verify DB --shard K/N --out DIR' into the corpus DB. Each argument is a\n"
            "shard results file (shard-K-of-N.sieve) or a folder holding them. Every shard run becomes a run of DB\n"
            "with its own environment and verdicts; samples.status follows the newest verdict.\n"
            "\n"
            "Each file is checked first: that it is a whole SQLite file (not cut short, no -wal beside it) that\n"
            "passes SQLite's integrity check, that it is a shard results file made from this corpus (corpus id, and\n"
            "each sample's content key, code and task), that its run finished with a verdict for every sample, and\n"
            "that every shard of its job (K = 0..N-1) is among the inputs. A file that fails is reported with the\n"
            "reason; then nothing is merged (exit 1) unless --partial is given.\n"
            "\n"
            "Merging is idempotent: a shard run is keyed by its shard's uid and run id, and merging it again adds\n"
            "nothing. Everything is written in one transaction.\n",
        .options = {{.name = "partial",
                     .help = "merge the files that pass even if others do not (the problems are still reported and "
                             "the exit code is still 1); merge the rest later, when they are whole"},
                    {.name = "json",
                     .help = "the report as one JSON object: "
                             "{\"merged\":[...],\"already_merged\":[...],\"problems\":[{\"file\",\"reason\"}],"
                             "\"committed\"}"}},
        .notes =
            "Exit codes: 0 merged (or nothing new to merge), 1 some input was missing, incomplete, corrupt or from\n"
            "another corpus, 2 usage.\n",
        .run = runMerge};
}

} // namespace sieve::gpu
