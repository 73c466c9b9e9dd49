#pragma once
#include "cli.h"

namespace sieve::gpu {
// Commands of the gpu layer (verify, compile, ...), appended to the core's by sieve-cli.
std::vector<cli::Command> gpuCommands();
} // namespace sieve::gpu
