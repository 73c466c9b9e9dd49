#include "net/cli/commands.h"

namespace sieve::net {

std::vector<cli::Command> netCommands()
{
    return {sampleCommand(), judgeCommand(), explainCommand()};
}

} // namespace sieve::net
