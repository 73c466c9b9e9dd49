#include "core/cli/commands.h"
#include "gpu/cli/commands.h"
#ifdef SIEVE_HAVE_NET
#include "net/cli/commands.h"
#endif

#include <iostream>

int main(int argc, char **argv)
{
    std::vector<sieve::cli::Command> commands = sieve::cli::coreCommands();
    for (auto &c : sieve::gpu::gpuCommands())
        commands.push_back(std::move(c));
#ifdef SIEVE_HAVE_NET
    // The net layer extends the gpu layer's augment with a teacher (the gpu layer never links the network).
    for (auto &c : commands)
        if (c.name == "augment")
            c = sieve::net::augmentCommand();
    for (auto &c : sieve::net::netCommands())
        commands.push_back(std::move(c));
#endif
    return sieve::cli::dispatch(commands, argc, argv, std::cout, std::cerr);
}
