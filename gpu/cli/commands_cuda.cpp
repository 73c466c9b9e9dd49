// compile and devices: NVRTC and the CUDA driver from the command line.
#include "core/cli/cli.h"
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/store/verifyinputstore.h"
#include "gpu/cuda/cudadriver.h"
#include "gpu/cuda/cudadriverlauncher.h"
#include "gpu/cuda/cudasourcemanifest.h"
#include "gpu/cuda/nativeverify.h"
#include "gpu/nvrtc/nvrtccheck.h"
#include "gpu/nvrtc/nvrtclibrary.h"
#include "gpu/nvrtc/nvrtcsass.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace sieve::gpu {

namespace {

struct Input
{
    std::string code;
    std::string name; // shown in diagnostics
};

Input readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot read");
    std::ostringstream text;
    text << in.rdbuf();
    return {text.str(), path};
}

std::vector<Input> readInputs(const cli::Args &args)
{
    const auto dbPath = args.value("db");
    const auto sample = args.integer("sample");
    if (dbPath || sample) {
        if (!dbPath || !sample || !args.positional.empty())
            throw cli::UsageError("use either FILE... or --db DB --sample ID");
        Corpus corpus = Corpus::open(*dbPath, true);
        const auto s = store::sampleCode(corpus.db(), static_cast<std::int64_t>(*sample));
        if (!s)
            throw std::runtime_error(*dbPath + ": --sample: no sample with id " + std::to_string(*sample));
        if (!s->code)
            throw std::runtime_error(*dbPath + ": sample " + std::to_string(*sample) + " has no code");
        return {{payload::unpack(*s->code), "sample-" + std::to_string(*sample) + "(" + s->name + ")"}};
    }
    if (args.positional.empty())
        throw cli::UsageError("expected FILE... or --db DB --sample ID");
    std::vector<Input> inputs;
    for (const auto &path : args.positional)
        inputs.push_back(readFile(path));
    return inputs;
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
    if (c.result && c.prechecked)
        out << " [precheck: host code and torch includes removed]";
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

// One input's units; returns the number of genuine compile failures, or -1 when there is no CUDA.
int compileInput(const Input &input, const NvrtcCompiler &compiler, const CompileOptions &options,
                 const std::string &archSource, const cli::Args &args, cli::Context &ctx, bool compactJson)
{
    const auto units = cudaUnitsOf(input.code, input.name);
    if (units.empty()) {
        ctx.err << input.name << ": no CUDA source found (no load_inline cuda_sources, no __global__ in a string)\n";
        return -1;
    }
    const bool json = args.has("json");
    nlohmann::json report{
        {"file", input.name}, {"arch", options.arch}, {"arch_from", archSource}, {"units", nlohmann::json::array()}};
    int failures = 0;
    for (const auto &unit : units) {
        const UnitCheck check = checkUnit(unit, compiler, options);
        failures += check.status == UnitCheck::Status::Failed;
        // A raw CUDA answer's launch manifest is checked against the kernels' PTX signatures.
        std::string manifestStatus;
        if (auto manifest = embeddedManifest(unit.source); manifest && check.result && check.result->ok) {
            try {
                validateManifest(parseManifest(*manifest), ptxEntries(check.result->ptx));
                manifestStatus = "ok";
            } catch (const ManifestError &e) {
                manifestStatus = e.what();
                ++failures;
            }
        }
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
            if (!manifestStatus.empty())
                j["manifest"] = manifestStatus;
            report["units"].push_back(j);
        } else {
            printText(check, sass, ctx.out);
            if (!manifestStatus.empty())
                ctx.out << "  launch manifest: " << manifestStatus << "\n";
            if (args.has("ptx") && check.result)
                ctx.out << check.result->ptx;
        }
    }
    if (json)
        ctx.out << (compactJson ? report.dump() : report.dump(2)) << "\n";
    return failures;
}

int runCompile(const cli::Args &args, cli::Context &ctx)
{
    const std::vector<Input> inputs = readInputs(args);
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
    int failures = 0;
    bool missing = false;
    for (const auto &input : inputs) {
        int n = 0;
        try {
            n = compileInput(input, compiler, options, archSource, args, ctx, inputs.size() > 1);
        } catch (const CompilerUnavailable &e) {
            ctx.err << input.name << ": " << e.what() << "\n";
            return cli::Failure;
        }
        missing |= n < 0;
        failures += n > 0 ? n : 0;
    }
    return failures || missing ? cli::Failure : cli::Ok;
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

int runCudaRun(const cli::Args &args, cli::Context &ctx)
{
    if (args.positional.size() != 1)
        throw cli::UsageError("expected exactly one .cu FILE");
    const Input cu = readFile(args.positional[0]);
    std::string manifestText;
    if (auto path = args.value("manifest"))
        manifestText = readFile(*path).code;
    else if (auto embedded = embeddedManifest(cu.code))
        manifestText = *embedded;
    else
        throw cli::UsageError(cu.name + ": no launch manifest (give --manifest or a /* sieve:launch ... */ comment)");

    LaunchRequest req;
    req.device = static_cast<int>(args.integer("device").value_or(0));
    req.timeoutSeconds = args.number("timeout").value_or(30);
    req.timingRuns = static_cast<int>(args.integer("time").value_or(0));
    nlohmann::json report{{"file", cu.name}};
    try {
        req.manifestJson = manifestText;
        req.manifest = parseManifest(manifestText);
    } catch (const ManifestError &e) {
        ctx.err << cu.name << ": manifest: " << e.what() << "\n";
        return cli::Failure;
    }
    req.cases.emplace_back();
    for (const auto &path : args.all("input"))
        req.cases[0].push_back(readNpy(path));

    // The arch is asked of the GPU in a child: this process must not initialise CUDA before forking.
    std::string why;
    std::string arch = args.value("arch", "");
    if (arch.empty())
        if (const char *v = std::getenv("SIEVE_CUDA_ARCH"))
            arch = v;
    if (arch.empty())
        arch = deviceArchIsolated(req.device, &why);
    if (arch.empty()) {
        report["status"] = outcomeName(LaunchOutcome::Status::NoDevice);
        report["message"] = why;
        ctx.out << (args.has("json") ? report.dump(2) : cu.name + ": " + why) << "\n";
        return cli::Failure;
    }
    CompileOptions options;
    options.arch = normalizeArch(arch);
    options.extra = args.all("option");
    const CompileResult compiled = NvrtcCompiler(args.value("cache-dir", "")).compile(cu.code, cu.name, options);
    if (!compiled.ok) {
        ctx.err << compiled.log;
        return cli::Failure;
    }
    try {
        validateManifest(req.manifest, ptxEntries(compiled.ptx), req.cases[0].size());
    } catch (const ManifestError &e) {
        ctx.err << cu.name << ": manifest: " << e.what() << "\n";
        return cli::Failure;
    }
    req.image = compiled.cubin.empty() ? compiled.ptx : compiled.cubin;
    const std::string out = args.value("out", "");
    char scratch[] = "/tmp/sieve-cuda-run-XXXXXX";
    const std::string dir = out.empty() ? std::string(mkdtemp(scratch) ? scratch : "/tmp") : out;
    const LaunchOutcome outcome = launchIsolated(req, dir);
    report["status"] = outcomeName(outcome.status);
    report["arch"] = compiled.arch;
    if (!outcome.message.empty())
        report["message"] = outcome.message;
    report["outputs"] = nlohmann::json::array();
    for (std::size_t i = 0; !outcome.outputs.empty() && i < outcome.outputs[0].size(); ++i) {
        const std::string file = dir + "/out" + std::to_string(i) + ".npy";
        if (!out.empty()) // the launch child names files per case; one case here
            std::filesystem::rename(dir + "/out0_" + std::to_string(i) + ".npy", file);
        report["outputs"].push_back({{"name", req.manifest.outputs[i].name},
                                     {"shape", outcome.outputs[0][i].shape},
                                     {"file", out.empty() ? "" : file}});
    }
    if (!outcome.timingsMs.empty()) {
        std::vector<double> t = outcome.timingsMs;
        std::sort(t.begin(), t.end());
        report["timing"] = {{"runs", t.size()}, {"median_ms", t[t.size() / 2]}, {"min_ms", t.front()}};
    }
    if (out.empty())
        std::filesystem::remove_all(dir);
    if (args.has("json"))
        ctx.out << report.dump(2) << "\n";
    else
        ctx.out << cu.name << ": " << report["status"].get<std::string>()
                << (outcome.message.empty() ? "" : " (" + outcome.message + ")") << "\n";
    return outcome.status == LaunchOutcome::Status::Ok ? cli::Ok : cli::Failure;
}

} // namespace

cli::Command compileCommand()
{
    return {"compile",
            "compile a sample's CUDA with NVRTC: log, registers, spills, shared memory",
            "Usage: sieve-cli compile FILE... [--arch sm_90] [--json] [--sass] [--ptx]\n"
            "       sieve-cli compile --db DB --sample ID [...]\n\n"
            "FILE is a .cu file or a Python answer: the cuda_sources of its load_inline(...) calls (string\n"
            "literals or string variables) are extracted and diagnostics point at the .py file's lines.\n"
            "Torch extension sources are prechecked: host code is removed and kernels that need torch's\n"
            "headers are reported as skipped rather than guessed at.\n\n"
            "  --arch A        sm_XX or compute_XX (default: SIEVE_CUDA_ARCH, else GPU 0, else sm_90)\n"
            "  --option OPT    extra NVRTC option (repeatable), e.g. --option=-DBLOCK=256\n"
            "  --json          machine-readable report (one compact JSON line per FILE when several)\n"
            "  --sass          disassemble the cubin (needs nvdisasm or cuobjdump)\n"
            "  --ptx           print the PTX too\n"
            "  --no-cache      bypass the cache (~/.cache/sieve/nvrtc, or SIEVE_NVRTC_CACHE)\n"
            "  --cache-dir D   use D as the cache\n\n"
            "Exit status: 0 compiled (or nothing NVRTC could judge), 1 a compile error or no CUDA found.\n",
            {{"arch", true},
             {"json"},
             {"sass"},
             {"ptx"},
             {"no-cache"},
             {"cache-dir", true},
             {"option", true, true},
             {"db", true},
             {"sample", true}},
            runCompile};
}

cli::Command devicesCommand()
{
    return {"devices",
            "list CUDA devices (name, compute capability, memory, L2) and NVRTC",
            "Usage: sieve-cli devices [--json]\n\n"
            "Loads the CUDA driver at run time; without one it says so and exits 0.\n",
            {{"json"}},
            runDevices};
}

cli::Command cudaRunCommand()
{
    return {"cuda-run",
            "launch a raw CUDA answer natively (NVRTC + driver, in a child process)",
            "Usage: sieve-cli cuda-run FILE.cu [--manifest M.json] --input x.npy... [--out DIR] [--time N]\n\n"
            "Compiles FILE with NVRTC, checks its launch manifest (docs/FORMATS.md, \"Raw CUDA answers\")\n"
            "against the kernels' PTX signatures, then runs the launches on the inputs in a child process that\n"
            "is killed at --timeout. Outputs are written as out0.npy, out1.npy... into --out.\n\n"
            "  --manifest M    the manifest (default: the /* sieve:launch ... */ comment in FILE)\n"
            "  --input F.npy   an input, in the manifest's order (repeatable)\n"
            "  --out DIR       keep the outputs there\n"
            "  --arch A        default: SIEVE_CUDA_ARCH, else the device's\n"
            "  --device N      GPU index (default 0)\n"
            "  --timeout S     seconds before the child is killed (default 30)\n"
            "  --time N        N timed runs after a warm-up, L2 flushed before each (CUDA events)\n"
            "  --json          machine-readable report\n",
            {{"manifest", true},
             {"input", true, true},
             {"out", true},
             {"arch", true},
             {"device", true},
             {"timeout", true},
             {"time", true},
             {"json"},
             {"option", true, true},
             {"cache-dir", true}},
            runCudaRun};
}

} // namespace sieve::gpu

namespace sieve::gpu {

cli::Command cudaLaunchChildCommand()
{
    return {"cuda-launch-child",
            "(internal) the child process of cuda-run and native verification",
            "Usage: sieve-cli cuda-launch-child DIR\n\n"
            "Started by Sieve itself in a fresh process: reads DIR/request.json, image.bin and in*.npy, runs\n"
            "the launches and writes out*.npy and timings.txt (or error.txt) into DIR. Not for users.\n",
            {},
            [](const cli::Args &args, cli::Context &) -> int {
                if (args.positional.size() != 1)
                    throw cli::UsageError("cuda-launch-child takes one folder");
                return runLaunchChild(args.positional[0]);
            }};
}

} // namespace sieve::gpu

namespace sieve::gpu {

cli::Command cudaVerifyCommand()
{
    return {"cuda-verify",
            "(internal) native verification of one raw CUDA answer, for the verifier's worker",
            "Usage: sieve-cli cuda-verify JOB.json\n\n"
            "Started by the verifier's worker for a raw CUDA sample (docs/VERIFIER.md, \"Raw CUDA answers\"):\n"
            "compiles with NVRTC, checks the launch manifest, launches on the materialised inputs in a child\n"
            "process, compares with the reference outputs and times the kernels. Prints one JSON object.\n",
            {},
            [](const cli::Args &args, cli::Context &ctx) -> int {
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
