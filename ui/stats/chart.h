#pragma once
// Our charting interface: views hand over plain data and never see the plotting library, so Qt Charts
// can be replaced (e.g. by KDAB's KChart or QCustomPlot) in one file.
#include <QStringList>
#include <QWidget>

namespace sieve::ui {

struct ChartSeries
{
    QString name;
    QList<double> values; // one per category; NaN: no bar
    QStringList tips;     // one per category, shown when the bar is hovered (empty: name and value)
};

struct ChartData
{
    QString title;
    QStringList categories;
    QList<ChartSeries> series;
    QString valueAxisTitle;
    QString categoryAxisTitle;
    bool counts = false; // whole numbers: integer ticks
};

class Chart : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Chart)
public:
    // A grouped bar chart: one group per category, one bar per series.
    static Chart *createBarChart(QWidget *parent = nullptr);
    virtual void setData(const ChartData &data) = 0;
    const ChartData &data() const { return m_data; }
    // What hovering bar `index` of series `series` shows.
    QString tipFor(int series, int index) const;

protected:
    explicit Chart(QWidget *parent) : QWidget(parent) {}
    ChartData m_data;
};

} // namespace sieve::ui
