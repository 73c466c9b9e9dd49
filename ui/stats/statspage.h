#pragma once
// Corpus statistics as core/select/stats.h computes them (corpusStats JSON). Rendered generically: whatever
// keys the stats grow (pass@k, fast_p, failure taxonomy) show up without a change here; picking a
// group of counts charts it.
#include <QWidget>

#include <nlohmann/json.hpp>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace sieve::ui {

class Chart;
class DbThread;

class StatsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StatsPage)
public:
    StatsPage(DbThread *reader, QWidget *parent = nullptr);
    void refresh();
    void showStats(nlohmann::json stats); // kept: taken by value so a fresh result moves in
    QTreeWidget *tree() const { return m_tree; }
    Chart *chart() const { return m_chart; }
    // What a figure's key (pass_at_k, samples_without_answer...) is called in the window.
    static QString keyLabel(const QString &key);

Q_SIGNALS:
    void statsShown();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    static constexpr int kPathRole = Qt::UserRole + 1; // JSON pointer of an array not filled in yet
    void addNode(QTreeWidgetItem *parent, const QString &key, const nlohmann::json &value, double total,
                 const std::string &path, bool verbatim);
    void fillArray(QTreeWidgetItem *item);
    void chartItem(QTreeWidgetItem *item);

    DbThread *m_reader;
    QLabel *m_summary;
    QTreeWidget *m_tree;
    Chart *m_chart;
    nlohmann::json m_stats;
    quint64 m_job = 0;
};

} // namespace sieve::ui
