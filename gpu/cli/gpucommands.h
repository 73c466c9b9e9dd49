#pragma once
#include "core/cli/cli.h"

namespace sieve::gpu {
// Commands of the gpu layer (verify, compile, ...), appended to the core's by sieve-cli.
std::vector<cli::Command> gpuCommands();
// The GPUs this process may use, as CUDA numbers them (verifycommand.cpp); empty without nvidia-smi.
std::vector<int> detectGpus();
} // namespace sieve::gpu
