#pragma once
// The right-hand side: the compared code, the reasoning trace, the verdict, timing charts and the review
// history of the current sample. Loads what it shows on the database thread.
#include "corpustypes.h"

#include <QTabWidget>

class QPlainTextEdit;
class QTreeWidget;

namespace sieve::ui {

class ComparisonView;
class DbThread;
class PtxView;
class TimingPanel;
class VerdictPanel;

class DetailsPane final : public QTabWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DetailsPane)
public:
    enum Tab { CodeTab, ReasoningTab, VerdictTab, TimingTab, HistoryTab, PtxTab };
    // Per-sample loads go to `reader`; task- and corpus-wide figures to `aggregates`.
    DetailsPane(DbThread *reader, DbThread *aggregates, QWidget *parent = nullptr);

    // Shows up to three samples; the first is the one whose verdict, reasoning and history show.
    void showSamples(const QList<qint64> &ids);
    void refresh() { showSamples(m_ids); }
    void refreshCorpusCharts();
    void clear();
    const QList<qint64> &sampleIds() const { return m_ids; }
    const QList<SampleDetail> &details() const { return m_details; }
    ComparisonView *comparison() const { return m_comparison; }
    PtxView *ptxView() const { return m_ptx; }

Q_SIGNALS:
    void detailsShown();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void apply(QList<SampleDetail> details);
    void showHistory(const QList<ReviewEntry> &history);

    DbThread *m_reader;
    DbThread *m_aggregates;
    ComparisonView *m_comparison;
    QPlainTextEdit *m_reasoning;
    VerdictPanel *m_verdict;
    TimingPanel *m_timing;
    QTreeWidget *m_history;
    PtxView *m_ptx;
    QList<qint64> m_ids;
    QList<SampleDetail> m_details;
    qint64 m_spreadTask = -1;
    quint64 m_job = 0;
    quint64 m_spreadJob = 0;
};

} // namespace sieve::ui
