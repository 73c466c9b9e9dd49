#include "ui/editors/codeeditor.h"

#include "ui/editors/cudaeditor.h"
#include "ui/editors/pythoneditor.h"

#include <Qsci/qscilexer.h>

#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QInputDialog>
#include <QMenu>

#include <algorithm>

namespace sieve::ui {

CodeEditor::CodeEditor(QWidget *parent) : QsciScintilla(parent)
{
    applySettings();
}

CodeEditor::~CodeEditor() = default;

CodeEditor *CodeEditor::create(const QString &backend, const QString &code, QWidget *parent)
{
    const bool bareCuda = backend == QLatin1String("cuda") && !code.contains(QLatin1String("import "));
    CodeEditor *e = bareCuda ? static_cast<CodeEditor *>(new CudaEditor(parent))
                             : static_cast<CodeEditor *>(new PythonEditor(parent));
    e->setCode(code);
    return e;
}

void CodeEditor::applySettings()
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(mono);
    setMarginsFont(mono);
    setUtf8(true);
    setReadOnly(true);
    setTabWidth(4);
    setIndentationsUseTabs(false);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xf3, 0xf6, 0xfa));
    setMarginType(0, NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginWidth(0, QStringLiteral("00000"));
    setMarginsForegroundColor(QColor(0x90, 0x90, 0x90));
    setMarginsBackgroundColor(QColor(0xf7, 0xf7, 0xf7));
    // Margin 1 carries the markers; changed lines also get a background so they read at a glance.
    setMarginType(1, SymbolMargin);
    setMarginWidth(1, 12);
    setMarginMarkerMask(1, (1 << ChangedMarker) | (1 << JumpMarker));
    markerDefine(Background, ChangedMarker);
    setMarkerBackgroundColor(QColor(0xff, 0xf4, 0xd6), ChangedMarker);
    markerDefine(RightArrow, JumpMarker);
    setMarkerBackgroundColor(QColor(0xc6, 0x28, 0x28), JumpMarker);
    setMarkerForegroundColor(QColor(0xc6, 0x28, 0x28), JumpMarker);
    // Filler rows (alignment with another variant) are hatched grey annotations; changed characters
    // inside a changed line get a box.
    setAnnotationDisplay(AnnotationStandard);
    indicatorDefine(FullBoxIndicator, kInlineIndicator);
    setIndicatorForegroundColor(QColor(0xf0, 0xa0, 0x30, 110), kInlineIndicator);
    setWrapMode(WrapNone);
    setBraceMatching(SloppyBraceMatch);
    setFolding(NoFoldStyle);
}

void CodeEditor::applyLexer(QsciLexer *lexer)
{
    lexer->setParent(this);
    lexer->setDefaultFont(font());
    lexer->setFont(font(), -1);
    setLexer(lexer);
    // setLexer resets the margin font, so set it again.
    setMarginsFont(font());
}

void CodeEditor::setCode(const QString &code)
{
    setText(code);
    m_jumpLine = -1;
    markerDeleteAll();
}

void CodeEditor::setChangedLines(const std::vector<bool> &changed)
{
    markerDeleteAll(ChangedMarker);
    for (size_t i = 0; i < changed.size(); ++i)
        if (changed[i])
            markerAdd(int(i), ChangedMarker);
}

void CodeEditor::setFillerRows(const std::vector<int> &fillersBefore)
{
    clearAnnotations();
    // Set here, not at construction: a lexer set later restyles everything.
    SendScintilla(SCI_STYLESETBACK, kFillerStyle, QColor(0xee, 0xee, 0xee));
    SendScintilla(SCI_STYLESETFORE, kFillerStyle, QColor(0xee, 0xee, 0xee));
    std::vector<int> after(size_t(std::max(lines(), 1)), 0); // rows after line l
    for (size_t k = 0; k < fillersBefore.size(); ++k) {
        if (fillersBefore[k] <= 0)
            continue;
        const int line = std::clamp(int(k) - 1, 0, int(after.size()) - 1);
        after[size_t(line)] += fillersBefore[k];
    }
    for (size_t l = 0; l < after.size(); ++l)
        if (after[l] > 0)
            annotate(int(l), QStringList(after[l], QStringLiteral(" ")).join(QLatin1Char('\n')), kFillerStyle);
}

void CodeEditor::setInlineChanges(const std::vector<CharRange> &ranges)
{
    clearIndicatorRange(0, 0, std::max(lines() - 1, 0), lineLength(std::max(lines() - 1, 0)), kInlineIndicator);
    m_inline.clear();
    for (const CharRange &r : ranges) {
        fillIndicatorRange(r.line, r.from, r.line, r.to, kInlineIndicator);
        m_inline << r;
    }
}

int CodeEditor::displayRow(int line) const
{
    // Rows of the lines above plus their annotations (Scintilla counts annotation lines as display lines).
    int row = 0;
    for (int l = 0; l < line && l < lines(); ++l)
        row += 1 + int(const_cast<CodeEditor *>(this)->SendScintilla(SCI_ANNOTATIONGETLINES, l));
    return row;
}

void CodeEditor::scrollToRow(int row)
{
    setFirstVisibleLine(std::max(0, row - 3));
}

QList<int> CodeEditor::changedLines() const
{
    QList<int> out;
    const int mask = 1 << ChangedMarker;
    for (int line = const_cast<CodeEditor *>(this)->markerFindNext(0, mask); line >= 0;
         line = const_cast<CodeEditor *>(this)->markerFindNext(line + 1, mask))
        out << line;
    return out;
}

void CodeEditor::jumpToLine(int line)
{
    if (line < 1 || line > lines())
        return;
    markerDeleteAll(JumpMarker);
    markerAdd(line - 1, JumpMarker);
    m_jumpLine = line;
    setCursorPosition(line - 1, 0);
    ensureLineVisible(line - 1);
    setFirstVisibleLine(std::max(0, line - 6));
}

bool CodeEditor::find(const QString &text, bool forward)
{
    if (text.isEmpty())
        return false;
    if (text == m_lastFind && forward)
        return findNext() || findFirst(text, false, false, false, true, forward, 0, 0);
    m_lastFind = text;
    return findFirst(text, false, false, false, true, forward);
}

void CodeEditor::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu *menu = createStandardContextMenu();
    menu->addSeparator();
    menu->addAction(tr("Find…"), this, &CodeEditor::findRequested);
    menu->addAction(tr("Go to Line…"), this, [this] {
        bool ok = false;
        const int line = QInputDialog::getInt(this, tr("Go to Line"), tr("Line:"), 1, 1, lines(), 1, &ok);
        if (ok)
            jumpToLine(line);
    });
    QAction *wrap = menu->addAction(tr("Wrap Long Lines"));
    wrap->setCheckable(true);
    wrap->setChecked(wrapMode() != WrapNone);
    connect(wrap, &QAction::toggled, this, [this](bool on) { setWrapMode(on ? WrapWord : WrapNone); });
    menu->exec(event->globalPos());
    delete menu;
}

} // namespace sieve::ui
