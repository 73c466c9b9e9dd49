#pragma once
// The sample table with its SQL-side filters (status, review, text), its count and the review bar, and
// saved views: a named filter + sort + columns (order, widths, hidden ones), kept in the settings.
#include "ui/data/corpustypes.h"

#include <QWidget>

class QComboBox;
class QToolButton;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace sieve::ui {

class DbThread;
class ReviewBar;
class Settings;
class EmptyState;
class SampleModel;

class SamplePane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SamplePane)
public:
    SamplePane(DbThread *reader, DbThread *writer, QWidget *parent = nullptr);
    SampleModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    ReviewBar *reviewBar() const { return m_review; }
    // The tasks whose samples show; filtered: the list is the whole set even when empty.
    void setTasks(const QList<qint64> &taskIds, bool filtered = false);
    void setStatuses(const QStringList &statuses);
    QList<qint64> selectedSampleIds() const;
    // Selects these samples when the table holds all of them; false (and no selection) otherwise.
    bool selectSamples(const QList<qint64> &ids);
    // Another corpus: the filters go back to "any" without a query (the caller sets the tasks).
    void resetFilters();
    // The reviewer's "clear filter": status, review and both searches back to any, and the table follows.
    void clearFilters();
    bool filtering() const;

    // Saved views (need setSettings): save the current one under a name (replacing one of that name),
    // apply or delete one by name.
    void setSettings(Settings *settings);
    QStringList savedViewNames() const;
    void saveView(const QString &name);
    bool applyView(const QString &name);
    void deleteView(const QString &name);
    void setColumnVisible(int column, bool visible);

Q_SIGNALS:
    void selectionChanged(const QList<qint64> &sampleIds);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void applyFilters();
    SampleQuery filteredQuery() const; // the model's query with the pane's filters
    void updateCount();
    void reloadViewNames(const QString &current = QString());
    void showColumnMenu(const QPoint &pos);

    SampleModel *m_model;
    QTableView *m_view;
    QComboBox *m_status;
    QComboBox *m_reviewFilter;
    QComboBox *m_judgeFilter; // the teacher judge's suggestion (sieve-cli judge)
    QLineEdit *m_search;
    QLineEdit *m_codeSearch;
    QLabel *m_count;
    EmptyState *m_empty;
    ReviewBar *m_review;
    QTimer *m_searchDelay;
    QComboBox *m_views;
    QToolButton *m_saveView;
    QToolButton *m_deleteView;
    Settings *m_settings = nullptr;
    QList<qint64> m_tasks;
    bool m_tasksFiltered = false;
};

} // namespace sieve::ui
