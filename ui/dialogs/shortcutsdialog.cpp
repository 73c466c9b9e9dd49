#include "ui/dialogs/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHeaderView>
#include <QLineEdit>
#include <QMap>
#include <QMenu>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sieve::ui {

namespace {
QString plain(QString text)
{
    // "&Open Corpus…" as the reader sees it; "&&" is a literal ampersand.
    text.replace(QLatin1String("&&"), QChar(0x1));
    text.remove(QLatin1Char('&'));
    text.replace(QChar(0x1), QLatin1Char('&'));
    return text;
}

// The menu that lists the action (its path, "Review › Reason"), else the pane that owns it.
QString groupOf(const QAction *action)
{
    for (QObject *o : action->associatedObjects())
        if (auto *menu = qobject_cast<QMenu *>(o)) {
            QStringList path{plain(menu->title())};
            for (auto *up = qobject_cast<QMenu *>(menu->parent()); up; up = qobject_cast<QMenu *>(up->parent()))
                path.prepend(plain(up->title()));
            return path.join(QStringLiteral(" › "));
        }
    for (QObject *o = action->parent(); o; o = o->parent())
        if (auto *w = qobject_cast<QWidget *>(o); w && !w->accessibleName().isEmpty())
            return w->accessibleName();
    return ShortcutsDialog::tr("Other");
}
} // namespace

ShortcutsDialog::ShortcutsDialog(QWidget *window)
    : QDialog(window), m_window(window), m_filter(new QLineEdit), m_view(new QTreeWidget)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    m_view->setObjectName(QStringLiteral("shortcutsView"));
    m_filter->setObjectName(QStringLiteral("shortcutsFilter"));
    m_filter->setClearButtonEnabled(true);
    m_view->setColumnCount(2);
    m_view->setRootIsDecorated(false);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_view->header()->setStretchLastSection(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int g = 0; g < m_view->topLevelItemCount(); ++g) {
            QTreeWidgetItem *group = m_view->topLevelItem(g);
            int shown = 0;
            for (int i = 0; i < group->childCount(); ++i) {
                QTreeWidgetItem *item = group->child(i);
                const bool match = text.isEmpty() || item->text(0).contains(text, Qt::CaseInsensitive) ||
                                   item->text(1).contains(text, Qt::CaseInsensitive);
                item->setHidden(!match);
                shown += match ? 1 : 0;
            }
            group->setHidden(shown == 0);
        }
    });
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(buttons);
    resize(560, 640);
    reload();
}

void ShortcutsDialog::reload()
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_filter->setPlaceholderText(tr("Find a command or a key"));
    m_view->setHeaderLabels({tr("Command"), tr("Keys")});
    m_view->clear();
    QMap<QString, QTreeWidgetItem *> groups;
    for (QAction *a : m_window->findChildren<QAction *>()) {
        if (a->shortcuts().isEmpty() || a->isSeparator() || a->text().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        const QString group = groupOf(a);
        QTreeWidgetItem *&parent = groups[group];
        if (!parent) {
            parent = new QTreeWidgetItem(m_view, {group});
            QFont bold = parent->font(0);
            bold.setBold(true);
            parent->setFont(0, bold);
            parent->setFirstColumnSpanned(true);
        }
        auto *item = new QTreeWidgetItem(parent, {plain(a->text()), keys.join(QStringLiteral(", "))});
        item->setToolTip(0, a->toolTip());
        item->setData(0, Qt::UserRole, a->objectName());
    }
    // In the order the window made them: the review keys first, then the menus, the reasons by number.
    m_view->expandAll();
}

void ShortcutsDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        reload();
    QDialog::changeEvent(event);
}

} // namespace sieve::ui
