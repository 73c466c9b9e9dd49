// compile and devices: NVRTC and the CUDA driver from the command line.
#include "cli.h"
#include "corpus.h"
#include "cudadriver.h"
#include "nvrtccheck.h"
#include "nvrtclibrary.h"
#include "nvrtcsass.h"
#include "payload.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace sieve::gpu {

namespace {

struct Input {
    std::string code;
    std::string name; // shown in diagnostics
};

Input readInput(const cli::Args &args)
{
    const auto dbPath = args.value("db");
    const auto sample = args.integer("sample");
    if (dbPath || sample) {
        if (!dbPath || !sample || !args.positional.empty())
            throw cli::UsageError("use either FILE or --db DB --sample ID");
        Corpus corpus = Corpus::open(*dbPath, true);
        auto st = corpus.db().prepare("SELECT s.name, p.code FROM samples s LEFT JOIN sample_payloads p "
                                      "ON p.sample_id = s.id WHERE s.id = ?1");
        st.bind(1, static_cast<std::int64_t>(*sample));
        if (!st.step())
            throw std::runtime_error(*dbPath + ": --sample: no sample with id " + std::to_string(*sample));
        if (st.isNull(1))
            throw std::runtime_error(*dbPath + ": sample " + std::to_string(*sample) + " has no code");
        return {payload::unpack(st.blob(1)), "sample-" + std::to_string(*sample) + "(" + st.text(0) + ")"};
    }
    if (args.positional.size() != 1)
        throw cli::UsageError("expected exactly one FILE (or --db DB --sample ID)");
    const std::string path = args.positional[0];
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot read");
    std::ostringstream text;
    text << in.rdbuf();
    return {text.str(), path};
}

std::string bytes(long n)
{
    return n >= 1024 && n % 1024 == 0 ? std::to_string(n / 1024) + "K" : std::to_string(n);
}

void printText(const UnitCheck &c, const std::string &sass, std::ostream &out)
{
    out << c.unit.map.file << ": " << c.unit.origin << " (lines " << c.unit.firstLine << "-" << c.unit.lastLine
        << "): " << statusName(c.status);
    if (c.result)
        out << " for " << c.result->arch << " by NVRTC " << c.result->nvrtcVersion << " in " << std::fixed
            << std::setprecision(1) << c.result->millis << " ms" << (c.result->fromCache ? " (cached)" : "");
    out << "\n";
    if (!c.reason.empty())
        out << "  " << c.reason << "\n";
    if (!c.result)
        return;
    if (!c.result->log.empty())
        out << c.result->log;
    const auto &k = c.result->resources.kernels;
    if (!k.empty()) {
        out << "  kernel                                    regs  spill st/ld  stack  smem  cmem  barriers\n";
        for (const auto &r : k)
            out << "  " << std::left << std::setw(40) << (r.name.size() > 40 ? r.name.substr(0, 37) + "..." : r.name)
                << std::right << std::setw(6) << r.registers << std::setw(7) << bytes(r.spillStoreBytes) << "/"
                << std::left << std::setw(5) << bytes(r.spillLoadBytes) << std::right << std::setw(6)
                << bytes(r.stackFrameBytes) << std::setw(6) << bytes(r.sharedBytes) << std::setw(6)
                << bytes(r.constBytes) << std::setw(10) << r.barriers << "\n";
        if (c.result->resources.userConstBytes || c.result->resources.globalBytes)
            out << "  module: " << c.result->resources.userConstBytes << " bytes __constant__, "
                << c.result->resources.globalBytes << " bytes __device__ globals\n";
    }
    if (!sass.empty())
        out << sass << (sass.back() == '\n' ? "" : "\n");
}

int runCompile(const cli::Args &args, cli::Context &ctx)
{
    const Input input = readInput(args);
    CompileOptions options;
    std::string archSource = "--arch";
    try {
        options.arch = args.value("arch") ? normalizeArch(*args.value("arch")) : defaultArch(&archSource);
    } catch (const std::invalid_argument &e) {
        throw cli::UsageError(std::string("--") + e.what());
    }
    options.extra = args.all("option");
    options.useCache = !args.has("no-cache");
    const NvrtcCompiler compiler(args.value("cache-dir", ""));

    const auto units = cudaUnitsOf(input.code, input.name);
    if (units.empty()) {
        ctx.err << input.name << ": no CUDA source found (no load_inline cuda_sources, no __global__ in a string)\n";
        return cli::Failure;
    }
    const bool json = args.has("json");
    nlohmann::json report{{"file", input.name}, {"arch", options.arch}, {"arch_from", archSource},
                          {"units", nlohmann::json::array()}};
    int failures = 0;
    for (const auto &unit : units) {
        UnitCheck check;
        try {
            check = checkUnit(unit, compiler, options);
        } catch (const CompilerUnavailable &e) {
            ctx.err << input.name << ": " << e.what() << "\n";
            return cli::Failure;
        }
        failures += check.status == UnitCheck::Status::Failed;
        std::string sass;
        if (args.has("sass") && check.result && !check.result->cubin.empty()) {
            std::string why;
            if (auto text = disassemble(check.result->cubin, &why))
                sass = *text;
            else
                sass = why;
        }
        if (json) {
            auto j = toJson(check, args.has("ptx"));
            if (args.has("sass"))
                j["sass"] = sass;
            report["units"].push_back(j);
        } else {
            printText(check, sass, ctx.out);
            if (args.has("ptx") && check.result)
                ctx.out << check.result->ptx;
        }
    }
    if (json)
        ctx.out << report.dump(2) << "\n";
    return failures ? cli::Failure : cli::Ok;
}

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

cli::Command compileCommand()
{
    return {"compile", "compile a sample's CUDA with NVRTC: log, registers, spills, shared memory",
            "Usage: sieve-cli compile FILE [--arch sm_90] [--json] [--sass] [--ptx]\n"
            "       sieve-cli compile --db DB --sample ID [...]\n\n"
            "FILE is a .cu file or a Python answer: the cuda_sources of its load_inline(...) calls (string\n"
            "literals or string variables) are extracted and diagnostics point at the .py file's lines.\n"
            "Torch extension sources are prechecked: host code is removed and kernels that need torch's\n"
            "headers are reported as skipped rather than guessed at.\n\n"
            "  --arch A        sm_XX or compute_XX (default: SIEVE_CUDA_ARCH, else GPU 0, else sm_90)\n"
            "  --option OPT    extra NVRTC option (repeatable), e.g. --option=-DBLOCK=256\n"
            "  --json          machine-readable report\n"
            "  --sass          disassemble the cubin (needs nvdisasm or cuobjdump)\n"
            "  --ptx           print the PTX too\n"
            "  --no-cache      bypass the cache (~/.cache/sieve/nvrtc, or SIEVE_NVRTC_CACHE)\n"
            "  --cache-dir D   use D as the cache\n\n"
            "Exit status: 0 compiled (or nothing NVRTC could judge), 1 a compile error or no CUDA found.\n",
            {{"arch", true}, {"json"}, {"sass"}, {"ptx"}, {"no-cache"}, {"cache-dir", true}, {"option", true, true},
             {"db", true}, {"sample", true}},
            runCompile};
}

cli::Command devicesCommand()
{
    return {"devices", "list CUDA devices (name, compute capability, memory, L2) and NVRTC",
            "Usage: sieve-cli devices [--json]\n\n"
            "Loads the CUDA driver at run time; without one it says so and exits 0.\n",
            {{"json"}},
            runDevices};
}

} // namespace sieve::gpu
