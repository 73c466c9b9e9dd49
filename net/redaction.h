#pragma once
// Keeping the API key out of what Sieve stores. A hostile or buggy endpoint can echo the key in a reply;
// replacing the literal bytes is not enough, because the stored raw reply is an encoding of the text:
// the key may arrive JSON-escaped (`\u0073k-...`, `\/`), split across the deltas of a stream (each piece
// harmless alone, joined once decoded), or in a field Sieve does not read. So the check runs on the
// decoded reply: every JSON string, with its escapes undone, and for a stream every field's pieces
// joined across events in order. A reply that carries the key in any of these is not stored as it came:
// it is re-encoded from its decoded parts with the key removed (redactedReply()).
#include <string>
#include <string_view>

namespace sieve::net {

// True when `key` (not empty) appears in `raw` literally or in any decoding described above.
// `stream`: `raw` is an event-stream body (data: lines), else one JSON document.
bool replyCarriesKey(std::string_view raw, bool stream, std::string_view key);

// Replaces every occurrence of `key` in `text` by "[redacted]"; true when there was one.
bool redactIn(std::string &text, std::string_view key);

// A chat completion holding only the (already redacted) decoded parts, plus a note saying why the raw
// reply was replaced. answer::extract() reads it like any completion.
std::string redactedReply(std::string_view content, std::string_view reasoning, std::string_view finishReason);

} // namespace sieve::net
