#include "gpucommands.h"

namespace sieve::gpu {

cli::Command verifyCommand(); // verifycommand.cpp

std::vector<cli::Command> gpuCommands()
{
    return {verifyCommand()};
}

} // namespace sieve::gpu
