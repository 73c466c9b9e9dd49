#include "ui/clusters/clusterpage.h"

#include "ui/clusters/clustermodels.h"
#include "ui/data/corpusqueries.h"
#include "ui/data/dbthread.h"
#include "ui/editors/codeeditor.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace sieve::ui {

namespace {
void setUpTable(QTableView *v)
{
    v->setSelectionBehavior(QAbstractItemView::SelectRows);
    v->setAlternatingRowColors(true);
    v->setShowGrid(false);
    v->verticalHeader()->setVisible(false);
    v->horizontalHeader()->setStretchLastSection(true);
    v->setWordWrap(false);
    v->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
}
} // namespace

void ClusterPage::retranslateUi()
{
    m_compare->setText(tr("&Compare Selected"));
    m_compare->setToolTip(tr("Open two or three selected members side by side"));
    m_empty->setText(tr("No duplicate clusters in this corpus yet. Run <tt>sieve-cli dedup</tt> to find them."));
    updateKeepButton();
    m_keep->setToolTip(tr("Keep the selected member (else the cluster's representative) and reject the others: "
                          "duplicates as \"duplicate\", failing ones as \"incorrect\" (undo with Ctrl+Z)"));
}

void ClusterPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

ClusterPage::ClusterPage(DbThread *reader, QWidget *parent)
    : QWidget(parent), m_reader(reader), m_clusters(new ClusterModel(this)), m_members(new ClusterMemberModel(this)),
      m_clusterView(new QTableView), m_memberView(new QTableView), m_compare(new QPushButton), m_keep(new QPushButton),
      m_empty(new QLabel), m_keeping(new QLabel), m_codeLayout(new QVBoxLayout)
{
    setObjectName(QStringLiteral("clusterPage"));
    m_clusterView->setObjectName(QStringLiteral("clusterView"));
    m_memberView->setObjectName(QStringLiteral("clusterMemberView"));
    m_compare->setObjectName(QStringLiteral("compareMembersButton"));
    m_empty->setObjectName(QStringLiteral("clusterEmptyLabel"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_keeping->setObjectName(QStringLiteral("representativeLabel"));
    m_keeping->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // a long name never widens the page
    m_compare->setEnabled(false);
    m_keep->setObjectName(QStringLiteral("keepRepresentativeButton"));
    m_keep->setEnabled(false);
    connect(m_keep, &QPushButton::clicked, this, &ClusterPage::keepRepresentative);
    retranslateUi();

    m_clusterView->setModel(m_clusters);
    m_memberView->setModel(m_members);
    setUpTable(m_clusterView);
    setUpTable(m_memberView);
    m_clusterView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_memberView->setSelectionMode(QAbstractItemView::ExtendedSelection);

    connect(m_clusterView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid()) {
                    m_cluster = current.data(ClusterModel::IdRole).toLongLong();
                    loadMembers(m_cluster);
                }
            });
    connect(m_memberView->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const auto n = selectedMembers().size();
        m_compare->setEnabled(n >= 2 && n <= 3);
        updateKeepButton();
    });
    connect(m_compare, &QPushButton::clicked, this, [this] { Q_EMIT compareRequested(selectedMembers()); });
    connect(m_memberView, &QTableView::doubleClicked, this, [this](const QModelIndex &i) {
        Q_EMIT compareRequested({i.data(ClusterMemberModel::IdRole).toLongLong()});
    });

    auto *top = new QWidget;
    auto *rv = new QVBoxLayout(top);
    rv->setContentsMargins(0, 0, 0, 0);
    rv->addWidget(m_memberView, 1);
    m_keeping->setWordWrap(true);
    rv->addWidget(m_keeping);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_keep);
    buttons->addWidget(m_compare);
    rv->addLayout(buttons);
    // Below the members: the code of the one that would be kept, read before deciding.
    auto *codeHolder = new QWidget;
    codeHolder->setLayout(m_codeLayout);
    m_codeLayout->setContentsMargins(0, 0, 0, 0);
    auto *right = new QSplitter(Qt::Vertical);
    right->addWidget(top);
    right->addWidget(codeHolder);
    right->setSizes({300, 500});
    right->setChildrenCollapsible(false);
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_clusterView);
    split->addWidget(right);
    split->setStretchFactor(1, 2);
    split->setSizes({360, 900});
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_empty);
    layout->addWidget(split, 1);
}

void ClusterPage::refresh()
{
    const quint64 job = ++m_job;
    m_reader->post(
        this, [](const db::Database &db) { return queries::clusters(db, -1); },
        [this, job](QList<ClusterRow> rows) {
            if (job != m_job)
                return;
            m_empty->setVisible(rows.isEmpty());
            m_clusters->setClusters(std::move(rows));
            m_clusterView->resizeColumnsToContents();
            m_members->setMembers({});
            m_keep->setEnabled(false);
            m_cluster = -1;
            showRepresentative(-1);
            if (m_clusters->rowCount() > 0)
                m_clusterView->selectRow(0);
        });
}

void ClusterPage::loadMembers(qint64 clusterId)
{
    const quint64 job = ++m_memberJob;
    m_reader->post(
        this, [clusterId](const db::Database &db) { return queries::clusterMembers(db, clusterId); },
        [this, job](QList<ClusterMember> rows) {
            if (job != m_memberJob)
                return;
            m_members->setMembers(std::move(rows));
            m_memberView->resizeColumnsToContents();
            updateKeepButton();
        });
}

void ClusterPage::reloadMembers()
{
    if (m_cluster >= 0)
        loadMembers(m_cluster);
}

qint64 ClusterPage::chosenRepresentative() const
{
    const QList<qint64> selected = selectedMembers();
    if (selected.size() == 1)
        return selected.first();
    for (const ClusterMember &m : m_members->members())
        if (m.representative)
            return m.sampleId;
    return -1;
}

void ClusterPage::updateKeepButton()
{
    const qint64 keep = chosenRepresentative();
    const bool chosen = selectedMembers().size() == 1;
    m_keep->setText(chosen ? tr("&Keep #%1, Reject the Rest").arg(keep) : tr("&Keep Representative, Reject the Rest"));
    m_keep->setEnabled(keep >= 0 && m_members->members().size() > 1);
    showRepresentative(keep);
}

void ClusterPage::showRepresentative(qint64 sampleId)
{
    QString name, status;
    for (const ClusterMember &m : m_members->members())
        if (m.sampleId == sampleId) {
            name = m.name;
            status = m.status;
        }
    m_keeping->setText(sampleId < 0 ? QString()
                                    : tr("Keeps #%1 %2 (%3); select another member to keep it instead")
                                          .arg(sampleId)
                                          .arg(name, status.isEmpty() ? tr("not verified") : status));
    m_keeping->setToolTip(m_keeping->text());
    if (sampleId == m_shown)
        return;
    m_shown = sampleId;
    const quint64 job = ++m_codeJob;
    if (sampleId < 0) {
        delete m_code;
        m_code = nullptr;
        return;
    }
    m_reader->post(
        this, [sampleId](const db::Database &db) { return queries::detail(db, sampleId); },
        [this, job](SampleDetail d) {
            if (job != m_codeJob)
                return;
            delete m_code;
            m_code = CodeEditor::create(d.row.backend, d.code);
            m_code->setObjectName(QStringLiteral("representativeCode"));
            m_code->setReadOnly(true);
            m_codeLayout->addWidget(m_code);
        });
}

void ClusterPage::keepRepresentative()
{
    const qint64 representative = chosenRepresentative();
    QList<ClusterMember> others;
    for (const ClusterMember &m : m_members->members())
        if (m.sampleId != representative && m.review != QLatin1String("rejected"))
            others << m;
    if (representative < 0 || others.isEmpty())
        return;
    Q_EMIT rejectDuplicatesRequested(representative, m_cluster, others);
}

QList<qint64> ClusterPage::selectedMembers() const
{
    QList<qint64> ids;
    if (!m_memberView->selectionModel())
        return ids; // retranslateUi runs before the view gets its model
    for (const QModelIndex &i : m_memberView->selectionModel()->selectedRows())
        ids << i.data(ClusterMemberModel::IdRole).toLongLong();
    return ids;
}

} // namespace sieve::ui
