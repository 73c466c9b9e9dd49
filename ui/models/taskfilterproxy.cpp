#include "ui/models/taskfilterproxy.h"

#include "ui/models/taskmodel.h"

namespace sieve::ui {

namespace {
// Natural order (1, 2, 10, 100), case-insensitive, by hand: QCollator's numeric mode does nothing in the C
// locale that CI and many servers run under.
bool naturalLess(const QString &a, const QString &b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            QStringView na = QStringView(a).mid(i, ei - i), nb = QStringView(b).mid(j, ej - j);
            while (na.size() > 1 && na.front() == u'0')
                na = na.mid(1);
            while (nb.size() > 1 && nb.front() == u'0')
                nb = nb.mid(1);
            if (na.size() != nb.size())
                return na.size() < nb.size();
            if (const int c = na.compare(nb); c != 0)
                return c < 0;
            i = ei;
            j = ej;
            continue;
        }
        const QChar ca = a[i].toCaseFolded(), cb = b[j].toCaseFolded();
        if (ca != cb)
            return ca < cb;
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}
} // namespace

TaskFilterProxy::TaskFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void TaskFilterProxy::setCategory(const QString &category)
{
    if (m_category == category)
        return;
    m_category = category;
    invalidateFilter();
}

void TaskFilterProxy::setLevel(int level)
{
    if (m_level == level)
        return;
    m_level = level;
    invalidateFilter();
}

void TaskFilterProxy::setState(const QString &state)
{
    if (m_state == state)
        return;
    m_state = state;
    invalidateFilter();
}

void TaskFilterProxy::setNameFilter(const QString &text)
{
    if (m_name == text)
        return;
    m_name = text;
    invalidateFilter();
}

bool TaskFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_category.isEmpty() && idx.data(TaskModel::CategoryRole).toString() != m_category)
        return false;
    if (m_level > 0 && idx.data(TaskModel::LevelRole).toInt() != m_level)
        return false;
    if (!m_state.isEmpty() && idx.data(TaskModel::StateRole).toString() != m_state)
        return false;
    if (!m_name.isEmpty() && !idx.data(Qt::DisplayRole).toString().contains(m_name, Qt::CaseInsensitive))
        return false;
    return true;
}

bool TaskFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const int role = left.column() == TaskModel::ColReviewed ? int(TaskModel::ReviewedRole) : int(Qt::DisplayRole);
    const QVariant l = left.data(role);
    const QVariant r = right.data(role);
    if (left.column() != TaskModel::ColName && left.column() != TaskModel::ColCategory)
        return l.toLongLong() < r.toLongLong();
    return naturalLess(l.toString(), r.toString());
}

} // namespace sieve::ui
