#pragma once
// Decoding one line that a worker wrote on its protocol channel (gpu/worker/README.md). The worker is
// ours, but what it relays (a candidate's error text, shapes, logs) is not: a line is taken only when it
// is one JSON object with an "op", nested no deeper than jsonguard::kMaxDepth (copying or dumping a
// deeper one would recurse past the stack).
#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

namespace sieve::gpu {

std::optional<nlohmann::json> decodeWorkerLine(std::string_view line);

} // namespace sieve::gpu
