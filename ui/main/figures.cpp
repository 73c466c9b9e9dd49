#include "ui/main/figures.h"

#include <QCoreApplication>
#include <QLocale>

namespace sieve::ui {
// The translation context of these free functions.
class Figures
{
    Q_DECLARE_TR_FUNCTIONS(sieve::ui::Figures)
};
} // namespace sieve::ui

namespace sieve::ui::figures {

QString number(qint64 n)
{
    return QLocale().toString(n);
}

QString samples(qint64 n)
{
    return n == 1 ? Figures::tr("1 sample") : Figures::tr("%1 samples").arg(number(n));
}

QString tasks(qint64 n)
{
    return n == 1 ? Figures::tr("1 task") : Figures::tr("%1 tasks").arg(number(n));
}

QString rows(qint64 n)
{
    return n == 1 ? Figures::tr("1 row") : Figures::tr("%1 rows").arg(number(n));
}

QString progress(const ReviewProgress &p)
{
    return Figures::tr("%1 of %2 reviewed · %3 accepted · %4 rejected · %5 to do")
        .arg(number(p.reviewed()), number(p.samples), number(p.accepted), number(p.rejected), number(p.toDo()));
}

} // namespace sieve::ui::figures
