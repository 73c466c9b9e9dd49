#pragma once
// The core layer's sieve-cli commands, one file each in core/cli/ (init.cpp, import.cpp, export.cpp...).
// This header is the one place that declares their factories; registry.cpp lists them.
#include "core/cli/cli.h"

#include <vector>

namespace sieve::cli {

// Every core command, in the order `sieve-cli --help` lists them.
std::vector<Command> coreCommands();

Command initCommand();
Command migrateCommand();
Command listCommand();
Command statsCommand();
Command importCommand();
Command dedupCommand();
Command reviewCommand();
Command selectCommand();
Command exportCommand();

} // namespace sieve::cli
