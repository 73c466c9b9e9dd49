#include "ui/panes/samplepane.h"

#include "ui/main/emptystate.h"
#include "ui/main/figures.h"

#include "ui/models/cachedtextdelegate.h"

#include <QEvent>

#include "ui/main/settings.h"
#include "ui/models/samplemodel.h"
#include "ui/review/reviewbar.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace sieve::ui {

SamplePane::SamplePane(DbThread *reader, DbThread *writer, QWidget *parent)
    : QWidget(parent), m_model(new SampleModel(reader, this)), m_view(new QTableView), m_status(new QComboBox),
      m_reviewFilter(new QComboBox), m_judgeFilter(new QComboBox), m_search(new QLineEdit), m_codeSearch(new QLineEdit),
      m_count(new QLabel), m_empty(new EmptyState(QStringLiteral("sampleEmptyLabel"))), m_review(nullptr),
      m_searchDelay(new QTimer(this)), m_views(new QComboBox), m_saveView(new QToolButton),
      m_deleteView(new QToolButton)
{
    setObjectName(QStringLiteral("samplePane"));
    m_view->setObjectName(QStringLiteral("sampleView"));
    m_status->setObjectName(QStringLiteral("statusFilter"));
    m_reviewFilter->setObjectName(QStringLiteral("reviewFilter"));
    m_judgeFilter->setObjectName(QStringLiteral("judgeFilter"));
    m_judgeFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // Values are core/store/corpusbrowse.h's SampleFilter::judge.
    for (const char *judge : {"", "implements", "flagged", "unsure", "unparseable", "unjudged"})
        m_judgeFilter->addItem(QString(), QString::fromLatin1(judge));
    m_search->setObjectName(QStringLiteral("sampleSearch"));
    m_codeSearch->setObjectName(QStringLiteral("codeSearch"));
    m_status->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_reviewFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_codeSearch->setClearButtonEnabled(true);
    m_count->setObjectName(QStringLiteral("sampleCount"));

    m_view->setModel(m_model);
    m_view->setItemDelegate(new CachedTextDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->horizontalHeader()->setSortIndicator(0, Qt::AscendingOrder);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle); // names differ at both ends
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

    m_views->setObjectName(QStringLiteral("savedViews"));
    m_views->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_saveView->setObjectName(QStringLiteral("saveViewButton"));
    m_deleteView->setObjectName(QStringLiteral("deleteViewButton"));
    m_views->setEnabled(false);
    m_saveView->setEnabled(false);
    m_deleteView->setEnabled(false);
    connect(m_views, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            applyView(m_views->itemText(index));
        m_deleteView->setEnabled(index > 0);
    });
    connect(m_saveView, &QToolButton::clicked, this, [this] {
        bool ok = false;
        const QString name =
            QInputDialog::getText(this, tr("Save View"), tr("Name of the view (filter, sort and columns):"),
                                  QLineEdit::Normal, m_views->currentIndex() > 0 ? m_views->currentText() : QString(),
                                  &ok)
                .trimmed();
        if (ok && !name.isEmpty())
            saveView(name);
    });
    connect(m_deleteView, &QToolButton::clicked, this, [this] {
        if (m_views->currentIndex() > 0)
            deleteView(m_views->currentText());
    });
    // The header's context menu shows and hides columns (part of a saved view).
    m_view->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view->horizontalHeader(), &QHeaderView::customContextMenuRequested, this, &SamplePane::showColumnMenu);

    connect(m_status, &QComboBox::currentIndexChanged, this, &SamplePane::applyFilters);
    connect(m_reviewFilter, &QComboBox::currentIndexChanged, this, &SamplePane::applyFilters);
    connect(m_judgeFilter, &QComboBox::currentIndexChanged, this, &SamplePane::applyFilters);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_codeSearch, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_searchDelay, &QTimer::timeout, this, &SamplePane::applyFilters);
    connect(m_empty, &EmptyState::clearRequested, this, &SamplePane::clearFilters);
    connect(m_model, &SampleModel::totalCountChanged, this, &SamplePane::updateCount);
    connect(m_model, &SampleModel::pageLoaded, this, &SamplePane::updateCount);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { Q_EMIT selectionChanged(selectedSampleIds()); });
    // A reset (filter, sort, another corpus) drops the selection without a selectionChanged: say so,
    // or the details pane would go on showing (and A acting on) a sample the table no longer has.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { Q_EMIT selectionChanged(selectedSampleIds()); });

    auto *filters = new QHBoxLayout;
    filters->setContentsMargins(0, 0, 0, 0);
    filters->addWidget(m_search, 1);
    filters->addWidget(m_codeSearch, 1);
    filters->addWidget(m_status);
    filters->addWidget(m_reviewFilter);
    filters->addWidget(m_judgeFilter);
    auto *views = new QHBoxLayout;
    views->setContentsMargins(0, 0, 0, 0);
    views->addWidget(m_views);
    views->addWidget(m_saveView);
    views->addWidget(m_deleteView);
    views->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    layout->addLayout(views);
    layout->addLayout(filters);
    layout->addWidget(m_empty);
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
    m_judgeFilter->setItemText(0, tr("Any judge"));
    m_judgeFilter->setItemText(1, tr("Judge: implements"));
    m_judgeFilter->setItemText(2, tr("Judge: delegates or wrong"));
    m_judgeFilter->setItemText(3, tr("Judge: unsure"));
    m_judgeFilter->setItemText(4, tr("Judge: unparseable"));
    m_judgeFilter->setItemText(5, tr("Not judged"));
    m_judgeFilter->setToolTip(tr("The teacher judge's suggestion (sieve-cli judge): whether the code implements "
                                 "the operator itself; never the verifier's verdict"));
    m_search->setPlaceholderText(tr("Filter by sample or teacher"));
    m_codeSearch->setPlaceholderText(tr("Search code and reasoning"));
    m_codeSearch->setToolTip(tr("Samples whose code or reasoning contains this text (any case); within a task it is "
                                "quick, over a whole large corpus it takes seconds"));
    if (m_views->count() == 0)
        m_views->addItem(QString());
    m_views->setItemText(0, tr("(no saved view)"));
    m_views->setToolTip(tr("Saved views: a filter, a sort and the columns shown"));
    m_saveView->setText(tr("Save View…"));
    m_saveView->setToolTip(tr("Save the filter, sort and columns under a name"));
    m_deleteView->setText(tr("Delete View"));
    // Headers and filters in the new language fit (German words are long): no "Begutachtun" cut off.
    const QFontMetrics fm(m_view->horizontalHeader()->font());
    for (int c = 0; c < m_model->columnCount(); ++c) {
        const int need = fm.horizontalAdvance(m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString()) + 28;
        if (m_view->columnWidth(c) < need)
            m_view->setColumnWidth(c, need);
    }
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

SampleQuery SamplePane::filteredQuery() const
{
    SampleQuery q = m_model->query();
    q.taskIds = m_tasks;
    q.tasksFiltered = m_tasksFiltered;
    q.status = m_status->currentData().toString();
    q.review = m_reviewFilter->currentData().toString();
    q.judge = m_judgeFilter->currentData().toString();
    q.text = m_search->text().trimmed();
    q.codeText = m_codeSearch->text().trimmed();
    return q;
}

void SamplePane::applyFilters()
{
    m_model->setQuery(filteredQuery());
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

bool SamplePane::selectSamples(const QList<qint64> &ids)
{
    QItemSelection selection;
    for (qint64 id : ids) {
        const int row = m_model->rowOf(id);
        if (row < 0) {
            m_view->selectionModel()->clear();
            return false;
        }
        selection.select(m_model->index(row, 0), m_model->index(row, m_model->columnCount() - 1));
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!ids.isEmpty()) {
        const QModelIndex first = m_model->index(m_model->rowOf(ids.first()), 0);
        m_view->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
        m_view->scrollTo(first);
    }
    return true;
}

void SamplePane::resetFilters()
{
    const QSignalBlocker b1(m_status), b2(m_reviewFilter), b3(m_search), b4(m_codeSearch), b5(m_judgeFilter);
    m_status->setCurrentIndex(0);
    m_reviewFilter->setCurrentIndex(0);
    m_judgeFilter->setCurrentIndex(0);
    m_search->clear();
    m_codeSearch->clear();
    m_searchDelay->stop();
    m_tasks.clear();
    m_tasksFiltered = false;
}

void SamplePane::clearFilters()
{
    {
        const QSignalBlocker b1(m_status), b2(m_reviewFilter), b3(m_search), b4(m_codeSearch);
        m_status->setCurrentIndex(0);
        m_reviewFilter->setCurrentIndex(0);
        m_search->clear();
        m_codeSearch->clear();
    }
    m_searchDelay->stop();
    applyFilters();
}

bool SamplePane::filtering() const
{
    return m_status->currentIndex() > 0 || m_reviewFilter->currentIndex() > 0 || !m_search->text().isEmpty() ||
           !m_codeSearch->text().isEmpty();
}

void SamplePane::updateCount()
{
    const qint64 total = m_model->totalCount();
    m_count->setText(total < 0
                         ? tr("Counting…")
                         : tr("%1, %2 loaded").arg(figures::samples(total), figures::number(m_model->rowCount())));
    if (total != 0)
        m_empty->say({});
    else if (filtering())
        m_empty->say(EmptyState::noMatch(tr("No sample matches the filter.")));
    else if (m_tasksFiltered || !m_tasks.isEmpty())
        m_empty->say(tr("The chosen tasks have no samples yet. Sample some with <b>Corpus › Sample from "
                        "Teacher…</b> or import them with <b>File › Import…</b>."));
    else
        m_empty->say(tr("No samples in this corpus yet. Import them with <b>File › Import…</b> (Ctrl+I)."));
}

namespace {
QJsonArray viewsOf(const Settings *settings)
{
    return settings ? QJsonDocument::fromJson(settings->savedViews.value()).array() : QJsonArray();
}
} // namespace

void SamplePane::setSettings(Settings *settings)
{
    m_settings = settings;
    m_views->setEnabled(settings != nullptr);
    m_saveView->setEnabled(settings != nullptr);
    reloadViewNames();
}

QStringList SamplePane::savedViewNames() const
{
    QStringList names;
    for (const QJsonValue &v : viewsOf(m_settings))
        names << v.toObject().value(QStringLiteral("name")).toString();
    return names;
}

void SamplePane::reloadViewNames(const QString &current)
{
    const QSignalBlocker block(m_views);
    while (m_views->count() > 1)
        m_views->removeItem(1);
    for (const QString &n : savedViewNames())
        m_views->addItem(n);
    m_views->setCurrentIndex(std::max(0, m_views->findText(current)));
    m_deleteView->setEnabled(m_views->currentIndex() > 0);
}

void SamplePane::saveView(const QString &name)
{
    if (!m_settings || name.isEmpty())
        return;
    const SampleQuery &q = m_model->query();
    QJsonObject view{
        {QStringLiteral("name"), name},
        {QStringLiteral("status"), m_status->currentData().toString()},
        {QStringLiteral("review"), m_reviewFilter->currentData().toString()},
        {QStringLiteral("text"), m_search->text()},
        {QStringLiteral("code"), m_codeSearch->text()},
        {QStringLiteral("sort"), q.sortColumn},
        {QStringLiteral("order"), q.order == Qt::AscendingOrder ? QStringLiteral("asc") : QStringLiteral("desc")},
        {QStringLiteral("header"), QString::fromLatin1(m_view->horizontalHeader()->saveState().toBase64())}};
    QJsonArray views;
    for (const QJsonValue &v : viewsOf(m_settings))
        if (v.toObject().value(QStringLiteral("name")).toString() != name)
            views.append(v);
    views.append(view);
    m_settings->savedViews.setValue(QJsonDocument(views).toJson(QJsonDocument::Compact));
    reloadViewNames(name);
}

bool SamplePane::applyView(const QString &name)
{
    for (const QJsonValue &v : viewsOf(m_settings)) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("name")).toString() != name)
            continue;
        // The header first (columns, widths), then the sort and the filters: one query at the end.
        m_view->horizontalHeader()->restoreState(
            QByteArray::fromBase64(o.value(QStringLiteral("header")).toString().toLatin1()));
        {
            const QSignalBlocker b1(m_status), b2(m_reviewFilter), b3(m_search), b4(m_codeSearch);
            const QString status = o.value(QStringLiteral("status")).toString();
            if (!status.isEmpty() && m_status->findData(status) < 0)
                m_status->addItem(status, status); // a status this corpus has none of yet
            m_status->setCurrentIndex(std::max(0, m_status->findData(status)));
            m_reviewFilter->setCurrentIndex(
                std::max(0, m_reviewFilter->findData(o.value(QStringLiteral("review")).toString())));
            m_search->setText(o.value(QStringLiteral("text")).toString());
            m_codeSearch->setText(o.value(QStringLiteral("code")).toString());
        }
        const Qt::SortOrder order = o.value(QStringLiteral("order")).toString() == QLatin1String("asc")
                                        ? Qt::AscendingOrder
                                        : Qt::DescendingOrder;
        const int column = o.value(QStringLiteral("sort")).toInt();
        SampleQuery q = filteredQuery();
        q.sortColumn = column;
        q.order = order;
        {
            const QSignalBlocker block(m_view->horizontalHeader());
            m_view->horizontalHeader()->setSortIndicator(column, order);
        }
        m_model->setQuery(q);
        reloadViewNames(name);
        return true;
    }
    return false;
}

void SamplePane::deleteView(const QString &name)
{
    if (!m_settings)
        return;
    QJsonArray views;
    for (const QJsonValue &v : viewsOf(m_settings))
        if (v.toObject().value(QStringLiteral("name")).toString() != name)
            views.append(v);
    m_settings->savedViews.setValue(QJsonDocument(views).toJson(QJsonDocument::Compact));
    reloadViewNames();
}

void SamplePane::setColumnVisible(int column, bool visible)
{
    m_view->horizontalHeader()->setSectionHidden(column, !visible);
}

void SamplePane::showColumnMenu(const QPoint &pos)
{
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("columnsMenu"));
    for (int c = 0; c < m_model->columnCount(); ++c) {
        QAction *a = menu.addAction(m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
        a->setCheckable(true);
        a->setChecked(!m_view->horizontalHeader()->isSectionHidden(c));
        a->setEnabled(c != queries::ColName); // the sample's name always shows
        connect(a, &QAction::toggled, this, [this, c](bool on) { setColumnVisible(c, on); });
    }
    menu.exec(m_view->horizontalHeader()->mapToGlobal(pos));
}

} // namespace sieve::ui
