#pragma once
// Pulls the answer out of a raw teacher response. KernelBench-style prompts ask for `class ModelNew`
// in a fenced code block; teachers often add drafts, explanations or several blocks, so the answer is
// the last fenced block that defines ModelNew. Reasoning comes from an OpenAI-style
// `reasoning_content` field or from <think>...</think> tags; blocks inside the reasoning are drafts,
// never the answer. Used by the importers and by the sampler.
#include <string>
#include <string_view>

namespace sieve::answer {

struct Extracted
{
    bool hasAnswer = false;
    std::string code;      // the fenced block's body, without the fence lines
    std::string reasoning; // empty when the response carries none
    std::string content;   // the visible text the code was searched in (reasoning removed)
};

// `response` is the text of a reply, or an OpenAI JSON object: a chat completion (choices[0].message),
// one choice, or one message; `content` and `reasoning_content` (or `reasoning`) are read from it.
Extracted extract(std::string_view response);

// The same for a reply already split into its visible content and its reasoning.
Extracted extractFromParts(std::string_view content, std::string_view reasoningContent);

// True when a line of `code` starts (after indentation) with `class ModelNew` followed by `(` or `:`.
bool definesClass(std::string_view code, std::string_view className);

} // namespace sieve::answer
