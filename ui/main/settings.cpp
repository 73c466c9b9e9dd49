#include "ui/main/settings.h"

#include <QFileInfo>

namespace sieve::ui {

namespace {
constexpr int kMaxRecent = 8;
}

Settings::Settings(const QString &iniFile, QObject *parent)
    : QObject(parent), m_store(iniFile.isEmpty() ? std::make_unique<QSettings>()
                                                 : std::make_unique<QSettings>(iniFile, QSettings::IniFormat))
{
}

Settings::~Settings() = default;

void Settings::addRecentCorpus(const QString &path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = recentCorpora.value();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent)
        list.removeLast();
    recentCorpora.setValue(list);
}

QString Settings::effectiveReviewer() const
{
    const QString name = reviewer.value();
    if (!name.isEmpty())
        return name;
    const QString user = qEnvironmentVariable("USER");
    return user.isEmpty() ? QStringLiteral("reviewer") : user;
}

} // namespace sieve::ui
