#include "chatwire.h"

#include <nlohmann/json.hpp>

namespace sieve::net {

namespace {

std::string errorText(const nlohmann::json &err)
{
    if (err.is_object() && err.contains("message") && err["message"].is_string())
        return err["message"].get<std::string>();
    return err.dump().substr(0, 300);
}

void appendString(std::string &to, const nlohmann::json &obj, const char *key)
{
    auto it = obj.find(key);
    if (it != obj.end() && it->is_string())
        to += it->get_ref<const std::string &>();
}

} // namespace

ReplyParts parseCompletion(std::string_view body)
{
    nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
    if (j.is_discarded())
        throw WireError("malformed JSON in the reply (" + std::to_string(body.size()) + " bytes)");
    if (!j.is_object())
        throw WireError("the reply is not a JSON object");
    if (j.contains("error"))
        throw WireError("the reply carries an error: " + errorText(j["error"]));
    auto choices = j.find("choices");
    if (choices == j.end() || !choices->is_array() || choices->empty() || !(*choices)[0].is_object())
        throw WireError("the reply has no choices[0]");
    const nlohmann::json &choice = (*choices)[0];
    auto msg = choice.find("message");
    if (msg == choice.end() || !msg->is_object())
        throw WireError("the reply has no choices[0].message");
    ReplyParts parts;
    appendString(parts.content, *msg, "content");
    appendString(parts.reasoning, *msg, "reasoning_content");
    if (parts.reasoning.empty())
        appendString(parts.reasoning, *msg, "reasoning");
    appendString(parts.finishReason, choice, "finish_reason");
    return parts;
}

void SseDecoder::feed(std::string_view bytes)
{
    m_pending.append(bytes);
    size_t start = 0;
    for (;;) {
        const size_t nl = m_pending.find('\n', start);
        if (nl == std::string::npos)
            break;
        std::string_view l(m_pending.data() + start, nl - start);
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        line(l);
        start = nl + 1;
    }
    m_pending.erase(0, start);
}

void SseDecoder::line(std::string_view l)
{
    if (l.empty()) {
        dispatchEvent();
        return;
    }
    if (l.front() == ':') // comment / keep-alive
        return;
    if (l.rfind("data:", 0) != 0)
        return; // event:, id:, retry: carry nothing the sampler needs
    l.remove_prefix(5);
    if (!l.empty() && l.front() == ' ')
        l.remove_prefix(1);
    if (m_haveData)
        m_eventData += '\n';
    m_eventData.append(l);
    m_haveData = true;
}

void SseDecoder::dispatchEvent()
{
    if (!m_haveData)
        return;
    const std::string data = std::move(m_eventData);
    m_eventData.clear();
    m_haveData = false;
    if (data == "[DONE]") {
        m_done = true;
        return;
    }
    nlohmann::json j = nlohmann::json::parse(data, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw WireError("malformed JSON in a streamed chunk");
    if (j.contains("error"))
        throw WireError("the stream carries an error: " + errorText(j["error"]));
    auto choices = j.find("choices");
    if (choices == j.end() || !choices->is_array() || choices->empty())
        return; // e.g. a final usage-only chunk
    const nlohmann::json &choice = (*choices)[0];
    if (auto delta = choice.find("delta"); delta != choice.end() && delta->is_object()) {
        appendString(m_parts.content, *delta, "content");
        appendString(m_parts.reasoning, *delta, "reasoning_content");
        appendString(m_parts.reasoning, *delta, "reasoning");
    }
    if (auto fr = choice.find("finish_reason"); fr != choice.end() && fr->is_string())
        m_parts.finishReason = fr->get<std::string>();
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
