// sieve-cli list: the samples of a corpus, one per line or as JSON lines.
#include "core/cli/commands.h"
#include "core/db/corpus.h"
#include "core/store/verdictstore.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace sieve::cli {

namespace {

int runList(const Args &args, Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    Corpus c = Corpus::open(args.positional[0], true);
    if (const auto t = args.value("task")) {
        db::Statement known = c.db().prepare("SELECT 1 FROM tasks WHERE name=?1");
        known.bind(1, *t);
        if (!known.step())
            throw UsageError("no task named '" + *t + "' in " + args.positional[0]);
    }
    std::string sql = "SELECT s.id, s.name, t.name, s.backend, s.status, s.review, s.cluster_id, s.speedup, "
                      "s.model, s.attempt, s.has_answer, (SELECT ',' || v.flags || ',' LIKE ?3 FROM verdicts v "
                      "WHERE v.sample_id = s.id ORDER BY v.id DESC LIMIT 1) "
                      "FROM samples s JOIN tasks t ON t.id = s.task_id";
    const auto task = args.value("task");
    const auto status = args.value("status");
    std::vector<std::string> where;
    if (task)
        where.push_back("t.name = ?1");
    if (status)
        where.push_back("s.status = ?2");
    for (size_t i = 0; i < where.size(); ++i)
        sql += (i == 0 ? " WHERE " : " AND ") + where[i];
    sql += " ORDER BY s.id";
    if (auto limit = args.integer("limit"))
        sql += " LIMIT " + std::to_string(*limit);
    db::Statement st = c.db().prepare(sql);
    st.bind(3, std::string("%,") + store::kStaticSkippedFlag + ",%");
    if (task)
        st.bind(1, *task);
    if (status)
        st.bind(2, *status);
    const bool json = args.has("json");
    if (!json)
        ctx.out << "id\tsample\ttask\tbackend\tstatus\treview\tcluster\tspeedup\n";
    while (st.step()) {
        // a newest verdict made without stage 0 (verify --skip-static) says so next to its status
        const bool skipped = !st.isNull(11) && st.int64(11) != 0;
        if (json) {
            nlohmann::json row = {{"id", st.int64(0)},
                                  {"sample", st.text(1)},
                                  {"task", st.text(2)},
                                  {"backend", st.text(3)},
                                  {"status", st.text(4)},
                                  {"review", st.text(5)},
                                  {"cluster", st.isNull(6) ? nlohmann::json() : nlohmann::json(st.int64(6))},
                                  {"speedup", st.isNull(7) ? nlohmann::json() : nlohmann::json(st.real(7))},
                                  {"model", st.isNull(8) ? nlohmann::json() : nlohmann::json(st.text(8))},
                                  {"attempt", st.isNull(9) ? nlohmann::json() : nlohmann::json(st.int64(9))},
                                  {"has_answer", st.int64(10) != 0},
                                  {"static_skipped", skipped}};
            ctx.out << row.dump() << '\n';
        } else {
            ctx.out << st.int64(0) << '\t' << st.textView(1) << '\t' << st.textView(2) << '\t' << st.textView(3) << '\t'
                    << st.textView(4) << (skipped ? " (STATIC_SKIPPED)" : "") << '\t' << st.textView(5) << '\t'
                    << (st.isNull(6) ? std::string("-") : std::to_string(st.int64(6))) << '\t'
                    << (st.isNull(7) ? std::string("-") : std::to_string(st.real(7))) << '\n';
        }
    }
    return Ok;
}

} // namespace

Command listCommand()
{
    return {
        .name = "list",
        .summary = "list samples (one per line, or JSON lines)",
        .usage = "sieve-cli list DB [--task T] [--status S] [--limit N] [--json]",
        .description = "Lists samples with their task, backend, verification status, review decision and cluster.\n",
        .options = {{.name = "task", .takesValue = true, .valueName = "T", .help = "only samples of task T (its name)"},
                    {.name = "status",
                     .takesValue = true,
                     .valueName = "S",
                     .help = "only samples whose latest verdict is S",
                     .choices = store::verdictStatuses()},
                    {.name = "limit", .takesValue = true, .valueName = "N", .help = "at most N rows"},
                    {.name = "json",
                     .help = "one JSON object per line: id, sample, task, backend, status, review, cluster, "
                             "speedup, model, attempt, has_answer, static_skipped (the newest verdict was made by "
                             "'verify --skip-static'; the text form adds (STATIC_SKIPPED) to the status)"}},
        .run = runList};
}

} // namespace sieve::cli
