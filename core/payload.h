#pragma once
// Large text payloads (source, logs, reasoning, raw responses) are stored compressed in side tables so
// that list and count queries never scan them. One byte of header says how the rest is encoded.
#include <string>
#include <string_view>

namespace sieve::payload {

std::string pack(std::string_view text);
// Throws std::runtime_error on a corrupt blob.
std::string unpack(std::string_view blob);

} // namespace sieve::payload
