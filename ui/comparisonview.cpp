#include "comparisonview.h"

#include "codeeditor.h"
#include "linediff.h"
#include "pythoneditor.h"

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
QStringList linesOf(const QString &code) { return code.split(QLatin1Char('\n')); }
} // namespace

ComparisonView::ComparisonView(QWidget *parent)
    : QWidget(parent), m_splitter(new QSplitter(Qt::Horizontal, this)), m_referenceButton(new QToolButton(this)),
      m_syncButton(new QToolButton(this)), m_find(new QLineEdit(this)), m_summary(new QLabel(this))
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

    m_find->setObjectName(QStringLiteral("findEdit"));
    m_find->setClearButtonEnabled(true);
    m_find->setMaximumWidth(320);
    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(true); });

    m_summary->setObjectName(QStringLiteral("diffSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_referenceButton);
    bar->addWidget(m_syncButton);
    bar->addSpacing(12);
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_find);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_splitter, 1);
    retranslateUi();
}

void ComparisonView::retranslateUi()
{
    m_referenceButton->setText(tr("Reference"));
    m_referenceButton->setToolTip(tr("Show the task's PyTorch reference module next to the samples"));
    m_syncButton->setText(tr("Sync Scrolling"));
    m_find->setPlaceholderText(tr("Find in code (Enter: next, Shift+Enter: previous)"));
    if (!m_samples.isEmpty())
        showSamples(QList<SampleDetail>(m_samples)); // titles and the diff summary are composed text
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
    auto *head = new QLabel(QStringLiteral("<b>%1</b>&nbsp;&nbsp;<span style='color:#666'>%2</span>")
                                .arg(title.toHtmlEscaped(), subtitle.toHtmlEscaped()),
                            box);
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
}

void ComparisonView::showSamples(const QList<SampleDetail> &samples)
{
    const bool wantReference = m_referenceButton->isChecked();
    clear();
    m_samples = samples.mid(0, kMaxVariants);
    const int n = std::min<int>(int(samples.size()), kMaxVariants);
    for (int i = 0; i < n; ++i) {
        const SampleDetail &s = samples.at(i);
        CodeEditor *e = CodeEditor::create(s.row.backend, s.code);
        e->setObjectName(QStringLiteral("codeEditor%1").arg(i));
        QString subtitle = QStringLiteral("#%1 · %2").arg(s.row.id).arg(s.row.status);
        if (!std::isnan(s.row.speedup))
            subtitle += tr(" · %1×").arg(s.row.speedup, 0, 'f', 2);
        const QString title = n > 1 ? tr("%1: %2").arg(QChar(char16_t(u'A' + i))).arg(s.row.name) : s.row.name;
        m_columns << column(title, subtitle, e);
        m_editors << e;
        connect(e->verticalScrollBar(), &QScrollBar::valueChanged, this,
                [this, e](int value) { syncFrom(e, value); });
    }
    if (n > 1) {
        const QStringList a = linesOf(samples.at(0).code);
        std::vector<bool> changedA(a.size(), false);
        QStringList parts;
        for (int i = 1; i < n; ++i) {
            const LineDiff d = diffLines(a, linesOf(samples.at(i).code));
            for (size_t l = 0; l < changedA.size(); ++l)
                changedA[l] = changedA[l] || d.changedA[l];
            m_editors[i]->setChangedLines(d.changedB);
            const auto changed = std::count(d.changedB.begin(), d.changedB.end(), true);
            parts << tr("%1: %n line(s) differ from A", nullptr, int(changed)).arg(QChar(char16_t(u'A' + i)));
        }
        m_editors[0]->setChangedLines(changedA);
        m_summary->setText(parts.join(QStringLiteral(" · ")));
    }
    m_splitter->setSizes(QList<int>(m_splitter->count(), 1000));
    if (!samples.isEmpty())
        m_referenceCode = samples.first().reference;
    m_referenceButton->setEnabled(!m_referenceCode.isEmpty());
    if (wantReference && !m_referenceCode.isEmpty())
        setReferenceVisible(true);
}

bool ComparisonView::isReferenceVisible() const { return m_referenceColumn != nullptr; }

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

void ComparisonView::jumpToLine(int line)
{
    if (!m_editors.isEmpty())
        m_editors.first()->jumpToLine(line);
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
