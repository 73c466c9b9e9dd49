#include "gpu/verify/workerprotocol.h"

#include "core/util/jsondepth.h"

namespace sieve::gpu {

std::optional<nlohmann::json> decodeWorkerLine(std::string_view line)
{
    if (!jsonguard::depthWithin(line))
        return std::nullopt;
    nlohmann::json msg = nlohmann::json::parse(line, nullptr, false);
    if (msg.is_discarded() || !msg.is_object() || !msg.contains("op") || !msg["op"].is_string())
        return std::nullopt;
    return msg;
}

} // namespace sieve::gpu
