#include "core/store/shardstore.h"

#include <sqlite3.h>

namespace sieve::store {

std::optional<std::string> metaValue(const db::Database &db, const std::string &key)
{
    db::Statement st = db.prepare("SELECT value FROM meta WHERE key=?1");
    st.bind(1, key);
    if (!st.step())
        return std::nullopt;
    return st.text(0);
}

std::string corpusId(const db::Database &db)
{
    return db.queryText("SELECT value FROM meta WHERE key='corpus_id'").value_or("");
}

void writeMeta(db::Database &db, const std::map<std::string, std::string> &meta)
{
    db::Statement ins = db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)");
    for (const auto &[k, v] : meta) {
        ins.reset();
        ins.bind(1, k).bind(2, v).run();
    }
}

std::optional<std::string> quickCheck(const db::Database &db)
{
    return db.queryText("PRAGMA quick_check");
}

std::optional<std::int64_t> sampleCount(const db::Database &db)
{
    return db.queryInt("SELECT count(*) FROM samples");
}

void useRollbackJournal(db::Database &db)
{
    db.exec("PRAGMA journal_mode=DELETE");
}

void sealDatabaseFile(const std::string &path)
{
    db::Database db(path, db::Database::Mode::ReadWrite);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.exec("PRAGMA journal_mode=DELETE");
}

RowCopier::RowCopier(const db::Database &src, db::Database &dst, const std::string &table, const std::string &columns)
    : m_select(src.prepare("SELECT " + columns + " FROM " + table + " WHERE " + keyColumn(table) + " = ?1"))
{
    std::string marks;
    for (int i = 0; i < m_select.columnCount(); ++i)
        marks += i ? ",?" : "?";
    m_insert = dst.prepare("INSERT INTO " + table + "(" + columns + ") VALUES(" + marks + ")");
}

bool RowCopier::copy(std::int64_t id)
{
    m_select.reset();
    m_select.bind(1, id);
    if (!m_select.step())
        return false;
    m_insert.reset();
    for (int i = 0; i < m_select.columnCount(); ++i)
        sqlite3_bind_value(m_insert.handle(), i + 1, sqlite3_column_value(m_select.handle(), i));
    m_insert.run();
    return true;
}

std::string RowCopier::keyColumn(const std::string &table)
{
    if (table == "task_payloads")
        return "task_id";
    if (table == "sample_payloads")
        return "sample_id";
    return "id";
}

void forEachSampleKey(const db::Database &db,
                      const std::function<void(std::int64_t id, std::string_view key, std::int64_t taskId)> &fn)
{
    db::Statement st = db.prepare("SELECT id, sample_key, task_id FROM samples ORDER BY id");
    while (st.step())
        fn(st.int64(0), st.textView(1), st.int64(2));
}

TaskFlagsById::TaskFlagsById(const db::Database &db)
    : m_select(db.prepare("SELECT task_key, flags FROM tasks WHERE id=?1"))
{
}

std::optional<TaskFlagsById::Row> TaskFlagsById::get(std::int64_t taskId)
{
    m_select.reset();
    m_select.bind(1, taskId);
    if (!m_select.step())
        return std::nullopt;
    return Row{m_select.text(0), m_select.isNull(1) ? std::nullopt : std::optional<std::string>(m_select.text(1))};
}

void forEachTaskFlags(
    const db::Database &db,
    const std::function<void(const std::string &taskKey, const std::optional<std::string> &flags)> &fn)
{
    db::Statement flags = db.prepare("SELECT task_key, flags FROM tasks");
    while (flags.step())
        fn(flags.text(0), flags.isNull(1) ? std::nullopt : std::optional<std::string>(flags.text(1)));
}

TaskFlagsByKeyUpdater::TaskFlagsByKeyUpdater(db::Database &db)
    : m_update(db.prepare("UPDATE tasks SET flags=?1 WHERE task_key=?2"))
{
}

void TaskFlagsByKeyUpdater::update(const std::string &taskKey, const std::optional<std::string> &flags)
{
    m_update.reset();
    m_update.bind(1, flags).bind(2, taskKey);
    m_update.run();
}

void forEachPayloadDictionary(const db::Database &db,
                              const std::function<void(const std::string &dict, std::int64_t trainedOn)> &fn)
{
    db::Statement dicts = db.prepare("SELECT dict, trained_on FROM payload_dicts ORDER BY rowid");
    while (dicts.step())
        fn(dicts.blob(0), dicts.int64(1));
}

SampleByKey::SampleByKey(const db::Database &db)
    : m_lookup(db.prepare(
          "SELECT s.id, s.code_hash, t.task_key FROM samples s JOIN tasks t ON t.id = s.task_id WHERE s.sample_key=?1"))
{
}

std::optional<SampleByKey::Row> SampleByKey::find(const std::string &sampleKey)
{
    m_lookup.reset();
    m_lookup.bind(1, sampleKey);
    if (!m_lookup.step())
        return std::nullopt;
    return Row{m_lookup.int64(0), m_lookup.isNull(1) ? std::string() : m_lookup.text(1), m_lookup.text(2)};
}

void forEachSampleIdentity(const db::Database &db, const std::function<void(const SampleIdentity &)> &fn)
{
    db::Statement st = db.prepare(
        "SELECT s.sample_key, s.code_hash, t.task_key, s.name FROM samples s JOIN tasks t ON t.id = s.task_id");
    while (st.step())
        fn(SampleIdentity{st.text(0), st.isNull(1) ? std::string() : st.text(1), st.text(2), st.text(3)});
}

} // namespace sieve::store
