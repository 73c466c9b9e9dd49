#pragma once
#include "ui/editors/codeeditor.h"

namespace sieve::ui {

// Triton answers and KernelBench-style CUDA answers (load_inline) are Python files.
class PythonEditor final : public CodeEditor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PythonEditor)
public:
    explicit PythonEditor(QWidget *parent = nullptr);
    QString language() const override { return QStringLiteral("python"); }
};

} // namespace sieve::ui
