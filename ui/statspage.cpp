#include "statspage.h"

#include "chart.h"
#include "dbthread.h"
#include "stats.h"

#include <QEvent>
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

// Keys are snake_case identifiers; "by_status" reads better as "By status".
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
    m_summary->setText(tr("%1 tasks, %2 samples").arg(scalarText(stats.value("tasks", nlohmann::json(0))),
                                                      scalarText(stats.value("samples", nlohmann::json(0)))));
    QTreeWidgetItem *firstGroup = nullptr;
    for (const auto &[key, value] : stats.items()) {
        addNode(nullptr, QString::fromStdString(key), value, samples, "/" + key);
        if (!firstGroup && allNumbers(value))
            firstGroup = m_tree->topLevelItem(m_tree->topLevelItemCount() - 1);
    }
    if (firstGroup)
        m_tree->setCurrentItem(firstGroup);
    m_tree->resizeColumnToContents(1);
    Q_EMIT statsShown();
}

void StatsPage::addNode(QTreeWidgetItem *parent, const QString &key, const nlohmann::json &value, double total,
                        const std::string &path)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
    item->setText(0, parent ? key : prettyKey(key));
    item->setData(0, Qt::UserRole, key);
    if (value.is_object()) {
        double sum = 0;
        if (allNumbers(value))
            for (const auto &[k, v] : value.items())
                sum += v.get<double>();
        for (const auto &[k, v] : value.items())
            addNode(item, QString::fromStdString(k), v, sum > 0 ? sum : total, path + "/" + k);
        item->setExpanded(!parent);
    } else if (value.is_array()) {
        item->setText(1, tr("%n entries", nullptr, int(value.size())));
        // Arrays (per-task rows: thousands) fill in when opened, so showing the page stays cheap.
        item->setData(0, kPathRole, QString::fromStdString(path));
        item->setData(1, kTotalRole, total);
        if (!value.empty())
            new QTreeWidgetItem(item); // placeholder that makes the item expandable
    } else {
        item->setText(1, scalarText(value));
        if (parent && value.is_number() && total > 0 && parent->parent() == nullptr)
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
    const double total = item->data(1, kTotalRole).toDouble();
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
        addNode(item, label, element, total, path.toStdString() + "/" + std::to_string(index++));
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
