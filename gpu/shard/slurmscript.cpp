#include "gpu/shard/slurmscript.h"

#include <regex>
#include <sstream>

namespace sieve::gpu {

bool validSlurmTime(const std::string &time)
{
    static const std::regex re(
        R"(^([0-9]+|[0-9]+:[0-9]{1,2}|[0-9]+:[0-9]{1,2}:[0-9]{1,2}|[0-9]+-[0-9]{1,2}(:[0-9]{1,2}(:[0-9]{1,2})?)?)$)");
    return std::regex_match(time, re);
}

std::string shellQuote(const std::string &s)
{
    static const std::regex plain(R"(^[A-Za-z0-9_./:=,+-]+$)");
    if (!s.empty() && std::regex_match(s, plain))
        return s;
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string slurmScript(const SlurmScriptOptions &o)
{
    const std::string n = std::to_string(o.shards);
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# Written by 'sieve-cli slurm-script': verifies " << shellQuote(o.corpus) << " in " << n
      << " shards, one array task each.\n"
      << "#SBATCH --job-name=" << o.jobName << '\n'
      << "#SBATCH --array=0-" << o.shards - 1 << '\n'
      << "#SBATCH --ntasks=1\n"
      << "#SBATCH --cpus-per-task=" << o.cpusPerTask << '\n';
    if (!o.cpu)
        s << "#SBATCH --gres=gpu:" << o.gpusPerTask << '\n';
    s << "#SBATCH --time=" << o.time << '\n';
    if (!o.partition.empty())
        s << "#SBATCH --partition=" << o.partition << '\n';
    if (!o.account.empty())
        s << "#SBATCH --account=" << o.account << '\n';
    if (!o.mem.empty())
        s << "#SBATCH --mem=" << o.mem << '\n';
    // sbatch does not expand variables in #SBATCH lines, only its own %A (job) and %a (array index).
    s << "#SBATCH --output=" << o.outDir << "/logs/shard-%a-of-" << n << ".out\n"
      << "#\n"
      << "# Submit:  sbatch " << shellQuote(o.outDir + "/sieve-verify.sbatch") << '\n'
      << "# A shard that stops (time limit, node failure) resumes when its task runs again:\n"
      << "#          sbatch --array=K " << shellQuote(o.outDir + "/sieve-verify.sbatch") << '\n'
      << "# When every task has finished, fold the results into the corpus (checks each shard first):\n"
      << "#          " << shellQuote(o.sieveCli) << " merge " << shellQuote(o.corpus) << ' ' << shellQuote(o.outDir)
      << '\n'
      << "set -euo pipefail\n"
      << ": \"${SLURM_ARRAY_TASK_ID:?run this script with sbatch (it is an array job)}\"\n";
    s << "exec " << shellQuote(o.sieveCli) << " verify " << shellQuote(o.corpus) << " --shard \"${SLURM_ARRAY_TASK_ID}/"
      << n << "\" --out " << shellQuote(o.outDir);
    if (o.cpu) {
        s << " --cpu";
    } else {
        // Slurm hands each task its GPUs through CUDA_VISIBLE_DEVICES; inside, they count from 0.
        s << " --gpus ";
        for (int g = 0; g < o.gpusPerTask; ++g)
            s << (g ? "," : "") << g;
    }
    for (const auto &a : o.verifyArgs)
        s << ' ' << shellQuote(a);
    s << " --quiet\n";
    return s.str();
}

} // namespace sieve::gpu
