#include "cli.h"

namespace sieve::cli {

// Each lives in its own commands_*.cpp.
std::vector<Command> basicCommands();
Command statsCommand();
Command importCommand();

std::vector<Command> coreCommands()
{
    std::vector<Command> all = basicCommands();
    all.push_back(statsCommand());
    all.push_back(importCommand());
    return all;
}

} // namespace sieve::cli
