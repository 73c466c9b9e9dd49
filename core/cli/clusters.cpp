// sieve-cli clusters: the dedup clusters a corpus holds, with their representatives and the members'
// statuses and reviews (what `sieve-cli dedup` stored; nothing is computed again).
#include "core/cli/commands.h"
#include "core/db/corpus.h"
#include "core/store/corpusbrowse.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <ostream>

namespace sieve::cli {

namespace {

int runClusters(const Args &args, Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    long long minSize = args.has("all") ? 1 : 2;
    if (const auto n = args.integer("min-size")) {
        if (args.has("all"))
            throw UsageError("give --all or --min-size, not both");
        if (*n < 1)
            throw UsageError("--min-size must be >= 1");
        minSize = *n;
    }
    Corpus c = Corpus::open(args.positional[0], true);
    std::int64_t taskId = -1;
    if (const auto t = args.value("task")) {
        db::Statement st = c.db().prepare("SELECT id FROM tasks WHERE name=?1");
        st.bind(1, *t);
        if (!st.step())
            throw UsageError("no task named '" + *t + "' in " + args.positional[0]);
        taskId = st.int64(0);
    }
    const auto limit = args.integer("limit");
    if (limit && *limit < 1)
        throw UsageError("--limit must be >= 1");
    const bool json = args.has("json");
    std::size_t total = 0, shown = 0;
    for (const auto &cl : store::browse::clusters(c.db(), taskId)) {
        ++total;
        if (cl.size < minSize || (limit && static_cast<long long>(shown) >= *limit))
            continue;
        ++shown;
        const auto members = store::browse::clusterMembers(c.db(), cl.id);
        std::map<std::string, int> statuses;
        for (const auto &m : members)
            ++statuses[m.status.value_or("-")];
        if (json) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto &m : members)
                list.push_back({{"sample_id", m.sampleId},
                                {"sample", m.name.value_or("")},
                                {"status", m.status ? nlohmann::json(*m.status) : nlohmann::json()},
                                {"review", m.review ? nlohmann::json(*m.review) : nlohmann::json()},
                                {"similarity", m.similarity ? nlohmann::json(*m.similarity) : nlohmann::json()},
                                {"speedup", m.speedup ? nlohmann::json(*m.speedup) : nlohmann::json()},
                                {"representative", m.representative}});
            ctx.out
                << nlohmann::
                       json{{"id", cl.id},
                            {"task", cl.taskName ? nlohmann::json(*cl.taskName) : nlohmann::json()},
                            {"size", cl.size},
                            {"representative", cl.representative ? nlohmann::json(*cl.representative) : nlohmann::json()},
                            {"statuses", statuses},
                            {"members", list}}
                           .dump()
                << '\n';
            continue;
        }
        ctx.out << "cluster " << cl.id << "  size " << cl.size << "  task " << cl.taskName.value_or("-")
                << "  representative " << (cl.representative ? std::to_string(*cl.representative) : "-") << "  ";
        for (auto it = statuses.begin(); it != statuses.end(); ++it)
            ctx.out << (it == statuses.begin() ? "" : ", ") << it->first << " " << it->second;
        ctx.out << '\n';
        for (const auto &m : members) {
            char sim[16] = "-";
            if (m.similarity)
                std::snprintf(sim, sizeof sim, "%.3f", *m.similarity);
            ctx.out << "  " << (m.representative ? '*' : ' ') << ' ' << m.sampleId << '\t' << m.name.value_or("")
                    << '\t' << m.status.value_or("-") << '\t' << m.review.value_or("-") << '\t' << sim << '\n';
        }
    }
    if (!json)
        ctx.out << shown << " of " << total << " clusters shown"
                << (minSize > 1 ? " (size >= " + std::to_string(minSize) + "; --all for every one)" : std::string())
                << '\n';
    if (total == 0 && !json)
        ctx.out << "no clusters: run 'sieve-cli dedup' first\n";
    return Ok;
}

} // namespace

Command clustersCommand()
{
    return {.name = "clusters",
            .summary = "list the dedup clusters: size, representative, members' statuses",
            .usage = "sieve-cli clusters DB [--task T] [--min-size N | --all] [--limit N] [--json]",
            .description = "Lists the clusters that 'sieve-cli dedup' stored, largest first: each with its task,\n"
                           "size, representative (*) and members (id, name, status, review, similarity to the\n"
                           "representative).\n",
            .options = {{.name = "task", .takesValue = true, .valueName = "T", .help = "only the clusters of task T"},
                        {.name = "min-size",
                         .takesValue = true,
                         .valueName = "N",
                         .help = "only clusters of at least N samples (default 2: those with duplicates)"},
                        {.name = "all", .help = "every cluster, single samples included"},
                        {.name = "limit", .takesValue = true, .valueName = "N", .help = "at most N clusters"},
                        {.name = "json",
                         .help = "one JSON object per cluster: id, task, size, representative, statuses, members"}},
            .run = runClusters};
}

} // namespace sieve::cli
