#include "core/export/export.h"

#include "core/db/corpus.h"
#include "core/db/corpusfile.h"
#include "core/db/payload.h"
#include "core/db/unixtime.h"
#include "core/export/exportfile.h"
#include "core/export/exportjson.h"
#include "core/prompt/prompttemplate.h"
#include "core/select/preference.h"
#include "core/tasks/augment.h"
#include "core/tokenizer/tokenizer.h"
#include "core/tokenizer/unicode.h"
#include "core/util/batchpipeline.h"
#include "core/util/hashing.h"

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

const char *formatName(ExportFormat f)
{
    switch (f) {
    case ExportFormat::Messages:
        return "messages";
    case ExportFormat::PromptCompletion:
        return "prompt-completion";
    case ExportFormat::ChatPromptCompletion:
        return "chat-prompt-completion";
    case ExportFormat::Preference:
        return "preference";
    case ExportFormat::PreferenceText:
        return "preference-text";
    }
    return "messages";
}
bool isPreference(ExportFormat f)
{
    return f == ExportFormat::Preference || f == ExportFormat::PreferenceText;
}
bool isTextForm(ExportFormat f)
{
    return f == ExportFormat::PromptCompletion || f == ExportFormat::PreferenceText;
}
const char *reasoningName(ReasoningMode r)
{
    return r == ReasoningMode::Field ? "field" : r == ReasoningMode::Think ? "think" : "none";
}
std::optional<ExportFormat> parseFormat(std::string_view s)
{
    for (ExportFormat f : {ExportFormat::Messages, ExportFormat::PromptCompletion, ExportFormat::ChatPromptCompletion,
                           ExportFormat::Preference, ExportFormat::PreferenceText})
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
bool isValidUtf8(std::string_view text)
{
    return simdjson::validate_utf8(text.data(), text.size());
}

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

std::string validUtf8(std::string_view text)
{
    return isValidUtf8(text) ? std::string(text) : replaceInvalidUtf8(text);
}

namespace {

struct SplitCounts
{
    struct Part
    {
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

    std::map<std::string, std::int64_t> byClass; // preference rows: per class of the rejected sample

    void add(const SelectedSample &s, std::size_t tok, const std::string &rejectedClass)
    {
        if (!rejectedClass.empty())
            ++byClass[rejectedClass];
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
    ojson json(bool withTokens, bool pairs) const
    {
        ojson j;
        j["tasks"] = tasks.size();
        j["rows"] = rows;
        if (pairs) {
            j["pairs"] = rows;
            j["by_rejected_class"] = byClass;
        }
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

// Task -> "train" / "validation", by family (core/tasks/augment.h: a task and its shape/dtype variants; a
// task without variants is a family of one): per difficulty (the family root's when selected, else its
// first task's by name), families in name order, a seeded shuffle, the first round(F * n) to validation.
// Never splits one task's samples, nor a family.
std::map<std::int64_t, bool> splitTasks(const Selection &sel, double fraction, std::uint64_t seed,
                                        const std::map<std::int64_t, std::string> &families)
{
    struct Family
    {
        std::vector<std::int64_t> tasks;
        std::optional<Difficulty> rootDifficulty;
        std::pair<std::string, Difficulty> first{std::string(), Difficulty::Unknown};
    };
    std::map<std::string, Family> byName;
    std::set<std::int64_t> seen;
    for (const SelectedSample &s : sel.samples) {
        if (!seen.insert(s.taskId).second)
            continue;
        const auto f = families.find(s.taskId);
        const std::string &name = f != families.end() ? f->second : s.taskName;
        Family &fam = byName[name];
        fam.tasks.push_back(s.taskId);
        if (s.taskName == name)
            fam.rootDifficulty = s.difficulty;
        if (fam.first.first.empty() || s.taskName < fam.first.first)
            fam.first = {s.taskName, s.difficulty};
    }
    std::map<Difficulty, std::vector<const std::string *>> strata;
    for (const auto &[name, fam] : byName) // name order
        strata[fam.rootDifficulty.value_or(fam.first.second)].push_back(&name);
    std::mt19937_64 rng(seed ^ 0x5EEDC0DE5EEDC0DEull); // independent of the selection's draws
    std::map<std::int64_t, bool> validation;
    for (auto &[d, names] : strata) {
        seededShuffle(names, rng);
        const auto n = static_cast<std::size_t>(std::llround(fraction * double(names.size())));
        for (std::size_t i = 0; i < names.size(); ++i)
            for (std::int64_t task : byName[*names[i]].tasks)
                validation[task] = i < n;
    }
    return validation;
}

// One row on its way: the reader names the sample; a worker reads and unpacks its payloads, counts
// tokens and appends the line to its batch's output; the writer counts it.
struct RowJob
{
    const SelectedSample *sample = nullptr;
    const RejectedSample *rejected = nullptr; // preference rows: the failing sample of the pair
    bool validation = false;
    bool copy = false;      // a hard task's row written again (--hard-weight): not listed again when left out
    std::string contentKey; // XXH3-128 of what the row was made of (for the manifest's corpus identity)
    // Set by the worker.
    const char *excluded = nullptr; // left out before any budget check, and why
    bool overBudget = false;
    std::size_t tokens = 0;
    std::string teacherModel; // set when the row's reasoning is a teacher's (ExportOptions::teacherReasoning)
};

struct Batch
{
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
    db::Database db = corpusfile::openForReading(path); // a read-only folder or mount too
    db.exec("PRAGMA mmap_size=4294967296");
    return db;
}

// Builds rows with a per-task cache of the reference and the prompt. One per worker thread, each with
// its own connection to the corpus (payloads are unpacked straight from SQLite's pages, and SQLite is
// read on every core), its own tokenizer and word cache.
class RowBuilder
{
public:
    RowBuilder(const std::string &corpusPath, const ExportOptions &o, const Tokenizer *tok)
        : m_options(o), m_tok(tok),
          m_chat(o.chatTemplatePath.empty()
                     ? nullptr
                     : std::make_unique<ChatRenderer>(o.chatTemplatePath, o.tokenizerPath, o.chatRows)),
          m_db(openForReading(corpusPath)),
          m_ref(m_db.prepare("SELECT p.reference_code, t.shapes_json FROM tasks t LEFT JOIN task_payloads p "
                             "ON p.task_id=t.id WHERE t.id=?1")),
          m_pay(m_db.prepare("SELECT code, reasoning FROM sample_payloads WHERE sample_id=?1"))
    {
        if (o.teacherReasoning)
            m_teacher = m_db.prepare("SELECT reasoning, model FROM teacher_reasoning WHERE sample_id=?1");
        if (o.systemTemplate != "none") {
            m_system = PromptTemplate::load(o.systemTemplate).renderPrompt({});
            m_systemTokens = count(m_system);
        }
        if (!o.userTemplate.empty())
            m_fixedTemplate = std::make_unique<PromptTemplate>(PromptTemplate::load(o.userTemplate));
    }

    // The chat renderer's tokenizer, for the manifest (empty without --chat-template).
    std::string chatDescription() const { return m_chat ? m_chat->description() : std::string(); }

    // The templates a row of this backend is rendered with (for the manifest's template hashes).
    const PromptTemplate &userTemplateFor(const std::string &backend) { return templateFor(backend); }

    void process(Batch &b)
    {
        b.out[0].clear();
        b.out[1].clear();
        for (std::size_t i = 0; i < b.n; ++i)
            processRow(b.rows[i], b.out[b.rows[i].validation ? 1 : 0]);
    }

private:
    struct TaskCache
    {
        std::int64_t id = -1;
        std::string backend; // the answer backend the prompt was rendered for
        std::string reference, referenceKey, shapes;
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
        PromptFacts f;
        f.reference = t.reference;
        f.task = s.taskName;
        f.backend = answerBackend(s);
        f.taskBackend = s.backend;
        f.target = s.target.value_or("");
        f.dtype = s.dtype;
        f.level = s.level ? std::to_string(*s.level) : "";
        f.category = s.category.value_or("");
        f.difficulty = s.difficulty == Difficulty::Unknown ? "" : difficultyName(s.difficulty);
        f.shapes = t.shapes;
        const std::map<std::string, std::string> v = promptValues(f, m_options.tags);
        const PromptTemplate &tmpl = templateFor(answerBackend(s));
        t.user = tmpl.renderPrompt(v);
        if (trimTrailingSpace(t.user).empty())
            throw std::runtime_error("prompt template '" + tmpl.origin() + "' renders an empty prompt for backend '" +
                                     answerBackend(s) + "' (task '" + s.taskName + "'); give another with --template");
        if (!isTextForm(m_options.format)) {
            t.tokens = m_systemTokens + count(t.user);
        } else {
            t.joined = m_system.empty() ? t.user : m_system + "\n\n" + t.user;
            t.tokens = count(t.joined);
        }
        t.backend = answerBackend(s);
        t.prompted = true;
    }

    static const std::string &answerBackend(const SelectedSample &s)
    {
        return s.answerBackend.empty() ? s.backend : s.answerBackend;
    }

    // One sample's code and reasoning into `code` and `reasoning`.
    void readSample(const SelectedSample &s, std::string &code, std::string &reasoning)
    {
        m_pay.reset();
        m_pay.bind(1, s.sampleId);
        const bool found = m_pay.step();
        const std::string what = "sample '" + s.sampleName + "' (id " + std::to_string(s.sampleId) + ")";
        unpackField(found ? m_pay.blobView(0) : std::string_view(), found && !m_pay.isNull(0), code, what,
                    "sample_payloads.code");
        unpackField(found ? m_pay.blobView(1) : std::string_view(), found && !m_pay.isNull(1), reasoning, what,
                    "sample_payloads.reasoning");
    }

    // The teacher's reasoning for a sample without its own, into m_reasoning (and its model into the job).
    void readTeacherReasoning(const SelectedSample &s, RowJob &job)
    {
        m_teacher.reset();
        m_teacher.bind(1, s.sampleId);
        if (!m_teacher.step())
            return;
        unpackField(m_teacher.blobView(0), true, m_reasoning,
                    "sample '" + s.sampleName + "' (id " + std::to_string(s.sampleId) + ")",
                    "teacher_reasoning.reasoning");
        if (!trimTrailingSpace(m_reasoning).empty())
            job.teacherModel = m_teacher.text(1);
    }

    // An assistant answer: its content in parts (the reasoning in <think> tags when asked, then the
    // code block) and the reasoning for a field (empty when none).
    struct Answer
    {
        std::string_view content[6];
        std::string_view field;
    };
    Answer answer(std::string_view code, std::string_view reasoning) const
    {
        const std::string_view r = trimTrailingSpace(reasoning);
        const bool think = m_options.reasoning == ReasoningMode::Think && !r.empty();
        Answer a{
            {think ? "<think>\n" : "", think ? r : "", think ? "\n</think>\n\n" : "", "```python\n", code, "\n```"},
            m_options.reasoning == ReasoningMode::Field ? r : std::string_view()};
        return a;
    }
    std::size_t answerTokens(const Answer &a)
    {
        if (!m_tok)
            return 0;
        // Counted as one text (a pre-tokenizer sees across the parts' seams); written from the parts.
        m_content.clear();
        for (std::string_view part : a.content)
            m_content += part;
        return m_tok->count(m_content) + (a.field.empty() ? 0 : m_tok->count(a.field));
    }

    void processRow(RowJob &job, OutBuffer &out)
    {
        const SelectedSample &s = *job.sample;
        if (m_task.id != s.taskId) {
            m_task.id = -1;
            m_ref.reset();
            m_ref.bind(1, s.taskId);
            const bool found = m_ref.step();
            unpackField(found && !m_ref.isNull(0) ? m_ref.blobView(0) : std::string_view(), true, m_task.reference,
                        "task '" + s.taskName + "'", "task_payloads.reference_code");
            m_task.shapes = found && !m_ref.isNull(1) ? shapesText(m_ref.textView(1)) : std::string();
            m_task.referenceKey = hashing::contentKey({m_task.reference});
            m_task.id = s.taskId;
            m_task.prompted = false;
        }
        readSample(s, m_code, m_reasoning);
        job.teacherModel.clear();
        if (m_options.teacherReasoning && m_options.reasoning != ReasoningMode::None &&
            trimTrailingSpace(m_reasoning).empty())
            readTeacherReasoning(s, job);
        if (job.rejected)
            readSample(job.rejected->sample, m_code2, m_reasoning2);
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
        const std::string_view code2 = trimTrailingSpace(m_code2);
        if (job.rejected && code2.empty()) {
            job.excluded = "rejected sample has no code";
            return;
        }
        if (!m_task.prompted || m_task.backend != answerBackend(s))
            prompt(s);
        job.contentKey =
            job.rejected
                ? hashing::contentKey({s.taskName, m_task.referenceKey, s.sampleKey, s.status, code, m_reasoning,
                                       job.rejected->sample.sampleKey, job.rejected->sample.status, code2,
                                       m_reasoning2})
                : hashing::contentKey({s.taskName, m_task.referenceKey, s.sampleKey, s.status, code, m_reasoning});
        const Answer chosen = answer(code, m_reasoning);
        Answer rejected{};
        if (m_chat) {
            // The row as the trainer sees it: its messages rendered with the chat template and tokenized.
            m_messages.clear();
            appendPromptMessages(m_messages, false);
            m_messages += ",";
            appendAssistant(m_messages, chosen);
            m_messages += "]";
            try {
                m_chatRow = m_chat->render(m_messages.view());
            } catch (const std::exception &e) {
                throw std::runtime_error("sample '" + s.sampleName + "' (id " + std::to_string(s.sampleId) +
                                         "), rendered with " + m_options.chatTemplatePath + ": " + e.what());
            }
            job.tokens = m_chatRow.tokens;
            if (m_options.maxTokens && job.tokens > *m_options.maxTokens)
                job.overBudget = true;
            else if (!m_options.dryRun)
                appendLine(out, job, chosen, rejected);
            return;
        }
        job.tokens = m_task.tokens + answerTokens(chosen);
        if (job.rejected) {
            rejected = answer(code2, m_reasoning2);
            job.tokens += answerTokens(rejected);
        }
        if (m_options.maxTokens && job.tokens > *m_options.maxTokens) {
            job.overBudget = true;
            return;
        }
        if (!m_options.dryRun)
            appendLine(out, job, chosen, rejected);
    }

    void appendAssistant(OutBuffer &line, const Answer &a) const
    {
        line += "{\"role\":\"assistant\",\"content\":";
        jsonString(line, {a.content[0], a.content[1], a.content[2], a.content[3], a.content[4], a.content[5]});
        if (!a.field.empty()) {
            line += ",\"reasoning_content\":";
            jsonString(line, a.field);
        }
        line += "}";
    }
    // "[system, user" and, when `close`, "]".
    void appendPromptMessages(OutBuffer &line, bool close = true) const
    {
        line += "[";
        if (!m_system.empty()) {
            line += "{\"role\":\"system\",\"content\":";
            jsonString(line, m_system);
            line += "},";
        }
        line += "{\"role\":\"user\",\"content\":";
        jsonString(line, m_task.user);
        line += close ? "}]" : "}";
    }
    void appendText(OutBuffer &line, const Answer &a) const
    {
        jsonString(line, {a.content[0], a.content[1], a.content[2], a.content[3], a.content[4], a.content[5]});
    }

    // The row as one JSON line (keys in the order export.h gives), ending in '\n'.
    void appendLine(OutBuffer &line, const RowJob &job, const Answer &chosen, const Answer &rejected) const
    {
        const SelectedSample &s = *job.sample;
        if (m_chat) {
            line += "{";
            line += m_chatRow.fields;
        } else {
            appendForm(line, chosen, rejected);
        }
        appendMeta(line, job, s);
    }

    void appendForm(OutBuffer &line, const Answer &chosen, const Answer &rejected) const
    {
        switch (m_options.format) {
        case ExportFormat::Messages:
            line += "{\"messages\":";
            appendPromptMessages(line, false);
            line += ",";
            appendAssistant(line, chosen);
            line += "]";
            break;
        case ExportFormat::PromptCompletion:
            line += "{\"prompt\":";
            jsonString(line, m_task.joined);
            line += ",\"completion\":";
            appendText(line, chosen);
            break;
        case ExportFormat::ChatPromptCompletion:
            line += "{\"prompt\":";
            appendPromptMessages(line);
            line += ",\"completion\":[";
            appendAssistant(line, chosen);
            line += "]";
            break;
        case ExportFormat::Preference:
            line += "{\"prompt\":";
            appendPromptMessages(line);
            line += ",\"chosen\":[";
            appendAssistant(line, chosen);
            line += "],\"rejected\":[";
            appendAssistant(line, rejected);
            line += "]";
            break;
        case ExportFormat::PreferenceText:
            line += "{\"prompt\":";
            jsonString(line, m_task.joined);
            line += ",\"chosen\":";
            appendText(line, chosen);
            line += ",\"rejected\":";
            appendText(line, rejected);
            break;
        }
    }

    void appendMeta(OutBuffer &line, const RowJob &job, const SelectedSample &s) const
    {
        line += ",\"meta\":{\"task\":";
        jsonString(line, s.taskName);
        line += ",\"sample\":";
        jsonString(line, s.sampleName);
        line += ",\"sample_id\":";
        line += std::to_string(s.sampleId);
        line += ",\"sample_key\":";
        jsonString(line, s.sampleKey);
        line += job.validation ? ",\"split\":\"validation\"" : ",\"split\":\"train\"";
        line += ",\"backend\":";
        jsonString(line, answerBackend(s));
        line += ",\"task_backend\":";
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
        if (!job.teacherModel.empty()) {
            line += ",\"reasoning_source\":\"teacher\",\"reasoning_model\":";
            jsonString(line, job.teacherModel);
        }
        if (job.rejected) {
            const SelectedSample &r = job.rejected->sample;
            line += ",\"rejected_sample\":";
            jsonString(line, r.sampleName);
            line += ",\"rejected_sample_id\":";
            line += std::to_string(r.sampleId);
            line += ",\"rejected_status\":";
            jsonString(line, r.status);
            line += ",\"rejected_class\":";
            jsonString(line, job.rejected->negativeClass);
            line += ",\"rejected_model\":";
            optString(line, r.model);
        }
        line += "}}\n";
    }

    const ExportOptions &m_options;
    const Tokenizer *m_tok;
    std::unique_ptr<ChatRenderer> m_chat; // --chat-template: rows rendered and tokenized by the helper
    ChatRenderer::Row m_chatRow;          // the row being built
    OutBuffer m_messages;                 // its messages as JSON, for the helper
    std::string m_system;
    std::size_t m_systemTokens = 0;
    std::unique_ptr<PromptTemplate> m_fixedTemplate;
    std::map<std::string, PromptTemplate> m_templates;
    db::Database m_db;
    db::Statement m_ref, m_pay, m_teacher;
    TaskCache m_task;
    std::string m_code, m_reasoning, m_code2, m_reasoning2, m_content; // scratch, reused from row to row
};

bool isHard(Difficulty d)
{
    return d == Difficulty::Hard || d == Difficulty::Unsolved;
}

// The rows' order: the selection's (task name, sample id), or a curriculum: easy tasks first, then those of
// unknown difficulty, hard, unsolved; within one, level 1, 2, 3 (none last), then the selection's order.
std::vector<const SelectedSample *> rowOrder(const Selection &sel, bool curriculum)
{
    std::vector<const SelectedSample *> order;
    order.reserve(sel.samples.size());
    for (const SelectedSample &s : sel.samples)
        order.push_back(&s);
    if (!curriculum)
        return order;
    auto rank = [](Difficulty d) {
        switch (d) {
        case Difficulty::Easy:
            return 0;
        case Difficulty::Unknown:
            return 1;
        case Difficulty::Hard:
            return 2;
        case Difficulty::Unsolved:
            return 3;
        }
        return 1;
    };
    std::stable_sort(order.begin(), order.end(), [&](const SelectedSample *a, const SelectedSample *b) {
        if (rank(a->difficulty) != rank(b->difficulty))
            return rank(a->difficulty) < rank(b->difficulty);
        return a->level.value_or(1000) < b->level.value_or(1000);
    });
    return order;
}

ojson parametersJson(const ExportOptions &o, const Tokenizer *tok, const std::string &chatDescription)
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
    p["min_speedup"] = o.selection.minSpeedup ? ojson(*o.selection.minSpeedup) : ojson();
    p["min_speedup_compile"] = o.selection.minSpeedupCompile ? ojson(*o.selection.minSpeedupCompile) : ojson();
    p["difficulty_model"] = o.selection.difficultyScope.model ? ojson(*o.selection.difficultyScope.model) : ojson();
    p["difficulty_run"] = o.selection.difficultyScope.run ? ojson(*o.selection.difficultyScope.run) : ojson();
    // Absent when not used: manifests of earlier exports stay as they were.
    if (o.selection.judge != JudgeFilter::None)
        p["judge"] = judgeFilterName(o.selection.judge);
    if (o.teacherReasoning)
        p["teacher_reasoning"] = true;
    if (o.selection.includeSkipStatic)
        p["include_skip_static"] = true; // absent otherwise: manifests of earlier exports stay as they were
    if (!o.selection.excludeFlags.empty())
        p["exclude_flags"] = o.selection.excludeFlags; // absent otherwise, as above
    if (isPreference(o.format)) {
        p["max_pairs_per_task"] = o.pairs.maxPairsPerTask;
        p["hostile_negatives"] = o.pairs.keepHostile;
    }
    if (!isPreference(o.format)) {
        p["hard_weight"] = o.hardWeight;
        p["order"] = o.curriculum ? "curriculum" : "task";
    }
    p["max_tokens"] = o.maxTokens ? ojson(*o.maxTokens) : ojson();
    if (!o.chatTemplatePath.empty()) {
        p["tokenizer"] = {{"file", std::filesystem::path(o.tokenizerPath).filename().string()},
                          {"sha256", hashing::sha256File(o.tokenizerPath)},
                          {"description", chatDescription},
                          {"counting", "the row rendered with the chat template, encoded whole by the tokenizers "
                                       "library without adding special tokens (the template writes its own)"}};
        p["chat_template"] = {{"file", std::filesystem::path(o.chatTemplatePath).filename().string()},
                              {"sha256", hashing::sha256File(o.chatTemplatePath)},
                              {"rows", chatRowsName(o.chatRows)}};
    } else if (tok) {
        p["tokenizer"] = {{"file", std::filesystem::path(o.tokenizerPath).filename().string()},
                          {"sha256", hashing::sha256File(o.tokenizerPath)},
                          {"description", tok->description()},
                          {"counting", "sum of the row's text fields, each encoded without special tokens"}};
    } else {
        p["tokenizer"] = ojson();
    }
    p["user_template"] = o.userTemplate.empty() ? ojson("per backend") : ojson(templateLabel(o.userTemplate));
    p["system_template"] = templateLabel(o.systemTemplate);
    p["tags"] = o.tags;
    return p;
}

// The templates used, each with the SHA-256 of its text: the system one and the user one per answer
// backend (or the one given with --template, under "*").
ojson templatesJson(const ExportOptions &o, const std::set<std::string> &backends)
{
    ojson t;
    t["system"] = o.systemTemplate == "none"
                      ? ojson()
                      : ojson({{"name", templateLabel(o.systemTemplate)},
                               {"sha256", hashing::sha256Hex(PromptTemplate::load(o.systemTemplate).text())}});
    ojson user = ojson::object();
    if (!o.userTemplate.empty())
        user["*"] = {{"name", templateLabel(o.userTemplate)},
                     {"sha256", hashing::sha256Hex(PromptTemplate::load(o.userTemplate).text())}};
    else
        for (const std::string &b : backends)
            user[b] = {{"name", b}, {"sha256", hashing::sha256Hex(backendTemplate(b).text())}};
    t["user"] = std::move(user);
    return t;
}

} // namespace

ExportOptions exportOptionsFromManifest(const ojson &manifest, const std::string &origin)
{
    if (!manifest.is_object() || !manifest.contains("parameters") || !manifest["parameters"].is_object())
        throw std::runtime_error(origin + ": not an export manifest (no 'parameters' object)");
    const std::string fmt = manifest.value("format", "");
    if (fmt != "sieve-export/2")
        throw std::runtime_error(origin + ": format '" + fmt +
                                 "' cannot be rebuilt (only sieve-export/2, whose "
                                 "parameters and corpus identity are complete)");
    const ojson &p = manifest["parameters"];
    auto field = [&](const char *name) -> const ojson & {
        if (!p.contains(name))
            throw std::runtime_error(origin + ": parameters." + name + " is missing");
        return p[name];
    };
    auto bad = [&](const char *name) {
        return std::runtime_error(origin + ": parameters." + name + " has an unexpected value: " + p[name].dump());
    };
    auto text = [&](const char *name) {
        const ojson &v = field(name);
        if (!v.is_string())
            throw bad(name);
        return v.get<std::string>();
    };
    auto optNumber = [&](const char *name) -> std::optional<double> {
        const ojson &v = field(name);
        if (v.is_null())
            return std::nullopt;
        if (!v.is_number())
            throw bad(name);
        return v.get<double>();
    };
    ExportOptions o;
    const auto f = parseFormat(text("format"));
    const auto r = parseReasoning(text("reasoning"));
    const auto q = parseRequire(text("require"));
    if (!f)
        throw bad("format");
    if (!r)
        throw bad("reasoning");
    if (!q)
        throw bad("require");
    o.format = *f;
    o.reasoning = *r;
    o.selection.require = *q;
    o.validationFraction = optNumber("validation_fraction").value_or(-1);
    if (!field("seed").is_number_unsigned())
        throw bad("seed");
    o.selection.seed = p["seed"].get<std::uint64_t>();
    if (!field("one_per_cluster").is_boolean())
        throw bad("one_per_cluster");
    o.selection.onePerCluster = p["one_per_cluster"].get<bool>();
    if (p.contains("include_skip_static")) {
        if (!p["include_skip_static"].is_boolean())
            throw bad("include_skip_static");
        o.selection.includeSkipStatic = p["include_skip_static"].get<bool>();
    }
    if (p.contains("exclude_flags")) {
        const ojson &f = p["exclude_flags"];
        if (!f.is_array() || !std::all_of(f.begin(), f.end(), [](const ojson &x) {
                return x.is_string() && isFlagName(x.get<std::string>());
            }))
            throw bad("exclude_flags");
        o.selection.excludeFlags = f.get<std::vector<std::string>>();
    }
    if (p.contains("judge")) {
        const auto j = p["judge"].is_string() ? parseJudgeFilter(p["judge"].get<std::string>()) : std::nullopt;
        if (!j)
            throw bad("judge");
        o.selection.judge = *j;
    }
    if (p.contains("teacher_reasoning")) {
        if (!p["teacher_reasoning"].is_boolean())
            throw bad("teacher_reasoning");
        o.teacherReasoning = p["teacher_reasoning"].get<bool>();
    }
    if (!field("max_per_task").is_number_integer())
        throw bad("max_per_task");
    o.selection.maxPerTask = p["max_per_task"].get<int>();
    if (const auto e = optNumber("easy"))
        o.selection.easyCount = static_cast<int>(*e);
    o.selection.easyFraction = optNumber("easy_fraction");
    if (!field("quotas").is_array())
        throw bad("quotas");
    for (const ojson &x : p["quotas"]) {
        if (!x.is_string())
            throw bad("quotas");
        try {
            o.selection.quotas.push_back(parseQuota(x.get<std::string>()));
        } catch (const std::invalid_argument &e) {
            throw std::runtime_error(origin + ": parameters.quotas: " + e.what());
        }
    }
    o.selection.minSpeedup = optNumber("min_speedup");
    o.selection.minSpeedupCompile = optNumber("min_speedup_compile");
    for (const auto &[name, target] : {std::pair{"difficulty_model", &o.selection.difficultyScope.model},
                                       std::pair{"difficulty_run", &o.selection.difficultyScope.run}}) {
        const ojson &v = field(name);
        if (v.is_string())
            *target = v.get<std::string>();
        else if (!v.is_null())
            throw bad(name);
    }
    // Absent from manifests made before they existed: the defaults (once each, by task name).
    if (p.contains("hard_weight")) {
        if (!p["hard_weight"].is_number_integer() || p["hard_weight"].get<int>() < 1)
            throw bad("hard_weight");
        o.hardWeight = p["hard_weight"].get<int>();
    }
    if (p.contains("order")) {
        if (p["order"] != "task" && p["order"] != "curriculum")
            throw bad("order");
        o.curriculum = p["order"] == "curriculum";
    }
    if (isPreference(o.format)) {
        if (!field("max_pairs_per_task").is_number_integer())
            throw bad("max_pairs_per_task");
        o.pairs.maxPairsPerTask = p["max_pairs_per_task"].get<int>();
        if (!field("hostile_negatives").is_boolean())
            throw bad("hostile_negatives");
        o.pairs.keepHostile = p["hostile_negatives"].get<bool>();
    }
    if (p.contains("chat_template") && !p["chat_template"].is_null()) {
        const ojson &c = p["chat_template"];
        const std::string rows = c.is_object() ? c.value("rows", std::string()) : std::string();
        if (rows != "text" && rows != "tokens")
            throw bad("chat_template.rows");
        o.chatRows = rows == "text" ? ChatRows::Text : ChatRows::Tokens;
    }
    if (const auto m = optNumber("max_tokens"))
        o.maxTokens = static_cast<std::size_t>(*m);
    const std::string user = text("user_template");
    o.userTemplate = user == "per backend" ? std::string() : user;
    o.systemTemplate = text("system_template");
    if (!field("tags").is_array())
        throw bad("tags");
    for (const ojson &t : p["tags"]) {
        if (!t.is_string())
            throw bad("tags");
        o.tags.push_back(t.get<std::string>());
    }
    return o;
}

std::string templateLabel(const std::string &nameOrPath)
{
    if (nameOrPath.find('/') == std::string::npos)
        return nameOrPath;
    return std::filesystem::path(nameOrPath).filename().string();
}

ExportResult exportCorpus(const std::string &corpusPath, const std::string &outDir, const ExportOptions &options)
{
    namespace fs = std::filesystem;
    if (options.validationFraction < 0 || options.validationFraction > 1)
        throw std::runtime_error("the validation fraction must be between 0 and 1");
    if (options.maxTokens && options.tokenizerPath.empty())
        throw std::runtime_error("a token budget needs a tokenizer (--tokenizer FILE)");
    if (options.reasoning == ReasoningMode::Field && isTextForm(options.format))
        throw std::runtime_error(std::string("--reasoning field with --format ") + formatName(options.format) +
                                 ": a text row has no message to carry reasoning_content, and trainers ignore "
                                 "extra keys; use --reasoning think (the default) or none");
    const bool chat = !options.chatTemplatePath.empty();
    if (chat && options.tokenizerPath.empty())
        throw std::runtime_error("--chat-template needs the model's tokenizer.json (--tokenizer FILE)");
    if (chat && options.format != ExportFormat::Messages)
        throw std::runtime_error(std::string("--chat-template renders messages rows; --format ") +
                                 formatName(options.format) + " has none (use --format messages)");
    std::unique_ptr<Tokenizer> tok; // the rendered rows are counted by the chat renderer's tokenizer
    if (!options.tokenizerPath.empty() && !chat)
        tok = std::make_unique<Tokenizer>(Tokenizer::fromFile(options.tokenizerPath));

    const fs::path dir(outDir);
    const char *fileNames[2] = {"train.jsonl", "validation.jsonl"};
    std::unique_ptr<ExportFile> files[2]; // train, validation
    ExportResult result;
    ojson manifest;
    {
        Corpus corpus = Corpus::open(corpusPath, true);
        db::Database &db = corpus.db();
        // Nothing is written from a damaged corpus: every page is checked before the first file.
        if (!options.dryRun)
            corpusfile::checkIntegrity(db, true);
        db.exec("PRAGMA mmap_size=4294967296"); // pages without a pread() copy each (read-only here)
        const bool preference = isPreference(options.format);
        Pairs pairs;
        if (preference)
            pairs = selectPairs(db, options.selection, options.pairs);
        else
            pairs.selection = selectSamples(db, options.selection);
        const Selection &sel = pairs.selection;
        const auto validation = splitTasks(sel, options.validationFraction, options.selection.seed, taskFamilies(db));

        const bool createdDir = !options.dryRun && !fs::exists(dir);
        if (!options.dryRun) {
            fs::create_directories(dir);
            for (int f = 0; f < 2; ++f)
                files[f] = std::make_unique<ExportFile>(dir / fileNames[f]);
        }
        SplitCounts counts[2];
        hashing::Sha256 content; // the corpus identity: the content keys of the rows written, in order
        std::int64_t contentRows = 0, teacherRows = 0;
        std::set<std::string> teacherModels;
        std::set<std::string> backends;
        ojson excluded = ojson::array();
        auto exclude = [&](const RowJob &job, const char *reason, std::optional<std::size_t> tokens) {
            const SelectedSample &s = *job.sample;
            ojson e = {{"sample", s.sampleName},
                       {"sample_id", s.sampleId},
                       {"task", s.taskName},
                       {"split", job.validation ? "validation" : "train"},
                       {"reason", reason}};
            if (job.rejected)
                e["rejected_sample_id"] = job.rejected->sample.sampleId;
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
            builders.push_back(
                std::make_unique<RowBuilder>(corpusPath, options, tok ? tokenizers.back().get() : nullptr));
        }
        constexpr std::size_t kBatch = 256;
        BatchPipeline<Batch> pipeline(
            nWorkers, 2 * nWorkers + 2, [](Batch &b) { b.rows.resize(kBatch); },
            [&](Batch &b, unsigned w) { builders[w]->process(b); },
            [&](Batch &b) {
                for (std::size_t i = 0; i < b.n; ++i) {
                    const RowJob &job = b.rows[i];
                    if (job.excluded) {
                        if (!job.copy)
                            exclude(job, job.excluded, std::nullopt);
                    } else if (job.overBudget) {
                        if (!job.copy)
                            exclude(job, "over token budget", job.tokens);
                    } else {
                        counts[job.validation ? 1 : 0].add(*job.sample, job.tokens,
                                                           job.rejected ? job.rejected->negativeClass : std::string());
                        content.update(job.contentKey);
                        content.update("\n");
                        ++contentRows;
                        if (!job.teacherModel.empty()) {
                            ++teacherRows;
                            teacherModels.insert(job.teacherModel);
                        }
                        backends.insert(job.sample->answerBackend.empty() ? job.sample->backend
                                                                          : job.sample->answerBackend);
                    }
                }
                for (int f = 0; f < 2; ++f)
                    if (files[f])
                        files[f]->write(b.out[f].view());
            });
        // The selection's summary meanwhile, off the serial tail of the export.
        std::future<nlohmann::json> summary = std::async(std::launch::async, [&sel] { return selectionSummary(sel); });
        Batch *batch = nullptr;
        auto add = [&](const SelectedSample &s, const RejectedSample *rejected, bool copy = false) {
            if (!batch) {
                if (!(batch = pipeline.acquire()))
                    return false; // stopped by an error, which finish() rethrows
                batch->n = 0;
            }
            RowJob &job = batch->rows[batch->n++];
            job.sample = &s;
            job.rejected = rejected;
            job.validation = validation.at(s.taskId);
            job.copy = copy;
            if (batch->n == kBatch) {
                pipeline.submit(batch);
                batch = nullptr;
            }
            return true;
        };
        if (preference) {
            for (const PreferencePair &p : pairs.pairs)
                if (!add(sel.samples[p.chosen], &pairs.rejected[p.rejected]))
                    break;
        } else {
            const std::vector<const SelectedSample *> order = rowOrder(sel, options.curriculum);
            bool stopped = false;
            for (const SelectedSample *s : order)
                if ((stopped = !add(*s, nullptr)))
                    break;
            // Hard tasks up-weighted: their train rows again, pass after pass, in the same order.
            for (int pass = 1; pass < options.hardWeight && !stopped; ++pass)
                for (const SelectedSample *s : order)
                    if (isHard(s->difficulty) && !validation.at(s->taskId) && (stopped = !add(*s, nullptr, true)))
                        break;
        }
        if (batch)
            pipeline.submit(batch);
        pipeline.finish();
        // In row order (the writer sees rows in order; this keeps the manifest's order stated).
        std::stable_sort(excluded.begin(), excluded.end(), [](const ojson &a, const ojson &b) {
            const std::string &ta = a["task"].get_ref<const std::string &>(),
                              &tb = b["task"].get_ref<const std::string &>();
            return ta != tb ? ta < tb : a["sample_id"].get<std::int64_t>() < b["sample_id"].get<std::int64_t>();
        });
        std::string digests[2];
        if (!options.dryRun) {
            if (counts[0].rows + counts[1].rows == 0) {
                for (auto &f : files)
                    f.reset(); // removes the partial files
                std::error_code ec;
                if (createdDir)
                    fs::remove(dir, ec);
                throw std::runtime_error(
                    "nothing to export: no row is left" +
                    std::string(sel.samples.empty() ? " (the selection kept no sample; see 'sieve-cli select')"
                                : preference        ? " (no task has both a chosen and a rejected sample)"
                                                    : " (every row was left out; see the manifest of a --dry-run)") +
                    "; '" + outDir + "' was not changed");
            }
            for (int f = 0; f < 2; ++f)
                digests[f] = files[f]->finish();
        }

        manifest["format"] = "sieve-export/2";
        manifest["sieve_version"] = SIEVE_VERSION;
        manifest["corpus"] = {{"content_sha256", content.finishHex()},
                              {"content_rows", contentRows},
                              {"identity", "SHA-256 over the exported rows, in order, of XXH3-128 content keys of the "
                                           "task name, reference, sample keys, statuses, code and reasoning"},
                              {"schema_version", corpus.schemaVersion()}};
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
        manifest["parameters"] = parametersJson(options, tok.get(), builders.front()->chatDescription());
        manifest["templates"] = templatesJson(options, backends);
        manifest["selection"] = summary.get();
        if (preference) {
            ojson p;
            p["pairs"] = counts[0].rows + counts[1].rows;
            p["pairs_selected"] = pairs.pairs.size();
            p["negatives"] = pairs.rejected.size();
            p["by_class"] = pairs.pairsByClass;
            p["tasks_without_negative"] = pairs.tasksWithoutNegative;
            p["excluded_negatives"] = pairs.excludedNegatives;
            manifest["pairs"] = std::move(p);
        }
        manifest["counts"] = {{"train", counts[0].json(tok != nullptr || chat, preference)},
                              {"validation", counts[1].json(tok != nullptr || chat, preference)}};
        if (options.teacherReasoning)
            manifest["teacher_reasoning"] = {{"rows", teacherRows},
                                             {"models", teacherModels},
                                             {"note", "rows whose reasoning a teacher wrote (sieve-cli explain) for "
                                                      "a sample without its own; meta.reasoning_source is "
                                                      "\"teacher\" on each"}};
        manifest["excluded"] = std::move(excluded);
        if (!options.dryRun) {
            ojson out = ojson::object();
            for (int f = 0; f < 2; ++f)
                if (counts[f].rows > 0)
                    out[fileNames[f]] = {
                        {"rows", counts[f].rows}, {"bytes", files[f]->bytes()}, {"sha256", digests[f]}};
            manifest["files"] = std::move(out);
        }
    }
    if (!options.dryRun) {
        // An older manifest goes first, so that it never lists the data files that replace its own;
        // the new one is written whole under another name and then renamed. A split without rows has
        // no file (a trainer fails on an empty one): its partial file is dropped, an older one removed.
        const fs::path manifestPath = dir / "manifest.json", manifestPartial = dir / "manifest.json.partial";
        fs::remove(manifestPath);
        for (int f = 0; f < 2; ++f) {
            if (manifest["files"].contains(fileNames[f])) {
                files[f]->commit();
            } else {
                files[f].reset();
                fs::remove(dir / fileNames[f]);
            }
        }
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
        try {
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
        } catch (const db::Error &e) {
            // The files are complete and consistent; only the corpus's record of them is missing.
            if (!corpusfile::isReadOnlyError(e.code()))
                throw;
            result.warning = std::string("the export is complete, but it is not recorded in the corpus: ") + e.what();
        }
    }
    result.manifest = std::move(manifest);
    return result;
}

} // namespace sieve
