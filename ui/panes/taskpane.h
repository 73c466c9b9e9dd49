#pragma once
// The task list with its filters (category, level, state, name) and counts.
#include "ui/data/corpustypes.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTreeView;

namespace sieve::ui {

class EmptyState;
class TaskFilterProxy;
class TaskModel;

class TaskPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskPane)
public:
    explicit TaskPane(QWidget *parent = nullptr);
    TaskModel *model() const { return m_model; }
    TaskFilterProxy *proxy() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    QList<qint64> selectedTaskIds() const;
    // Replaces the list (fresh counts) and keeps the selection without announcing it again.
    void setTasks(QList<TaskRow> rows);
    void setLoading(bool loading); // until setTasks: the count line says the tasks are being read
    void refreshFilters();
    // Another corpus: no selection, no filter (its tasks are others), quietly; the caller reloads.
    void resetFilters();
    // The reviewer's "clear filter": every filter back to any, announced like a change by hand.
    void clearFilters();

    // The tasks whose samples the sample table shows: the selected ones, else while a filter is set the
    // ones it lets through (filtered), else every task (an empty list, not filtered).
    QList<qint64> shownTaskIds(bool *filtered) const;
    bool filtering() const;

Q_SIGNALS:
    void selectionChanged(const QList<qint64> &taskIds, bool filtered);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateCount();
    bool m_loading = false;
    void announce();
    QList<qint64> m_announced;
    bool m_announcedFiltered = false;

    TaskModel *m_model;
    TaskFilterProxy *m_proxy;
    QComboBox *m_category;
    QComboBox *m_level;
    QComboBox *m_state;
    QLineEdit *m_search;
    QTreeView *m_view;
    QLabel *m_count;
    EmptyState *m_empty;
};

} // namespace sieve::ui
