#include "ui/main/statusstyle.h"

#include <QCoreApplication>

namespace sieve::ui {

QColor statusColor(const QString &status)
{
    if (status == QLatin1String("PASS"))
        return QColor(0x2e, 0x7d, 0x32);
    if (status == QLatin1String("PENDING") || status == QLatin1String("CANCELLED"))
        return QColor(0x75, 0x75, 0x75);
    if (status == QLatin1String("UNVERIFIABLE") || status == QLatin1String("TIMEOUT"))
        return QColor(0xb2, 0x6a, 0x00);
    return QColor(0xc6, 0x28, 0x28);
}

QColor reviewColor(const QString &decision)
{
    if (decision == QLatin1String("accepted"))
        return QColor(0x2e, 0x7d, 0x32);
    if (decision == QLatin1String("rejected"))
        return QColor(0xc6, 0x28, 0x28);
    return {};
}

QString reviewText(const QString &decision)
{
    if (decision == QLatin1String("accepted"))
        return QCoreApplication::translate("sieve::ui::Review", "accepted");
    if (decision == QLatin1String("rejected"))
        return QCoreApplication::translate("sieve::ui::Review", "rejected");
    if (decision.isEmpty() || decision == QLatin1String("none"))
        return {};
    return decision;
}

} // namespace sieve::ui
