#include "ui/editors/pythoneditor.h"

#include <Qsci/qscilexerpython.h>

namespace sieve::ui {

PythonEditor::PythonEditor(QWidget *parent) : CodeEditor(parent)
{
    auto *lexer = new QsciLexerPython;
    lexer->setIndentationWarning(QsciLexerPython::NoWarning);
    applyLexer(lexer);
}

} // namespace sieve::ui
