// sieve-cli show: one sample with everything the corpus holds about it: its verdicts (the newest in
// full: reasons, flags, per-shape errors, timings, environment, log tail), external labels, reviews,
// cluster and its task's hygiene.
#include "core/cli/commands.h"
#include "core/db/corpus.h"
#include "core/review/review.h"
#include "core/store/corpusbrowse.h"
#include "core/store/teacherstore.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ostream>
#include <sstream>

namespace sieve::cli {

namespace {

using nlohmann::json;

template <typename T> json opt(const std::optional<T> &v)
{
    return v ? json(*v) : json();
}

std::vector<std::string> splitComma(const std::optional<std::string> &text)
{
    std::vector<std::string> out;
    if (!text)
        return out;
    std::stringstream ss(*text);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

// The last `lines` lines of a log.
std::string tail(const std::string &log, std::size_t lines, std::size_t &total)
{
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i + 1 < log.size(); ++i)
        if (log[i] == '\n')
            starts.push_back(i + 1);
    total = log.empty() ? 0 : starts.size();
    return starts.size() <= lines ? log : log.substr(starts[starts.size() - lines]);
}

std::string num(const std::optional<double> &v)
{
    if (!v)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", *v);
    return buf;
}

json verdictJson(const store::browse::NewestVerdict &v, std::size_t logLines)
{
    json checks = json::array(), timings = json::array();
    for (const auto &c : v.checks)
        checks.push_back({{"shape_index", c.shapeIndex},
                          {"shape", c.shapeJson ? json::parse(*c.shapeJson, nullptr, false) : json()},
                          {"seed", c.seed},
                          {"ok", c.ok},
                          {"max_abs", opt(c.maxAbs)},
                          {"max_rel", opt(c.maxRel)},
                          {"mismatches", opt(c.mismatches)},
                          {"nonfinite_mismatches", opt(c.nonfinite)}});
    for (const auto &t : v.timings)
        timings.push_back({{"shape_index", t.shapeIndex},
                           {"which", opt(t.which)},
                           {"median_ms", opt(t.medianMs)},
                           {"std_ms", opt(t.stdMs)},
                           {"runs", opt(t.runs)}});
    std::size_t total = 0;
    const std::string logTail = v.log ? tail(*v.log, logLines, total) : std::string();
    json env = v.envJson ? json::parse(*v.envJson, nullptr, false) : json();
    return {{"id", v.id},
            {"status", opt(v.status)},
            {"stage", opt(v.stage)},
            {"reasons", splitComma(v.reasons)},
            {"flags", splitComma(v.flags)},
            {"message", opt(v.message)},
            {"device", opt(v.device)},
            {"interpreted", v.interpreted},
            {"kernels_launched", opt(v.kernelsLaunched)},
            {"custom_kernel_share", opt(v.customKernelShare)},
            {"speedup", opt(v.speedup)},
            {"duration_ms", opt(v.durationMs)},
            {"verifier_version", opt(v.verifierVersion)},
            {"environment", env.is_discarded() ? json(*v.envJson) : env},
            {"checks", checks},
            {"timings", timings},
            {"log_lines", total},
            {"log_tail", logTail}};
}

json showJson(const db::Database &db, const store::browse::SampleDetail &d, std::size_t logLines)
{
    const std::int64_t id = d.row.id;
    json j;
    j["sample"] = {{"id", id},
                   {"name", d.row.name},
                   {"task", opt(d.taskName)},
                   {"backend", d.row.backend},
                   {"model", opt(d.row.model)},
                   {"attempt", opt(d.row.attempt)},
                   {"status", d.row.status},
                   {"review", d.row.review},
                   {"speedup", opt(d.row.speedup)},
                   {"has_reasoning", d.reasoning && !d.reasoning->empty()}};
    j["verdict"] = d.verdict ? verdictJson(*d.verdict, logLines) : json();
    // Every verdict (runs on other devices or with other verifier versions), newest first.
    json all = json::array();
    db::Statement v = db.prepare("SELECT v.id, v.run_id, v.status, v.stage, v.reasons, v.device, v.created_at, "
                                 "r.verifier_version FROM verdicts v JOIN verify_runs r ON r.id = v.run_id "
                                 "WHERE v.sample_id = ?1 ORDER BY v.created_at DESC, v.id DESC");
    v.bind(1, id);
    while (v.step())
        all.push_back({{"id", v.int64(0)},
                       {"run", v.int64(1)},
                       {"status", v.text(2)},
                       {"stage", v.isNull(3) ? json() : json(v.text(3))},
                       {"reasons", splitComma(v.isNull(4) ? std::nullopt : std::optional(v.text(4)))},
                       {"device", v.isNull(5) ? json() : json(v.text(5))},
                       {"created_at", v.int64(6)},
                       {"verifier_version", v.isNull(7) ? json() : json(v.text(7))}});
    j["verdicts"] = all;
    json external = json::array();
    db::Statement e = db.prepare("SELECT source, correct, max_diff, speedup_native, speedup_compile, error "
                                 "FROM external_verdicts WHERE sample_id = ?1 ORDER BY source");
    e.bind(1, id);
    while (e.step())
        external.push_back({{"source", e.text(0)},
                            {"correct", e.isNull(1) ? json() : json(e.int64(1) != 0)},
                            {"max_diff", opt(e.optReal(2))},
                            {"speedup_native", opt(e.optReal(3))},
                            {"speedup_compile", opt(e.optReal(4))},
                            {"error", e.isNull(5) ? json() : json(e.text(5))}});
    j["external_verdicts"] = external;
    json reviews = json::array();
    for (const auto &r : d.history)
        reviews.push_back({{"decision", opt(r.decision)},
                           {"reason", opt(r.reason)},
                           {"note", opt(r.note)},
                           {"reviewer", opt(r.reviewer)},
                           {"created_at", r.createdAt}});
    j["reviews"] = reviews;
    j["cluster"] = json();
    if (d.row.cluster) {
        db::Statement c = db.prepare("SELECT size, representative_id, scope FROM clusters WHERE id = ?1");
        c.bind(1, *d.row.cluster);
        if (c.step())
            j["cluster"] = {{"id", *d.row.cluster},
                            {"size", c.int64(0)},
                            {"representative", opt(c.optInt64(1))},
                            {"scope", c.text(2)}};
    }
    j["judge"] = json();
    if (const auto js = store::judgeSuggestion(db, id)) {
        json judge = {{"model", js->model},
                      {"rubric", js->rubric},
                      {"rubric_sha256", js->rubricHash},
                      {"verdict", js->verdict},
                      {"confidence", opt(js->confidence)},
                      {"created_at", js->createdAt}};
        for (const auto &[k, v] : js->details.items())
            judge[k] = v;
        judge["answer"] = js->answer;
        j["judge"] = std::move(judge);
    }
    j["teacher_reasoning"] = json();
    if (const auto tr = store::teacherReasoning(db, id))
        j["teacher_reasoning"] = {{"model", tr->model},
                                  {"prompt", tr->prompt},
                                  {"prompt_sha256", tr->promptHash},
                                  {"created_at", tr->createdAt},
                                  {"text", tr->reasoning}};
    j["task_hygiene"] = json();
    db::Statement h =
        db.prepare("SELECT h.state, h.codes, h.device FROM task_hygiene h JOIN samples s ON s.task_id = h.task_id "
                   "WHERE s.id = ?1");
    h.bind(1, id);
    if (h.step())
        j["task_hygiene"] = {{"state", h.text(0)}, {"codes", splitComma(h.text(1))}, {"device", h.text(2)}};
    return j;
}

std::string text(const json &v)
{
    return v.is_null() ? std::string("-") : v.is_string() ? v.get<std::string>() : v.dump();
}

void printVerdict(std::ostream &out, const json &v)
{
    out << "\nnewest verdict " << v["id"] << ": " << text(v["status"]) << " at stage " << text(v["stage"]) << " on "
        << text(v["device"]) << (v["interpreted"].get<bool>() ? " (interpreted)" : "") << ", verifier "
        << text(v["verifier_version"]) << '\n';
    auto list = [&](const char *title, const json &items) {
        out << "  " << title << ":";
        for (const auto &x : items)
            out << ' ' << x.get<std::string>();
        out << (items.empty() ? " none\n" : "\n");
    };
    list("reasons", v["reasons"]);
    list("flags", v["flags"]);
    if (!v["message"].is_null() && !v["message"].get<std::string>().empty())
        out << "  message: " << v["message"].get<std::string>() << '\n';
    out << "  kernels launched " << text(v["kernels_launched"]) << ", custom-kernel share "
        << num(v["custom_kernel_share"].is_null() ? std::nullopt
                                                  : std::optional(v["custom_kernel_share"].get<double>()))
        << ", speedup " << num(v["speedup"].is_null() ? std::nullopt : std::optional(v["speedup"].get<double>()))
        << '\n';
    if (!v["checks"].empty()) {
        out << "  checks (shape, seed, ok, max abs, max rel, mismatches):\n";
        for (const auto &c : v["checks"]) {
            auto real = [&](const char *k) {
                return num(c[k].is_null() ? std::nullopt : std::optional(c[k].get<double>()));
            };
            out << "    " << c["shape_index"] << ' ' << text(c["shape"]) << "\tseed " << c["seed"] << '\t'
                << (c["ok"].get<bool>() ? "ok" : "FAIL") << '\t' << real("max_abs") << '\t' << real("max_rel") << '\t'
                << text(c["mismatches"]) << '\n';
        }
    }
    if (!v["timings"].empty()) {
        out << "  timings (shape, what, median ms, std ms, runs):\n";
        for (const auto &t : v["timings"])
            out << "    " << t["shape_index"] << ' ' << text(t["which"]) << '\t' << text(t["median_ms"]) << '\t'
                << text(t["std_ms"]) << '\t' << text(t["runs"]) << '\n';
    }
    if (v["environment"].is_object()) {
        out << "  environment:";
        for (auto it = v["environment"].begin(); it != v["environment"].end(); ++it)
            if (!it.value().is_structured())
                out << ' ' << it.key() << '=' << text(it.value());
        out << '\n';
    }
    if (v["log_lines"].get<std::size_t>() > 0) {
        out << "  log (last lines of " << v["log_lines"] << "):\n";
        std::istringstream log(v["log_tail"].get<std::string>());
        for (std::string line; std::getline(log, line);)
            out << "    | " << line << '\n';
    }
}

void printText(std::ostream &out, const json &j)
{
    const auto &s = j["sample"];
    out << "sample " << s["id"] << "  " << s["name"].get<std::string>() << "  task " << text(s["task"]) << "  "
        << s["backend"].get<std::string>() << "  model " << text(s["model"]) << "  attempt " << text(s["attempt"])
        << '\n';
    out << "status " << s["status"].get<std::string>() << "  review " << s["review"].get<std::string>() << "  speedup "
        << text(s["speedup"]);
    if (!j["cluster"].is_null())
        out << "  cluster " << j["cluster"]["id"] << " (size " << j["cluster"]["size"] << ", representative "
            << text(j["cluster"]["representative"]) << ")";
    out << '\n';
    if (!j["task_hygiene"].is_null()) {
        out << "task hygiene: " << j["task_hygiene"]["state"].get<std::string>();
        for (const auto &c : j["task_hygiene"]["codes"])
            out << ' ' << c.get<std::string>();
        out << '\n';
    }
    if (j["verdict"].is_null())
        out << "\nno verdict: not verified yet\n";
    else
        printVerdict(out, j["verdict"]);
    if (j["verdicts"].size() > 1) {
        out << "\nall verdicts (newest first):\n";
        for (const auto &v : j["verdicts"]) {
            out << "  " << v["id"] << "  run " << v["run"] << "  " << v["status"].get<std::string>() << "  "
                << text(v["device"]);
            for (const auto &r : v["reasons"])
                out << ' ' << r.get<std::string>();
            out << '\n';
        }
    }
    for (const auto &e : j["external_verdicts"])
        out << "\nexternal verdict (" << e["source"].get<std::string>() << "): correct " << text(e["correct"])
            << ", max diff " << text(e["max_diff"]) << ", speedup " << text(e["speedup_native"])
            << (e["error"].is_null() ? std::string() : ", error " + e["error"].get<std::string>()) << '\n';
    if (const json &js = j["judge"]; !js.is_null()) {
        out << "\njudge (suggestion): " << js["verdict"].get<std::string>() << ", confidence "
            << num(js["confidence"].is_null() ? std::nullopt : std::optional(js["confidence"].get<double>()))
            << ", model " << js["model"].get<std::string>() << ", rubric " << js["rubric"].get<std::string>()
            << " sha256 " << js["rubric_sha256"].get<std::string>().substr(0, 12) << '\n';
        if (js.contains("error"))
            out << "  unparseable answer: " << js["error"].get<std::string>() << '\n';
        if (js.contains("summary") && !js["summary"].get<std::string>().empty())
            out << "  " << js["summary"].get<std::string>() << '\n';
        if (js.contains("delegated_to") && !js["delegated_to"].empty()) {
            out << "  delegated to:";
            for (const auto &d : js["delegated_to"])
                out << ' ' << d.get<std::string>();
            out << '\n';
        }
        if (js.contains("reasoning_consistent"))
            out << "  reasoning consistent with the code: " << text(js["reasoning_consistent"]) << '\n';
        for (const auto &l : js.value("lines", json::array()))
            out << "  line " << text(l["line"]) << (l["matches"].get<bool>() ? "" : " (not in the code)") << ": "
                << l["text"].get<std::string>() << (l["why"].get<std::string>().empty() ? "" : "  -- ")
                << l["why"].get<std::string>() << '\n';
    }
    if (const json &tr = j["teacher_reasoning"]; !tr.is_null())
        out << "\nteacher-written reasoning (model " << tr["model"].get<std::string>() << ", prompt "
            << tr["prompt"].get<std::string>() << " sha256 " << tr["prompt_sha256"].get<std::string>().substr(0, 12)
            << ", at " << tr["created_at"] << "): " << tr["text"].get<std::string>().size()
            << " characters (--code prints it)\n";
    out << "\nreviews (newest first):" << (j["reviews"].empty() ? " none" : "") << '\n';
    for (const auto &r : j["reviews"])
        out << "  " << r["created_at"] << "  " << text(r["decision"]) << "  reason " << text(r["reason"]) << "  by "
            << text(r["reviewer"]) << (r["note"].is_null() ? std::string() : "  " + r["note"].get<std::string>())
            << '\n';
}

int runShow(const Args &args, Context &ctx)
{
    if (args.positional.size() != 2)
        throw UsageError("expected the corpus file and one sample (id or name)");
    std::size_t logLines = 20;
    if (const auto n = args.integer("log-lines")) {
        if (*n < 0)
            throw UsageError("--log-lines must be >= 0");
        logLines = static_cast<std::size_t>(*n);
    }
    Corpus c = Corpus::open(args.positional[0], true);
    const std::int64_t id = resolveSample(c.db(), args.positional[1]);
    const auto d = store::browse::detail(c.db(), id);
    if (!d)
        throw std::runtime_error("no sample with id " + std::to_string(id));
    json j = showJson(c.db(), *d, logLines);
    if (args.has("code")) {
        j["code"] = opt(d->code);
        j["reasoning"] = opt(d->reasoning);
    }
    if (args.has("json")) {
        ctx.out << j.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
        return Ok;
    }
    printText(ctx.out, j);
    if (args.has("code")) {
        if (d->reasoning && !d->reasoning->empty())
            ctx.out << "\nreasoning:\n" << *d->reasoning << '\n';
        if (!j["teacher_reasoning"].is_null())
            ctx.out << "\nteacher-written reasoning (not the sample's own):\n"
                    << j["teacher_reasoning"]["text"].get<std::string>() << '\n';
        ctx.out << "\ncode:\n" << d->code.value_or("(none)") << '\n';
    }
    return Ok;
}

} // namespace

Command showCommand()
{
    return {.name = "show",
            .summary = "one sample: its verdicts, per-shape errors, log, environment, reviews and cluster",
            .usage = "sieve-cli show DB SAMPLE [--json] [--log-lines N] [--code]",
            .description =
                "Prints everything the corpus holds about SAMPLE (an id or a unique name): its status and review,\n"
                "the newest verdict in full (stage, reason codes, flags, message, kernels launched, per-shape and\n"
                "per-seed errors, timings, the verifier's environment and the tail of its log), every earlier\n"
                "verdict, external labels that came with imported data, the review history, its dedup cluster,\n"
                "its task's hygiene, the teacher judge's suggestion (sieve-cli judge: verdict, confidence, model,\n"
                "rubric, quoted lines) and teacher-written reasoning with its provenance (sieve-cli explain).\n",
            .options = {{.name = "json", .help = "the same as one JSON document"},
                        {.name = "log-lines",
                         .takesValue = true,
                         .valueName = "N",
                         .help = "how many of the log's last lines to show (default 20)"},
                        {.name = "code", .help = "also the sample's code and reasoning"}},
            .run = runShow};
}

} // namespace sieve::cli
