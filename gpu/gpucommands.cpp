#include "gpucommands.h"

namespace sieve::gpu {

std::vector<cli::Command> gpuCommands()
{
    return {};
}

} // namespace sieve::gpu
