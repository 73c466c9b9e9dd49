#include "stats.h"

#include "corpus.h"

#include <nlohmann/json.hpp>

namespace sieve {

namespace {
nlohmann::json countBy(const db::Database &db, const std::string &sql)
{
    nlohmann::json out = nlohmann::json::object();
    db::Statement st = db.prepare(sql);
    while (st.step())
        out[st.isNull(0) ? std::string("(none)") : st.text(0)] = st.int64(1);
    return out;
}
} // namespace

nlohmann::json corpusStats(const Corpus &corpus)
{
    const db::Database &db = corpus.db();
    nlohmann::json j;
    j["tasks"] = db.queryInt("SELECT count(*) FROM tasks").value_or(0);
    j["samples"] = db.queryInt("SELECT count(*) FROM samples").value_or(0);
    j["samples_without_answer"] = db.queryInt("SELECT count(*) FROM samples WHERE has_answer=0").value_or(0);
    j["by_status"] = countBy(db, "SELECT status, count(*) FROM samples GROUP BY status ORDER BY status");
    j["by_review"] = countBy(db, "SELECT review, count(*) FROM samples GROUP BY review ORDER BY review");
    j["by_backend"] = countBy(db, "SELECT backend, count(*) FROM samples GROUP BY backend ORDER BY backend");
    j["by_category"] = countBy(db, "SELECT t.category, count(*) FROM samples s JOIN tasks t ON t.id=s.task_id "
                                   "GROUP BY t.category ORDER BY t.category");
    j["by_level"] = countBy(db, "SELECT CAST(t.level AS TEXT), count(*) FROM samples s JOIN tasks t "
                                "ON t.id=s.task_id GROUP BY t.level ORDER BY t.level");
    nlohmann::json perTask = nlohmann::json::array();
    db::Statement st = db.prepare(
        "SELECT t.name, t.level, t.category, count(s.id), sum(s.status='PASS'), sum(s.status='PENDING') "
        "FROM tasks t LEFT JOIN samples s ON s.task_id=t.id GROUP BY t.id ORDER BY t.name");
    while (st.step()) {
        perTask.push_back({{"task", st.text(0)},
                           {"level", st.isNull(1) ? nlohmann::json() : nlohmann::json(st.int64(1))},
                           {"category", st.isNull(2) ? nlohmann::json() : nlohmann::json(st.text(2))},
                           {"samples", st.int64(3)},
                           {"passed", st.int64(4)},
                           {"pending", st.int64(5)}});
    }
    j["per_task"] = std::move(perTask);
    return j;
}

} // namespace sieve
