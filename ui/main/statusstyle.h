#pragma once
// One place for how verification statuses and review decisions look, so every view agrees.
#include <QColor>
#include <QString>

namespace sieve::ui {

QColor statusColor(const QString &status);
QColor reviewColor(const QString &decision);
QString reviewText(const QString &decision); // translated; "none" shows as empty

} // namespace sieve::ui
