#pragma once
// The gpu layer's sieve-cli commands, one file each in gpu/cli/ (verify.cpp, compile.cpp, tasks.cpp...),
// appended to the core's by sieve-cli. This header is the one place that declares their factories;
// registry.cpp lists them.
#include "core/cli/cli.h"

#include <vector>

namespace sieve::gpu {

// Every gpu command, in the order `sieve-cli --help` lists them.
std::vector<cli::Command> gpuCommands();

cli::Command verifyCommand();
cli::Command compileCommand();
cli::Command devicesCommand();
cli::Command cudaRunCommand();
cli::Command cudaLaunchChildCommand(); // internal: the child process of cuda-run and native verification
cli::Command cudaVerifyCommand();      // internal: native verification for the verifier's worker
cli::Command mergeCommand();
cli::Command slurmScriptCommand();
cli::Command tasksCommand();
cli::Command augmentCommand();

} // namespace sieve::gpu
