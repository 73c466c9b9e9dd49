#include "samplepane.h"

#include "cachedtextdelegate.h"

#include <QEvent>

#include "reviewbar.h"
#include "samplemodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace sieve::ui {

SamplePane::SamplePane(DbThread *reader, DbThread *writer, QWidget *parent)
    : QWidget(parent), m_model(new SampleModel(reader, this)), m_view(new QTableView), m_status(new QComboBox),
      m_reviewFilter(new QComboBox), m_search(new QLineEdit), m_count(new QLabel), m_review(nullptr),
      m_searchDelay(new QTimer(this))
{
    setObjectName(QStringLiteral("samplePane"));
    m_view->setObjectName(QStringLiteral("sampleView"));
    m_status->setObjectName(QStringLiteral("statusFilter"));
    m_reviewFilter->setObjectName(QStringLiteral("reviewFilter"));
    m_search->setObjectName(QStringLiteral("sampleSearch"));
    m_count->setObjectName(QStringLiteral("sampleCount"));

    m_view->setModel(m_model);
    m_view->setItemDelegate(new CachedTextDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->horizontalHeader()->setSortIndicator(0, Qt::AscendingOrder);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    m_view->verticalHeader()->setVisible(false);
    // Fixed row heights: the view never measures a million rows.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->setColumnWidth(queries::ColId, 64);
    m_view->setColumnWidth(queries::ColName, 120);
    m_view->setColumnWidth(queries::ColStatus, 112);
    m_view->setColumnWidth(queries::ColSpeedup, 64);
    m_view->setColumnWidth(queries::ColAttempt, 56);
    m_view->setColumnWidth(queries::ColModel, 96);
    m_view->setColumnWidth(queries::ColCluster, 56);
    m_view->setColumnWidth(queries::ColReview, 76);
    m_view->setColumnWidth(queries::ColReviewer, 88);
    m_view->setColumnWidth(queries::ColReason, 150);
    // The reviewer and reason columns do not sort (no index): a click on them keeps the current order.
    connect(m_view->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this](int column, Qt::SortOrder) {
        if (column >= queries::kSortableColumns) {
            const QSignalBlocker block(m_view->horizontalHeader());
            m_view->horizontalHeader()->setSortIndicator(m_model->query().sortColumn, m_model->query().order);
        }
    });
    // The decision is what a reviewer scans for: keep it next to the status, always in view.
    m_view->horizontalHeader()->moveSection(queries::ColReview, queries::ColStatus + 1);

    m_status->addItem(QString(), QString());
    for (const char *review : {"", "none", "accepted", "rejected"})
        m_reviewFilter->addItem(QString(), QString::fromLatin1(review));
    m_search->setClearButtonEnabled(true);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(250); // type-ahead without a query per keystroke

    m_review = new ReviewBar(reader, writer, m_model, m_view, this);

    connect(m_status, &QComboBox::currentIndexChanged, this, &SamplePane::applyFilters);
    connect(m_reviewFilter, &QComboBox::currentIndexChanged, this, &SamplePane::applyFilters);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_searchDelay, &QTimer::timeout, this, &SamplePane::applyFilters);
    connect(m_model, &SampleModel::totalCountChanged, this, &SamplePane::updateCount);
    connect(m_model, &SampleModel::pageLoaded, this, &SamplePane::updateCount);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { Q_EMIT selectionChanged(selectedSampleIds()); });

    auto *filters = new QHBoxLayout;
    filters->setContentsMargins(0, 0, 0, 0);
    filters->addWidget(m_search, 1);
    filters->addWidget(m_status);
    filters->addWidget(m_reviewFilter);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    layout->addLayout(filters);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_review);
    layout->addWidget(m_count);
    retranslateUi();
}

void SamplePane::retranslateUi()
{
    m_status->setItemText(0, tr("Any status"));
    m_reviewFilter->setItemText(0, tr("Any review"));
    m_reviewFilter->setItemText(1, tr("Unreviewed"));
    m_reviewFilter->setItemText(2, tr("Accepted"));
    m_reviewFilter->setItemText(3, tr("Rejected"));
    m_search->setPlaceholderText(tr("Filter by sample or teacher"));
    updateCount();
}

void SamplePane::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SamplePane::setTasks(const QList<qint64> &taskIds, bool filtered)
{
    m_tasks = taskIds;
    m_tasksFiltered = filtered;
    applyFilters();
}

void SamplePane::setStatuses(const QStringList &statuses)
{
    const QString current = m_status->currentData().toString();
    const QSignalBlocker block(m_status);
    while (m_status->count() > 1)
        m_status->removeItem(1);
    for (const QString &s : statuses)
        m_status->addItem(s, s);
    m_status->setCurrentIndex(std::max(0, m_status->findData(current)));
}

void SamplePane::applyFilters()
{
    SampleQuery q = m_model->query();
    q.taskIds = m_tasks;
    q.tasksFiltered = m_tasksFiltered;
    q.status = m_status->currentData().toString();
    q.review = m_reviewFilter->currentData().toString();
    q.text = m_search->text().trimmed();
    m_model->setQuery(q);
}

QList<qint64> SamplePane::selectedSampleIds() const
{
    QList<qint64> ids;
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &i : rows)
        ids << i.data(SampleModel::IdRole).toLongLong();
    return ids;
}

void SamplePane::updateCount()
{
    const qint64 total = m_model->totalCount();
    m_count->setText(total < 0 ? tr("Counting…")
                               : tr("%n sample(s), %1 loaded", nullptr, int(std::min<qint64>(total, INT_MAX)))
                                     .arg(m_model->rowCount()));
}

} // namespace sieve::ui
