#include "language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace sieve::ui::language {

QList<QPair<QString, QString>> available()
{
    return {{QString(), QCoreApplication::translate("sieve::ui::language", "System language")},
            {QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("de"), QStringLiteral("Deutsch")}};
}

QString install(QCoreApplication &app, const QString &code)
{
    const QLocale locale = code.isEmpty() ? QLocale::system() : QLocale(code);
    auto *own = new QTranslator(&app);
    if (!own->load(locale, QStringLiteral("sieve"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        delete own;
        return QStringLiteral("en");
    }
    QCoreApplication::installTranslator(own);
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    QLocale::setDefault(locale);
    return locale.name().section(QLatin1Char('_'), 0, 0);
}

} // namespace sieve::ui::language
