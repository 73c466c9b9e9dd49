#include "loglinks.h"

#include <QRegularExpression>

namespace sieve::ui {

QList<LogLineRef> findLineRefs(const QString &log)
{
    // One alternation so overlapping forms are reported once, left to right.
    static const QRegularExpression re(QStringLiteral(R"((?:\bline (\d+))|(?:\.(?:cu|cuh|cpp|py)\((\d+)\))|)"
                                                      R"((?:>:(\d+):\d+:))"));
    QList<LogLineRef> out;
    auto it = re.globalMatch(log);
    while (it.hasNext()) {
        const auto m = it.next();
        for (int group = 1; group <= 3; ++group) {
            if (m.capturedLength(group) == 0)
                continue;
            bool ok = false;
            const int line = m.captured(group).toInt(&ok);
            if (ok && line > 0)
                out << LogLineRef{m.capturedStart(), m.capturedLength(), line};
            break;
        }
    }
    return out;
}

QString logToHtml(const QString &log)
{
    QString html = QStringLiteral("<pre style='white-space:pre-wrap'>");
    qsizetype pos = 0;
    for (const LogLineRef &ref : findLineRefs(log)) {
        html += log.mid(pos, ref.start - pos).toHtmlEscaped();
        html += QStringLiteral("<a href='line:%1'>").arg(ref.line) + log.mid(ref.start, ref.length).toHtmlEscaped() +
                QStringLiteral("</a>");
        pos = ref.start + ref.length;
    }
    html += log.mid(pos).toHtmlEscaped() + QStringLiteral("</pre>");
    return html;
}

} // namespace sieve::ui
