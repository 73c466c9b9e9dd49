#include "cli.h"

namespace sieve::cli {

// Each lives in its own commands_*.cpp.
std::vector<Command> basicCommands();
Command statsCommand();
Command importCommand();
Command dedupCommand();

std::vector<Command> coreCommands()
{
    std::vector<Command> all = basicCommands();
    all.push_back(statsCommand());
    all.push_back(importCommand());
    all.push_back(dedupCommand());
    return all;
}

} // namespace sieve::cli
