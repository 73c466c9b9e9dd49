#pragma once
// What select and export share: the selection options, reading them from the command line and printing
// the distribution a selection keeps.
#include "core/cli/cli.h"
#include "core/select/selection.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <vector>

namespace sieve::cli {

// The options of a selection recipe, described under the heading "Selection (applied in this order):".
std::vector<OptionSpec> selectionOptions();
SelectionOptions selectionFromArgs(const Args &args);

// "TITLE:  key=tasks/UNIT ..." for one breakdown of a selection summary.
void printBreakdown(std::ostream &out, const char *title, const nlohmann::json &part, const char *unit);
// The distribution of selectionSummary(): totals, the breakdowns and what was excluded.
void printSelection(std::ostream &out, const nlohmann::json &s);

} // namespace sieve::cli
