#include "net/redaction.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <map>
#include <utility>
#include <vector>

namespace sieve::net {

namespace {

// Every string of `root` (keys included) with the path it was found at, without recursion: a
// hostile document's nesting cannot reach the stack. simdjson caps the depth while parsing anyway.
void collectStrings(simdjson::dom::element root, std::map<std::string, std::string> &byPath, std::string_view key,
                    bool &found)
{
    std::vector<std::pair<simdjson::dom::element, std::string>> stack{{root, std::string()}};
    while (!stack.empty() && !found) {
        auto [e, path] = std::move(stack.back());
        stack.pop_back();
        switch (e.type()) {
        case simdjson::dom::element_type::STRING: {
            std::string_view s;
            if (e.get(s) != simdjson::SUCCESS)
                break;
            std::string &joined = byPath[path];
            joined.append(s);
            if (joined.find(key) != std::string::npos)
                found = true;
            // Only the tail that a later piece could complete is kept.
            if (joined.size() > 2 * key.size())
                joined.erase(0, joined.size() - key.size());
            break;
        }
        case simdjson::dom::element_type::ARRAY: {
            simdjson::dom::array array;
            if (e.get(array) != simdjson::SUCCESS)
                break;
            std::size_t i = 0;
            for (simdjson::dom::element child : array)
                stack.emplace_back(child, path + "[" + std::to_string(i++) + "]");
            break;
        }
        case simdjson::dom::element_type::OBJECT: {
            simdjson::dom::object object;
            if (e.get(object) != simdjson::SUCCESS)
                break;
            for (auto field : object) {
                if (field.key.find(key) != std::string_view::npos)
                    found = true;
                stack.emplace_back(field.value, path + "." + std::string(field.key));
            }
            break;
        }
        default:
            break;
        }
    }
}

void checkDocument(simdjson::dom::parser &parser, std::string_view text, std::map<std::string, std::string> &byPath,
                   std::string_view key, bool &found)
{
    simdjson::dom::element root;
    if (parser.parse(text.data(), text.size()).get(root) == simdjson::SUCCESS)
        collectStrings(root, byPath, key, found);
}

} // namespace

bool replyCarriesKey(std::string_view raw, bool stream, std::string_view key)
{
    if (key.empty())
        return false;
    if (raw.find(key) != std::string_view::npos)
        return true;
    simdjson::dom::parser parser;
    std::map<std::string, std::string> byPath; // per field, its pieces joined across events
    bool found = false;
    if (!stream) {
        checkDocument(parser, raw, byPath, key, found);
        return found;
    }
    // The events' data, as an SSE client joins them (several data: lines of one event with '\n').
    std::string data;
    bool haveData = false;
    auto dispatch = [&] {
        if (haveData && data != "[DONE]")
            checkDocument(parser, data, byPath, key, found);
        data.clear();
        haveData = false;
    };
    std::size_t pos = 0;
    while (pos <= raw.size() && !found) {
        std::size_t nl = raw.find('\n', pos);
        if (nl == std::string_view::npos)
            nl = raw.size();
        std::string_view line = raw.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty()) {
            dispatch();
        } else if (line.substr(0, 5) == "data:") {
            line.remove_prefix(5);
            if (!line.empty() && line.front() == ' ')
                line.remove_prefix(1);
            if (haveData)
                data += '\n';
            data.append(line);
            haveData = true;
        }
        if (nl == raw.size())
            break;
        pos = nl + 1;
    }
    dispatch();
    return found;
}

bool redactIn(std::string &text, std::string_view key)
{
    if (key.empty())
        return false;
    bool any = false;
    for (std::size_t at = 0; (at = text.find(key, at)) != std::string::npos;) {
        text.replace(at, key.size(), "[redacted]");
        at += 10;
        any = true;
    }
    return any;
}

std::string redactedReply(std::string_view content, std::string_view reasoning, std::string_view finishReason)
{
    nlohmann::json message = {{"role", "assistant"}, {"content", content}};
    if (!reasoning.empty())
        message["reasoning_content"] = reasoning;
    nlohmann::json reply = {
        {"object", "chat.completion"},
        {"choices",
         nlohmann::json::array({{{"index", 0}, {"message", std::move(message)}, {"finish_reason", finishReason}}})},
        {"sieve_note", "the endpoint echoed the API key; this reply was rebuilt from its decoded text with the key "
                       "removed, and the raw bytes were not stored"}};
    return reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace sieve::net
