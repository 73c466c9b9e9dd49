#pragma once
// Timing charts: per shape the candidate against eager and torch.compile, the spread of speedups across
// the task's samples, and the corpus-wide histogram.
#include "corpustypes.h"

#include <QPair>
#include <QWidget>

namespace sieve::ui {

class Chart;

class TimingPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimingPanel)
public:
    explicit TimingPanel(QWidget *parent = nullptr);
    void showTimings(const VerdictInfo &verdict);
    void showTaskSpread(const QString &taskName, const QList<double> &speedups);
    void showCorpusHistogram(const QList<QPair<QString, qint64>> &buckets);
    Chart *perShapeChart() const { return m_perShape; }
    Chart *taskSpreadChart() const { return m_taskSpread; }
    Chart *corpusChart() const { return m_corpus; }

private:
    Chart *m_perShape;
    Chart *m_taskSpread;
    Chart *m_corpus;
};

} // namespace sieve::ui
