#pragma once
// The net layer's sieve-cli commands (sieve-cli links them only when Qt is available), one file each in
// net/cli/: `sample`. This header is the one place that declares their factories; registry.cpp lists them.
#include "core/cli/cli.h"

#include <vector>

namespace sieve::net {

// Every net command, in the order `sieve-cli --help` lists them.
std::vector<cli::Command> netCommands();

cli::Command sampleCommand();
cli::Command judgeCommand();
cli::Command explainCommand();

} // namespace sieve::net
