#include "ui/verdict/loglinks.h"

#include <QRegularExpression>

namespace sieve::ui {

bool isAnswerFile(const QString &path)
{
    static const QRegularExpression answer(QStringLiteral(R"(^(?:sieve_candidate_\d+\.py|sieve_input\.cu|<string>)$)"));
    const QString base = path.section(QLatin1Char('/'), -1);
    return answer.match(base).hasMatch();
}

QList<LogLineRef> findLineRefs(const QString &log)
{
    // One alternation so overlapping forms are reported once, left to right: a Python frame names its
    // file before "line N", a compiler message puts the line after the file, Triton's after "<string>".
    static const QRegularExpression re(QStringLiteral(R"re((?:File "([^"\n]+)", line (\d+))|)re"
                                                      R"re((?:\bline (\d+))|)re"
                                                      R"re((?:([\w./+-]*\.(?:cu|cuh|cpp|h|hpp))\((\d+)\))|)re"
                                                      R"re((?:(<string>):(\d+):\d+:))re"));
    QList<LogLineRef> out;
    auto it = re.globalMatch(log);
    while (it.hasNext()) {
        const auto m = it.next();
        LogLineRef ref{m.capturedStart(), m.capturedLength(), 0, true, {}};
        for (const auto &[fileGroup, lineGroup] : {std::pair{1, 2}, {0, 3}, {4, 5}, {6, 7}}) {
            if (m.capturedLength(lineGroup) == 0)
                continue;
            ref.line = m.captured(lineGroup).toInt();
            if (fileGroup > 0) {
                ref.file = m.captured(fileGroup);
                ref.inAnswer = isAnswerFile(ref.file);
            }
            if (lineGroup == 2) { // the link is "line N" of the frame, the file stays text
                ref.start = m.capturedStart(lineGroup) - 5;
                ref.length = m.capturedEnd(lineGroup) - ref.start;
            }
            break;
        }
        if (ref.line > 0)
            out << ref;
    }
    return out;
}

QString logToHtml(const QString &log)
{
    QString html = QStringLiteral("<pre style='white-space:pre-wrap'>");
    qsizetype pos = 0;
    for (const LogLineRef &ref : findLineRefs(log)) {
        html += log.mid(pos, ref.start - pos).toHtmlEscaped();
        const QString text = log.mid(ref.start, ref.length).toHtmlEscaped();
        if (ref.inAnswer)
            html += QStringLiteral("<a href='line:%1'>").arg(ref.line) + text + QStringLiteral("</a>");
        else
            html += QStringLiteral("<span style='color:#808080'>") + text + QStringLiteral("</span>");
        pos = ref.start + ref.length;
    }
    html += log.mid(pos).toHtmlEscaped() + QStringLiteral("</pre>");
    return html;
}

} // namespace sieve::ui
