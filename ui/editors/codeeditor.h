#pragma once
// The one QScintilla editor base: read-only code views share find, markers (changed lines, the line a
// log points at), settings and the context menu here; subclasses only choose the lexer.
#include "ui/compare/linediff.h"

#include <Qsci/qsciscintilla.h>

#include <vector>

namespace sieve::ui {

class CodeEditor : public QsciScintilla
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CodeEditor)
public:
    enum Marker { ChangedMarker = 1, JumpMarker = 2 };
    static constexpr int kFillerStyle = 60;    // annotation style of filler rows
    static constexpr int kInlineIndicator = 8; // indicator of changed characters

    ~CodeEditor() override;
    // A Python editor for Python files (Triton, and CUDA inside load_inline), a CUDA editor for bare
    // CUDA sources.
    static CodeEditor *create(const QString &backend, const QString &code, QWidget *parent = nullptr);

    void setCode(const QString &code);
    void setChangedLines(const std::vector<bool> &changed);
    QList<int> changedLines() const; // 0-based, for tests and the status line
    // Empty rows shown before line k (fillersBefore[k]; k == lines(): after the last line), not part of
    // the text: they align this editor with another's (annotations). Rows before the first line cannot
    // be shown, so those come after it.
    void setFillerRows(const std::vector<int> &fillersBefore);
    // Characters that changed within changed lines, boxed.
    void setInlineChanges(const std::vector<CharRange> &ranges);
    QList<CharRange> inlineChanges() const { return m_inline; }
    int displayRow(int line) const; // the row a 0-based line is shown on (fillers count)
    void scrollToRow(int row);      // shows that row near the top
    // Scrolls to a 1-based line and marks it, as the verdict log's links ask.
    void jumpToLine(int line);
    int jumpLine() const { return m_jumpLine; }
    bool find(const QString &text, bool forward = true);
    virtual QString language() const = 0;

Q_SIGNALS:
    void findRequested();

protected:
    explicit CodeEditor(QWidget *parent);
    void applyLexer(QsciLexer *lexer); // takes ownership
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void applySettings();
    int m_jumpLine = -1;
    QList<CharRange> m_inline;
    QString m_lastFind;
};

} // namespace sieve::ui
