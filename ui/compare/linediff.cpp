#include "ui/compare/linediff.h"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <set>

namespace sieve::ui {

namespace {
QString normalised(const QString &line)
{
    qsizetype end = line.size();
    while (end > 0 && line.at(end - 1).isSpace())
        --end;
    return line.left(end);
}

// The edit script as a list of SES_COMMON / SES_DELETE (a line of a) / SES_ADD (a line of b), in order.
template <typename Seq> std::vector<dtl::edit_t> script(const Seq &a, const Seq &b)
{
    dtl::Diff<typename Seq::value_type, Seq> d(a, b);
    d.onHuge(); // linear memory in the length of the sequences
    d.compose();
    std::vector<dtl::edit_t> out;
    for (const auto &[elem, info] : d.getSes().getSequence())
        out.push_back(info.type);
    return out;
}
} // namespace

bool diffChars(const QString &a, const QString &b, int lineA, int lineB, std::vector<CharRange> &outA,
               std::vector<CharRange> &outB)
{
    const QString ta = a.trimmed(), tb = b.trimmed();
    if (ta.isEmpty() || tb.isEmpty())
        return false; // a blank line is like nothing
    const std::vector<QChar> ca(a.begin(), a.end()), cb(b.begin(), b.end());
    const std::vector<dtl::edit_t> ses = script(ca, cb);
    const auto common = std::count(ses.begin(), ses.end(), dtl::SES_COMMON);
    if (2 * common < qsizetype(std::max(ca.size(), cb.size())))
        return false; // too different: a rewritten line, not an edit of one
    int ia = 0, ib = 0;
    auto extend = [](std::vector<CharRange> &out, int line, int at) {
        if (!out.empty() && out.back().line == line && out.back().to == at)
            ++out.back().to;
        else
            out.push_back({line, at, at + 1});
    };
    for (dtl::edit_t t : ses) {
        if (t == dtl::SES_COMMON) {
            ++ia, ++ib;
        } else if (t == dtl::SES_DELETE) {
            extend(outA, lineA, ia++);
        } else {
            extend(outB, lineB, ib++);
        }
    }
    return true;
}

LineDiff diffLines(const QStringList &a, const QStringList &b)
{
    std::vector<QString> na, nb;
    na.reserve(a.size());
    nb.reserve(b.size());
    for (const QString &l : a)
        na.push_back(normalised(l));
    for (const QString &l : b)
        nb.push_back(normalised(l));
    LineDiff d;
    d.changedA.assign(na.size(), false);
    d.changedB.assign(nb.size(), false);
    int ia = 0, ib = 0;
    LineHunk open{-1, 0, 0, 0};
    auto close = [&] {
        if (open.aStart < 0)
            return;
        // Lines of the two sides that are edits of each other pair up, in order (each A line with the next
        // alike B line within a few lines): they get their changed characters and share a row; the
        // unpaired runs between them are the blocks that filler rows pad.
        constexpr int kLookAhead = 8;
        int pa = 0, pb = 0;
        for (int i = 0; i < open.aCount; ++i)
            for (int j = pb; j < std::min(open.bCount, pb + kLookAhead); ++j)
                if (diffChars(na[size_t(open.aStart + i)], nb[size_t(open.bStart + j)], open.aStart + i,
                              open.bStart + j, d.inlineA, d.inlineB)) {
                    if (i > pa || j > pb)
                        d.blocks.push_back({open.aStart + pa, i - pa, open.bStart + pb, j - pb});
                    pa = i + 1;
                    pb = j + 1;
                    break;
                }
        if (open.aCount > pa || open.bCount > pb)
            d.blocks.push_back({open.aStart + pa, open.aCount - pa, open.bStart + pb, open.bCount - pb});
        d.hunks.push_back(open);
        open = {-1, 0, 0, 0};
    };
    for (dtl::edit_t t : script(na, nb)) {
        if (t == dtl::SES_COMMON) {
            close();
            ++ia, ++ib, ++d.common;
            continue;
        }
        if (open.aStart < 0)
            open = {ia, 0, ib, 0};
        if (t == dtl::SES_DELETE) {
            d.changedA[size_t(ia++)] = true;
            ++open.aCount;
        } else {
            d.changedB[size_t(ib++)] = true;
            ++open.bCount;
        }
    }
    close();
    return d;
}

Alignment alignVariants(const QStringList &a, const QList<QStringList> &others)
{
    Alignment al;
    const int lenA = int(a.size());
    for (const QStringList &o : others)
        al.diffs.push_back(diffLines(a, o));
    // Rows are A's lines plus extra[k] empty rows before A's line k. Common lines and paired (edited)
    // lines are anchors that sit on one row; a block (an unpaired run between anchors) of variant i with more
    // lines than it replaces in A needs that many more rows before the next common line (index
    // aStart + aCount); hunks of different variants ending at the same line share those rows.
    std::vector<int> extra(size_t(lenA) + 1, 0);
    for (const LineDiff &d : al.diffs)
        for (const LineHunk &h : d.blocks)
            extra[size_t(h.aStart + h.aCount)] = std::max(extra[size_t(h.aStart + h.aCount)], h.bCount - h.aCount);
    al.fillers.push_back(extra);
    std::vector<int> rowOfA(size_t(lenA) + 1, 0); // display row of A's line k (k == lenA: the end)
    for (int k = 0, row = 0; k <= lenA; ++k) {
        row += extra[size_t(k)];
        rowOfA[size_t(k)] = row++;
    }
    // Each other variant: its lines between two common lines fill the rows between them from the top;
    // the rest of those rows are its fillers, shown before its next common line.
    for (qsizetype i = 0; i < others.size(); ++i) {
        const LineDiff &d = al.diffs[size_t(i)];
        const int lenB = int(others[i].size());
        std::vector<int> fill(size_t(lenB) + 1, 0);
        for (const LineHunk &h : d.blocks) {
            const int rowsBetween =
                rowOfA[size_t(h.aStart + h.aCount)] - (h.aStart > 0 ? rowOfA[size_t(h.aStart - 1)] + 1 : 0);
            // An edit starts on the row of the first A line it replaces (the rows another variant inserted
            // before that line stay empty here); an insertion fills its rows from the top.
            const int before = h.aCount > 0 ? extra[size_t(h.aStart)] : 0;
            fill[size_t(h.bStart)] += before;
            fill[size_t(h.bStart + h.bCount)] += std::max(0, rowsBetween - h.bCount - before);
        }
        // Common lines not next to a hunk still need A's extra rows (another variant's insertion there).
        std::vector<bool> hunkEnd(size_t(lenB) + 1, false);
        for (const LineHunk &h : d.blocks)
            hunkEnd[size_t(h.bStart + h.bCount)] = true;
        int ia = 0, ib = 0;
        for (size_t h = 0; ia <= lenA && ib <= lenB;) {
            const bool inHunk = h < d.blocks.size() && d.blocks[h].aStart == ia && d.blocks[h].bStart == ib;
            if (inHunk) {
                ia += d.blocks[h].aCount;
                ib += d.blocks[h].bCount;
                ++h;
                continue;
            }
            if (!hunkEnd[size_t(ib)])
                fill[size_t(ib)] += extra[size_t(ia)];
            if (ia == lenA || ib == lenB)
                break;
            ++ia, ++ib;
        }
        al.fillers.push_back(fill);
    }
    std::set<int> rows;
    for (const LineDiff &d : al.diffs)
        for (const LineHunk &h : d.hunks)
            rows.insert(h.aCount > 0 ? rowOfA[size_t(h.aStart)] : rowOfA[size_t(h.aStart)] - extra[size_t(h.aStart)]);
    al.changeRows.assign(rows.begin(), rows.end());
    return al;
}

} // namespace sieve::ui
