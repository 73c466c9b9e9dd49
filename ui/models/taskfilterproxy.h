#pragma once
// Filters the task list by category, level, state and a name substring; sorts numerically by role,
// names in natural order ("2" before "10": KernelBench names its tasks by number).
#include <QSortFilterProxyModel>

namespace sieve::ui {

class TaskFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskFilterProxy)
public:
    explicit TaskFilterProxy(QObject *parent = nullptr);
    void setCategory(const QString &category); // empty: any
    void setLevel(int level);                  // 0: any
    void setState(const QString &state);       // empty: any
    void setNameFilter(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_category;
    int m_level = 0;
    QString m_state;
    QString m_name;
};

} // namespace sieve::ui
