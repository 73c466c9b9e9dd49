#pragma once
// Writes review decisions: each appends a row to the `reviews` history and sets `samples.review`, all
// in one transaction. Mirrors core/review.h (written in parallel); the lead will keep one of the two.
#include <QList>
#include <QString>

namespace sieve::db {
class Database;
}

namespace sieve::ui {

struct ReviewWrite {
    qint64 sampleId = 0;
    QString decision; // "accept", "reject" or "none" (cleared)
    QString reason;
    QString note;
};

namespace reviewstore {
// Throws db::Error; nothing is written unless everything is.
void write(db::Database &db, const QList<ReviewWrite> &writes, const QString &reviewer);
} // namespace reviewstore

} // namespace sieve::ui
