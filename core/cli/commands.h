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
Command showCommand();
Command clustersCommand();

// `tasks set` and `tasks categorize` (core/cli/tasksedit.cpp), subcommands of the gpu layer's `tasks`.
std::vector<OptionSpec> taskEditOptions();
bool isTaskEdit(const Args &args);
int runTaskEdit(const Args &args, Context &ctx);
// `tasks list` (core/cli/taskslist.cpp): the tasks with their family, parent and who made each variant.
bool isTaskList(const Args &args);
int runTaskList(const Args &args, Context &ctx);

} // namespace sieve::cli
