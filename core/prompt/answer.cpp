#include "core/prompt/answer.h"

#include "core/util/jsondepth.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace sieve::answer {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// Splits off <think>...</think>. A reply that has a closing tag without an opening one (chat templates
// that put <think> in the prompt) has its reasoning before the tag; an unclosed tag runs to the end.
void splitThink(std::string_view text, std::string &reasoning, std::string &visible)
{
    constexpr std::string_view open = "<think>", close = "</think>";
    std::size_t pos = 0;
    const std::size_t firstOpen = text.find(open);
    const std::size_t firstClose = text.find(close);
    if (firstClose != std::string_view::npos && (firstOpen == std::string_view::npos || firstClose < firstOpen)) {
        reasoning.append(trim(text.substr(0, firstClose)));
        pos = firstClose + close.size();
    }
    while (pos < text.size()) {
        const std::size_t o = text.find(open, pos);
        if (o == std::string_view::npos) {
            visible.append(text.substr(pos));
            break;
        }
        visible.append(text.substr(pos, o - pos));
        const std::size_t bodyStart = o + open.size();
        const std::size_t c = text.find(close, bodyStart);
        const std::string_view body =
            trim(text.substr(bodyStart, c == std::string_view::npos ? std::string_view::npos : c - bodyStart));
        if (!body.empty()) {
            if (!reasoning.empty())
                reasoning.append("\n\n");
            reasoning.append(body);
        }
        if (c == std::string_view::npos)
            break;
        pos = c + close.size();
    }
}

struct Block
{
    std::string_view body;
};

// Fenced blocks (``` or ~~~, three or more, up to three spaces of indent). An unclosed fence runs to the
// end of the text: truncated replies still carry their (probably broken) answer for the verifier.
std::vector<Block> fencedBlocks(std::string_view text)
{
    std::vector<Block> blocks;
    std::size_t pos = 0;
    bool inBlock = false;
    char fenceChar = 0;
    std::size_t fenceLen = 0;
    std::size_t bodyStart = 0;
    while (pos <= text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        std::string_view line = text.substr(pos, eol - pos);
        std::size_t indent = 0;
        while (indent < line.size() && indent < 4 && line[indent] == ' ')
            ++indent;
        std::string_view rest = indent < 4 ? line.substr(indent) : std::string_view{};
        std::size_t run = 0;
        if (!rest.empty() && (rest[0] == '`' || rest[0] == '~')) {
            while (run < rest.size() && rest[run] == rest[0])
                ++run;
        }
        if (!inBlock && run >= 3) {
            inBlock = true;
            fenceChar = rest[0];
            fenceLen = run;
            bodyStart = eol + 1;
        } else if (inBlock && run >= fenceLen && rest[0] == fenceChar && trim(rest.substr(run)).empty()) {
            blocks.push_back({text.substr(std::min(bodyStart, pos), pos - std::min(bodyStart, pos))});
            inBlock = false;
        }
        if (eol == text.size())
            break;
        pos = eol + 1;
    }
    if (inBlock && bodyStart <= text.size())
        blocks.push_back({text.substr(bodyStart)});
    return blocks;
}

std::optional<std::string> stringField(const nlohmann::json &obj, const char *name)
{
    if (!obj.is_object())
        return std::nullopt;
    auto it = obj.find(name);
    if (it == obj.end() || !it->is_string())
        return std::nullopt;
    return it->get<std::string>();
}

// Finds the message object in a completion, a choice or a message. A completion holds its message one
// level down (choices[0].message), so the walk follows `choices` at most once: a `response` of deeply
// nested JSON must not recurse (or loop) once per level of its nesting.
const nlohmann::json *messageOf(const nlohmann::json &top)
{
    const nlohmann::json *j = &top;
    for (int level = 0; level < 2; ++level) {
        if (!j->is_object())
            return nullptr;
        if (auto c = j->find("choices"); level == 0 && c != j->end() && c->is_array() && !c->empty()) {
            j = &(*c)[0];
            continue;
        }
        if (auto m = j->find("message"); m != j->end() && m->is_object())
            return &*m;
        if (auto d = j->find("delta"); d != j->end() && d->is_object())
            return &*d;
        if (j->contains("content") || j->contains("reasoning_content") || j->contains("reasoning"))
            return j;
        return nullptr;
    }
    return nullptr;
}

} // namespace

bool definesClass(std::string_view code, std::string_view className)
{
    std::size_t pos = 0;
    while (pos < code.size()) {
        std::size_t eol = code.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = code.size();
        std::string_view line = code.substr(pos, eol - pos);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        if (line.substr(0, 6) == "class " || line.substr(0, 6) == "class\t") {
            line.remove_prefix(6);
            while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
                line.remove_prefix(1);
            if (line.substr(0, className.size()) == className) {
                line.remove_prefix(className.size());
                while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
                    line.remove_prefix(1);
                if (!line.empty() && (line.front() == '(' || line.front() == ':'))
                    return true;
            }
        }
        pos = eol + 1;
    }
    return false;
}

Extracted extractFromParts(std::string_view content, std::string_view reasoningContent)
{
    Extracted out;
    std::string thinkReasoning;
    splitThink(content, thinkReasoning, out.content);
    const std::string_view rc = trim(reasoningContent);
    out.reasoning = std::string(rc);
    if (!thinkReasoning.empty()) {
        if (!out.reasoning.empty())
            out.reasoning.append("\n\n");
        out.reasoning.append(thinkReasoning);
    }
    const std::vector<Block> blocks = fencedBlocks(out.content);
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
        if (definesClass(it->body, "ModelNew")) {
            out.code = std::string(it->body);
            while (!out.code.empty() && isSpace(out.code.back()))
                out.code.pop_back();
            out.code.push_back('\n');
            out.hasAnswer = true;
            break;
        }
    }
    return out;
}

Extracted extract(std::string_view response)
{
    const std::string_view t = trim(response);
    if (!t.empty() && t.front() == '{' && jsonguard::depthWithin(t)) {
        const nlohmann::json j = nlohmann::json::parse(t, nullptr, false);
        if (!j.is_discarded()) {
            if (const nlohmann::json *msg = messageOf(j)) {
                const std::string content = stringField(*msg, "content").value_or("");
                const std::string reasoning =
                    stringField(*msg, "reasoning_content").value_or(stringField(*msg, "reasoning").value_or(""));
                return extractFromParts(content, reasoning);
            }
        }
    }
    return extractFromParts(response, {});
}

} // namespace sieve::answer
