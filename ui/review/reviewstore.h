#pragma once
// The workbench's review writes, through core/review/review.h so that the window and `sieve-cli review` share
// one implementation: each write appends to the `reviews` history and sets `samples.review`, all in one
// transaction.
#include <QList>
#include <QString>

namespace sieve::db {
class Database;
}

namespace sieve::ui {

struct ReviewWrite
{
    qint64 sampleId = 0;
    QString decision; // samples.review's vocabulary: "accepted", "rejected" or "none" (cleared)
    QString reason;
    QString note;
};

namespace reviewstore {
// Throws (db::Error, std::runtime_error); nothing is written unless everything is.
void write(db::Database &db, const QList<ReviewWrite> &writes, const QString &reviewer);
} // namespace reviewstore

} // namespace sieve::ui
