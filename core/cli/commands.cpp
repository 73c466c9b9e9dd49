#include "core/cli/cli.h"

namespace sieve::cli {

// Each lives in its own commands_*.cpp.
std::vector<Command> basicCommands();
Command statsCommand();
Command importCommand();
Command dedupCommand();
Command reviewCommand();
Command selectCommand();
Command exportCommand();

std::vector<Command> coreCommands()
{
    std::vector<Command> all = basicCommands();
    all.push_back(statsCommand());
    all.push_back(importCommand());
    all.push_back(dedupCommand());
    all.push_back(reviewCommand());
    all.push_back(selectCommand());
    all.push_back(exportCommand());
    return all;
}

} // namespace sieve::cli
