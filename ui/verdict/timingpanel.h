#pragma once
// Timing charts: per shape the candidate against eager and torch.compile, the spread of speedups across
// the task's samples, and the corpus-wide histogram.
#include "ui/data/corpustypes.h"

#include <QPair>
#include <QWidget>

namespace sieve::ui {

class Chart;
class EmptyState;

class TimingPanel final : public QWidget
{
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
    // Shown instead of the per-shape chart when the sample has no timings: why (on the CPU, not verified...).
    EmptyState *noTimings() const { return m_noTimings; }
    // Why a verdict has no timings (not verified, the CPU, a failure, timing off), for the empty chart.
    static QString whyNoTimings(const VerdictInfo &verdict);

protected:
    void changeEvent(QEvent *event) override;

private:
    Chart *m_perShape;
    EmptyState *m_noTimings;
    Chart *m_taskSpread;
    Chart *m_corpus;
    VerdictInfo m_verdict; // what the charts show, for a re-render in another language
    QString m_spreadName;
    QList<double> m_spread;
    QList<QPair<QString, qint64>> m_buckets;
};

} // namespace sieve::ui
