#include "gpu/cli/cudacommon.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sieve::gpu {

// The GPUs this process may use, as CUDA numbers them: nvidia-smi -L lists the machine's (or, under a
// device cgroup, the allocation's), and CUDA_VISIBLE_DEVICES (set by Slurm and by users) narrows that
// to its entries, renumbered from 0. Empty when the tool or the driver is missing. The verifier does not
// link CUDA: the worker initialises it in its children.
std::vector<int> detectGpus()
{
    std::vector<int> gpus;
    FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
    if (!p)
        return gpus;
    char line[512];
    while (fgets(line, sizeof line, p)) {
        int idx = -1;
        if (sscanf(line, "GPU %d:", &idx) == 1 && idx >= 0)
            gpus.push_back(idx);
    }
    pclose(p);
    if (const char *cvd = std::getenv("CUDA_VISIBLE_DEVICES")) {
        std::size_t entries = 0;
        std::stringstream in(cvd);
        std::string item;
        while (std::getline(in, item, ','))
            if (!item.empty() && item != "-1" && item != "NoDevFiles")
                ++entries;
        const std::size_t n = std::min(entries, gpus.size());
        gpus.clear();
        for (std::size_t i = 0; i < n; ++i)
            gpus.push_back(static_cast<int>(i));
    }
    return gpus;
}

Input readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot read");
    std::ostringstream text;
    text << in.rdbuf();
    return {text.str(), path};
}

} // namespace sieve::gpu
