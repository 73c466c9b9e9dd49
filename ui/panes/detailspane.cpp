#include "ui/panes/detailspane.h"

#include "ui/compare/comparisonview.h"
#include "ui/compare/ptxview.h"
#include "ui/data/corpusqueries.h"
#include "ui/data/dbthread.h"
#include "ui/main/statusstyle.h"
#include "ui/verdict/timingpanel.h"
#include "ui/verdict/verdictpanel.h"

#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sieve::ui {

DetailsPane::DetailsPane(DbThread *reader, DbThread *aggregates, QWidget *parent)
    : QTabWidget(parent), m_reader(reader), m_aggregates(aggregates), m_comparison(new ComparisonView),
      m_reasoning(new QPlainTextEdit), m_verdict(new VerdictPanel), m_judge(new QLabel), m_judgeLines(new QLabel),
      m_reasoningSource(new QLabel), m_timing(new TimingPanel), m_history(new QTreeWidget), m_ptx(new PtxView),
      m_variant(new QComboBox), m_loadDelay(new QTimer(this))
{
    m_loadDelay->setSingleShot(true);
    m_loadDelay->setInterval(30);
    connect(m_loadDelay, &QTimer::timeout, this, &DetailsPane::load);
    setObjectName(QStringLiteral("detailsTabs"));
    setDocumentMode(true);
    m_reasoning->setObjectName(QStringLiteral("reasoningView"));
    m_reasoning->setReadOnly(true);
    m_history->setObjectName(QStringLiteral("historyView"));
    m_history->setRootIsDecorated(false);
    // The reasoning and verdict tabs carry a line of the teacher's above them (hidden when there is none).
    auto stacked = [](QLabel *top, QWidget *below, QLabel *extra = nullptr) {
        auto *page = new QWidget;
        auto *layout = new QVBoxLayout(page);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(2);
        for (QLabel *l : {top, extra}) {
            if (!l)
                continue;
            l->setWordWrap(true);
            l->setTextInteractionFlags(Qt::TextBrowserInteraction);
            l->setContentsMargins(6, 2, 6, 2);
            l->hide();
            layout->addWidget(l);
        }
        layout->addWidget(below, 1);
        return page;
    };
    m_judge->setObjectName(QStringLiteral("judgeLine"));
    m_judgeLines->setObjectName(QStringLiteral("judgeQuotedLines"));
    m_judgeLines->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_reasoningSource->setObjectName(QStringLiteral("reasoningSource"));
    connect(m_judge, &QLabel::linkActivated, this, [this] { m_judgeLines->setVisible(!m_judgeLines->isVisible()); });
    for (QWidget *page : {static_cast<QWidget *>(m_comparison), stacked(m_reasoningSource, m_reasoning),
                          stacked(m_judge, m_verdict, m_judgeLines), static_cast<QWidget *>(m_timing),
                          static_cast<QWidget *>(m_history), static_cast<QWidget *>(m_ptx)})
        addTab(page, QString());
    m_variant->setObjectName(QStringLiteral("variantSelector"));
    // Long sample names must not widen the pane: the selector shows about 24 characters.
    m_variant->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_variant->setMinimumContentsLength(24);
    m_variant->hide();
    setCornerWidget(m_variant, Qt::TopRightCorner);
    connect(m_variant, &QComboBox::activated, this, &DetailsPane::showVariant);
    retranslateUi();
    connect(m_verdict, &VerdictPanel::lineActivated, this, [this](int line) {
        setCurrentIndex(CodeTab);
        m_comparison->jumpToLine(line, currentVariant());
    });
}

void DetailsPane::retranslateUi()
{
    setTabText(CodeTab, tr("&Code"));
    setTabText(ReasoningTab, tr("R&easoning"));
    setTabText(VerdictTab, tr("&Verdict"));
    setTabText(TimingTab, tr("&Timing"));
    setTabText(HistoryTab, tr("&History"));
    setTabText(PtxTab, tr("&PTX/SASS"));
    updatePtxTab();
    m_reasoning->setPlaceholderText(tr("The teacher gave no reasoning trace for this sample."));
    m_history->setHeaderLabels({tr("When"), tr("Reviewer"), tr("Decision"), tr("Reason"), tr("Note")});
    // The verdict and the history are composed from data: render them again in the new language (the
    // comparison, the charts and the PTX view do so themselves).
    m_variant->setToolTip(tr("Which of the compared samples the reasoning, verdict, timing and history tabs show"));
    if (!m_details.isEmpty()) {
        const SampleDetail &d = m_details.at(currentVariant());
        m_verdict->showVerdict(d.verdict);
        showHistory(d.history);
        showTeacher(d);
    }
}

void DetailsPane::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QTabWidget::changeEvent(event);
}

void DetailsPane::clear()
{
    ++m_job;
    m_loadDelay->stop();
    m_ids.clear();
    m_all.clear();
    m_details.clear();
    m_comparison->clear();
    m_reasoning->clear();
    m_verdict->clear();
    for (QLabel *l : {m_judge, m_judgeLines, m_reasoningSource}) {
        l->clear();
        l->hide();
    }
    m_timing->showTimings({});
    m_history->clear();
    m_ptx->clear();
    updatePtxTab();
    m_variant->clear();
    m_variant->hide();
}

QSize DetailsPane::minimumSizeHint() const
{
    return {std::min(QTabWidget::minimumSizeHint().width(), 320), QTabWidget::minimumSizeHint().height()};
}

void DetailsPane::showSamples(const QList<qint64> &ids)
{
    if (ids.isEmpty()) {
        clear();
        return;
    }
    m_all = ids;
    m_ids = ids.mid(0, ComparisonView::kMaxVariants);
    ++m_job;
    m_loadDelay->start();
}

void DetailsPane::load()
{
    const quint64 job = m_job;
    m_reader->post(
        this,
        [ids = m_ids](const db::Database &db) {
            QList<SampleDetail> out;
            for (qint64 id : ids)
                out << queries::detail(db, id);
            return out;
        },
        [this, job](QList<SampleDetail> details) {
            if (job == m_job)
                apply(std::move(details));
        });
}

void DetailsPane::apply(QList<SampleDetail> details)
{
    // A sample the corpus does not hold (another corpus, deleted meanwhile) is no target: never "#0".
    details.removeIf([](const SampleDetail &d) { return d.row.id <= 0; });
    if (details.isEmpty()) {
        clear();
        return;
    }
    if (details.size() != m_ids.size()) {
        QList<qint64> kept;
        for (const SampleDetail &d : std::as_const(details))
            kept << d.row.id;
        m_all.removeIf([&](qint64 id) { return m_ids.contains(id) && !kept.contains(id); });
        m_ids = kept;
    }
    m_details = std::move(details);
    m_comparison->showSamples(m_details, int(m_all.size()));
    m_ptx->showSamples(m_details);
    updatePtxTab();
    m_variant->clear();
    for (int i = 0; i < m_details.size(); ++i)
        m_variant->addItem(QStringLiteral("%1: %2").arg(QChar(char16_t(u'A' + i))).arg(m_details.at(i).row.name));
    m_variant->setVisible(m_details.size() > 1);
    if (m_details.isEmpty())
        return;
    showVariant(0);
    Q_EMIT detailsShown();
}

void DetailsPane::updatePtxTab()
{
    // Triton kernels are compiled by Triton when they run: there is no PTX of the sample's own to show.
    const bool cuda = m_ptx->hasCuda();
    if (!cuda && currentIndex() == PtxTab)
        setCurrentIndex(CodeTab);
    setTabEnabled(PtxTab, cuda);
    setTabToolTip(PtxTab, cuda ? QString()
                               : tr("PTX and SASS are shown for CUDA samples only: Triton kernels are compiled by "
                                    "Triton when they run"));
}

int DetailsPane::currentVariant() const
{
    return std::clamp(m_variant->currentIndex(), 0, std::max(0, int(m_details.size()) - 1));
}

void DetailsPane::showVariant(int index)
{
    if (index < 0 || index >= m_details.size())
        return;
    if (m_variant->currentIndex() != index)
        m_variant->setCurrentIndex(index);
    const SampleDetail &d = m_details.at(index);
    m_reasoning->setPlainText(d.reasoning);
    showTeacher(d);
    m_verdict->showVerdict(d.verdict);
    m_timing->showTimings(d.verdict);
    showHistory(d.history);
    if (d.row.taskId != m_spreadTask) {
        m_spreadTask = d.row.taskId;
        const quint64 job = ++m_spreadJob;
        m_aggregates->post(
            this, [task = m_spreadTask](const db::Database &db) { return queries::taskSpeedups(db, task); },
            [this, job, name = d.taskName](QList<double> speedups) {
                if (job == m_spreadJob)
                    m_timing->showTaskSpread(name, speedups);
            });
    }
}

void DetailsPane::showHistory(const QList<ReviewEntry> &history)
{
    m_history->clear();
    for (const ReviewEntry &e : history) {
        auto *item = new QTreeWidgetItem(m_history);
        item->setText(0, QLocale().toString(QDateTime::fromSecsSinceEpoch(e.createdAt), QLocale::ShortFormat));
        item->setText(1, e.reviewer);
        item->setText(2, e.decision == QLatin1String("none") ? tr("cleared") : reviewText(e.decision));
        const QColor c = reviewColor(e.decision);
        if (c.isValid())
            item->setForeground(2, c);
        item->setText(3, e.reason);
        item->setText(4, e.note);
    }
    for (int col = 0; col < 4; ++col)
        m_history->resizeColumnToContents(col);
}

void DetailsPane::showTeacher(const SampleDetail &d)
{
    const JudgeInfo &j = d.judge;
    m_judge->setVisible(j.present);
    m_judgeLines->hide();
    if (j.present) {
        const QString confidence =
            std::isnan(j.confidence) ? tr("no confidence") : tr("confidence %1").arg(j.confidence, 0, 'f', 2);
        QString line = tr("<b>Judge (a suggestion, not the verdict):</b> %1, %2, model %3")
                           .arg(j.verdict.toHtmlEscaped(), confidence, j.model.toHtmlEscaped());
        if (!j.error.isEmpty())
            line += QStringLiteral(" &mdash; ") + tr("unreadable answer: %1").arg(j.error.toHtmlEscaped());
        else if (!j.summary.isEmpty())
            line += QStringLiteral(" &mdash; ") + j.summary.toHtmlEscaped();
        if (!j.lines.isEmpty())
            line += QStringLiteral(" <a href=\"lines\">%1</a>").arg(tr("quoted lines (%1)").arg(j.lines.size()));
        m_judge->setText(line);
        m_judge->setToolTip(tr("Rubric %1, SHA-256 %2").arg(j.rubric, j.rubricHash.left(12)));
        QStringList lines;
        if (!j.delegatedTo.isEmpty())
            lines << tr("delegated to: %1").arg(j.delegatedTo.join(QStringLiteral(", ")));
        for (const JudgeLine &l : j.lines) {
            QString text = (l.line > 0 ? QString::number(l.line) : QStringLiteral("?")) + QStringLiteral(": ") + l.text;
            if (!l.matches)
                text += QStringLiteral("  ") + tr("[not that line of the code]");
            if (!l.why.isEmpty())
                text += QStringLiteral("  -- ") + l.why;
            lines << text;
        }
        m_judgeLines->setText(lines.join(QLatin1Char('\n')));
        m_judgeLines->setTextFormat(Qt::PlainText);
    }
    // The sample's own reasoning always wins; a teacher's is shown only in its place, and says so.
    const TeacherReasoningInfo &t = d.teacherReasoning;
    const bool teacher = t.present && d.reasoning.trimmed().isEmpty();
    m_reasoningSource->setVisible(teacher);
    if (teacher) {
        m_reasoning->setPlainText(t.text);
        m_reasoningSource->setText(
            tr("<b>Teacher-written reasoning</b> (not the sample's own): model %1, prompt %2 (SHA-256 %3), %4")
                .arg(t.model.toHtmlEscaped(), t.prompt.toHtmlEscaped(), t.promptHash.left(12),
                     QLocale().toString(QDateTime::fromSecsSinceEpoch(t.createdAt), QLocale::ShortFormat)));
    }
}

void DetailsPane::refreshCorpusCharts()
{
    m_spreadTask = -1;
    m_aggregates->post(
        this, [](const db::Database &db) { return queries::speedupHistogram(db); },
        [this](QList<QPair<QString, qint64>> buckets) { m_timing->showCorpusHistogram(buckets); });
}

} // namespace sieve::ui
