// sieve-cli devices: the CUDA devices the driver sees and the NVRTC that compiles for them.
#include "gpu/cli/commands.h"
#include "gpu/cuda/cudadriver.h"
#include "gpu/nvrtc/nvrtclibrary.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ostream>

namespace sieve::gpu {

namespace {

int runDevices(const cli::Args &args, cli::Context &ctx)
{
    std::string why;
    const CudaDriver *driver = CudaDriver::get(&why);
    std::string nvrtcWhy;
    const NvrtcLibrary *nvrtc = NvrtcLibrary::get(&nvrtcWhy);
    nlohmann::json report{{"driver", nullptr}, {"devices", nlohmann::json::array()}, {"nvrtc", nullptr}};
    std::vector<CudaDevice> devices;
    if (driver) {
        devices = driver->devices();
        report["driver"] = {{"version", driver->versionString()}, {"path", driver->path()}};
    } else {
        report["reason"] = why;
    }
    if (nvrtc) {
        std::vector<std::string> archs;
        for (int a : nvrtc->supportedArchs())
            archs.push_back("sm_" + std::to_string(a));
        report["nvrtc"] = {{"version", nvrtc->version()}, {"path", nvrtc->path()}, {"archs", archs}};
    } else {
        report["nvrtc_reason"] = nvrtcWhy;
    }
    for (const auto &d : devices)
        report["devices"].push_back({{"index", d.index},
                                     {"name", d.name},
                                     {"compute_capability", std::to_string(d.major) + "." + std::to_string(d.minor)},
                                     {"arch", d.arch()},
                                     {"memory_bytes", d.totalMemory},
                                     {"l2_bytes", d.l2Bytes},
                                     {"multiprocessors", d.multiprocessors},
                                     {"clock_khz", d.clockKHz},
                                     {"shared_per_block_optin", d.sharedPerBlockOptin}});
    if (args.has("json")) {
        ctx.out << report.dump(2) << "\n";
        return cli::Ok;
    }
    if (!driver)
        ctx.out << why << "\n";
    else if (devices.empty())
        ctx.out << "CUDA driver " << driver->versionString() << ": no devices\n";
    for (const auto &d : devices) {
        char line[512];
        std::snprintf(line, sizeof line, "%d: %s  sm_%d%d (compute %d.%d)  %.1f GiB  L2 %.1f MiB  %d SMs\n", d.index,
                      d.name.c_str(), d.major, d.minor, d.major, d.minor,
                      static_cast<double>(d.totalMemory) / (1024.0 * 1024 * 1024),
                      static_cast<double>(d.l2Bytes) / (1024.0 * 1024), d.multiprocessors);
        ctx.out << line;
    }
    if (nvrtc)
        ctx.out << "NVRTC " << nvrtc->version() << " (" << nvrtc->path() << ")\n";
    else
        ctx.out << nvrtcWhy << "\n";
    return cli::Ok;
}

} // namespace

cli::Command devicesCommand()
{
    return {.name = "devices",
            .summary = "list CUDA devices (name, compute capability, memory, L2) and NVRTC",
            .usage = "sieve-cli devices [--json]",
            .description = "Loads the CUDA driver at run time; without one it says so and exits 0.\n",
            .options = {{.name = "json", .help = "the driver, the devices and NVRTC as one JSON object"}},
            .run = runDevices};
}

} // namespace sieve::gpu
