#pragma once
// The workbench's translations, embedded as resources (:/i18n/sieve_<lang>.qm).
#include <QList>
#include <QPair>
#include <QString>

class QCoreApplication;

namespace sieve::ui::language {

// (code, native name); the empty code follows the system.
QList<QPair<QString, QString>> available();
// Installs Sieve's and Qt's own translations for `code` (empty: the system locale). Returns the
// language actually loaded ("en" when nothing matched).
QString install(QCoreApplication &app, const QString &code);

} // namespace sieve::ui::language
