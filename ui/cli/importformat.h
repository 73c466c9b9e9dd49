#pragma once
// Which `sieve-cli import --format` a dropped or chosen file needs, from its name and the columns of its
// first record (docs/FORMATS.md lists each format's tell-tale columns). Reads one line at most.
#include <QString>

namespace sieve::ui {

// "kernelbench", "kernelbook", "cuda-archive" or "sieve"; empty when the file cannot be read.
QString importFormatOf(const QString &path);

} // namespace sieve::ui
