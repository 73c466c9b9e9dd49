#pragma once
// Finds line references in verifier and compiler logs ('File "x.py", line 12', "line 12",
// "sieve_input.cu(12)", "<string>:12:5:") and renders the log as HTML whose references into the answer
// are links ("line:12") that the verdict panel turns into jumps into the code. A reference into another
// file (a torch or Triton library frame, the files load_inline generates) is no link: it is shown dimmed,
// since its line number means nothing in the answer.
#include <QList>
#include <QString>

namespace sieve::ui {

struct LogLineRef
{
    qsizetype start = 0; // span of the reference in the log text
    qsizetype length = 0;
    int line = 0; // 1-based
    bool inAnswer = true;
    QString file; // the file it names, when it names one
};

// Whether a file named in a log is the answer itself (the worker's sieve_candidate_N.py, the NVRTC
// program of a raw CUDA answer).
bool isAnswerFile(const QString &path);
QList<LogLineRef> findLineRefs(const QString &log);
QString logToHtml(const QString &log);

} // namespace sieve::ui
