#pragma once
// Line diffs for the comparison view, computed with dtl (the Diff Template Library, O(NP)): which lines
// of each side are changed, the hunks, the changes within a changed line, and how many filler lines each
// editor needs so that matching lines of two or three variants sit on the same row.
#include <QStringList>

#include <vector>

namespace sieve::ui {

struct LineHunk
{
    int aStart = 0, aCount = 0; // lines of a (0-based), a count of 0: an insertion before aStart
    int bStart = 0, bCount = 0;
};

struct CharRange
{
    int line = 0;         // 0-based
    int from = 0, to = 0; // characters [from, to) of that line
};

struct LineDiff
{
    std::vector<bool> changedA;              // one per line of a
    std::vector<bool> changedB;              // one per line of b
    int common = 0;                          // length of the common subsequence
    std::vector<LineHunk> hunks;             // the changes, between common lines
    std::vector<LineHunk> blocks;            // hunks less their paired (edited) lines: what filler rows pad
    std::vector<CharRange> inlineA, inlineB; // within paired changed lines, the characters that differ
};

// Lines compare after trimming trailing whitespace, so editor noise does not light up the margin.
LineDiff diffLines(const QStringList &a, const QStringList &b);

// The characters that differ between two versions of one line, when the lines are alike enough for that
// to help (at least half of the longer line in common, neither blank): true and the ranges appended;
// otherwise false and nothing (the whole line is changed).
bool diffChars(const QString &a, const QString &b, int lineA, int lineB, std::vector<CharRange> &outA,
               std::vector<CharRange> &outB);

// Variant A and the others side by side. fillers[v][k] is the number of empty rows editor v shows
// before its line k (k == line count: at the end), so that every line of another variant that matches a
// line of A sits on A's row; diffs[i] is A against others[i].
struct Alignment
{
    std::vector<std::vector<int>> fillers; // [0] is A, [1 + i] is others[i]
    std::vector<LineDiff> diffs;
    std::vector<int> changeRows; // first display row of each change (hunk) in A, sorted, distinct
};
Alignment alignVariants(const QStringList &a, const QList<QStringList> &others);

} // namespace sieve::ui
