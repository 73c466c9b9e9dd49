#include "cli.h"
#include "gpucommands.h"

#include <iostream>

int main(int argc, char **argv)
{
    std::vector<sieve::cli::Command> commands = sieve::cli::coreCommands();
    for (auto &c : sieve::gpu::gpuCommands())
        commands.push_back(std::move(c));
    return sieve::cli::dispatch(commands, argc, argv, std::cout, std::cerr);
}
