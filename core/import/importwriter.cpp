#include "core/import/importwriter.h"

#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/db/unixtime.h"
#include "core/util/hashing.h"

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include <chrono>
#include <stdexcept>

namespace sieve::importing {

namespace {
constexpr std::size_t kMaxCachedTasks = 100000;

template <typename T> void bindOpt(db::Statement &st, int i, const std::optional<T> &v)
{
    if (v)
        st.bind(i, *v);
    else
        st.bindNull(i);
}

// For the per-sample statements: the record outlives the statement's run(), so SQLite need not copy.
void bindTextRef(db::Statement &st, int i, const std::optional<std::string> &v)
{
    if (v)
        st.bindTextNoCopy(i, *v);
    else
        st.bindNull(i);
}

void bindBlobRef(db::Statement &st, int i, const std::optional<std::string> &v)
{
    if (v)
        st.bindBlobNoCopy(i, *v);
    else
        st.bindNull(i);
}
} // namespace

ImportWriter::ImportWriter(Corpus &corpus, std::int64_t importId, ImportReport &report, const ImportOptions &options)
    : m_corpus(corpus), m_db(corpus.db()), m_importId(importId), m_report(report), m_options(options), m_now(unixNow())
{
    m_findTask = m_db.prepare("SELECT id, task_key, backend FROM tasks WHERE name = ?1");
    m_findTaskByKey = m_db.prepare("SELECT id, name, backend FROM tasks WHERE task_key = ?1");
    m_insertTask =
        m_db.prepare("INSERT OR IGNORE INTO tasks(task_key, name, level, category, backend, target, dtype, atol, rtol, "
                     "shapes_json, source, license, provenance_json, flags, created_at) "
                     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
    m_insertTaskPayload = m_db.prepare("INSERT INTO task_payloads(task_id, reference_code) VALUES(?1, ?2)");
    m_findSample = m_db.prepare("SELECT sample_key FROM samples WHERE name = ?1 AND +task_id = ?2 AND +origin = ?3");
    m_insertSample = m_db.prepare(
        "INSERT OR IGNORE INTO samples(sample_key, name, task_id, backend, origin, model, temperature, attempt, "
        "has_answer, code_hash, code_bytes, import_id, created_at) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    m_insertSamplePayload =
        m_db.prepare("INSERT INTO sample_payloads(sample_id, code, reasoning, response) VALUES(?1, ?2, ?3, ?4)");
    m_insertVerdict = m_db.prepare(
        "INSERT OR IGNORE INTO external_verdicts(sample_id, source, correct, max_diff, runtime_ms, ref_runtime_ms, "
        "ref_compile_runtime_ms, speedup_native, speedup_compile, error) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
}

void SampleLookup::add(std::uint64_t hash, std::int64_t rowid)
{
    if ((m_used + 1) * 4 > m_slots.size() * 3)
        grow();
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = hash & mask;
    while (m_slots[i].rowid != kEmpty)
        i = (i + 1) & mask;
    m_slots[i] = {hash, rowid};
    ++m_used;
}

void SampleLookup::grow()
{
    std::vector<Slot> old = std::move(m_slots);
    m_slots.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    m_used = 0;
    for (const Slot &slot : old)
        if (slot.rowid != kEmpty)
            add(slot.hash, slot.rowid);
}

namespace {
std::uint64_t nameHash(std::string_view name, std::int64_t taskId, std::string_view origin)
{
    XXH3_state_t state;
    XXH3_64bits_reset(&state);
    XXH3_64bits_update(&state, name.data(), name.size());
    XXH3_64bits_update(&state, &taskId, sizeof taskId);
    XXH3_64bits_update(&state, origin.data(), origin.size());
    return XXH3_64bits_digest(&state);
}

std::uint64_t keyHash(std::string_view key)
{
    return XXH3_64bits(key.data(), key.size());
}
} // namespace

void ImportWriter::checkSamplesInMemory()
{
    auto memory = std::make_unique<InMemory>();
    memory->row = m_db.prepare("SELECT sample_key, name, task_id, origin FROM samples WHERE id = ?1");
    db::Statement all = m_db.prepare("SELECT id, sample_key, name, task_id, origin FROM samples");
    while (all.step()) {
        const std::int64_t id = all.int64(0);
        memory->keys.add(keyHash(all.textView(1)), id);
        memory->names.add(nameHash(all.textView(2), all.int64(3), all.textView(4)), id);
    }
    m_memory = std::move(memory);
    if (m_memory->keys.size() > m_options.maxRememberedSamples)
        stopCheckingInMemory();
}

void ImportWriter::stopCheckingInMemory()
{
    beginIfNeeded();
    m_memory.reset();
    schema::requireSampleKeyIndex(m_db);
}

void ImportWriter::beginIfNeeded()
{
    if (m_tx)
        return;
    m_tx.emplace(m_db);
    // Without the in-memory check, INSERT OR IGNORE and the name lookup need samples_key and
    // samples_name, which another process's import may have dropped since the last transaction.
    if (!m_memory)
        schema::requireSampleKeyIndex(m_db);
}

void ImportWriter::write(Batch &batch)
{
    if (!batch.packed)
        throw std::logic_error("import batch written before its payloads were packed");
    beginIfNeeded();
    for (Item &item : batch.items) {
        if (auto *t = std::get_if<TaskRecord>(&item.value))
            writeTask(batch.fileIndex, item.line, *t);
        else if (auto *s = std::get_if<SampleRecord>(&item.value))
            writeSample(batch.fileIndex, item.line, *s);
        else
            reject(batch.fileIndex, item.line, std::get<RecordError>(std::move(item.value)));
    }
    m_uncommitted += batch.items.size();
    if (m_uncommitted >= m_options.commitRecords)
        commit();
}

void ImportWriter::storeDictionary(std::string_view dictionary, std::int64_t trainedOn)
{
    beginIfNeeded();
    m_corpus.addPayloadDictionary(dictionary, trainedOn, m_importId);
}

void ImportWriter::commit()
{
    if (m_tx) {
        m_tx->commit();
        m_tx.reset();
    }
    m_uncommitted = 0;
}

void ImportWriter::reject(std::size_t file, std::uint64_t line, RecordError e)
{
    ImportFileReport &f = m_report.files[file];
    ++f.rejected;
    ImportError err{e.file.empty() ? f.path : std::move(e.file), line, std::move(e.field), std::move(e.message)};
    if (m_options.onError)
        m_options.onError(err);
    if (f.errors.size() < m_options.maxListedErrors)
        f.errors.push_back(std::move(err));
    else
        ++f.errorsNotListed;
}

void ImportWriter::remember(const std::string &name, TaskRef ref)
{
    if (m_tasks.size() >= kMaxCachedTasks)
        m_tasks.clear();
    m_tasks[name] = std::move(ref);
}

std::optional<ImportWriter::TaskRef> ImportWriter::findTask(const std::string &name)
{
    if (auto it = m_tasks.find(name); it != m_tasks.end())
        return it->second;
    m_findTask.reset();
    m_findTask.bind(1, name);
    if (!m_findTask.step())
        return std::nullopt;
    TaskRef ref{m_findTask.int64(0), m_findTask.text(1), m_findTask.text(2)};
    m_findTask.reset();
    remember(name, ref);
    return ref;
}

// Names the first content field that differs from the stored task of the same name.
std::string ImportWriter::differingField(std::int64_t taskId, const TaskRecord &t)
{
    db::Statement st = m_db.prepare("SELECT t.dtype, t.atol, t.rtol, t.shapes_json, p.reference_code FROM tasks t "
                                    "JOIN task_payloads p ON p.task_id = t.id WHERE t.id = ?1");
    st.bind(1, taskId);
    if (!st.step())
        return "reference_code";
    if (payload::unpack(st.blob(4)) != t.referenceCode)
        return "reference_code";
    if (st.text(0) != t.dtype)
        return "dtype";
    if (formatDouble(st.optReal(1)) != formatDouble(t.atol))
        return "atol";
    if (formatDouble(st.optReal(2)) != formatDouble(t.rtol))
        return "rtol";
    if ((st.isNull(3) ? std::string() : st.text(3)) != t.shapesJson.value_or(""))
        return "shapes";
    return "reference_code";
}

void ImportWriter::writeTask(std::size_t file, std::uint64_t line, TaskRecord &t)
{
    ImportFileReport &f = m_report.files[file];
    const std::string emittedName = t.name;
    for (int attempt = 0;; ++attempt) {
        const auto existing = findTask(t.name);
        if (!existing)
            break;
        if (existing->key == t.key) {
            ++f.unchanged;
            if (t.name != emittedName)
                remember(emittedName, *existing);
            return;
        }
        if (t.userNamed || attempt > 0) {
            const std::string field = differingField(existing->id, t);
            reject(file, line,
                   {field,
                    "task '" + t.name + "' already exists with a different " + field +
                        " (task names are unique: give this task another " + t.nameField + ")",
                    {}});
            return;
        }
        // A derived name that is taken by other content: disambiguate with the content key.
        t.name = emittedName + "~" + t.key.substr(0, 8);
    }
    db::Statement &st = m_insertTask;
    st.reset();
    st.bind(1, t.key).bind(2, t.name);
    bindOpt(st, 3, t.level);
    bindOpt(st, 4, t.category);
    st.bind(5, t.backend);
    bindOpt(st, 6, t.target);
    st.bind(7, t.dtype);
    bindOpt(st, 8, t.atol);
    bindOpt(st, 9, t.rtol);
    bindOpt(st, 10, t.shapesJson);
    bindOpt(st, 11, t.source);
    bindOpt(st, 12, t.license);
    bindOpt(st, 13, t.provenanceJson);
    bindOpt(st, 14, t.flags);
    st.bind(15, m_now);
    st.run();
    if (m_db.changes() == 0) {
        // Same content under another name: this name becomes an alias for the rest of the import.
        m_findTaskByKey.reset();
        m_findTaskByKey.bind(1, t.key);
        if (!m_findTaskByKey.step())
            throw db::Error("task insert was ignored but no task has key " + t.key, 0);
        TaskRef ref{m_findTaskByKey.int64(0), t.key, m_findTaskByKey.text(2)};
        m_findTaskByKey.reset();
        remember(emittedName, ref);
        ++f.unchanged;
        return;
    }
    const std::int64_t id = m_db.lastInsertId();
    m_insertTaskPayload.reset();
    m_insertTaskPayload.bind(1, id).bindBlob(2, t.packedReference).run();
    TaskRef ref{id, t.key, t.backend};
    remember(t.name, ref);
    if (t.name != emittedName)
        remember(emittedName, ref);
    ++f.tasksAdded;
}

void ImportWriter::writeSample(std::size_t file, std::uint64_t line, SampleRecord &s)
{
    ImportFileReport &f = m_report.files[file];
    const auto task = findTask(s.taskName);
    if (!task) {
        reject(file, line,
               {"task_id", "unknown task '" + s.taskName + "' (not in the corpus nor earlier in this import)", {}});
        return;
    }
    const std::string key = hashing::contentKey({task->key, s.contentKey});
    const std::uint64_t hashOfName = m_memory ? nameHash(s.name, task->id, s.origin) : 0;
    if (s.userNamed) {
        bool clash = false, same = false;
        if (m_memory) {
            m_memory->confirm(m_memory->names, hashOfName, [&](const db::Statement &row) {
                if (row.textView(1) == s.name && row.int64(2) == task->id && row.textView(3) == s.origin)
                    (row.textView(0) == key ? same : clash) = true;
            });
        } else {
            m_findSample.reset();
            m_findSample.bindTextNoCopy(1, s.name).bind(2, task->id).bindTextNoCopy(3, s.origin);
            while (m_findSample.step()) {
                if (m_findSample.textView(0) == key)
                    same = true;
                else
                    clash = true;
            }
            m_findSample.reset();
        }
        if (same) {
            ++f.unchanged;
            return;
        }
        if (clash) {
            reject(file, line,
                   {"sample_id",
                    "sample '" + s.name + "' of task '" + s.taskName + "' already exists with different content",
                    {}});
            return;
        }
    }
    const std::uint64_t hashOfKey = m_memory ? keyHash(key) : 0;
    if (m_memory) {
        // What INSERT OR IGNORE does with samples_key in place.
        bool present = false;
        m_memory->confirm(m_memory->keys, hashOfKey,
                          [&](const db::Statement &row) { present = present || row.textView(0) == key; });
        if (present) {
            ++f.unchanged;
            return;
        }
    }
    db::Statement &st = m_insertSample;
    st.reset();
    st.bindTextNoCopy(1, key).bindTextNoCopy(2, s.name).bind(3, task->id);
    st.bindTextNoCopy(4, s.backend ? *s.backend : task->backend);
    st.bindTextNoCopy(5, s.origin);
    bindTextRef(st, 6, s.model);
    bindOpt(st, 7, s.temperature);
    bindOpt(st, 8, s.attempt);
    st.bind(9, s.hasAnswer ? 1 : 0);
    bindTextRef(st, 10, s.codeHash);
    st.bind(11, s.codeBytes);
    st.bind(12, m_importId);
    st.bind(13, m_now);
    st.run();
    if (m_db.changes() == 0) {
        ++f.unchanged;
        return;
    }
    const std::int64_t id = m_db.lastInsertId();
    if (m_memory) {
        m_memory->keys.add(hashOfKey, id);
        m_memory->names.add(hashOfName, id);
    }
    db::Statement &pl = m_insertSamplePayload;
    pl.reset();
    pl.bind(1, id);
    bindBlobRef(pl, 2, s.code);
    bindBlobRef(pl, 3, s.reasoning);
    bindBlobRef(pl, 4, s.response);
    pl.run();
    if (s.verdict) {
        const ExternalVerdict &v = *s.verdict;
        db::Statement &vs = m_insertVerdict;
        vs.reset();
        vs.bind(1, id).bind(2, v.source);
        bindOpt(vs, 3, v.correct);
        bindOpt(vs, 4, v.maxDiff);
        bindOpt(vs, 5, v.runtimeMs);
        bindOpt(vs, 6, v.refRuntimeMs);
        bindOpt(vs, 7, v.refCompileRuntimeMs);
        bindOpt(vs, 8, v.speedupNative);
        bindOpt(vs, 9, v.speedupCompile);
        bindOpt(vs, 10, v.error);
        vs.run();
    }
    ++f.samplesAdded;
    if (m_memory && m_memory->keys.size() > m_options.maxRememberedSamples)
        stopCheckingInMemory();
}

} // namespace sieve::importing
