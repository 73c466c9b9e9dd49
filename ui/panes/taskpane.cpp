#include "ui/panes/taskpane.h"

#include "ui/main/emptystate.h"
#include "ui/main/figures.h"
#include "ui/models/cachedtextdelegate.h"

#include <QEvent>

#include "ui/models/taskfilterproxy.h"
#include "ui/models/taskmodel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMetaObject>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace sieve::ui {

TaskPane::TaskPane(QWidget *parent)
    : QWidget(parent), m_model(new TaskModel(this)), m_proxy(new TaskFilterProxy(this)), m_category(new QComboBox),
      m_level(new QComboBox), m_state(new QComboBox), m_search(new QLineEdit), m_view(new QTreeView),
      m_count(new QLabel), m_empty(new EmptyState(QStringLiteral("taskEmptyLabel")))
{
    setObjectName(QStringLiteral("taskPane"));
    m_category->setObjectName(QStringLiteral("categoryFilter"));
    m_level->setObjectName(QStringLiteral("levelFilter"));
    m_state->setObjectName(QStringLiteral("stateFilter"));
    m_search->setObjectName(QStringLiteral("taskSearch"));
    m_view->setObjectName(QStringLiteral("taskView"));
    m_count->setObjectName(QStringLiteral("taskCount"));

    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new CachedTextDelegate(m_view));
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(TaskModel::ColName, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setMinimumSectionSize(24);
    for (int c = 0; c < TaskModel::ColCount; ++c)
        m_view->header()->setSectionResizeMode(c, c == TaskModel::ColName ? QHeaderView::Stretch
                                                                          : QHeaderView::ResizeToContents);
    // Category and level are the filters above; accepted shows in the tooltip, the number of samples in
    // "reviewed/samples". Keeps the pane narrow.
    m_view->setColumnHidden(TaskModel::ColCategory, true);
    m_view->setColumnHidden(TaskModel::ColSamples, true);
    m_view->setColumnHidden(TaskModel::ColAccepted, true);
    m_view->setColumnHidden(TaskModel::ColLevel, true);

    m_search->setClearButtonEnabled(true);
    for (const char *state : {"", "solved", "pending", "unsolved"})
        m_state->addItem(QString(), QString::fromLatin1(state));
    refreshFilters();

    connect(m_category, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setCategory(m_category->currentData().toString()); });
    connect(m_level, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setLevel(m_level->currentData().toInt()); });
    connect(m_state, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setState(m_state->currentData().toString()); });
    connect(m_search, &QLineEdit::textChanged, m_proxy, &TaskFilterProxy::setNameFilter);
    // The filters narrow the sample table too (and so what a bulk action on the filter touches).
    for (QComboBox *c : {m_category, m_level, m_state})
        connect(c, &QComboBox::currentIndexChanged, this, &TaskPane::announce);
    connect(m_search, &QLineEdit::textChanged, this, &TaskPane::announce);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TaskPane::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &TaskPane::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TaskPane::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &TaskPane::updateCount);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TaskPane::refreshFilters);
    connect(m_empty, &EmptyState::clearRequested, this, &TaskPane::clearFilters);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] { announce(); });

    auto *filters = new QGridLayout;
    filters->setContentsMargins(0, 0, 0, 0);
    filters->addWidget(m_search, 0, 0, 1, 2);
    filters->addWidget(m_category, 1, 0, 1, 2);
    filters->addWidget(m_level, 2, 0);
    filters->addWidget(m_state, 2, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 0, 4);
    layout->addLayout(filters);
    layout->addWidget(m_empty);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_count);
    retranslateUi();
}

void TaskPane::retranslateUi()
{
    m_search->setPlaceholderText(tr("Filter tasks"));
    m_state->setItemText(0, tr("Any state"));
    m_state->setItemText(1, tr("Solved"));
    m_state->setItemText(2, tr("Pending"));
    m_state->setItemText(3, tr("Unsolved"));
    refreshFilters();
    updateCount();
}

void TaskPane::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void TaskPane::refreshFilters()
{
    const QString category = m_category->currentData().toString();
    const int level = m_level->currentData().toInt();
    {
        const QSignalBlocker b1(m_category);
        const QSignalBlocker b2(m_level);
        m_category->clear();
        m_category->addItem(tr("All categories"), QString());
        for (const QString &c : m_model->categories())
            m_category->addItem(c, c);
        m_level->clear();
        m_level->addItem(tr("Any level"), 0);
        for (int l : m_model->levels())
            m_level->addItem(tr("Level %1").arg(l), l);
        m_category->setCurrentIndex(std::max(0, m_category->findData(category)));
        m_level->setCurrentIndex(std::max(0, m_level->findData(level)));
    }
    m_proxy->setCategory(m_category->currentData().toString());
    m_proxy->setLevel(m_level->currentData().toInt());
}

void TaskPane::setTasks(QList<TaskRow> rows)
{
    const QList<qint64> selected = selectedTaskIds();
    const QSignalBlocker block(this);
    m_loading = false;
    m_model->setTasks(std::move(rows));
    QItemSelection sel;
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex i = m_proxy->index(r, 0);
        if (selected.contains(i.data(TaskModel::IdRole).toLongLong()))
            sel.select(i, i);
    }
    m_view->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    // Fresh counts can move tasks in or out of a state filter.
    QMetaObject::invokeMethod(this, &TaskPane::announce, Qt::QueuedConnection);
}

bool TaskPane::filtering() const
{
    return !m_category->currentData().toString().isEmpty() || m_level->currentData().toInt() != 0 ||
           !m_state->currentData().toString().isEmpty() || !m_search->text().trimmed().isEmpty();
}

QList<qint64> TaskPane::shownTaskIds(bool *filtered) const
{
    QList<qint64> ids = selectedTaskIds();
    *filtered = !ids.isEmpty();
    if (ids.isEmpty() && filtering()) {
        *filtered = true;
        for (int r = 0; r < m_proxy->rowCount(); ++r)
            ids << m_proxy->index(r, 0).data(TaskModel::IdRole).toLongLong();
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

void TaskPane::resetFilters()
{
    const QSignalBlocker block(this);
    m_view->selectionModel()->clear();
    m_search->clear();
    for (QComboBox *c : {m_category, m_level, m_state})
        c->setCurrentIndex(0);
    m_announced.clear();
    m_announcedFiltered = false;
}

void TaskPane::clearFilters()
{
    m_search->clear();
    for (QComboBox *c : {m_category, m_level, m_state})
        c->setCurrentIndex(0);
}

void TaskPane::announce()
{
    if (signalsBlocked())
        return; // setTasks restores the selection quietly and announces afterwards
    bool filtered = false;
    const QList<qint64> ids = shownTaskIds(&filtered);
    if (ids == m_announced && filtered == m_announcedFiltered)
        return;
    m_announced = ids;
    m_announcedFiltered = filtered;
    Q_EMIT selectionChanged(ids, filtered);
}

QList<qint64> TaskPane::selectedTaskIds() const
{
    QList<qint64> ids;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows())
        ids << i.data(TaskModel::IdRole).toLongLong();
    return ids;
}

void TaskPane::setLoading(bool loading)
{
    m_loading = loading;
    updateCount();
}

void TaskPane::updateCount()
{
    if (m_loading && m_model->rowCount() == 0) {
        m_count->setText(tr("Reading the corpus's tasks…"));
        m_empty->say({});
        return;
    }
    qint64 samples = 0;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        samples += m_proxy->index(r, 0).data(TaskModel::SamplesRole).toLongLong();
    m_count->setText(
        tr("%1 of %2, %3")
            .arg(figures::number(m_proxy->rowCount()), figures::tasks(m_model->rowCount()), figures::samples(samples)));
    if (m_model->rowCount() == 0)
        m_empty->say(tr("No tasks in this corpus yet. Import tasks and samples with <b>File › Import…</b> "
                        "(Ctrl+I), or drop files onto the window."));
    else if (m_proxy->rowCount() == 0)
        m_empty->say(EmptyState::noMatch(tr("No task matches the filter.")));
    else
        m_empty->say({});
}

} // namespace sieve::ui
