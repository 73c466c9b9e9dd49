#pragma once
// Corpus statistics: counts per task, category, level and status (and, as verdicts exist, pass@k,
// fast_p and the failure taxonomy). Returned as JSON so the CLI and the GUI show the same figures.
#include <nlohmann/json_fwd.hpp>

namespace sieve {
class Corpus;
nlohmann::json corpusStats(const Corpus &corpus);
} // namespace sieve
