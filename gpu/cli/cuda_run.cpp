// sieve-cli cuda-run: a raw CUDA answer compiled with NVRTC and launched natively in a child process.
#include "gpu/cli/commands.h"
#include "gpu/cli/cudacommon.h"
#include "gpu/cuda/cudadriverlauncher.h"
#include "gpu/cuda/cudasourcemanifest.h"
#include "gpu/nvrtc/nvrtccompiler.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <ostream>

namespace sieve::gpu {

namespace {

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

cli::Command cudaRunCommand()
{
    return {.name = "cuda-run",
            .summary = "launch a raw CUDA answer natively (NVRTC + driver, in a child process)",
            .usage = "sieve-cli cuda-run FILE.cu [--manifest M.json] --input x.npy... [--out DIR] [--time N]",
            .description =
                "Compiles FILE with NVRTC, checks its launch manifest (docs/FORMATS.md, \"Raw CUDA answers\")\n"
                "against the kernels' PTX signatures, then runs the launches on the inputs in a child process that\n"
                "is killed at --timeout. Outputs are written as out0.npy, out1.npy... into --out.\n",
            .options = {{.name = "manifest",
                         .takesValue = true,
                         .valueName = "M",
                         .help = "the manifest (default: the /* sieve:launch ... */ comment in FILE)"},
                        {.name = "input",
                         .takesValue = true,
                         .repeatable = true,
                         .valueName = "F.npy",
                         .help = "an input, in the manifest's order (repeatable)"},
                        {.name = "out", .takesValue = true, .valueName = "DIR", .help = "keep the outputs there"},
                        {.name = "arch",
                         .takesValue = true,
                         .valueName = "A",
                         .help = "default: SIEVE_CUDA_ARCH, else the device's"},
                        {.name = "device", .takesValue = true, .valueName = "N", .help = "GPU index (default 0)"},
                        {.name = "timeout",
                         .takesValue = true,
                         .valueName = "S",
                         .help = "seconds before the child is killed (default 30)"},
                        {.name = "time",
                         .takesValue = true,
                         .valueName = "N",
                         .help = "N timed runs after a warm-up, L2 flushed before each (CUDA events)"},
                        {.name = "json", .help = "machine-readable report"},
                        // Not listed in --help (no help text): extra NVRTC options and the NVRTC cache, as for compile.
                        {.name = "option", .takesValue = true, .repeatable = true},
                        {.name = "cache-dir", .takesValue = true}},
            .run = runCudaRun};
}

} // namespace sieve::gpu
