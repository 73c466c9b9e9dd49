#include "export.h"

#include "batchpipeline.h"
#include "corpus.h"
#include "exportfile.h"
#include "exportjson.h"
#include "hashing.h"
#include "payload.h"
#include "prompttemplate.h"
#include "tokenizer.h"
#include "tokenizer_unicode.h"
#include "unixtime.h"

#include <simdjson.h>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>

namespace sieve {

using ojson = nlohmann::ordered_json;

const char *formatName(ExportFormat f) { return f == ExportFormat::Messages ? "messages" : "prompt-completion"; }
const char *reasoningName(ReasoningMode r)
{
    return r == ReasoningMode::Field ? "field" : r == ReasoningMode::Think ? "think" : "none";
}
std::optional<ExportFormat> parseFormat(std::string_view s)
{
    for (ExportFormat f : {ExportFormat::Messages, ExportFormat::PromptCompletion})
        if (s == formatName(f))
            return f;
    return std::nullopt;
}
std::optional<ReasoningMode> parseReasoning(std::string_view s)
{
    for (ReasoningMode r : {ReasoningMode::Field, ReasoningMode::Think, ReasoningMode::None})
        if (s == reasoningName(r))
            return r;
    return std::nullopt;
}

namespace {

// simdjson's validator (SIMD, ~10 GB/s) accepts exactly what tok::unicode::decode decodes without
// U+FFFD (no overlongs, no surrogates, nothing above U+10FFFF), so valid text needs no rewrite.
bool isValidUtf8(std::string_view text) { return simdjson::validate_utf8(text.data(), text.size()); }

std::string replaceInvalidUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t start = i;
        const char32_t cp = tok::unicode::decode(text, i);
        if (cp == 0xFFFD && !(i - start == 3 && text.compare(start, 3, "\xEF\xBF\xBD") == 0))
            tok::unicode::append(out, 0xFFFD);
        else
            out.append(text, start, i - start);
    }
    return out;
}

// In place: the (nearly always) valid text is not copied.
void makeValidUtf8(std::string &text)
{
    if (!isValidUtf8(text))
        text = replaceInvalidUtf8(text);
}

} // namespace

std::string validUtf8(std::string_view text) { return isValidUtf8(text) ? std::string(text) : replaceInvalidUtf8(text); }

namespace {

struct SplitCounts {
    struct Part {
        std::set<std::int64_t> tasks;
        std::int64_t rows = 0;
    };
    std::set<std::int64_t> tasks;
    std::int64_t rows = 0;
    std::int64_t tokens = 0;
    std::map<std::string, Part> by[3]; // level, category, difficulty
    // A task's rows come one after another: its keys are looked up once per task, not per row (the
    // sets still count each task once if they did not).
    std::int64_t lastTask = -1;
    Part *current[3] = {};

    void add(const SelectedSample &s, std::size_t tok)
    {
        if (s.taskId != lastTask) {
            lastTask = s.taskId;
            tasks.insert(s.taskId);
            const std::string keys[3] = {s.level ? std::to_string(*s.level) : "(none)", s.category.value_or("(none)"),
                                         difficultyName(s.difficulty)};
            for (int i = 0; i < 3; ++i) {
                current[i] = &by[i][keys[i]];
                current[i]->tasks.insert(s.taskId);
            }
        }
        ++rows;
        tokens += static_cast<std::int64_t>(tok);
        for (Part *p : current)
            ++p->rows;
    }
    ojson json(bool withTokens) const
    {
        ojson j;
        j["tasks"] = tasks.size();
        j["rows"] = rows;
        if (withTokens)
            j["tokens"] = tokens;
        const char *names[3] = {"by_level", "by_category", "by_difficulty"};
        for (int i = 0; i < 3; ++i) {
            ojson part = ojson::object();
            for (const auto &[k, v] : by[i])
                part[k] = {{"tasks", v.tasks.size()}, {"rows", v.rows}};
            j[names[i]] = std::move(part);
        }
        return j;
    }
};

// Task -> "train" / "validation": per difficulty, tasks in name order, a seeded shuffle, the first
// round(F * n) to validation. Never splits one task's samples.
std::map<std::int64_t, bool> splitTasks(const Selection &sel, double fraction, std::uint64_t seed)
{
    std::map<Difficulty, std::vector<std::pair<std::string, std::int64_t>>> strata;
    std::set<std::int64_t> seen;
    std::int64_t last = -1;
    for (const SelectedSample &s : sel.samples) {
        if (s.taskId != last && seen.insert(s.taskId).second)
            strata[s.difficulty].emplace_back(s.taskName, s.taskId);
        last = s.taskId;
    }
    std::mt19937_64 rng(seed ^ 0x5EEDC0DE5EEDC0DEull); // independent of the selection's draws
    std::map<std::int64_t, bool> validation;
    for (auto &[d, tasks] : strata) {
        std::sort(tasks.begin(), tasks.end());
        seededShuffle(tasks, rng);
        const auto n = static_cast<std::size_t>(std::llround(fraction * double(tasks.size())));
        for (std::size_t i = 0; i < tasks.size(); ++i)
            validation[tasks[i].second] = i < n;
    }
    return validation;
}

// One row on its way: the reader names the sample; a worker reads and unpacks its payloads, counts
// tokens and appends the line to its batch's output; the writer counts it.
struct RowJob {
    const SelectedSample *sample = nullptr;
    bool validation = false;
    // Set by the worker.
    const char *excluded = nullptr; // left out before any budget check, and why
    bool overBudget = false;
    std::size_t tokens = 0;
};

struct Batch {
    std::vector<RowJob> rows; // the first n are this batch's
    std::size_t n = 0;
    std::size_t seq = 0;
    OutBuffer out[2]; // the written rows of train and validation, each line ending in '\n'
    std::exception_ptr error;
};

// A blob column as a view into SQLite's row (valid until the next step or reset).
// The corpus opened read-only with its pages mapped (no pread() copy per page).
db::Database openForReading(const std::string &path)
{
    db::Database db(path, db::Database::Mode::ReadOnly);
    db.exec("PRAGMA mmap_size=4294967296");
    return db;
}

// Builds rows with a per-task cache of the reference and the prompt. One per worker thread, each with
// its own connection to the corpus (payloads are unpacked straight from SQLite's pages, and SQLite is
// read on every core), its own tokenizer and word cache.
class RowBuilder {
public:
    RowBuilder(const std::string &corpusPath, const ExportOptions &o, const Tokenizer *tok)
        : m_options(o), m_tok(tok), m_db(openForReading(corpusPath)),
          m_ref(m_db.prepare("SELECT reference_code FROM task_payloads WHERE task_id=?1")),
          m_pay(m_db.prepare("SELECT code, reasoning FROM sample_payloads WHERE sample_id=?1"))
    {
        if (o.systemTemplate != "none") {
            m_system = std::string(trimTrailingSpace(PromptTemplate::load(o.systemTemplate).render({})));
            m_systemTokens = count(m_system);
        }
        if (!o.userTemplate.empty())
            m_fixedTemplate = std::make_unique<PromptTemplate>(PromptTemplate::load(o.userTemplate));
    }

    void process(Batch &b)
    {
        b.out[0].clear();
        b.out[1].clear();
        for (std::size_t i = 0; i < b.n; ++i)
            processRow(b.rows[i], b.out[b.rows[i].validation ? 1 : 0]);
    }

private:
    struct TaskCache {
        std::int64_t id = -1;
        std::string reference;
        bool prompted = false;
        std::string user, joined; // the user prompt; system + user for prompt-completion
        std::size_t tokens = 0;   // the prompt part of every row of this task
    };

    std::size_t count(std::string_view text) const { return m_tok ? m_tok->count(text) : 0; }

    static void unpackField(std::string_view blob, bool present, std::string &out, const std::string &what,
                            const char *field)
    {
        if (!present) {
            out.clear();
            return;
        }
        try {
            payload::unpackInto(blob, out);
        } catch (const std::exception &e) {
            throw std::runtime_error(what + ": " + field + ": " + e.what());
        }
        makeValidUtf8(out);
    }

    const PromptTemplate &templateFor(const std::string &backend)
    {
        if (m_fixedTemplate)
            return *m_fixedTemplate;
        auto it = m_templates.find(backend);
        if (it == m_templates.end())
            it = m_templates.emplace(backend, backendTemplate(backend, "; give one with --template")).first;
        return it->second;
    }

    void prompt(const SelectedSample &s)
    {
        TaskCache &t = m_task;
        std::map<std::string, std::string> v;
        v["reference"] = std::string(trimTrailingSpace(t.reference));
        v["task"] = s.taskName;
        v["backend"] = s.backend;
        v["target"] = s.target.value_or("");
        v["dtype"] = s.dtype;
        v["level"] = s.level ? std::to_string(*s.level) : "";
        v["category"] = s.category.value_or("");
        v["difficulty"] = s.difficulty == Difficulty::Unknown ? "" : difficultyName(s.difficulty);
        std::string tags;
        for (const std::string &tag : m_options.tags) {
            const auto it = v.find(tag);
            if (it != v.end() && !it->second.empty())
                tags += (tags.empty() ? "" : " ") + ("[" + tag + ": " + it->second + "]");
        }
        v["tags"] = tags;
        t.user = std::string(trimTrailingSpace(templateFor(s.backend).render(v)));
        if (m_options.format == ExportFormat::Messages) {
            t.tokens = m_systemTokens + count(t.user);
        } else {
            t.joined = m_system.empty() ? t.user : m_system + "\n\n" + t.user;
            t.tokens = count(t.joined);
        }
        t.prompted = true;
    }

    void processRow(RowJob &job, OutBuffer &out)
    {
        const SelectedSample &s = *job.sample;
        if (m_task.id != s.taskId) {
            m_task.id = -1;
            m_ref.reset();
            m_ref.bind(1, s.taskId);
            const bool found = m_ref.step();
            unpackField(found ? m_ref.blobView(0) : std::string_view(), true, m_task.reference,
                        "task '" + s.taskName + "'", "task_payloads.reference_code");
            m_task.id = s.taskId;
            m_task.prompted = false;
        }
        m_pay.reset();
        m_pay.bind(1, s.sampleId);
        const bool found = m_pay.step();
        const std::string what = "sample '" + s.sampleName + "' (id " + std::to_string(s.sampleId) + ")";
        unpackField(found ? m_pay.blobView(0) : std::string_view(), found && !m_pay.isNull(0), m_code, what,
                    "sample_payloads.code");
        unpackField(found ? m_pay.blobView(1) : std::string_view(), found && !m_pay.isNull(1), m_reasoning, what,
                    "sample_payloads.reasoning");
        job.excluded = nullptr;
        job.overBudget = false;
        job.tokens = 0;
        if (m_task.reference.empty()) {
            job.excluded = "task has no reference code";
            return;
        }
        const std::string_view code = trimTrailingSpace(m_code);
        if (code.empty()) {
            job.excluded = "sample has no code";
            return;
        }
        if (!m_task.prompted)
            prompt(s);
        const std::string_view r = trimTrailingSpace(m_reasoning);
        // The assistant's content: the reasoning in <think> tags (when asked) and the code block.
        const bool think = m_options.reasoning == ReasoningMode::Think && !r.empty();
        const std::string_view content[6] = {think ? "<think>\n" : "", think ? r : "", think ? "\n</think>\n\n" : "",
                                             "```python\n", code, "\n```"};
        const bool field = m_options.reasoning == ReasoningMode::Field && !r.empty();
        job.tokens = m_task.tokens;
        if (m_tok) {
            // Counted as one text (a pre-tokenizer sees across the parts' seams); written from the parts.
            m_content.clear();
            for (std::string_view part : content)
                m_content += part;
            job.tokens += m_tok->count(m_content);
            if (field)
                job.tokens += m_tok->count(r);
        }
        if (m_options.maxTokens && job.tokens > *m_options.maxTokens) {
            job.overBudget = true;
            return;
        }
        if (!m_options.dryRun)
            appendLine(out, s, job.validation, content, field ? r : std::string_view());
    }

    // The row as one JSON line (keys in the order export.h gives), ending in '\n'.
    void appendLine(OutBuffer &line, const SelectedSample &s, bool validation, const std::string_view (&content)[6],
                    std::string_view reasoningField) const
    {
        const auto contentString = [&] {
            jsonString(line, {content[0], content[1], content[2], content[3], content[4], content[5]});
        };
        const bool field = !reasoningField.empty();
        if (m_options.format == ExportFormat::Messages) {
            line += "{\"messages\":[";
            if (!m_system.empty()) {
                line += "{\"role\":\"system\",\"content\":";
                jsonString(line, m_system);
                line += "},";
            }
            line += "{\"role\":\"user\",\"content\":";
            jsonString(line, m_task.user);
            line += "},{\"role\":\"assistant\",\"content\":";
            contentString();
            if (field) {
                line += ",\"reasoning_content\":";
                jsonString(line, reasoningField);
            }
            line += "}]";
        } else {
            line += "{\"prompt\":";
            jsonString(line, m_task.joined);
            line += ",\"completion\":";
            contentString();
            if (field) {
                line += ",\"reasoning_content\":";
                jsonString(line, reasoningField);
            }
        }
        line += ",\"meta\":{\"task\":";
        jsonString(line, s.taskName);
        line += ",\"sample\":";
        jsonString(line, s.sampleName);
        line += ",\"sample_id\":";
        line += std::to_string(s.sampleId);
        line += ",\"sample_key\":";
        jsonString(line, s.sampleKey);
        line += validation ? ",\"split\":\"validation\"" : ",\"split\":\"train\"";
        line += ",\"backend\":";
        jsonString(line, s.backend);
        line += ",\"level\":";
        line += s.level ? std::to_string(*s.level) : std::string("null");
        line += ",\"category\":";
        optString(line, s.category);
        line += ",\"difficulty\":";
        jsonString(line, difficultyName(s.difficulty));
        line += ",\"model\":";
        optString(line, s.model);
        line += ",\"status\":";
        jsonString(line, s.status);
        line += ",\"review\":";
        jsonString(line, s.review);
        line += "}}\n";
    }

    const ExportOptions &m_options;
    const Tokenizer *m_tok;
    std::string m_system;
    std::size_t m_systemTokens = 0;
    std::unique_ptr<PromptTemplate> m_fixedTemplate;
    std::map<std::string, PromptTemplate> m_templates;
    db::Database m_db;
    db::Statement m_ref, m_pay;
    TaskCache m_task;
    std::string m_code, m_reasoning, m_content; // scratch, reused from row to row
};

ojson parametersJson(const ExportOptions &o, const Tokenizer *tok)
{
    ojson p;
    p["format"] = formatName(o.format);
    p["reasoning"] = reasoningName(o.reasoning);
    p["validation_fraction"] = o.validationFraction;
    p["seed"] = o.selection.seed;
    p["require"] = requireName(o.selection.require);
    p["one_per_cluster"] = o.selection.onePerCluster;
    p["max_per_task"] = o.selection.maxPerTask;
    p["easy"] = o.selection.easyCount ? ojson(*o.selection.easyCount) : ojson();
    p["easy_fraction"] = o.selection.easyFraction ? ojson(*o.selection.easyFraction) : ojson();
    ojson quotas = ojson::array();
    for (const Quota &q : o.selection.quotas)
        quotas.push_back(q.field + "=" + q.value + ":" + std::to_string(q.maxTasks));
    p["quotas"] = std::move(quotas);
    p["max_tokens"] = o.maxTokens ? ojson(*o.maxTokens) : ojson();
    if (tok) {
        p["tokenizer"] = {{"file", std::filesystem::path(o.tokenizerPath).filename().string()},
                          {"sha256", hashing::sha256File(o.tokenizerPath)},
                          {"description", tok->description()},
                          {"counting", "sum of the row's text fields, each encoded without special tokens"}};
    } else {
        p["tokenizer"] = ojson();
    }
    p["user_template"] = o.userTemplate.empty() ? ojson("per backend") : ojson(o.userTemplate);
    p["system_template"] = o.systemTemplate;
    p["tags"] = o.tags;
    return p;
}

} // namespace

ExportResult exportCorpus(const std::string &corpusPath, const std::string &outDir, const ExportOptions &options)
{
    namespace fs = std::filesystem;
    if (options.validationFraction < 0 || options.validationFraction > 1)
        throw std::runtime_error("the validation fraction must be between 0 and 1");
    if (options.maxTokens && options.tokenizerPath.empty())
        throw std::runtime_error("a token budget needs a tokenizer (--tokenizer FILE)");
    // The corpus file's digest, on its own thread while the export runs: the file is only read until
    // the export is recorded in it at the end, after this digest is taken, so it is the file as it was
    // before this export.
    std::future<std::string> corpusSha =
        std::async(std::launch::async, [&corpusPath] { return hashing::sha256File(corpusPath); });
    std::unique_ptr<Tokenizer> tok;
    if (!options.tokenizerPath.empty())
        tok = std::make_unique<Tokenizer>(Tokenizer::fromFile(options.tokenizerPath));

    const fs::path dir(outDir);
    std::unique_ptr<ExportFile> files[2]; // train, validation
    ExportResult result;
    ojson manifest;
    {
        Corpus corpus = Corpus::open(corpusPath, true);
        db::Database &db = corpus.db();
        db.exec("PRAGMA mmap_size=4294967296"); // pages without a pread() copy each (read-only here)
        const Selection sel = selectSamples(db, options.selection);
        const auto validation = splitTasks(sel, options.validationFraction, options.selection.seed);

        if (!options.dryRun) {
            fs::create_directories(dir);
            files[0] = std::make_unique<ExportFile>(dir / "train.jsonl");
            files[1] = std::make_unique<ExportFile>(dir / "validation.jsonl");
        }
        SplitCounts counts[2];
        ojson excluded = ojson::array();
        auto exclude = [&](const SelectedSample &s, bool isValid, const char *reason, std::optional<std::size_t> tokens) {
            ojson e = {{"sample", s.sampleName}, {"sample_id", s.sampleId}, {"task", s.taskName},
                       {"split", isValid ? "validation" : "train"}, {"reason", reason}};
            if (tokens)
                e["tokens"] = *tokens;
            excluded.push_back(std::move(e));
        };
        // Rows are read, unpacked, counted and built by persistent workers, each with its own row
        // builder (and corpus connection, tokenizer and word cache), a whole batch at a time; one
        // writer thread writes and hashes the batches in their original order, so the output does not
        // depend on the number of threads.
        const unsigned nWorkers = std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
        std::vector<std::unique_ptr<Tokenizer>> tokenizers;
        std::vector<std::unique_ptr<RowBuilder>> builders;
        for (unsigned w = 0; w < nWorkers; ++w) {
            if (tok)
                tokenizers.push_back(std::make_unique<Tokenizer>(tok->clone()));
            builders.push_back(std::make_unique<RowBuilder>(corpusPath, options, tok ? tokenizers.back().get() : nullptr));
        }
        constexpr std::size_t kBatch = 256;
        BatchPipeline<Batch> pipeline(
            nWorkers, 2 * nWorkers + 2, [](Batch &b) { b.rows.resize(kBatch); },
            [&](Batch &b, unsigned w) { builders[w]->process(b); },
            [&](Batch &b) {
                for (std::size_t i = 0; i < b.n; ++i) {
                    const RowJob &job = b.rows[i];
                    if (job.excluded)
                        exclude(*job.sample, job.validation, job.excluded, std::nullopt);
                    else if (job.overBudget)
                        exclude(*job.sample, job.validation, "over token budget", job.tokens);
                    else
                        counts[job.validation ? 1 : 0].add(*job.sample, job.tokens);
                }
                for (int f = 0; f < 2; ++f)
                    if (files[f])
                        files[f]->write(b.out[f].view());
            });
        // The selection's summary meanwhile, off the serial tail of the export.
        std::future<nlohmann::json> summary = std::async(std::launch::async, [&sel] { return selectionSummary(sel); });
        Batch *batch = nullptr;
        for (const SelectedSample &s : sel.samples) {
            if (!batch) {
                if (!(batch = pipeline.acquire()))
                    break; // stopped by an error, which finish() rethrows
                batch->n = 0;
            }
            RowJob &job = batch->rows[batch->n++];
            job.sample = &s;
            job.validation = validation.at(s.taskId);
            if (batch->n == kBatch) {
                pipeline.submit(batch);
                batch = nullptr;
            }
        }
        if (batch)
            pipeline.submit(batch);
        pipeline.finish();
        // In row order (the writer sees rows in order; this keeps the manifest's order stated).
        std::stable_sort(excluded.begin(), excluded.end(), [](const ojson &a, const ojson &b) {
            const std::string &ta = a["task"].get_ref<const std::string &>(), &tb = b["task"].get_ref<const std::string &>();
            return ta != tb ? ta < tb : a["sample_id"].get<std::int64_t>() < b["sample_id"].get<std::int64_t>();
        });
        std::string digests[2];
        if (!options.dryRun)
            for (int f = 0; f < 2; ++f)
                digests[f] = files[f]->finish();

        manifest["format"] = "sieve-export/1";
        manifest["sieve_version"] = SIEVE_VERSION;
        manifest["corpus"] = {{"sha256", corpusSha.get()}, {"schema_version", corpus.schemaVersion()}};
        ojson verifiers = ojson::array();
        db::Statement vv = db.prepare("SELECT DISTINCT verifier_version FROM verify_runs "
                                      "WHERE verifier_version IS NOT NULL ORDER BY verifier_version");
        while (vv.step())
            verifiers.push_back(vv.text(0));
        manifest["verifier_versions"] = std::move(verifiers);
        // fp32 tl.dot precision the runs verified with (sieve-cli verify --fp32-precision); runs from before
        // it was recorded ran with TRITON_F32_DEFAULT=ieee.
        ojson precisions = ojson::array();
        db::Statement fp = db.prepare("SELECT DISTINCT coalesce(json_extract(params_json, '$.fp32_precision'), 'ieee') "
                                      "FROM verify_runs ORDER BY 1");
        while (fp.step())
            precisions.push_back(fp.text(0));
        manifest["fp32_precisions"] = std::move(precisions);
        // Stage 0's policy of the runs (sieve-cli verify --policy): a kernelbench run accepts partial answers.
        ojson policies = ojson::array();
        db::Statement vp = db.prepare("SELECT DISTINCT coalesce(json_extract(params_json, '$.policy'), 'strict') "
                                      "FROM verify_runs ORDER BY 1");
        while (vp.step())
            policies.push_back(vp.text(0));
        manifest["verify_policies"] = std::move(policies);
        manifest["parameters"] = parametersJson(options, tok.get());
        manifest["selection"] = summary.get();
        manifest["counts"] = {{"train", counts[0].json(tok != nullptr)}, {"validation", counts[1].json(tok != nullptr)}};
        manifest["excluded"] = std::move(excluded);
        if (!options.dryRun) {
            ojson out;
            const char *names[2] = {"train.jsonl", "validation.jsonl"};
            for (int f = 0; f < 2; ++f)
                out[names[f]] = {{"rows", counts[f].rows}, {"bytes", files[f]->bytes()}, {"sha256", digests[f]}};
            manifest["files"] = std::move(out);
        }
    }
    if (!options.dryRun) {
        // An older manifest goes first, so that it never lists the data files that replace its own;
        // the new one is written whole under another name and then renamed.
        const fs::path manifestPath = dir / "manifest.json", manifestPartial = dir / "manifest.json.partial";
        fs::remove(manifestPath);
        files[0]->commit();
        files[1]->commit();
        {
            std::ofstream out(manifestPartial, std::ios::binary | std::ios::trunc);
            out << manifest.dump(2) << '\n';
            out.close();
            if (!out) {
                std::error_code ec;
                fs::remove(manifestPartial, ec);
                throw std::runtime_error("cannot write '" + manifestPath.string() + "'");
            }
        }
        fs::rename(manifestPartial, manifestPath);
        Corpus corpus = Corpus::open(corpusPath);
        const std::int64_t now = unixNow();
        corpus.db()
            .prepare("INSERT INTO exports(created_at, out_dir, params_json, manifest_json) VALUES(?1,?2,?3,?4)")
            .bind(1, now)
            .bind(2, fs::absolute(outDir).lexically_normal().string())
            .bind(3, manifest["parameters"].dump())
            .bind(4, manifest.dump())
            .run();
        result.exportId = corpus.db().lastInsertId();
    }
    result.manifest = std::move(manifest);
    return result;
}

} // namespace sieve
