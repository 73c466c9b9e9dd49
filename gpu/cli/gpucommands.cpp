#include "gpu/cli/gpucommands.h"

namespace sieve::gpu {

cli::Command verifyCommand();          // verifycommand.cpp
cli::Command compileCommand();         // commands_cuda.cpp
cli::Command devicesCommand();         // commands_cuda.cpp
cli::Command cudaRunCommand();         // commands_cuda.cpp
cli::Command cudaLaunchChildCommand(); // commands_cuda.cpp
cli::Command cudaVerifyCommand();      // commands_cuda.cpp
cli::Command mergeCommand();           // commands_shard.cpp
cli::Command slurmScriptCommand();     // commands_shard.cpp
cli::Command tasksCommand();           // taskscheck.cpp
cli::Command augmentCommand();         // commands_augment.cpp

std::vector<cli::Command> gpuCommands()
{
    return {verifyCommand(),     compileCommand(), devicesCommand(),     cudaRunCommand(), cudaLaunchChildCommand(),
            cudaVerifyCommand(), mergeCommand(),   slurmScriptCommand(), tasksCommand(),   augmentCommand()};
}

} // namespace sieve::gpu
