// sieve-cli cuda-launch-child (internal): the child process that cuda-run and native verification start.
#include "gpu/cli/commands.h"
#include "gpu/cuda/cudadriverlauncher.h"

namespace sieve::gpu {

cli::Command cudaLaunchChildCommand()
{
    return {.name = "cuda-launch-child",
            .summary = "(internal) the child process of cuda-run and native verification",
            .usage = "sieve-cli cuda-launch-child DIR",
            .description =
                "Started by Sieve itself in a fresh process: reads DIR/request.json, image.bin and in*.npy, runs\n"
                "the launches and writes out*.npy and timings.txt (or error.txt) into DIR. Not for users.\n",
            .run = [](const cli::Args &args, cli::Context &) -> int {
                if (args.positional.size() != 1)
                    throw cli::UsageError("cuda-launch-child takes one folder");
                return runLaunchChild(args.positional[0]);
            }};
}

} // namespace sieve::gpu
