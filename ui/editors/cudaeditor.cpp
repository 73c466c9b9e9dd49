#include "ui/editors/cudaeditor.h"

#include <Qsci/qscilexercpp.h>

namespace sieve::ui {

CudaEditor::CudaEditor(QWidget *parent) : CodeEditor(parent)
{
    auto *lexer = new QsciLexerCPP;
    // CUDA's qualifiers and built-ins read as keywords (keyword set 2 of the C++ lexer).
    lexer->setFoldComments(false);
    applyLexer(lexer);
    SendScintilla(SCI_SETKEYWORDS, 1,
                  "__global__ __device__ __host__ __shared__ __constant__ __restrict__ __syncthreads "
                  "threadIdx blockIdx blockDim gridDim warpSize half float4 int4 __half __nv_bfloat16");
}

} // namespace sieve::ui
