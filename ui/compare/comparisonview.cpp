#include "ui/compare/comparisonview.h"

#include "ui/compare/linediff.h"
#include "ui/editors/codeeditor.h"
#include "ui/editors/pythoneditor.h"
#include "ui/main/elidedlabel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace sieve::ui {

namespace {
QStringList linesOf(const QString &code)
{
    return code.split(QLatin1Char('\n'));
}
} // namespace

ComparisonView::ComparisonView(QWidget *parent)
    : QWidget(parent), m_splitter(new QSplitter(Qt::Horizontal, this)), m_referenceButton(new QToolButton(this)),
      m_syncButton(new QToolButton(this)), m_prevButton(new QToolButton(this)), m_nextButton(new QToolButton(this)),
      m_find(new QLineEdit(this)), m_summary(new ElidedLabel(this)), m_empty(new QLabel(this))
{
    setObjectName(QStringLiteral("comparisonView"));
    m_splitter->setObjectName(QStringLiteral("comparisonSplitter"));
    m_splitter->setChildrenCollapsible(false);

    m_referenceButton->setObjectName(QStringLiteral("referenceButton"));
    m_referenceButton->setCheckable(true);
    m_referenceButton->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(m_referenceButton, &QToolButton::toggled, this, &ComparisonView::setReferenceVisible);

    m_syncButton->setObjectName(QStringLiteral("syncScrollButton"));
    m_syncButton->setCheckable(true);
    m_syncButton->setChecked(true);
    connect(m_syncButton, &QToolButton::toggled, this, &ComparisonView::setSyncScrolling);

    m_prevButton->setObjectName(QStringLiteral("previousChangeButton"));
    m_nextButton->setObjectName(QStringLiteral("nextChangeButton"));
    m_prevButton->setArrowType(Qt::UpArrow);
    m_nextButton->setArrowType(Qt::DownArrow);
    m_prevButton->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    m_nextButton->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    connect(m_prevButton, &QToolButton::clicked, this, [this] { nextChange(false); });
    connect(m_nextButton, &QToolButton::clicked, this, [this] { nextChange(true); });

    m_find->setObjectName(QStringLiteral("findEdit"));
    m_find->setClearButtonEnabled(true);
    m_find->setMaximumWidth(320);
    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(true); });

    m_summary->setObjectName(QStringLiteral("diffSummary"));

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_referenceButton);
    bar->addWidget(m_syncButton);
    bar->addSpacing(12);
    bar->addWidget(m_prevButton);
    bar->addWidget(m_nextButton);
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_find);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    m_empty->setObjectName(QStringLiteral("compareEmptyLabel"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_splitter, 1);
    m_splitter->hide();
    retranslateUi();
}

void ComparisonView::retranslateUi()
{
    m_referenceButton->setText(tr("Reference"));
    m_referenceButton->setToolTip(tr("Show the task's PyTorch reference module next to the samples"));
    m_syncButton->setText(tr("Sync Scrolling"));
    m_find->setPlaceholderText(tr("Find in code (Enter: next, Shift+Enter: previous)"));
    m_empty->setText(tr("Select a sample to see its code, or two or three to compare them side by side."));
    m_prevButton->setToolTip(tr("Previous change (Alt+Up)"));
    m_nextButton->setToolTip(tr("Next change (Alt+Down)"));
    if (!m_samples.isEmpty())
        showSamples(QList<SampleDetail>(m_samples), int(m_samples.size()) + m_omitted); // composed text
}

void ComparisonView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

QWidget *ComparisonView::column(const QString &title, const QString &subtitle, CodeEditor *editor)
{
    auto *box = new QWidget;
    m_splitter->addWidget(box);
    auto *v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    // Plain, elided text: a long name must not widen the pane (and with it the window).
    auto *head = new ElidedLabel(box);
    head->setObjectName(QStringLiteral("columnHeader"));
    head->setFullText(title + QStringLiteral("  ") + subtitle);
    QFont bold = head->font();
    bold.setBold(true);
    head->setFont(bold);
    head->setContentsMargins(6, 2, 6, 2);
    v->addWidget(head);
    editor->setParent(box);
    v->addWidget(editor, 1);
    connect(editor, &CodeEditor::findRequested, m_find, [this] {
        m_find->setFocus();
        m_find->selectAll();
    });
    return box;
}

void ComparisonView::clear()
{
    qDeleteAll(m_columns);
    m_columns.clear();
    m_editors.clear();
    delete m_referenceColumn;
    m_referenceColumn = nullptr;
    m_reference = nullptr;
    m_referenceCode.clear();
    m_summary->clear();
    m_samples.clear();
    m_changeRows.clear();
    m_change = -1;
    m_diffText.clear();
    m_omitted = 0;
    m_prevButton->setEnabled(false);
    m_nextButton->setEnabled(false);
    m_splitter->hide();
    m_empty->show();
}

void ComparisonView::showSamples(const QList<SampleDetail> &samples, int selected)
{
    const bool wantReference = m_referenceButton->isChecked();
    clear();
    m_samples = samples.mid(0, kMaxVariants);
    const int n = int(m_samples.size());
    m_omitted = std::max(0, std::max(selected, int(samples.size())) - n);
    for (int i = 0; i < n; ++i) {
        const SampleDetail &s = m_samples.at(i);
        CodeEditor *e = CodeEditor::create(s.row.backend, s.code);
        e->setObjectName(QStringLiteral("codeEditor%1").arg(i));
        QString subtitle = QStringLiteral("#%1 · %2").arg(s.row.id).arg(s.row.status);
        if (!std::isnan(s.row.speedup))
            subtitle += tr(" · %1×").arg(s.row.speedup, 0, 'f', 2);
        // The verdict line: why it failed, in the first line of the verifier's message, without a tab switch.
        if (s.verdict.present) {
            if (!s.verdict.reasons.isEmpty())
                subtitle += QStringLiteral(" · ") + s.verdict.reasons.join(QStringLiteral(", "));
            const QString first = s.verdict.message.section(QLatin1Char('\n'), 0, 0).trimmed();
            if (!first.isEmpty() && !s.verdict.status.startsWith(QLatin1String("PASS")))
                subtitle += QStringLiteral(" · ") + first;
        }
        const QString title = n > 1 ? tr("%1: %2").arg(QChar(char16_t(u'A' + i))).arg(s.row.name) : s.row.name;
        m_columns << column(title, subtitle, e);
        m_editors << e;
        connect(e->verticalScrollBar(), &QScrollBar::valueChanged, this, [this, e](int value) { syncFrom(e, value); });
    }
    if (n > 1) {
        QList<QStringList> others;
        for (int i = 1; i < n; ++i)
            others << linesOf(m_samples.at(i).code);
        const Alignment al = alignVariants(linesOf(m_samples.at(0).code), others);
        std::vector<bool> changedA(al.diffs.front().changedA.size(), false);
        std::vector<CharRange> inlineA;
        QStringList parts;
        for (int i = 1; i < n; ++i) {
            const LineDiff &d = al.diffs[size_t(i - 1)];
            for (size_t l = 0; l < changedA.size(); ++l)
                changedA[l] = changedA[l] || d.changedA[l];
            inlineA.insert(inlineA.end(), d.inlineA.begin(), d.inlineA.end());
            m_editors[i]->setChangedLines(d.changedB);
            m_editors[i]->setInlineChanges(d.inlineB);
            m_editors[i]->setFillerRows(al.fillers[size_t(i)]);
            const auto changed = std::count(d.changedB.begin(), d.changedB.end(), true);
            parts << tr("%1: %n line(s) differ from A", nullptr, int(changed)).arg(QChar(char16_t(u'A' + i)));
        }
        m_editors[0]->setChangedLines(changedA);
        m_editors[0]->setInlineChanges(inlineA);
        m_editors[0]->setFillerRows(al.fillers.front());
        m_changeRows = al.changeRows;
        m_diffText = parts.join(QStringLiteral(" · "));
    }
    m_prevButton->setEnabled(!m_changeRows.empty());
    m_nextButton->setEnabled(!m_changeRows.empty());
    m_summary->setFullText(summaryText());
    m_splitter->setVisible(n > 0);
    m_empty->setVisible(n == 0);
    m_splitter->setSizes(QList<int>(m_splitter->count(), 1000));
    if (!m_samples.isEmpty())
        m_referenceCode = m_samples.first().reference;
    m_referenceButton->setEnabled(!m_referenceCode.isEmpty());
    if (wantReference && !m_referenceCode.isEmpty())
        setReferenceVisible(true);
}

QString ComparisonView::summaryText() const
{
    QStringList parts;
    if (!m_diffText.isEmpty())
        parts << m_diffText;
    if (!m_changeRows.empty())
        parts << (m_change < 0 ? tr("%n change(s)", nullptr, int(m_changeRows.size()))
                               : tr("change %1 of %2").arg(m_change + 1).arg(m_changeRows.size()));
    if (m_omitted > 0)
        parts << tr("%n more selected sample(s) not shown: at most %1 side by side", nullptr, m_omitted)
                     .arg(kMaxVariants);
    return parts.join(QStringLiteral(" · "));
}

void ComparisonView::nextChange(bool forward)
{
    if (m_changeRows.empty() || m_editors.isEmpty())
        return;
    const int count = int(m_changeRows.size());
    m_change = m_change < 0 ? (forward ? 0 : count - 1) : (m_change + (forward ? 1 : count - 1)) % count;
    m_editors.first()->scrollToRow(m_changeRows[size_t(m_change)]); // the others follow (sync scrolling)
    if (!m_sync)
        for (CodeEditor *e : std::as_const(m_editors))
            e->scrollToRow(m_changeRows[size_t(m_change)]);
    m_summary->setFullText(summaryText());
}

bool ComparisonView::isReferenceVisible() const
{
    return m_referenceColumn != nullptr;
}

void ComparisonView::setReferenceVisible(bool visible)
{
    if (visible == isReferenceVisible())
        return;
    if (!visible) {
        delete m_referenceColumn;
        m_referenceColumn = nullptr;
        m_reference = nullptr;
    } else if (!m_referenceCode.isEmpty()) {
        m_reference = new PythonEditor;
        m_reference->setObjectName(QStringLiteral("referenceEditor"));
        m_reference->setCode(m_referenceCode);
        m_referenceColumn = column(tr("Reference"), tr("PyTorch module"), m_reference);
        m_splitter->setSizes(QList<int>(m_splitter->count(), 1000));
    }
    const QSignalBlocker block(m_referenceButton);
    m_referenceButton->setChecked(isReferenceVisible());
}

void ComparisonView::jumpToLine(int line, int variant)
{
    if (CodeEditor *e = m_editors.value(variant))
        e->jumpToLine(line);
}

void ComparisonView::syncFrom(CodeEditor *source, int firstLine)
{
    if (!m_sync || m_syncing)
        return;
    m_syncing = true;
    for (CodeEditor *e : std::as_const(m_editors))
        if (e != source)
            e->setFirstVisibleLine(firstLine);
    m_syncing = false;
}

void ComparisonView::findNext(bool forward)
{
    for (CodeEditor *e : std::as_const(m_editors))
        e->find(m_find->text(), forward);
}

} // namespace sieve::ui
