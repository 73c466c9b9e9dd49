#pragma once
// Where the sampler's prompts come from. The export renders the same prompts from core/prompttemplate.h
// (branch `export`); until that lands on main this adapter holds the KernelBench-style instruction, and
// switching is one function body: build the messages with the export's renderer instead.
#include <nlohmann/json.hpp>

#include <string>

namespace sieve::net {

struct PromptInput {
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
