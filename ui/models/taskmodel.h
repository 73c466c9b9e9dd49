#pragma once
// Tasks with their sample counts; the whole list is small (thousands), so it is held in memory.
#include "ui/data/corpustypes.h"

#include <QAbstractTableModel>

namespace sieve::ui {

class TaskModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskModel)
public:
    enum Column { ColName, ColLevel, ColCategory, ColSamples, ColPassed, ColAccepted, ColReviewed, ColCount };
    enum Role {
        IdRole = Qt::UserRole + 1,
        LevelRole,
        CategoryRole,
        StateRole, // "solved", "pending" or "unsolved": what the status filter matches
        SamplesRole,
        ReviewedRole, // accepted + rejected
    };
    Q_ENUM(Role)

    explicit TaskModel(QObject *parent = nullptr);
    void setTasks(QList<TaskRow> rows);
    const QList<TaskRow> &tasks() const { return m_rows; }
    QStringList categories() const;
    QList<int> levels() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    static QString state(const TaskRow &row);

private:
    QList<TaskRow> m_rows;
};

} // namespace sieve::ui
