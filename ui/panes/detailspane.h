#pragma once
// The right-hand side: the compared code, the reasoning trace, the verdict, timing charts and the review
// history of the current sample. Loads what it shows on the database thread.
#include "ui/data/corpustypes.h"

#include <QTabWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTimer;
class QTreeWidget;

namespace sieve::ui {

class ComparisonView;
class DbThread;
class PtxView;
class TimingPanel;
class VerdictPanel;

class DetailsPane final : public QTabWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DetailsPane)
public:
    enum Tab { CodeTab, ReasoningTab, VerdictTab, TimingTab, HistoryTab, PtxTab };
    // Per-sample loads go to `reader`; task- and corpus-wide figures to `aggregates`.
    DetailsPane(DbThread *reader, DbThread *aggregates, QWidget *parent = nullptr);

    // Shows up to three samples side by side (the view says how many more were selected); the reasoning,
    // verdict, timing and history tabs show one of them, chosen in the variant selector (A first).
    // The ids become the pane's target at once (review actions read targetIds()); the load that fills
    // the tabs is coalesced, so holding J does not queue a load per row.
    void showSamples(const QList<qint64> &ids);
    void showVariant(int index);
    int currentVariant() const;
    void refresh() { showSamples(m_all); }
    // What review actions apply to: every id given to showSamples, of which sampleIds() are shown.
    const QList<qint64> &targetIds() const { return m_all; }
    // The width of three code panes must not widen the window: the splitter gives the pane its room.
    QSize minimumSizeHint() const override;
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
    void load();
    void apply(QList<SampleDetail> details);
    void showHistory(const QList<ReviewEntry> &history);
    // The teacher's parts, labelled as the teacher's: the judge's suggestion above the verdict, and
    // teacher-written reasoning (with its provenance) when the sample has none of its own.
    void showTeacher(const SampleDetail &d);
    void updatePtxTab();

    DbThread *m_reader;
    DbThread *m_aggregates;
    ComparisonView *m_comparison;
    QPlainTextEdit *m_reasoning;
    VerdictPanel *m_verdict;
    QLabel *m_judge;           // the judge's verdict, confidence and model; a link shows the quoted lines
    QLabel *m_judgeLines;      // the quoted lines, shown on demand
    QLabel *m_reasoningSource; // "teacher-written" and its provenance, when the reasoning is the teacher's
    TimingPanel *m_timing;
    QTreeWidget *m_history;
    PtxView *m_ptx;
    QComboBox *m_variant;
    QList<qint64> m_ids;
    QList<qint64> m_all;
    QTimer *m_loadDelay;
    QList<SampleDetail> m_details;
    qint64 m_spreadTask = -1;
    quint64 m_job = 0;
    quint64 m_spreadJob = 0;
};

} // namespace sieve::ui
