#pragma once
// Where the sampler's prompts come from: the export's templates (resources/prompts) and renderer
// (core/prompt/prompttemplate.h), one source of truth for sampling and export.
#include <nlohmann/json.hpp>

#include <QByteArray>

#include <optional>
#include <string>

namespace sieve::net {

struct PromptInput
{
    std::string taskName;
    std::string backend; // triton | cuda | ...
    std::string dtype;
    std::string referenceCode;
};

// The chat messages ([{"role":..,"content":..}]) sent for one task.
nlohmann::json renderMessages(const PromptInput &task);

// A chat-completions request body: model, messages, temperature, max_tokens when given, the `extra`
// fields merged in, and "stream": true only when streaming. One builder for sample, judge and explain.
QByteArray chatRequestBody(const std::string &model, const nlohmann::json &messages, double temperature,
                           std::optional<int> maxTokens, const nlohmann::json &extra, bool stream);

// Identifies the template in stored request parameters, so rows made from different prompts can be told
// apart later.
const char *promptTemplateId();

} // namespace sieve::net
