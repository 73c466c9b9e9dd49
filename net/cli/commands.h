#pragma once
// The net layer's sieve-cli commands (sieve-cli links them only when Qt is available), one file each in
// net/cli/: `sample`, `judge`, `explain`, and `augment --teacher`. This header is the one place that declares their
// factories; registry.cpp lists them.
#include "core/cli/cli.h"

#include <vector>

namespace sieve::net {

// Every net command, in the order `sieve-cli --help` lists them.
std::vector<cli::Command> netCommands();

cli::Command sampleCommand();
cli::Command judgeCommand();
cli::Command explainCommand();
// The gpu layer's `augment` with --teacher added (net/cli/augment.cpp): sieve-cli lists it in place of
// gpu::augmentCommand(), which it runs for everything but --teacher.
cli::Command augmentCommand();

} // namespace sieve::net
