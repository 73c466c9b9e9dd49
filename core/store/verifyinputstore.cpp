#include "core/store/verifyinputstore.h"

namespace sieve::store {

namespace {
std::optional<std::string> optText(const db::Statement &st, int c)
{
    return st.isNull(c) ? std::nullopt : std::optional<std::string>(st.text(c));
}

std::optional<std::string> optBlob(const db::Statement &st, int c)
{
    return st.isNull(c) ? std::nullopt : std::optional<std::string>(st.blob(c));
}

// Columns from task_key on: task_key, name, dtype, atol, rtol, shapes_json, source, reference_code.
void readTaskSpec(const db::Statement &st, int first, TaskSpecRow &t)
{
    t.taskKey = st.text(first);
    t.name = st.text(first + 1);
    t.dtype = st.text(first + 2);
    t.atol = st.optReal(first + 3);
    t.rtol = st.optReal(first + 4);
    t.shapesJson = optText(st, first + 5);
    t.source = optText(st, first + 6);
    t.referenceCode = optBlob(st, first + 7);
}
} // namespace

void forEachTaskSpec(const db::Database &db, const std::function<void(const TaskSpecRow &)> &fn)
{
    db::Statement st = db.prepare(
        "SELECT t.id, t.task_key, t.name, t.dtype, t.atol, t.rtol, t.shapes_json, t.source, p.reference_code "
        "FROM tasks t LEFT JOIN task_payloads p ON p.task_id = t.id ORDER BY t.id");
    while (st.step()) {
        TaskSpecRow t;
        t.id = st.int64(0);
        readTaskSpec(st, 1, t);
        fn(t);
    }
}

std::optional<TaskSpecRow> taskSpec(const db::Database &db, std::int64_t taskId)
{
    db::Statement st =
        db.prepare("SELECT t.task_key, t.name, t.dtype, t.atol, t.rtol, t.shapes_json, t.source, p.reference_code "
                   "FROM tasks t LEFT JOIN task_payloads p ON p.task_id = t.id WHERE t.id = ?1");
    st.bind(1, taskId);
    if (!st.step())
        return std::nullopt;
    TaskSpecRow t;
    t.id = taskId;
    readTaskSpec(st, 0, t);
    return t;
}

std::optional<SampleToVerify> sampleToVerify(const db::Database &db, std::int64_t sampleId)
{
    db::Statement st = db.prepare(
        "SELECT s.name, s.backend, t.name, t.task_key, p.code FROM samples s JOIN tasks t ON t.id = s.task_id "
        "LEFT JOIN sample_payloads p ON p.sample_id = s.id WHERE s.id = ?1");
    st.bind(1, sampleId);
    if (!st.step())
        return std::nullopt;
    return SampleToVerify{st.text(0), st.text(1), st.text(2), st.text(3), optBlob(st, 4)};
}

std::optional<SampleCode> sampleCode(const db::Database &db, std::int64_t sampleId)
{
    auto st = db.prepare("SELECT s.name, p.code FROM samples s LEFT JOIN sample_payloads p "
                         "ON p.sample_id = s.id WHERE s.id = ?1");
    st.bind(1, sampleId);
    if (!st.step())
        return std::nullopt;
    return SampleCode{st.text(0), optBlob(st, 1)};
}

SampleTaskLookup::SampleTaskLookup(const db::Database &db)
    : m_select(db.prepare("SELECT task_id FROM samples WHERE id = ?1"))
{
}

std::optional<std::int64_t> SampleTaskLookup::taskOf(std::int64_t sampleId)
{
    m_select.reset();
    m_select.bind(1, sampleId);
    if (!m_select.step())
        return std::nullopt;
    return m_select.int64(0);
}

} // namespace sieve::store
