#include "gpu/nvrtc/nvrtccompiler.h"

#include "core/util/hashing.h"
#include "gpu/cuda/cudadriver.h"
#include "gpu/nvrtc/nvrtccache.h"
#include "gpu/nvrtc/nvrtclibrary.h"

#include <chrono>
#include <cstdlib>
#include <regex>

namespace sieve::gpu {

namespace {

// NVRTC's log names the program; a fixed name keeps cache entries independent of the file name.
constexpr const char *kProgramName = "sieve_input.cu";

std::string joined(const std::vector<std::string> &parts)
{
    std::string out;
    for (const auto &p : parts)
        out += p + '\x1f';
    return out;
}

struct ProgramHolder
{
    const NvrtcLibrary &lib;
    NvrtcLibrary::Program program = nullptr;
    ~ProgramHolder()
    {
        if (program)
            lib.destroyProgram(&program);
    }
};

} // namespace

int CompileResult::errorCount() const
{
    int n = 0;
    for (const auto &d : diagnostics)
        n += d.severity.find("error") != std::string::npos;
    return n;
}

std::string normalizeArch(const std::string &arch)
{
    static const std::regex pattern(R"(^(sm_|compute_)?(\d{2,3})([af]?)$)");
    std::smatch m;
    if (!std::regex_match(arch, m, pattern))
        throw std::invalid_argument("arch: '" + arch + "' is not an architecture (expected e.g. sm_90 or compute_80)");
    const std::string kind = m[1].length() ? m[1].str() : "sm_";
    return kind + m[2].str() + m[3].str();
}

int archNumber(const std::string &arch)
{
    const std::string canonical = normalizeArch(arch);
    return std::stoi(canonical.substr(canonical.find('_') + 1));
}

std::string defaultArch(std::string *source)
{
    if (const char *v = std::getenv("SIEVE_CUDA_ARCH"); v && *v) {
        if (source)
            *source = "SIEVE_CUDA_ARCH";
        return normalizeArch(v);
    }
    if (const CudaDriver *driver = CudaDriver::get()) {
        try {
            const auto devices = driver->devices();
            if (!devices.empty()) {
                int sm = devices.front().major * 10 + devices.front().minor;
                if (source)
                    *source = "GPU 0 (" + devices.front().name + ")";
                if (const NvrtcLibrary *lib = NvrtcLibrary::get(); lib && !lib->supports(sm)) {
                    int best = 0; // a GPU newer than this NVRTC runs the newest PTX it can produce (JIT)
                    for (int a : lib->supportedArchs())
                        if (a <= sm && a > best)
                            best = a;
                    if (best)
                        return "compute_" + std::to_string(best);
                }
                return "sm_" + std::to_string(sm);
            }
        } catch (const std::exception &) {
            // fall through to the default: listing devices is not worth failing a compile over
        }
    }
    if (source)
        *source = "default";
    return "sm_90";
}

NvrtcCompiler::NvrtcCompiler(std::string cacheDir)
    : m_cacheDir(cacheDir.empty() ? NvrtcCache::defaultDir() : std::move(cacheDir))
{
}

CompileResult NvrtcCompiler::compile(const std::string &source, const std::string &fileName,
                                     const CompileOptions &options) const
{
    return compile(source, SourceMap::identity(fileName, source), options);
}

CompileResult NvrtcCompiler::compile(const std::string &source, const SourceMap &map,
                                     const CompileOptions &options) const
{
    const auto started = std::chrono::steady_clock::now();
    std::string why;
    const NvrtcLibrary *lib = NvrtcLibrary::get(&why);
    if (!lib)
        throw CompilerUnavailable(why);

    CompileResult result;
    result.arch = normalizeArch(options.arch);
    result.nvrtcVersion = lib->version();
    const int sm = archNumber(result.arch);
    if (!lib->supports(sm)) {
        std::string list;
        for (int a : lib->supportedArchs())
            list += (list.empty() ? "" : ", ") + std::string("sm_") + std::to_string(a);
        throw CompilerUnavailable("arch: NVRTC " + lib->version() + " cannot target " + result.arch +
                                  " (supported: " + list + ")");
    }
    const bool real = result.arch.rfind("sm_", 0) == 0;
    result.options.push_back("--gpu-architecture=" + result.arch);
    if (real)
        result.options.emplace_back("--ptxas-options=-v");
    if (const std::string include = cudaIncludeDir(); !include.empty())
        result.options.push_back("--include-path=" + include);
    result.options.insert(result.options.end(), options.extra.begin(), options.extra.end());

    const std::string key = hashing::contentKey(
        {"nvrtc-v1", lib->buildId(), joined(result.options), joined(options.nameExpressions), source});
    const NvrtcCache cache(m_cacheDir);
    NvrtcCacheEntry entry;
    if (auto hit = options.useCache ? cache.load(key) : std::nullopt) {
        entry = std::move(*hit);
        result.fromCache = true;
    } else {
        ProgramHolder holder{*lib};
        if (auto r = lib->createProgram(&holder.program, source.c_str(), kProgramName, 0, nullptr, nullptr); r != 0)
            throw CompilerUnavailable("nvrtcCreateProgram: " + lib->errorString(r));
        for (const auto &name : options.nameExpressions)
            if (auto r = lib->addNameExpression(holder.program, name.c_str()); r != 0)
                throw CompilerUnavailable("nvrtcAddNameExpression(" + name + "): " + lib->errorString(r));
        std::vector<const char *> argv;
        for (const auto &o : result.options)
            argv.push_back(o.c_str());
        const auto rc = lib->compileProgram(holder.program, static_cast<int>(argv.size()), argv.data());
        // Anything but success or a compilation error (bad option, out of memory) is not the source's
        // fault and must not be cached or reported as FAIL_COMPILE.
        if (rc != 0 && rc != 6 /* NVRTC_ERROR_COMPILATION */ && rc != 5 /* NVRTC_ERROR_INVALID_OPTION */)
            throw CompilerUnavailable("nvrtcCompileProgram: " + lib->errorString(rc));
        std::size_t size = 0;
        lib->getProgramLogSize(holder.program, &size);
        entry.log.resize(size);
        if (size)
            lib->getProgramLog(holder.program, entry.log.data());
        while (!entry.log.empty() && entry.log.back() == '\0')
            entry.log.pop_back();
        if (rc == 5 && entry.log.empty())
            entry.log = kProgramName + std::string("(0): error: invalid option among: ") + joined(result.options);
        entry.ok = rc == 0;
        if (entry.ok) {
            if (lib->getPTXSize(holder.program, &size) == 0 && size > 1) {
                entry.ptx.resize(size);
                lib->getPTX(holder.program, entry.ptx.data());
                entry.ptx.resize(size - 1); // drop the terminating NUL
            }
            if (real && lib->getCUBINSize(holder.program, &size) == 0 && size > 0) {
                entry.cubin.resize(size);
                lib->getCUBIN(holder.program, entry.cubin.data());
            }
        }
        if (options.useCache && rc != 5)
            cache.store(key, entry);
    }
    result.ok = entry.ok;
    result.rawLog = std::move(entry.log);
    result.ptx = std::move(entry.ptx);
    result.cubin = std::move(entry.cubin);
    result.log = mapLog(result.rawLog, kProgramName, map);
    result.diagnostics = parseDiagnostics(result.rawLog, kProgramName, map);
    result.resources = parsePtxas(result.rawLog);
    result.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    return result;
}

} // namespace sieve::gpu
