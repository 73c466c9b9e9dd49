#include "gpucommands.h"

namespace sieve::gpu {

cli::Command compileCommand(); // commands_cuda.cpp
cli::Command devicesCommand(); // commands_cuda.cpp
cli::Command cudaRunCommand(); // commands_cuda.cpp

std::vector<cli::Command> gpuCommands()
{
    return {compileCommand(), devicesCommand(), cudaRunCommand()};
}

} // namespace sieve::gpu
