#pragma once
// How the sampler pulls the answer and the reasoning out of a reply. The importers do this with
// core/answer.h (branch `importers`): the last fenced block that defines ModelNew, reasoning from
// `reasoning_content` or <think> tags. Until that lands on main this adapter follows the same rules;
// switching is one function body: `answer::extractFromParts(content, reasoning)`.
#include <string>
#include <string_view>

namespace sieve::net {

struct Extracted {
    bool hasAnswer = false;
    std::string code;
    std::string reasoning;
};

Extracted extractAnswer(std::string_view content, std::string_view reasoningContent);

} // namespace sieve::net
