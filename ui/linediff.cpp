#include "linediff.h"

#include <QHash>

namespace sieve::ui {

namespace {
QString normalised(const QString &line)
{
    qsizetype end = line.size();
    while (end > 0 && line.at(end - 1).isSpace())
        --end;
    return line.left(end);
}
} // namespace

LineDiff diffLines(const QStringList &a, const QStringList &b)
{
    // Compare integer ids rather than strings in the inner loop.
    QHash<QString, int> ids;
    auto idsOf = [&ids](const QStringList &lines) {
        std::vector<int> out;
        out.reserve(lines.size());
        for (const QString &l : lines) {
            const QString key = normalised(l);
            auto it = ids.constFind(key);
            if (it == ids.cend())
                it = ids.insert(key, int(ids.size()));
            out.push_back(it.value());
        }
        return out;
    };
    const std::vector<int> x = idsOf(a);
    const std::vector<int> y = idsOf(b);
    const int n = int(x.size());
    const int m = int(y.size());
    const int max = n + m;

    LineDiff d;
    d.changedA.assign(n, true);
    d.changedB.assign(m, true);
    if (max == 0)
        return d;

    // Myers: v[k] is the furthest x on diagonal k; keep each round's v to walk the path back.
    // Each round keeps only its diagonals -e-1..e+1, so memory grows with the square of the edit
    // distance, not with the file length times it. Past kMaxEdits the sides are simply "all changed".
    constexpr int kMaxEdits = 3000;
    std::vector<int> v(2 * max + 3, 0);
    std::vector<std::vector<int>> trace;
    const int offset = max + 1;
    int found = -1;
    for (int e = 0; e <= max && found < 0; ++e) {
        if (e > kMaxEdits)
            return d;
        trace.emplace_back(v.begin() + (offset - e - 1), v.begin() + (offset + e + 2));
        for (int k = -e; k <= e; k += 2) {
            int px;
            if (k == -e || (k != e && v[offset + k - 1] < v[offset + k + 1]))
                px = v[offset + k + 1];
            else
                px = v[offset + k - 1] + 1;
            int py = px - k;
            while (px < n && py < m && x[px] == y[py]) {
                ++px;
                ++py;
            }
            v[offset + k] = px;
            if (px >= n && py >= m) {
                found = e;
                break;
            }
        }
    }
    // Walk back through the rounds, marking the snakes (diagonal runs) as common lines.
    int px = n;
    int py = m;
    for (int e = found; e >= 0; --e) {
        const std::vector<int> &slice = trace[e];
        auto pv = [&slice, e](int diagonal) { return slice[diagonal + e + 1]; };
        const int k = px - py;
        int prevK;
        if (e == 0)
            prevK = 0;
        else if (k == -e || (k != e && pv(k - 1) < pv(k + 1)))
            prevK = k + 1;
        else
            prevK = k - 1;
        const int prevX = e == 0 ? 0 : pv(prevK);
        const int prevY = prevX - prevK;
        const int startX = e == 0 ? 0 : (prevK == k + 1 ? prevX : prevX + 1);
        const int startY = startX - k;
        while (px > startX && py > startY) {
            --px;
            --py;
            d.changedA[px] = false;
            d.changedB[py] = false;
            ++d.common;
        }
        px = prevX;
        py = prevY;
    }
    return d;
}

} // namespace sieve::ui
