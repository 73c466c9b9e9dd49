#pragma once
// The workbench's questions about a corpus and its runs, as message boxes; the main window reaches
// them through replaceable functions, so tests answer without a modal dialog.
#include <QString>

class QWidget;

namespace sieve::ui {

enum class RunChoice { Cancel, Resume, NewRun };

namespace prompts {
// A verification run of the corpus was stopped before it finished: resume it or start a new one?
RunChoice unfinishedRun(QWidget *parent, const QString &detail);
// The corpus is of an older version: update it (after a copy is kept at `backup`)?
bool migrate(QWidget *parent, const QString &path, int version, int current, const QString &backup);
// A large verification run: `samples` samples, about `estimate` (a duration, said how it was reckoned).
bool largeRun(QWidget *parent, qint64 samples, const QString &estimate);
} // namespace prompts

} // namespace sieve::ui
