#pragma once
// Shared by the GUI tests: a small real corpus built by SQL, waiting helpers and screenshots.
#include <QString>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <functional>
#include <ostream>

class QWidget;

inline void PrintTo(const QString &s, std::ostream *os)
{
    *os << '"' << s.toStdString() << '"';
}

namespace sieve::test {

// Three tasks, nine samples (Triton and bare CUDA), two verdicts with checks, timings and a log, one
// dedup cluster. Ids are fixed so tests can name them.
struct GuiCorpus
{
    QTemporaryDir dir;
    QString path;
    static constexpr qint64 kRelu = 1, kMatmul = 2, kSoftmax = 3;
    static constexpr qint64 kReluFast = 1, kReluFaster = 2, kReluMismatch = 3, kReluPending = 4;
    static constexpr qint64 kCluster = 1;
    GuiCorpus();
};

// Spins the event loop until `done` holds or `ms` pass; true when it held.
bool waitFor(const std::function<bool()> &done, int ms = 5000);
// Saves w's picture as <build>/screenshots/<name>.png for a person to look at.
void screenshot(QWidget *w, const QString &name);
// A script that stands in for sieve-cli: answers --help with the given commands and prints the given
// stdout for any other call. Returns its path.
QString fakeCli(const QTemporaryDir &dir, const QStringList &commands, const QString &stdoutText, int exitCode = 0);

} // namespace sieve::test
