#pragma once
// Figures as a reader wants them: thousands separators in the language shown ("12,345", "12.345"), and
// "1 sample" / "2 samples" (Qt's %n leaves English's "sample(s)" without an English translation file).
#include <QString>

namespace sieve::ui::figures {

// n with the shown language's group separators.
QString number(qint64 n);
// "1 sample", "2,345 samples"; tasks, rows and tasks in the same way.
QString samples(qint64 n);
QString tasks(qint64 n);
QString rows(qint64 n);

// Review progress, overall or of one task.
struct ReviewProgress
{
    qint64 samples = 0, accepted = 0, rejected = 0;
    qint64 reviewed() const { return accepted + rejected; }
    qint64 toDo() const { return samples - reviewed(); }
};
// "3 of 9 reviewed · 2 accepted · 1 rejected · 6 to do"
QString progress(const ReviewProgress &p);

} // namespace sieve::ui::figures
