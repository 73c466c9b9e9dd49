#include "export.h"

#include "corpus.h"
#include "hashing.h"
#include "payload.h"
#include "prompttemplate.h"
#include "tokenizer.h"
#include "tokenizer_unicode.h"
#include "unixtime.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

std::string validUtf8(std::string_view text)
{
    bool ascii = true;
    for (char c : text)
        if (static_cast<unsigned char>(c) >= 0x80) {
            ascii = false;
            break;
        }
    if (ascii)
        return std::string(text);
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

namespace {


struct SplitCounts {
    std::set<std::int64_t> tasks;
    std::int64_t rows = 0;
    std::int64_t tokens = 0;
    std::map<std::string, std::pair<std::set<std::int64_t>, std::int64_t>> by[3]; // level, category, difficulty

    void add(const SelectedSample &s, std::size_t tok)
    {
        tasks.insert(s.taskId);
        ++rows;
        tokens += static_cast<std::int64_t>(tok);
        const std::string keys[3] = {s.level ? std::to_string(*s.level) : "(none)", s.category.value_or("(none)"),
                                     difficultyName(s.difficulty)};
        for (int i = 0; i < 3; ++i) {
            by[i][keys[i]].first.insert(s.taskId);
            ++by[i][keys[i]].second;
        }
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
                part[k] = {{"tasks", v.first.size()}, {"rows", v.second}};
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
    for (const SelectedSample &s : sel.samples)
        if (seen.insert(s.taskId).second)
            strata[s.difficulty].emplace_back(s.taskName, s.taskId);
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

// JSON string as nlohmann's dump() writes it (UTF-8 kept, control characters escaped); rows are
// written by hand because a DOM per row was a fifth of the export's time.
// Where the next byte at or after i that needs escaping is (a control character, '"' or '\\'), or
// s.size(). SSE2 (every x86-64) looks at 16 bytes per step: code has a newline every ~40 bytes.
std::size_t nextEscape(std::string_view s, std::size_t i)
{
#if defined(__SSE2__)
    const __m128i ctrlMax = _mm_set1_epi8(0x1F), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    for (; i + 16 <= s.size(); i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s.data() + i));
        const __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(v, ctrlMax), ctrlMax),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        if (const int mask = _mm_movemask_epi8(hit))
            return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
#endif
    for (; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == '"' || c == '\\')
            return i;
    }
    return s.size();
}

void jsonString(std::string &out, std::string_view s)
{
    out += '"';
    std::size_t start = 0;
    for (std::size_t i = nextEscape(s, 0); i < s.size(); i = nextEscape(s, i + 1)) {
        const auto c = static_cast<unsigned char>(s[i]);
        out.append(s, start, i - start);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default: {
            static const char *hex = "0123456789abcdef";
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
        }
        start = i + 1;
    }
    out.append(s, start, std::string_view::npos);
    out += '"';
}

void optString(std::string &out, const std::optional<std::string> &s)
{
    if (s)
        jsonString(out, *s);
    else
        out += "null";
}

// One row on its way: the main thread fills in the sample and its still-compressed payloads (SQLite
// is read on one thread); a worker unpacks, builds the line and counts tokens; the main thread writes
// rows in their original order.
struct RowJob {
    const SelectedSample *sample = nullptr;
    bool validation = false;
    std::shared_ptr<const std::string> reference; // the task's reference code, unpacked once per task
    std::optional<std::string> codeBlob, reasoningBlob;
    const char *excluded = nullptr; // why the row is left out before any budget check
    std::string line;
    std::vector<std::string> texts;
    std::size_t tokens = 0;
};

class RowBuilder {
public:
    RowBuilder(const ExportOptions &o, const Tokenizer *tok) : m_options(o), m_tok(tok)
    {
        if (o.systemTemplate != "none") {
            m_system = trimTrailingSpace(PromptTemplate::load(o.systemTemplate).render({}));
            m_systemTokens = count(m_system);
        }
        if (!o.userTemplate.empty())
            m_fixedTemplate = std::make_unique<PromptTemplate>(PromptTemplate::load(o.userTemplate));
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

    std::size_t count(const std::string &text) const { return m_tok ? m_tok->count(text) : 0; }

    // The user prompt and its token count, computed once per task.
    const std::pair<std::string, std::size_t> &prompt(const SelectedSample &s, const std::string &reference)
    {
        if (m_promptTask == s.taskId)
            return m_prompt;
        std::map<std::string, std::string> v;
        v["reference"] = trimTrailingSpace(reference);
        v["task"] = s.taskName;
        v["backend"] = s.backend;
        v["target"] = s.target.value_or("");
        v["dtype"] = s.dtype;
        v["level"] = s.level ? std::to_string(*s.level) : "";
        v["category"] = s.category.value_or("");
        v["difficulty"] = s.difficulty == Difficulty::Unknown ? "" : difficultyName(s.difficulty);
        std::string tags;
        for (const std::string &t : m_options.tags) {
            const auto it = v.find(t);
            if (it != v.end() && !it->second.empty())
                tags += (tags.empty() ? "" : " ") + ("[" + t + ": " + it->second + "]");
        }
        v["tags"] = tags;
        m_prompt.first = trimTrailingSpace(templateFor(s.backend).render(v));
        // The prompt part of every row of this task: system + user messages, or the joined prompt.
        if (m_options.format == ExportFormat::Messages)
            m_prompt.second = m_systemTokens + count(m_prompt.first);
        else
            m_prompt.second = count(m_system.empty() ? m_prompt.first : m_system + "\n\n" + m_prompt.first);
        m_promptTask = s.taskId;
        return m_prompt;
    }

    // Builds the row as one JSON line (without the newline) into job.line; job.tokens gets the
    // prompt's tokens and job.texts the texts still to count (the answer and the reasoning).
    void build(const SelectedSample &s, const std::string &reference, const std::string &code,
               const std::string &reasoning, bool validation, RowJob &job)
    {
        std::string &line = job.line;
        const auto &[user, promptTokens] = prompt(s, reference);
        const std::string answer = "```python\n" + trimTrailingSpace(code) + "\n```";
        const std::string r = trimTrailingSpace(reasoning);
        std::string content = answer;
        if (m_options.reasoning == ReasoningMode::Think && !r.empty())
            content = "<think>\n" + r + "\n</think>\n\n" + answer;
        const bool field = m_options.reasoning == ReasoningMode::Field && !r.empty();
        job.sample = &s;
        job.validation = validation;
        job.tokens = promptTokens;
        job.texts.clear();
        job.texts.push_back(content);
        if (field)
            job.texts.push_back(r);
        line.clear();
        if (m_options.format == ExportFormat::Messages) {
            line += "{\"messages\":[";
            if (!m_system.empty()) {
                line += "{\"role\":\"system\",\"content\":";
                jsonString(line, m_system);
                line += "},";
            }
            line += "{\"role\":\"user\",\"content\":";
            jsonString(line, user);
            line += "},{\"role\":\"assistant\",\"content\":";
            jsonString(line, content);
            if (field) {
                line += ",\"reasoning_content\":";
                jsonString(line, r);
            }
            line += "}]";
        } else {
            const std::string prompt = m_system.empty() ? user : m_system + "\n\n" + user;
            line += "{\"prompt\":";
            jsonString(line, prompt);
            line += ",\"completion\":";
            jsonString(line, content);
            if (field) {
                line += ",\"reasoning_content\":";
                jsonString(line, r);
            }
        }
        line += ",\"meta\":{\"task\":";
        jsonString(line, s.taskName);
        line += ",\"sample\":";
        jsonString(line, s.sampleName);
        line += ",\"sample_id\":" + std::to_string(s.sampleId) + ",\"sample_key\":";
        jsonString(line, s.sampleKey);
        line += validation ? ",\"split\":\"validation\"" : ",\"split\":\"train\"";
        line += ",\"backend\":";
        jsonString(line, s.backend);
        line += ",\"level\":" + (s.level ? std::to_string(*s.level) : std::string("null"));
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
        line += "}}";
    }

private:
    const ExportOptions &m_options;
    const Tokenizer *m_tok;
    std::string m_system;
    std::size_t m_systemTokens = 0;
    std::unique_ptr<PromptTemplate> m_fixedTemplate;
    std::map<std::string, PromptTemplate> m_templates;
    std::int64_t m_promptTask = -1;
    std::pair<std::string, std::size_t> m_prompt;
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
    // Hash first: the file as it is before this export is recorded in it.
    const std::string corpusSha = hashing::sha256File(corpusPath);
    std::unique_ptr<Tokenizer> tok;
    if (!options.tokenizerPath.empty())
        tok = std::make_unique<Tokenizer>(Tokenizer::fromFile(options.tokenizerPath));

    ExportResult result;
    ojson manifest;
    {
        Corpus corpus = Corpus::open(corpusPath, true);
        const db::Database &db = corpus.db();
        const Selection sel = selectSamples(db, options.selection);
        const auto validation = splitTasks(sel, options.validationFraction, options.selection.seed);

        const fs::path dir(outDir);
        const fs::path trainPath = dir / "train.jsonl", validPath = dir / "validation.jsonl";
        std::ofstream train, valid;
        if (!options.dryRun) {
            fs::create_directories(dir);
            train.open(trainPath, std::ios::binary | std::ios::trunc);
            valid.open(validPath, std::ios::binary | std::ios::trunc);
            if (!train || !valid)
                throw std::runtime_error("cannot write into '" + outDir + "'");
        }
        db::Statement ref = db.prepare("SELECT reference_code FROM task_payloads WHERE task_id=?1");
        db::Statement pay = db.prepare("SELECT code, reasoning FROM sample_payloads WHERE sample_id=?1");
        SplitCounts counts[2];
        ojson excluded = ojson::array();
        std::int64_t refTask = -1;
        auto exclude = [&](const SelectedSample &s, bool isValid, const char *reason, std::optional<std::size_t> tokens) {
            ojson e = {{"sample", s.sampleName}, {"sample_id", s.sampleId}, {"task", s.taskName},
                       {"split", isValid ? "validation" : "train"}, {"reason", reason}};
            if (tokens)
                e["tokens"] = *tokens;
            excluded.push_back(std::move(e));
        };
        // Rows are built and counted one batch behind the reading, on worker threads that each have
        // their own row builder and tokenizer (and word cache): a contiguous share of each batch per
        // worker. Rows are written in their original order, so the output does not depend on the
        // number of threads.
        const unsigned nWorkers = std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
        std::vector<std::unique_ptr<Tokenizer>> tokenizers;
        std::vector<std::unique_ptr<RowBuilder>> builders;
        for (unsigned w = 0; w < nWorkers; ++w) {
            if (tok)
                tokenizers.push_back(std::make_unique<Tokenizer>(tok->clone()));
            builders.push_back(std::make_unique<RowBuilder>(options, tok ? tokenizers.back().get() : nullptr));
        }
        constexpr std::size_t kBatch = 512;
        std::vector<RowJob> building(kBatch), processing(kBatch);
        std::size_t nBuilding = 0, nProcessing = 0;
        std::future<void> pending;
        auto processRow = [](RowJob &job, RowBuilder &builder, const Tokenizer *counter) {
            const std::string code = job.codeBlob ? validUtf8(payload::unpack(*job.codeBlob)) : std::string();
            const std::string reasoning = job.reasoningBlob ? validUtf8(payload::unpack(*job.reasoningBlob)) : std::string();
            job.excluded = nullptr;
            if (job.reference->empty()) {
                job.excluded = "task has no reference code";
                return;
            }
            if (trimTrailingSpace(code).empty()) {
                job.excluded = "sample has no code";
                return;
            }
            builder.build(*job.sample, *job.reference, code, reasoning, job.validation, job);
            if (counter)
                for (const std::string &t : job.texts)
                    job.tokens += counter->count(t);
        };
        // A worker's error (a missing prompt template, a corrupt payload) is rethrown on the caller's side.
        auto processBatch = [&](std::vector<RowJob> *batch, std::size_t n) {
            std::vector<std::exception_ptr> errors(nWorkers);
            auto work = [&, batch, n](std::size_t w) {
                try {
                    for (std::size_t i = n * w / nWorkers; i < n * (w + 1) / nWorkers; ++i)
                        processRow((*batch)[i], *builders[w], tok ? tokenizers[w].get() : nullptr);
                } catch (...) {
                    errors[w] = std::current_exception();
                }
            };
            std::vector<std::thread> extra;
            for (std::size_t w = 1; w < nWorkers; ++w)
                extra.emplace_back(work, w);
            work(0);
            for (std::thread &t : extra)
                t.join();
            for (const std::exception_ptr &e : errors)
                if (e)
                    std::rethrow_exception(e);
        };
        auto flush = [&](std::vector<RowJob> &batch, std::size_t n) {
            for (std::size_t i = 0; i < n; ++i) {
                RowJob &job = batch[i];
                if (job.excluded) {
                    exclude(*job.sample, job.validation, job.excluded, std::nullopt);
                    continue;
                }
                if (options.maxTokens && job.tokens > *options.maxTokens) {
                    exclude(*job.sample, job.validation, "over token budget", job.tokens);
                    continue;
                }
                counts[job.validation ? 1 : 0].add(*job.sample, job.tokens);
                if (!options.dryRun) {
                    job.line += '\n';
                    (job.validation ? valid : train) << job.line;
                }
            }
        };
        auto handOver = [&] {
            if (pending.valid())
                pending.get();
            flush(processing, nProcessing);
            std::swap(building, processing);
            nProcessing = nBuilding;
            nBuilding = 0;
            pending = std::async(std::launch::async, processBatch, &processing, nProcessing);
        };
        std::shared_ptr<const std::string> reference;
        for (const SelectedSample &s : sel.samples) {
            if (s.taskId != refTask) {
                ref.reset();
                ref.bind(1, s.taskId);
                reference = std::make_shared<const std::string>(
                    ref.step() && !ref.isNull(0) ? validUtf8(payload::unpack(ref.blob(0))) : std::string());
                refTask = s.taskId;
            }
            RowJob &job = building[nBuilding++];
            job.sample = &s;
            job.validation = validation.at(s.taskId);
            job.reference = reference;
            job.codeBlob.reset();
            job.reasoningBlob.reset();
            pay.reset();
            pay.bind(1, s.sampleId);
            if (pay.step()) {
                if (!pay.isNull(0))
                    job.codeBlob = pay.blob(0);
                if (!pay.isNull(1))
                    job.reasoningBlob = pay.blob(1);
            }
            if (nBuilding == kBatch)
                handOver();
        }
        handOver();
        if (pending.valid())
            pending.get();
        flush(processing, nProcessing);
        // In row order (budget exclusions are found a batch later than the others).
        std::stable_sort(excluded.begin(), excluded.end(), [](const ojson &a, const ojson &b) {
            const std::string &ta = a["task"].get_ref<const std::string &>(), &tb = b["task"].get_ref<const std::string &>();
            return ta != tb ? ta < tb : a["sample_id"].get<std::int64_t>() < b["sample_id"].get<std::int64_t>();
        });
        if (!options.dryRun) {
            train.close();
            valid.close();
            if (!train || !valid)
                throw std::runtime_error("writing into '" + outDir + "' failed");
        }

        manifest["format"] = "sieve-export/1";
        manifest["sieve_version"] = SIEVE_VERSION;
        manifest["corpus"] = {{"sha256", corpusSha}, {"schema_version", corpus.schemaVersion()}};
        ojson verifiers = ojson::array();
        db::Statement vv = db.prepare("SELECT DISTINCT verifier_version FROM verify_runs "
                                      "WHERE verifier_version IS NOT NULL ORDER BY verifier_version");
        while (vv.step())
            verifiers.push_back(vv.text(0));
        manifest["verifier_versions"] = std::move(verifiers);
        manifest["parameters"] = parametersJson(options, tok.get());
        manifest["selection"] = selectionSummary(sel);
        manifest["counts"] = {{"train", counts[0].json(tok != nullptr)}, {"validation", counts[1].json(tok != nullptr)}};
        manifest["excluded"] = std::move(excluded);
        if (!options.dryRun) {
            ojson files;
            for (const auto &[name, path, c] :
                 {std::tuple{"train.jsonl", trainPath, &counts[0]}, std::tuple{"validation.jsonl", validPath, &counts[1]}})
                files[name] = {{"rows", c->rows}, {"bytes", fs::file_size(path)}, {"sha256", hashing::sha256File(path.string())}};
            manifest["files"] = std::move(files);
        }
    }
    if (!options.dryRun) {
        const fs::path manifestPath = fs::path(outDir) / "manifest.json";
        std::ofstream out(manifestPath, std::ios::binary | std::ios::trunc);
        out << manifest.dump(2) << '\n';
        out.close();
        if (!out)
            throw std::runtime_error("cannot write '" + manifestPath.string() + "'");
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
