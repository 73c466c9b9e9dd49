#include "promptsource.h"

#include "prompttemplate.h"

#include <map>
#include <stdexcept>

namespace sieve::net {

namespace {
std::string rtrim(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t'))
        s.pop_back();
    return s;
}
} // namespace

const char *promptTemplateId() { return "resources/prompts/{system,<backend>}.txt"; }

nlohmann::json renderMessages(const PromptInput &task)
{
    // The export's templates and renderer (core/prompttemplate.h), with the values export.cpp passes, so a
    // training row's prompt is the prompt the teacher was sampled with.
    const auto path = promptsDir() / (task.backend + ".txt");
    if (!std::filesystem::exists(path))
        throw std::runtime_error("no prompt template for backend '" + task.backend + "' (" + path.string() + ")");
    std::map<std::string, std::string> v;
    v["reference"] = rtrim(task.referenceCode);
    v["task"] = task.taskName;
    v["backend"] = task.backend;
    v["dtype"] = task.dtype;
    for (const char *unknownHere : {"target", "level", "category", "difficulty", "tags"})
        v[unknownHere] = "";
    const std::string user = rtrim(PromptTemplate::fromFile(path).render(v));
    const std::string system = rtrim(PromptTemplate::load("system").render({}));
    nlohmann::json messages = nlohmann::json::array();
    if (!system.empty())
        messages.push_back({{"role", "system"}, {"content", system}});
    messages.push_back({{"role", "user"}, {"content", user}});
    return messages;
}

} // namespace sieve::net
