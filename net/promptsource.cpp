#include "net/promptsource.h"

#include "core/prompt/prompttemplate.h"

#include <map>

namespace sieve::net {

const char *promptTemplateId()
{
    return "resources/prompts/{system,<backend>}.txt";
}

QByteArray chatRequestBody(const std::string &model, const nlohmann::json &messages, double temperature,
                           std::optional<int> maxTokens, const nlohmann::json &extra, bool stream)
{
    nlohmann::json body = {{"model", model}, {"messages", messages}, {"temperature", temperature}};
    if (maxTokens)
        body["max_tokens"] = *maxTokens;
    for (const auto &[k, v] : extra.items())
        body[k] = v;
    if (stream)
        body["stream"] = true;
    else
        body.erase("stream");
    return QByteArray::fromStdString(body.dump());
}

nlohmann::json renderMessages(const PromptInput &task)
{
    // The export's templates and renderer (core/prompt/prompttemplate.h), with the values export.cpp passes,
    // so a training row's prompt is the prompt the teacher was sampled with.
    std::map<std::string, std::string> v;
    v["reference"] = trimTrailingSpace(task.referenceCode);
    v["task"] = task.taskName;
    v["backend"] = task.backend;
    v["dtype"] = task.dtype;
    for (const char *unknownHere : {"target", "level", "category", "difficulty", "tags"})
        v[unknownHere] = "";
    v["reference_raw"] = task.referenceCode;
    v["precision_display"] = precisionDisplay(task.dtype);
    const std::string user = backendTemplate(task.backend).renderPrompt(v);
    const std::string system = PromptTemplate::load("system").renderPrompt({});
    nlohmann::json messages = nlohmann::json::array();
    if (!system.empty())
        messages.push_back({{"role", "system"}, {"content", system}});
    messages.push_back({{"role", "user"}, {"content", user}});
    return messages;
}

} // namespace sieve::net
