#include "answersource.h"

#include <vector>

namespace sieve::net {

namespace {

bool definesModelNew(std::string_view code)
{
    size_t pos = 0;
    while (pos < code.size()) {
        size_t end = code.find('\n', pos);
        if (end == std::string_view::npos)
            end = code.size();
        std::string_view line = code.substr(pos, end - pos);
        const size_t first = line.find_first_not_of(" \t");
        if (first != std::string_view::npos) {
            line.remove_prefix(first);
            if (line.rfind("class ModelNew", 0) == 0 && line.size() > 14 && (line[14] == '(' || line[14] == ':'))
                return true;
        }
        pos = end + 1;
    }
    return false;
}

// Bodies of the ``` fenced blocks of `text`, in order.
std::vector<std::string_view> fencedBlocks(std::string_view text)
{
    std::vector<std::string_view> blocks;
    size_t pos = 0;
    for (;;) {
        const size_t open = text.find("```", pos);
        if (open == std::string_view::npos)
            break;
        const size_t bodyStart = text.find('\n', open);
        if (bodyStart == std::string_view::npos)
            break;
        size_t close = text.find("\n```", bodyStart);
        if (close == std::string_view::npos)
            break;
        blocks.push_back(text.substr(bodyStart + 1, close + 1 - (bodyStart + 1)));
        const size_t after = text.find('\n', close + 1);
        pos = after == std::string_view::npos ? text.size() : after;
    }
    return blocks;
}

} // namespace

Extracted extractAnswer(std::string_view content, std::string_view reasoningContent)
{
    Extracted out;
    std::string visible(content);
    out.reasoning = std::string(reasoningContent);
    // <think>...</think> inside the content is reasoning, and any blocks in it are drafts.
    const size_t open = visible.find("<think>");
    if (open != std::string::npos) {
        const size_t close = visible.find("</think>", open);
        const size_t end = close == std::string::npos ? visible.size() : close + 8;
        const std::string inner =
            visible.substr(open + 7, (close == std::string::npos ? visible.size() : close) - (open + 7));
        if (out.reasoning.empty())
            out.reasoning = inner;
        visible.erase(open, end - open);
    }
    const auto blocks = fencedBlocks(visible);
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
        if (definesModelNew(*it)) {
            out.code = std::string(*it);
            out.hasAnswer = true;
            break;
        }
    }
    return out;
}

} // namespace sieve::net
