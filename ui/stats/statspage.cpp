#include "ui/stats/statspage.h"

#include "core/select/stats.h"
#include "ui/data/dbthread.h"
#include "ui/stats/chart.h"

#include <QEvent>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace sieve::ui {

namespace {
QString scalarText(const nlohmann::json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number_float())
        return QString::number(v.get<double>(), 'g', 4);
    if (v.is_null())
        return QStringLiteral("–");
    return QString::fromStdString(v.dump());
}

// Keys are snake_case identifiers; one without a label of its own reads "by_x" as "By x".
QString prettyKey(const QString &key)
{
    QString s = key;
    s.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!s.isEmpty())
        s[0] = s[0].toUpper();
    return s;
}

bool allNumbers(const nlohmann::json &obj)
{
    if (!obj.is_object() || obj.empty())
        return false;
    for (const auto &[k, v] : obj.items())
        if (!v.is_number())
            return false;
    return true;
}
} // namespace

StatsPage::StatsPage(DbThread *reader, QWidget *parent)
    : QWidget(parent), m_reader(reader), m_summary(new QLabel), m_tree(new QTreeWidget),
      m_chart(Chart::createBarChart())
{
    setObjectName(QStringLiteral("statsPage"));
    m_summary->setObjectName(QStringLiteral("statsSummary"));
    m_tree->setObjectName(QStringLiteral("statsTree"));
    m_chart->setObjectName(QStringLiteral("statsChart"));
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) { chartItem(item); });
    connect(m_tree, &QTreeWidget::itemExpanded, this, &StatsPage::fillArray);

    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_tree);
    split->addWidget(m_chart);
    split->setStretchFactor(1, 1);
    split->setSizes({440, 900});
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    retranslateUi();
}

QString StatsPage::keyLabel(const QString &key)
{
    // The figures corpusStats and verificationStats report, named for a reader (and translated).
    static const QHash<QString, const char *> labels{
        {QStringLiteral("tasks"), QT_TR_NOOP("Tasks")},
        {QStringLiteral("samples"), QT_TR_NOOP("Samples")},
        {QStringLiteral("samples_without_answer"), QT_TR_NOOP("Samples without an answer")},
        {QStringLiteral("by_status"), QT_TR_NOOP("By status")},
        {QStringLiteral("by_review"), QT_TR_NOOP("By review")},
        {QStringLiteral("by_backend"), QT_TR_NOOP("By backend")},
        {QStringLiteral("by_category"), QT_TR_NOOP("By category")},
        {QStringLiteral("by_level"), QT_TR_NOOP("By level")},
        {QStringLiteral("by_reason"), QT_TR_NOOP("By reason")},
        {QStringLiteral("per_task"), QT_TR_NOOP("Per task")},
        {QStringLiteral("verified"), QT_TR_NOOP("Verified")},
        {QStringLiteral("passed"), QT_TR_NOOP("Passed")},
        {QStringLiteral("tasks_verified"), QT_TR_NOOP("Tasks verified")},
        {QStringLiteral("pass_at_k"), QT_TR_NOOP("pass@k (share of tasks)")},
        {QStringLiteral("fast_p"), QT_TR_NOOP("fast_p (share of tasks)")},
        {QStringLiteral("geomean_speedup"), QT_TR_NOOP("Geometric mean speedup")},
        {QStringLiteral("speedup_samples"), QT_TR_NOOP("Samples with a speedup")},
        {QStringLiteral("failures"), QT_TR_NOOP("Failures")},
        {QStringLiteral("metrics"), QT_TR_NOOP("Metrics")},
        {QStringLiteral("metrics_by"), QT_TR_NOOP("Metrics by group")},
        {QStringLiteral("scope"), QT_TR_NOOP("Scope")},
        {QStringLiteral("task"), QT_TR_NOOP("Task")},
        {QStringLiteral("accepted"), QT_TR_NOOP("Accepted")},
        {QStringLiteral("rejected"), QT_TR_NOOP("Rejected")},
        {QStringLiteral("pending"), QT_TR_NOOP("Pending")},
        {QStringLiteral("level"), QT_TR_NOOP("Level")},
        {QStringLiteral("category"), QT_TR_NOOP("Category")},
    };
    const auto it = labels.constFind(key);
    return it == labels.constEnd() ? prettyKey(key) : tr(it.value());
}

void StatsPage::retranslateUi()
{
    m_tree->setHeaderLabels({tr("Figure"), tr("Value"), tr("Share")});
    // The summary and the shares are composed text: render the figures already computed again.
    if (!m_stats.is_null())
        showStats(nlohmann::json(m_stats));
}

void StatsPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void StatsPage::refresh()
{
    const quint64 job = ++m_job;
    m_summary->setText(tr("Computing statistics…"));
    m_reader->post(
        this, [](Corpus &corpus) { return corpusStats(corpus); },
        [this, job](nlohmann::json stats) {
            if (job == m_job)
                showStats(std::move(stats));
        });
}

void StatsPage::showStats(nlohmann::json fresh)
{
    m_tree->clear();
    // Moved, not copied: per-task arrays make this document large, and a copy is GUI-thread time.
    m_stats = std::move(fresh);
    const nlohmann::json &stats = m_stats;
    const double samples = stats.value("samples", 0.0);
    m_summary->setText(tr("%1 tasks, %2 samples")
                           .arg(scalarText(stats.value("tasks", nlohmann::json(0))),
                                scalarText(stats.value("samples", nlohmann::json(0)))));
    QTreeWidgetItem *firstGroup = nullptr;
    for (const auto &[key, value] : stats.items()) {
        addNode(nullptr, QString::fromStdString(key), value, samples, "/" + key, false);
        if (!firstGroup && allNumbers(value))
            firstGroup = m_tree->topLevelItem(m_tree->topLevelItemCount() - 1);
    }
    if (firstGroup)
        m_tree->setCurrentItem(firstGroup);
    m_tree->resizeColumnToContents(1);
    Q_EMIT statsShown();
}

void StatsPage::addNode(QTreeWidgetItem *parent, const QString &key, const nlohmann::json &value, double total,
                        const std::string &path, bool verbatim)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
    // The keys of a "by_x" group are values (a status, a category): shown as they are, like list labels.
    item->setText(0, verbatim ? key : keyLabel(key));
    item->setData(0, Qt::UserRole, key);
    const bool group = key.startsWith(QLatin1String("by_"));
    if (value.is_object()) {
        // A by_x group partitions something countable: its members get their share of the group's sum.
        // Other objects (pass@k, fast_p, per-task rows) hold rates or mixed figures: shares would be noise.
        double sum = 0;
        if (group && allNumbers(value))
            for (const auto &[k, v] : value.items())
                sum += v.get<double>();
        for (const auto &[k, v] : value.items())
            addNode(item, QString::fromStdString(k), v, sum, path + "/" + k, group);
        item->setExpanded(!parent);
    } else if (value.is_array()) {
        item->setText(1, tr("%n entries", nullptr, int(value.size())));
        // Arrays (per-task rows: thousands) fill in when opened, so showing the page stays cheap.
        item->setData(0, kPathRole, QString::fromStdString(path));
        if (!value.empty())
            new QTreeWidgetItem(item); // placeholder that makes the item expandable
    } else {
        item->setText(1, scalarText(value));
        if (parent && value.is_number() && total > 0)
            item->setText(2, tr("%1%").arg(100.0 * value.get<double>() / total, 0, 'f', 1));
    }
}

void StatsPage::fillArray(QTreeWidgetItem *item)
{
    const QString path = item->data(0, kPathRole).toString();
    if (path.isEmpty())
        return;
    item->setData(0, kPathRole, QVariant());
    qDeleteAll(item->takeChildren());
    const nlohmann::json &value = m_stats.at(nlohmann::json::json_pointer(path.toStdString()));
    size_t index = 0;
    for (const auto &element : value) {
        // Label each entry by its first text field (e.g. the task name of per_task rows).
        QString label = QString::number(index + 1);
        if (element.is_object())
            for (const auto &[k, v] : element.items())
                if (v.is_string()) {
                    label = QString::fromStdString(v.get<std::string>());
                    break;
                }
        addNode(item, label, element, 0, path.toStdString() + "/" + std::to_string(index++), true);
    }
}

void StatsPage::chartItem(QTreeWidgetItem *item)
{
    if (!item || item->childCount() == 0 || item->data(0, kPathRole).isValid())
        return;
    ChartData data;
    data.title = item->text(0);
    ChartSeries s{item->text(0), {}};
    for (int i = 0; i < item->childCount(); ++i) {
        bool ok = false;
        const double v = item->child(i)->text(1).toDouble(&ok);
        if (!ok)
            return; // not a group of counts
        data.categories << item->child(i)->text(0);
        s.values << v;
    }
    data.series << s;
    data.counts = true;
    for (double v : s.values)
        data.counts = data.counts && v == std::floor(v);
    m_chart->setData(data);
}

} // namespace sieve::ui
