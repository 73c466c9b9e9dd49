#pragma once
// The one QScintilla editor base: read-only code views share find, markers (changed lines, the line a
// log points at), settings and the context menu here; subclasses only choose the lexer.
#include <Qsci/qsciscintilla.h>

#include <vector>

namespace sieve::ui {

class CodeEditor : public QsciScintilla {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CodeEditor)
public:
    enum Marker { ChangedMarker = 1, JumpMarker = 2 };

    ~CodeEditor() override;
    // A Python editor for Python files (Triton, and CUDA inside load_inline), a CUDA editor for bare
    // CUDA sources.
    static CodeEditor *create(const QString &backend, const QString &code, QWidget *parent = nullptr);

    void setCode(const QString &code);
    void setChangedLines(const std::vector<bool> &changed);
    QList<int> changedLines() const; // 0-based, for tests and the status line
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
    QString m_lastFind;
};

} // namespace sieve::ui
