#include "ui/verdict/timingpanel.h"

#include <cmath>

#include "ui/data/corpusqueries.h"
#include "ui/main/emptystate.h"
#include "ui/stats/chart.h"

#include <QEvent>
#include <QSplitter>
#include <QVBoxLayout>

#include <map>

namespace sieve::ui {

TimingPanel::TimingPanel(QWidget *parent)
    : QWidget(parent), m_perShape(Chart::createBarChart()),
      m_noTimings(new EmptyState(QStringLiteral("noTimingsLabel"))), m_taskSpread(Chart::createBarChart()),
      m_corpus(Chart::createBarChart())
{
    setObjectName(QStringLiteral("timingPanel"));
    m_perShape->setObjectName(QStringLiteral("perShapeChart"));
    m_taskSpread->setObjectName(QStringLiteral("taskSpreadChart"));
    m_corpus->setObjectName(QStringLiteral("corpusHistogramChart"));
    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_taskSpread);
    bottom->addWidget(m_corpus);
    // The sample's own chart, or in its place why it has none (no empty axes).
    auto *top = new QWidget;
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_noTimings, 1);
    topLayout->addWidget(m_perShape, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setSizes({400, 400});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    showTimings({});
    showTaskSpread({}, {});
}

void TimingPanel::changeEvent(QEvent *event)
{
    // Chart titles and series names are composed text: draw the same figures again in the new language.
    if (event->type() == QEvent::LanguageChange) {
        showTimings(VerdictInfo(m_verdict));
        showTaskSpread(QString(m_spreadName), QList<double>(m_spread));
        showCorpusHistogram(QList<QPair<QString, qint64>>(m_buckets));
    }
    QWidget::changeEvent(event);
}

void TimingPanel::showTimings(const VerdictInfo &verdict)
{
    m_verdict = verdict;
    // Columns in a fixed order so colours mean the same thing on every sample.
    const QStringList whichOrder{QStringLiteral("candidate"), QStringLiteral("eager"), QStringLiteral("compile")};
    const QStringList names{tr("Candidate"), tr("Eager"), tr("torch.compile")};
    std::map<int, std::map<QString, double>> byShape;
    for (const TimingRow &t : verdict.timings)
        byShape[t.shapeIndex][t.which] = t.medianMs;
    ChartData data;
    data.title =
        verdict.timings.isEmpty() ? whyNoTimings(verdict) : tr("Median time per shape (hover a bar for its spread)");
    data.valueAxisTitle = tr("ms");
    for (const auto &[shape, _] : byShape)
        data.categories << tr("shape %1").arg(shape);
    std::map<std::pair<int, QString>, const TimingRow *> rows;
    for (const TimingRow &t : verdict.timings)
        rows[{t.shapeIndex, t.which}] = &t;
    for (int w = 0; w < whichOrder.size(); ++w) {
        ChartSeries s{names.at(w), {}, {}};
        bool any = false;
        for (const auto &[shape, values] : byShape) {
            const auto it = values.find(whichOrder.at(w));
            s.values << (it == values.end() ? kNoValue : it->second);
            any = any || it != values.end();
            const auto row = rows.find({shape, whichOrder.at(w)});
            if (row == rows.end()) {
                s.tips << QString();
                continue;
            }
            const TimingRow &t = *row->second;
            s.tips << (std::isnan(t.stdMs) ? tr("%1, shape %2: median %3 ms over %4 runs")
                                                 .arg(names.at(w))
                                                 .arg(shape)
                                                 .arg(t.medianMs, 0, 'g', 4)
                                                 .arg(t.runs)
                                           : tr("%1, shape %2: median %3 ms, ± %4 ms (standard deviation) over %5 runs")
                                                 .arg(names.at(w))
                                                 .arg(shape)
                                                 .arg(t.medianMs, 0, 'g', 4)
                                                 .arg(t.stdMs, 0, 'g', 2)
                                                 .arg(t.runs));
        }
        if (any)
            data.series << s;
    }
    m_perShape->setData(data);
    m_perShape->setHidden(verdict.timings.isEmpty());
    m_noTimings->say(verdict.timings.isEmpty() ? QStringLiteral("<b>%1</b>").arg(data.title.toHtmlEscaped())
                                               : QString());
}

QString TimingPanel::whyNoTimings(const VerdictInfo &verdict)
{
    if (!verdict.present)
        return tr("Not timed: this sample has not been verified yet");
    if (verdict.interpreted || verdict.device == QLatin1String("cpu"))
        return tr("Verified on the CPU (Triton's interpreter): no GPU timing. Times there mean nothing; verify on a "
                  "GPU for speedups");
    if (verdict.status != QLatin1String("PASS"))
        return tr("Not timed: only samples that pass every check are timed (this one is %1)").arg(verdict.status);
    return tr("Not timed: the run that verified it had timing turned off");
}

void TimingPanel::showTaskSpread(const QString &taskName, const QList<double> &speedups)
{
    m_spreadName = taskName;
    m_spread = speedups;
    ChartData data;
    data.title = taskName.isEmpty() ? tr("Speedups of the task's samples")
                                    : tr("%1: speedups (%n measured)", nullptr, int(speedups.size())).arg(taskName);
    data.counts = true;
    data.categories = queries::speedupBucketLabels();
    data.valueAxisTitle = tr("samples");
    data.categoryAxisTitle = tr("speedup from");
    ChartSeries s{tr("Samples"), QList<double>(data.categories.size(), 0.0)};
    for (double v : speedups)
        s.values[queries::speedupBucket(v)] += 1.0;
    data.series << s;
    m_taskSpread->setData(data);
}

void TimingPanel::showCorpusHistogram(const QList<QPair<QString, qint64>> &buckets)
{
    m_buckets = buckets;
    ChartData data;
    data.title = tr("Speedups across the corpus");
    data.categoryAxisTitle = tr("speedup from");
    data.counts = true;
    data.valueAxisTitle = tr("samples");
    ChartSeries s{tr("Samples"), {}};
    for (const auto &[label, count] : buckets) {
        data.categories << label;
        s.values << double(count);
    }
    data.series << s;
    m_corpus->setData(data);
}

} // namespace sieve::ui
