#pragma once
// The workbench's translations, embedded as resources (:/i18n/sieve_<lang>.qm).
#include <QList>
#include <QPair>
#include <QString>

#include <functional>

class QCoreApplication;
class QObject;
class QAbstractItemModel;

namespace sieve::ui::language {

// (code, native name); the empty code follows the system.
QList<QPair<QString, QString>> available();
// Installs Sieve's and Qt's own translations for `code` (empty: the system locale), replacing the ones
// installed before, so that a switch in the settings takes effect at once. Returns the language
// actually loaded ("en" when nothing matched).
QString install(QCoreApplication &app, const QString &code);
// The language of the installed translation ("en" when none).
QString current();
// Calls `retranslate` on every QEvent::LanguageChange for as long as `receiver` lives (for item models,
// which are not widgets and get no change event of their own).
void watch(QObject *receiver, std::function<void()> retranslate);
// For a model: announces its headers and cells as changed on a language switch.
void watchModel(QAbstractItemModel *model);

} // namespace sieve::ui::language
