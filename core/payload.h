#pragma once
// Large text payloads (source, logs, reasoning, raw responses) are stored compressed in side tables so
// that list and count queries never scan them. One byte of header says how the rest is encoded.
#include <string>
#include <string_view>

namespace sieve::payload {

std::string pack(std::string_view text);
// Throws std::runtime_error on a corrupt blob.
std::string unpack(std::string_view blob);
// The same into `out`, replacing its contents; its capacity is reused, so a loop over many payloads
// does not allocate per payload.
void unpackInto(std::string_view blob, std::string &out);

} // namespace sieve::payload
