#include "gpu/cli/commands.h"

namespace sieve::gpu {

std::vector<cli::Command> gpuCommands()
{
    return {verifyCommand(),     compileCommand(), devicesCommand(),     cudaRunCommand(), cudaLaunchChildCommand(),
            cudaVerifyCommand(), mergeCommand(),   slurmScriptCommand(), tasksCommand(),   augmentCommand()};
}

} // namespace sieve::gpu
