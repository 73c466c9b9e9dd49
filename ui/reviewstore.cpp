#include "reviewstore.h"

#include "database.h"

#include <QDateTime>

namespace sieve::ui::reviewstore {

void write(db::Database &db, const QList<ReviewWrite> &writes, const QString &reviewer)
{
    if (writes.isEmpty())
        return;
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const std::string who = reviewer.toStdString();
    db::Transaction tx(db);
    db::Statement append = db.prepare("INSERT INTO reviews(sample_id, decision, reason, note, reviewer, created_at) "
                                      "VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    db::Statement current = db.prepare("UPDATE samples SET review = ?2 WHERE id = ?1");
    auto optText = [](const QString &s) {
        return s.isEmpty() ? std::optional<std::string>() : std::optional<std::string>(s.toStdString());
    };
    for (const ReviewWrite &w : writes) {
        append.reset();
        append.bind(1, std::int64_t(w.sampleId))
            .bind(2, w.decision.toStdString())
            .bind(3, optText(w.reason))
            .bind(4, optText(w.note))
            .bind(5, who)
            .bind(6, std::int64_t(now))
            .run();
        current.reset();
        current.bind(1, std::int64_t(w.sampleId)).bind(2, w.decision.toStdString()).run();
        if (db.changes() != 1)
            throw db::Error("review of sample " + std::to_string(w.sampleId) + ": no such sample", 0);
    }
    tx.commit();
}

} // namespace sieve::ui::reviewstore
