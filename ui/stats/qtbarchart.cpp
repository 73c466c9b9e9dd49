#include "ui/stats/qtbarchart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace sieve::ui {

Chart *Chart::createBarChart(QWidget *parent)
{
    return new QtBarChart(parent);
}

QString Chart::tipFor(int series, int index) const
{
    if (series < 0 || series >= m_data.series.size())
        return {};
    const ChartSeries &s = m_data.series.at(series);
    if (index >= 0 && index < s.tips.size() && !s.tips.at(index).isEmpty())
        return s.tips.at(index);
    if (index < 0 || index >= s.values.size() || std::isnan(s.values.at(index)))
        return {};
    return QStringLiteral("%1, %2: %3").arg(s.name, m_data.categories.value(index)).arg(s.values.at(index), 0, 'g', 4);
}

QtBarChart::QtBarChart(QWidget *parent) : Chart(parent), m_view(new QChartView(this))
{
    m_view->setRenderHint(QPainter::Antialiasing);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    setMinimumHeight(180);
    setData({});
}

void QtBarChart::setData(const ChartData &data)
{
    m_data = data;
    auto *chart = new QChart;
    chart->setTitle(data.title);
    chart->setAnimationOptions(QChart::NoAnimation); // calm: no bouncing bars on every selection
    chart->legend()->setVisible(data.series.size() > 1);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *series = new QBarSeries;
    double max = 0;
    for (const ChartSeries &s : data.series) {
        auto *set = new QBarSet(s.name);
        for (double v : s.values) {
            *set << (std::isnan(v) ? 0.0 : v);
            if (!std::isnan(v))
                max = std::max(max, v);
        }
        series->append(set);
    }
    connect(series, &QBarSeries::hovered, this, [this, series](bool on, int index, QBarSet *set) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        const QString tip = tipFor(int(series->barSets().indexOf(set)), index);
        if (!tip.isEmpty())
            QToolTip::showText(QCursor::pos(), tip, m_view);
    });
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(data.categories);
    x->setTitleText(data.categoryAxisTitle);
    // Short bucket labels ("0.5", "1.25") fit; Qt would otherwise elide them to "…" in a narrow pane.
    x->setTruncateLabels(false);
    QFont small = x->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    x->setLabelsFont(small);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis;
    y->setTitleText(data.valueAxisTitle);
    if (data.counts) {
        // Whole-number ticks: small counts get one tick per unit, larger ones Qt's nice numbers.
        const double top = std::max(1.0, std::ceil(max * 1.1));
        y->setRange(0, top);
        y->setLabelFormat(QStringLiteral("%.0f"));
        if (top <= 5)
            y->setTickCount(int(top) + 1);
        else
            y->applyNiceNumbers();
    } else {
        y->setRange(0, max > 0 ? max * 1.1 : 1.0);
        y->setLabelFormat(QStringLiteral("%.3g"));
    }
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    QChart *old = m_view->chart();
    m_view->setChart(chart);
    delete old;
}

} // namespace sieve::ui
