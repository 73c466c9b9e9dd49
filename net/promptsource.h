#pragma once
// Where the sampler's prompts come from: the export's templates (resources/prompts) and renderer
// (core/prompt/prompttemplate.h), one source of truth for sampling and export.
#include <nlohmann/json.hpp>

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

// Identifies the template in stored request parameters, so rows made from different prompts can be told
// apart later.
const char *promptTemplateId();

} // namespace sieve::net
