#include "net/chatwire.h"

#include <simdjson.h>

namespace sieve::net {

namespace {

// One parser per thread, reused: after the first reply it parses without allocating (the client decodes
// every reply on its event-loop thread, a few dozen events per streamed reply).
simdjson::dom::parser &parser()
{
    thread_local simdjson::dom::parser p;
    return p;
}

std::string errorText(simdjson::dom::element err)
{
    std::string_view message;
    if (err.is_object() && err["message"].get(message) == simdjson::SUCCESS)
        return std::string(message);
    return simdjson::minify(err).substr(0, 300);
}

void appendString(std::string &to, simdjson::dom::object obj, std::string_view key)
{
    std::string_view s;
    if (obj[key].get(s) == simdjson::SUCCESS)
        to.append(s);
}

} // namespace

ReplyParts parseCompletion(std::string_view body)
{
    simdjson::dom::element j;
    if (parser().parse(body.data(), body.size()).get(j) != simdjson::SUCCESS)
        throw WireError("malformed JSON in the reply (" + std::to_string(body.size()) + " bytes)");
    simdjson::dom::object root;
    if (j.get(root) != simdjson::SUCCESS)
        throw WireError("the reply is not a JSON object");
    if (simdjson::dom::element err; root["error"].get(err) == simdjson::SUCCESS)
        throw WireError("the reply carries an error: " + errorText(err));
    simdjson::dom::array choices;
    simdjson::dom::object choice;
    if (root["choices"].get(choices) != simdjson::SUCCESS || choices.at(0).get(choice) != simdjson::SUCCESS)
        throw WireError("the reply has no choices[0]");
    simdjson::dom::object msg;
    if (choice["message"].get(msg) != simdjson::SUCCESS)
        throw WireError("the reply has no choices[0].message");
    ReplyParts parts;
    appendString(parts.content, msg, "content");
    appendString(parts.reasoning, msg, "reasoning_content");
    if (parts.reasoning.empty())
        appendString(parts.reasoning, msg, "reasoning");
    appendString(parts.finishReason, choice, "finish_reason");
    return parts;
}

void SseDecoder::feed(std::string_view bytes)
{
    // Lines are decoded where they lie in `bytes`; only a line cut by the end of `bytes` is copied (to
    // m_pending) until its newline arrives. A reply read in one piece is never copied.
    if (!m_pending.empty()) {
        const size_t nl = bytes.find('\n');
        if (nl == std::string_view::npos) {
            m_pending.append(bytes);
            return;
        }
        m_pending.append(bytes.substr(0, nl));
        std::string_view l(m_pending);
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        line(l);
        m_pending.clear();
        bytes.remove_prefix(nl + 1);
    }
    for (;;) {
        const size_t nl = bytes.find('\n');
        if (nl == std::string_view::npos)
            break;
        std::string_view l = bytes.substr(0, nl);
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        line(l);
        bytes.remove_prefix(nl + 1);
    }
    m_pending.append(bytes);
}

void SseDecoder::line(std::string_view l)
{
    if (l.empty()) {
        dispatchEvent();
        return;
    }
    if (l.front() == ':') // comment / keep-alive
        return;
    if (l.substr(0, 5) != "data:")
        return; // event:, id:, retry: carry nothing the sampler needs
    l.remove_prefix(5);
    if (!l.empty() && l.front() == ' ')
        l.remove_prefix(1);
    if (m_haveData)
        m_eventData += '\n';
    m_eventData.append(l); // keeps its capacity between events: no allocation per event
    m_haveData = true;
}

void SseDecoder::dispatchEvent()
{
    if (!m_haveData)
        return;
    m_haveData = false;
    const std::string_view data(m_eventData);
    if (data == "[DONE]") {
        m_done = true;
        m_eventData.clear();
        return;
    }
    simdjson::dom::element j;
    simdjson::dom::object root;
    const bool ok =
        parser().parse(data.data(), data.size()).get(j) == simdjson::SUCCESS && j.get(root) == simdjson::SUCCESS;
    m_eventData.clear(); // the parser copied what it needs; strings below point into the parser
    if (!ok)
        throw WireError("malformed JSON in a streamed chunk");
    if (simdjson::dom::element err; root["error"].get(err) == simdjson::SUCCESS)
        throw WireError("the stream carries an error: " + errorText(err));
    simdjson::dom::array choices;
    simdjson::dom::object choice;
    if (root["choices"].get(choices) != simdjson::SUCCESS || choices.at(0).get(choice) != simdjson::SUCCESS)
        return; // e.g. a final usage-only chunk
    if (simdjson::dom::object delta; choice["delta"].get(delta) == simdjson::SUCCESS) {
        appendString(m_parts.content, delta, "content");
        appendString(m_parts.reasoning, delta, "reasoning_content");
        appendString(m_parts.reasoning, delta, "reasoning");
    }
    if (std::string_view fr; choice["finish_reason"].get(fr) == simdjson::SUCCESS)
        m_parts.finishReason.assign(fr);
}

void SseDecoder::finish()
{
    if (!m_pending.empty()) {
        std::string rest = std::move(m_pending);
        m_pending.clear();
        line(rest);
    }
    dispatchEvent();
    if (!m_done && m_parts.finishReason.empty())
        throw WireError("the stream ended before [DONE] (truncated reply)");
}

} // namespace sieve::net
