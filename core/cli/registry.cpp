#include "core/cli/commands.h"

namespace sieve::cli {

std::vector<Command> coreCommands()
{
    return {initCommand(),  migrateCommand(),  listCommand(),   showCommand(),   statsCommand(), importCommand(),
            dedupCommand(), clustersCommand(), reviewCommand(), selectCommand(), exportCommand()};
}

} // namespace sieve::cli
