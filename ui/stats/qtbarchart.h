#pragma once
// The Qt Charts implementation of Chart.
#include "ui/stats/chart.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace sieve::ui {

class QtBarChart final : public Chart
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(QtBarChart)
public:
    explicit QtBarChart(QWidget *parent = nullptr);
    void setData(const ChartData &data) override;

private:
    QChartView *m_view;
};

} // namespace sieve::ui
