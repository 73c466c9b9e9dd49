#pragma once
// A verifier worker that answers `task` requests, for checking task references outside a verify run: the
// reference runs in the worker's process (hygiene, fits the device; on the CPU under the interpreter, at
// shapes scaled down). `sieve-cli augment` keeps a variant only when its reference passes here, whether
// the variant came from --shapes/--dtypes or from a teacher (augment --teacher, net/cli/augment.cpp).
#include "core/tasks/augment.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace sieve::gpu {

class WorkerProcess;

class ReferenceChecker
{
public:
    // Starts the worker on `device` ("cpu" or "cuda:N"); throws std::runtime_error when it does not start.
    ReferenceChecker(const std::string &device, int timeoutSeconds);
    ~ReferenceChecker();
    ReferenceChecker(const ReferenceChecker &) = delete;
    ReferenceChecker &operator=(const ReferenceChecker &) = delete;

    // "" when the worker accepts the reference, else its hygiene messages.
    std::string check(const VariantTask &t);
    const nlohmann::json &env() const { return m_env; }

private:
    nlohmann::json waitFor(const std::string &op, const std::string &key, int seconds);

    int m_timeout;
    std::string m_scratch;
    std::unique_ptr<WorkerProcess> m_worker;
    nlohmann::json m_env;
};

} // namespace sieve::gpu
