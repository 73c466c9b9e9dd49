#pragma once
// nlohmann::json parses iteratively, but copying, comparing and dump() recurse once per level of
// nesting: a document nested a million levels deep (a hostile `response`, a worker line) overflows the
// stack there. Texts from outside are measured first, without building anything.
#include <string_view>

namespace sieve::jsonguard {

// Nesting depth limit for documents Sieve reads from files, endpoints and workers; real ones stay under 20.
inline constexpr int kMaxDepth = 128;

// True when no array or object in `text` (taken as JSON, strings skipped) is nested deeper than
// `maxDepth`. Malformed text is measured as far as it goes.
bool depthWithin(std::string_view text, int maxDepth = kMaxDepth);

} // namespace sieve::jsonguard
