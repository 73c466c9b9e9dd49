// sieve-cli compile: a sample's CUDA through NVRTC, with the log, registers, spills and shared memory.
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/store/verifyinputstore.h"
#include "gpu/cli/commands.h"
#include "gpu/cli/cudacommon.h"
#include "gpu/cuda/cudasourcemanifest.h"
#include "gpu/nvrtc/nvrtccheck.h"
#include "gpu/nvrtc/nvrtcsass.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>

namespace sieve::gpu {

namespace {

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

} // namespace

cli::Command compileCommand()
{
    return {
        .name = "compile",
        .summary = "compile a sample's CUDA with NVRTC: log, registers, spills, shared memory",
        .usage = "sieve-cli compile FILE... [--arch sm_90] [--json] [--sass] [--ptx]\n"
                 "sieve-cli compile --db DB --sample ID [...]",
        .description = "FILE is a .cu file or a Python answer: the cuda_sources of its load_inline(...) calls (string\n"
                       "literals or string variables) are extracted and diagnostics point at the .py file's lines.\n"
                       "Torch extension sources are prechecked: host code is removed and kernels that need torch's\n"
                       "headers are reported as skipped rather than guessed at.\n",
        .options = {{.name = "arch",
                     .takesValue = true,
                     .valueName = "A",
                     .help = "sm_XX or compute_XX (default: SIEVE_CUDA_ARCH, else GPU 0, else sm_90)"},
                    {.name = "option",
                     .takesValue = true,
                     .repeatable = true,
                     .valueName = "OPT",
                     .help = "extra NVRTC option (repeatable), e.g. --option=-DBLOCK=256"},
                    {.name = "json", .help = "machine-readable report (one compact JSON line per FILE when several)"},
                    {.name = "sass", .help = "disassemble the cubin (needs nvdisasm or cuobjdump)"},
                    {.name = "ptx", .help = "print the PTX too"},
                    {.name = "no-cache", .help = "bypass the cache (~/.cache/sieve/nvrtc, or SIEVE_NVRTC_CACHE)"},
                    {.name = "cache-dir", .takesValue = true, .valueName = "D", .help = "use D as the cache"},
                    {.name = "db",
                     .takesValue = true,
                     .valueName = "DB",
                     .help = "compile the code of a sample of corpus DB (with --sample) instead of FILEs"},
                    {.name = "sample", .takesValue = true, .valueName = "ID", .help = "that sample's id (with --db)"}},
        .notes = "Exit status: 0 compiled (or nothing NVRTC could judge), 1 a compile error or no CUDA found.\n",
        .run = runCompile};
}

} // namespace sieve::gpu
