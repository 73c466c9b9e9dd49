#include "core/cli/commands.h"

namespace sieve::cli {

std::vector<Command> coreCommands()
{
    return {initCommand(),  migrateCommand(), listCommand(),   statsCommand(), importCommand(),
            dedupCommand(), reviewCommand(),  selectCommand(), exportCommand()};
}

} // namespace sieve::cli
