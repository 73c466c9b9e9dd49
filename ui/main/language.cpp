#include "ui/main/language.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QEvent>
#include <QLibraryInfo>
#include <QLocale>
#include <QPointer>
#include <QTranslator>

namespace sieve::ui::language {

QList<QPair<QString, QString>> available()
{
    return {{QString(), QCoreApplication::translate("sieve::ui::language", "System language")},
            {QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("de"), QStringLiteral("Deutsch")}};
}

namespace {
// The translators this module installed; a switch removes them first. Removing or installing one
// makes Qt send QEvent::LanguageChange to every widget, which retranslates itself (retranslateUi).
QPointer<QTranslator> g_own;
QPointer<QTranslator> g_qt;

void uninstall()
{
    for (QPointer<QTranslator> *t : {&g_own, &g_qt})
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete t->data();
        }
}
} // namespace

QString install(QCoreApplication &app, const QString &code)
{
    uninstall();
    const QLocale locale = code.isEmpty() ? QLocale::system() : QLocale(code);
    QLocale::setDefault(locale);
    auto *own = new QTranslator(&app);
    if (!own->load(locale, QStringLiteral("sieve"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        delete own;
        // English is the source language; widgets that showed another one must still switch back.
        QEvent change(QEvent::LanguageChange);
        QCoreApplication::sendEvent(&app, &change);
        return QStringLiteral("en");
    }
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        g_qt = qt;
    } else {
        delete qt;
    }
    QCoreApplication::installTranslator(own);
    g_own = own;
    return locale.name().section(QLatin1Char('_'), 0, 0);
}

QString current()
{
    return g_own ? g_own->language().section(QLatin1Char('_'), 0, 0) : QStringLiteral("en");
}

void watch(QObject *receiver, std::function<void()> retranslate)
{
    // Non-widgets (item models) get no LanguageChange of their own: the application object does.
    class Filter final : public QObject
    {
    public:
        Filter(QObject *parent, std::function<void()> fn) : QObject(parent), m_fn(std::move(fn)) {}
        bool eventFilter(QObject *watched, QEvent *event) override
        {
            // A filter on the application sees every object's events: only the application's own counts.
            if (event->type() == QEvent::LanguageChange && watched == QCoreApplication::instance())
                m_fn();
            return false;
        }

    private:
        std::function<void()> m_fn;
    };
    QCoreApplication::instance()->installEventFilter(new Filter(receiver, std::move(retranslate)));
}

} // namespace sieve::ui::language

namespace sieve::ui::language {

void watchModel(QAbstractItemModel *model)
{
    watch(model, [model] {
        const int columns = model->columnCount();
        const int rows = model->rowCount();
        if (columns > 0)
            Q_EMIT model->headerDataChanged(Qt::Horizontal, 0, columns - 1);
        if (rows > 0 && columns > 0)
            Q_EMIT model->dataChanged(model->index(0, 0), model->index(rows - 1, columns - 1));
    });
}

} // namespace sieve::ui::language
