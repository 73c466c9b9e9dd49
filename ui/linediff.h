#pragma once
// A line diff (longest common subsequence over lines, Myers' greedy algorithm) that says which lines of
// each side are not part of the common subsequence. Enough to mark changed lines in the comparison.
#include <QStringList>

#include <vector>

namespace sieve::ui {

struct LineDiff {
    std::vector<bool> changedA; // one per line of a
    std::vector<bool> changedB; // one per line of b
    int common = 0;             // length of the common subsequence
};

// Lines compare after trimming trailing whitespace, so editor noise does not light up the margin.
LineDiff diffLines(const QStringList &a, const QStringList &b);

} // namespace sieve::ui
