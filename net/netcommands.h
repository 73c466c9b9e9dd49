#pragma once
// Commands of the net layer (sieve-cli links them only when Qt is available): `sample`.
#include "core/cli/cli.h"

#include <vector>

namespace sieve::net {

std::vector<cli::Command> netCommands();

} // namespace sieve::net
