#pragma once
// Finds line references in verifier and compiler logs ("line 12", 'File "x.py", line 12',
// "kernel.cu(12)", "<string>:12:5:") and renders the log as HTML whose references are links
// ("line:12") that the verdict panel turns into jumps into the code.
#include <QList>
#include <QString>

namespace sieve::ui {

struct LogLineRef {
    qsizetype start = 0; // span of the reference in the log text
    qsizetype length = 0;
    int line = 0; // 1-based
};

QList<LogLineRef> findLineRefs(const QString &log);
QString logToHtml(const QString &log);

} // namespace sieve::ui
