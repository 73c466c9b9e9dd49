#include "ui/models/taskmodel.h"

#include "ui/main/figures.h"
#include "ui/main/language.h"

#include <algorithm>

namespace sieve::ui {

TaskModel::TaskModel(QObject *parent) : QAbstractTableModel(parent)
{
    language::watchModel(this); // headers and composed cells follow a language switch
}

void TaskModel::setTasks(QList<TaskRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

QStringList TaskModel::categories() const
{
    QStringList out;
    for (const TaskRow &r : m_rows)
        if (!r.category.isEmpty() && !out.contains(r.category))
            out << r.category;
    out.sort();
    return out;
}

QList<int> TaskModel::levels() const
{
    QList<int> out;
    for (const TaskRow &r : m_rows)
        if (r.level > 0 && !out.contains(r.level))
            out << r.level;
    std::sort(out.begin(), out.end());
    return out;
}

int TaskModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int TaskModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColCount;
}

QString TaskModel::state(const TaskRow &row)
{
    if (row.passed > 0)
        return QStringLiteral("solved");
    if (row.pending > 0)
        return QStringLiteral("pending");
    return QStringLiteral("unsolved");
}

QVariant TaskModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TaskRow &r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ColName:
            return r.name;
        case ColLevel:
            return r.level > 0 ? QVariant(r.level) : QVariant();
        case ColCategory:
            return r.category;
        case ColSamples:
            return r.samples;
        case ColPassed:
            return r.passed;
        case ColAccepted:
            return r.accepted;
        case ColReviewed:
            // The reviewer's progress at a glance: reviewed of all (the tooltip has the rest).
            return QStringLiteral("%1/%2").arg(figures::number(r.accepted + r.rejected), figures::number(r.samples));
        }
        return {};
    case Qt::ToolTipRole:
        return tr("%1: %2, %3 passed, %4 pending\n%5")
            .arg(r.name, figures::samples(r.samples), figures::number(r.passed), figures::number(r.pending),
                 figures::progress({r.samples, r.accepted, r.rejected}));
    case Qt::TextAlignmentRole:
        return index.column() == ColName || index.column() == ColCategory ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                          : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case IdRole:
        return r.id;
    case LevelRole:
        return r.level;
    case CategoryRole:
        return r.category;
    case StateRole:
        return state(r);
    case SamplesRole:
        return r.samples;
    case ReviewedRole:
        return r.accepted + r.rejected;
    }
    return {};
}

QVariant TaskModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ColName:
        return tr("Task");
    case ColLevel:
        return tr("Level");
    case ColCategory:
        return tr("Category");
    case ColSamples:
        return tr("Samples");
    case ColPassed:
        return tr("Passed");
    case ColAccepted:
        return tr("Accepted");
    case ColReviewed:
        return tr("Reviewed");
    }
    return {};
}

QHash<int, QByteArray> TaskModel::roleNames() const
{
    auto names = QAbstractTableModel::roleNames();
    names.insert(IdRole, "taskId");
    names.insert(LevelRole, "level");
    names.insert(CategoryRole, "category");
    names.insert(StateRole, "state");
    names.insert(SamplesRole, "samples");
    return names;
}

} // namespace sieve::ui
