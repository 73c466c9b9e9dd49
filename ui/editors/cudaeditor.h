#pragma once
#include "ui/editors/codeeditor.h"

namespace sieve::ui {

// Bare CUDA C++ sources (e.g. the AI-CUDA-Engineer archive's kernels).
class CudaEditor final : public CodeEditor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CudaEditor)
public:
    explicit CudaEditor(QWidget *parent = nullptr);
    QString language() const override { return QStringLiteral("cuda"); }
};

} // namespace sieve::ui
