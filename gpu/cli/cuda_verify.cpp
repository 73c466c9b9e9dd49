// sieve-cli cuda-verify (internal): native verification of one raw CUDA answer, for the verifier's worker.
#include "gpu/cli/commands.h"
#include "gpu/cuda/nativeverify.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <ostream>
#include <stdexcept>

namespace sieve::gpu {

cli::Command cudaVerifyCommand()
{
    return {.name = "cuda-verify",
            .summary = "(internal) native verification of one raw CUDA answer, for the verifier's worker",
            .usage = "sieve-cli cuda-verify JOB.json",
            .description =
                "Started by the verifier's worker for a raw CUDA sample (docs/VERIFIER.md, \"Raw CUDA answers\"):\n"
                "compiles with NVRTC, checks the launch manifest, launches on the materialised inputs in a child\n"
                "process, compares with the reference outputs and times the kernels. Prints one JSON object.\n",
            .run = [](const cli::Args &args, cli::Context &ctx) -> int {
                if (args.positional.size() != 1)
                    throw cli::UsageError("cuda-verify takes one job file");
                std::ifstream in(args.positional[0]);
                if (!in)
                    throw std::runtime_error(args.positional[0] + ": cannot read");
                nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
                if (j.is_discarded())
                    throw std::runtime_error(args.positional[0] + ": not JSON");
                ctx.out << verifyNative(NativeJob::fromJson(j)).dump() << "\n";
                return cli::Ok;
            }};
}

} // namespace sieve::gpu
