#include "ui/models/taskfilterproxy.h"

#include "ui/models/taskmodel.h"

namespace sieve::ui {

TaskFilterProxy::TaskFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortCaseSensitivity(Qt::CaseInsensitive);
    m_collator.setNumericMode(true);
    m_collator.setCaseSensitivity(Qt::CaseInsensitive);
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
    const QVariant l = left.data(Qt::DisplayRole);
    const QVariant r = right.data(Qt::DisplayRole);
    if (left.column() != TaskModel::ColName && left.column() != TaskModel::ColCategory)
        return l.toLongLong() < r.toLongLong();
    return m_collator.compare(l.toString(), r.toString()) < 0;
}

} // namespace sieve::ui
