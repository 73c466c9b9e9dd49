#pragma once
// The chat-completions wire format as far as the sampler reads it: a completed reply (one JSON object)
// or a stream of server-sent events whose `data:` lines carry deltas. Reasoning arrives as
// `reasoning_content` (vLLM, SGLang, DeepSeek) or `reasoning` (some OpenRouter-style servers).
#include <stdexcept>
#include <string>
#include <string_view>

namespace sieve::net {

struct ReplyParts
{
    std::string content;
    std::string reasoning;
    std::string finishReason;
};

// A reply that is not what the wire format promises (malformed or truncated JSON, no choices, an error
// object in a 200). The client treats it like any other endpoint error: retried, no attempt consumed.
struct WireError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// Parses a complete (non-streamed) chat completion. Throws WireError.
ReplyParts parseCompletion(std::string_view body);

// Incremental decoder for a streamed reply (text/event-stream). Feed it the body as it arrives.
class SseDecoder
{
public:
    // Throws WireError on an event that is not a chunk (bad JSON, an error object).
    void feed(std::string_view bytes);
    // Call when the body ended: throws WireError when the stream stopped before `[DONE]` and before any
    // chunk carried a finish_reason (a connection cut mid-answer must not become a sample).
    void finish();
    const ReplyParts &parts() const { return m_parts; }
    bool done() const { return m_done; }

private:
    void line(std::string_view l);
    void dispatchEvent();
    std::string m_pending;   // bytes after the last newline
    std::string m_eventData; // data lines of the current event
    bool m_haveData = false;
    bool m_done = false;
    ReplyParts m_parts;
};

} // namespace sieve::net
