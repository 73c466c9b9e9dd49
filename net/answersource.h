#pragma once
// How the sampler pulls the answer and the reasoning out of a reply: exactly as the importers do
// (core/prompt/answer.h: the last fenced block that defines ModelNew outside the reasoning; reasoning from
// `reasoning_content`/`reasoning` or <think> tags), so teacher samples and imported ones agree.
#include "core/prompt/answer.h"

#include <string_view>

namespace sieve::net {

using Extracted = answer::Extracted;

inline Extracted extractAnswer(std::string_view content, std::string_view reasoningContent)
{
    return answer::extractFromParts(content, reasoningContent);
}

} // namespace sieve::net
