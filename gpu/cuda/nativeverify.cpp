#include "gpu/cuda/nativeverify.h"

#include "gpu/nvrtc/nvrtccompiler.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <regex>
#include <sys/file.h>
#include <unistd.h>

namespace sieve::gpu {

namespace {

template <typename T> T field(const nlohmann::json &j, const char *key, const std::string &where)
{
    if (!j.contains(key))
        throw std::runtime_error(where + ": missing field '" + key + "'");
    try {
        return j.at(key).get<T>();
    } catch (const nlohmann::json::exception &) {
        throw std::runtime_error(where + ": field '" + key + "' has the wrong type");
    }
}

double f16ToDouble(std::uint16_t h)
{
    const int sign = h >> 15, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
    double v;
    if (exp == 0)
        v = std::ldexp(frac, -24);
    else if (exp == 31)
        v = frac ? std::nan("") : INFINITY;
    else
        v = std::ldexp(frac + 1024, exp - 25);
    return sign ? -v : v;
}

std::vector<double> toDoubles(const HostTensor &t)
{
    const std::size_t n = static_cast<std::size_t>(t.numel());
    std::vector<double> out(n);
    const char *p = t.bytes.data();
    if (t.bytes.size() < n * elemSize(t.dtype))
        throw std::runtime_error("tensor bytes do not fill its shape");
    for (std::size_t i = 0; i < n; ++i) {
        switch (t.dtype) {
        case ElemType::F32: {
            float v;
            std::memcpy(&v, p + 4 * i, 4);
            out[i] = v;
            break;
        }
        case ElemType::F64: {
            double v;
            std::memcpy(&v, p + 8 * i, 8);
            out[i] = v;
            break;
        }
        case ElemType::F16: {
            std::uint16_t v;
            std::memcpy(&v, p + 2 * i, 2);
            out[i] = f16ToDouble(v);
            break;
        }
        case ElemType::BF16: {
            std::uint16_t v;
            std::memcpy(&v, p + 2 * i, 2);
            const std::uint32_t bits = std::uint32_t(v) << 16;
            float f;
            std::memcpy(&f, &bits, 4);
            out[i] = f;
            break;
        }
        case ElemType::I32: {
            std::int32_t v;
            std::memcpy(&v, p + 4 * i, 4);
            out[i] = v;
            break;
        }
        case ElemType::I64: {
            std::int64_t v;
            std::memcpy(&v, p + 8 * i, 8);
            out[i] = static_cast<double>(v);
            break;
        }
        case ElemType::U8:
            out[i] = static_cast<unsigned char>(p[i]);
            break;
        }
    }
    return out;
}

std::string shapeText(const std::vector<std::int64_t> &s)
{
    std::string out = "[";
    for (std::size_t i = 0; i < s.size(); ++i)
        out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
}

HostTensor loadTensor(const std::string &path, const std::string &dtype)
{
    HostTensor t = readNpy(path);
    if (auto d = elemTypeFromName(dtype))
        t.dtype = *d;
    return t;
}

nlohmann::json result(const std::string &status, const std::string &stage, std::vector<std::string> reasons,
                      const std::string &message, const std::string &log = {})
{
    return {{"status", status},
            {"stage", stage},
            {"reasons", reasons},
            {"message", message},
            {"log", log},
            {"checks", nlohmann::json::array()},
            {"timings", nlohmann::json::array()},
            {"launches", 0},
            {"kernels", nlohmann::json::array()}};
}

// Holds the worker's per-GPU timing lock (flock, as the Python side takes it) for its lifetime.
class TimingLock
{
public:
    explicit TimingLock(const std::string &path)
    {
        if (path.empty())
            return;
        m_fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
        if (m_fd >= 0)
            ::flock(m_fd, LOCK_EX);
    }
    ~TimingLock()
    {
        if (m_fd >= 0) {
            ::flock(m_fd, LOCK_UN);
            ::close(m_fd);
        }
    }
    TimingLock(const TimingLock &) = delete;
    TimingLock &operator=(const TimingLock &) = delete;

private:
    int m_fd = -1;
};

} // namespace

NativeJob NativeJob::fromJson(const nlohmann::json &j)
{
    NativeJob job;
    job.code = field<std::string>(j, "code", "job");
    job.name = j.value("name", job.name);
    job.device = j.value("device", 0);
    job.gpu = j.value("gpu", true);
    job.arch = j.value("arch", std::string());
    job.atol = field<double>(j, "atol", "job");
    job.rtol = field<double>(j, "rtol", "job");
    job.launchTimeoutS = j.value("launch_timeout", job.launchTimeoutS);
    job.timingRuns = j.value("timing_runs", 0);
    job.lockPath = j.value("lock_path", std::string());
    job.scratchDir = field<std::string>(j, "scratch", "job");
    job.cacheDir = j.value("cache_dir", std::string());
    job.launcher = j.value("launcher", std::string());
    const auto cases = field<nlohmann::json>(j, "cases", "job");
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::string where = "cases[" + std::to_string(i) + "]";
        NativeCase c;
        c.shapeIndex = field<int>(cases[i], "shape_index", where);
        c.shape = cases[i].value("shape", nlohmann::json::object());
        c.seed = field<int>(cases[i], "seed", where);
        c.inputs = field<std::vector<std::string>>(cases[i], "inputs", where);
        c.inputDtypes = field<std::vector<std::string>>(cases[i], "input_dtypes", where);
        c.expected = field<std::vector<std::string>>(cases[i], "expected", where);
        c.expectedDtypes = field<std::vector<std::string>>(cases[i], "expected_dtypes", where);
        c.inputSet = cases[i].value("input_set", std::string());
        if (cases[i].contains("atol"))
            c.atol = field<double>(cases[i], "atol", where);
        if (cases[i].contains("rtol"))
            c.rtol = field<double>(cases[i], "rtol", where);
        if (c.inputs.size() != c.inputDtypes.size() || c.expected.size() != c.expectedDtypes.size())
            throw std::runtime_error(where + ": files and dtypes differ in number");
        job.cases.push_back(std::move(c));
    }
    return job;
}

void compareTensor(const HostTensor &expected, const HostTensor &actual, double atol, double rtol,
                   nlohmann::json &check, const std::string &label)
{
    auto note = [&](const std::string &text) {
        check["ok"] = false;
        const std::string prev = check.value("note", std::string());
        check["note"] = prev.empty() ? text : prev + "; " + text;
    };
    if (expected.shape != actual.shape) {
        note(label + " has shape " + shapeText(actual.shape) + ", the reference " + shapeText(expected.shape));
        check["mismatches"] = check.value("mismatches", std::int64_t(0)) + std::max(expected.numel(), actual.numel());
        return;
    }
    const std::vector<double> r = toDoubles(expected), c = toDoubles(actual);
    std::int64_t bad = 0, badNonfinite = 0;
    double maxAbs = check.value("max_abs", 0.0), maxRel = check.value("max_rel", 0.0);
    for (std::size_t i = 0; i < r.size(); ++i) {
        const bool rf = std::isfinite(r[i]), cf = std::isfinite(c[i]);
        if (!rf || !cf) {
            const bool same = (std::isnan(r[i]) && std::isnan(c[i])) || (!rf && r[i] == c[i]);
            badNonfinite += same ? 0 : 1;
            continue;
        }
        const double diff = std::abs(r[i] - c[i]);
        maxAbs = std::max(maxAbs, diff);
        maxRel = std::max(maxRel, diff / std::max(std::abs(r[i]), 1e-12));
        if (diff > atol + rtol * std::abs(r[i]))
            ++bad;
    }
    check["max_abs"] = maxAbs;
    check["max_rel"] = maxRel;
    check["mismatches"] = check.value("mismatches", std::int64_t(0)) + bad;
    check["nonfinite_mismatches"] = check.value("nonfinite_mismatches", std::int64_t(0)) + badNonfinite;
    if (bad || badNonfinite)
        check["ok"] = false;
}

nlohmann::json verifyNative(const NativeJob &job)
{
    // Static: the manifest must be there and parse.
    const auto manifestText = embeddedManifest(job.code);
    if (!manifestText)
        return result("FAIL_STATIC", "static", {"MANIFEST_MISSING"},
                      "a raw CUDA answer needs its launch manifest (a /* sieve:launch ... */ comment)");
    // The compiler reads what the source includes, and its log goes into the corpus: only CUDA's own
    // headers, so that an answer cannot have NVRTC read (and echo) a file of the verifying machine.
    static const std::regex include(R"(^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]*)[>"])", std::regex::multiline);
    static const std::regex allowed(
        R"(^(cuda_[a-z0-9_]+\.h|cuda/std/[a-z_/]+|cooperative_groups(/[a-z_]+)?\.h|mma\.h|stdint\.h|cstdint)$)");
    for (std::sregex_iterator it(job.code.begin(), job.code.end(), include), end; it != end; ++it)
        if (!std::regex_match((*it)[1].str(), allowed))
            return result("FAIL_STATIC", "static", {"INCLUDE_FORBIDDEN"},
                          "#include <" + (*it)[1].str() + ">: a raw CUDA answer may include CUDA's own headers only");
    LaunchManifest manifest;
    try {
        manifest = parseManifest(*manifestText);
    } catch (const ManifestError &e) {
        return result("FAIL_STATIC", "static", {"MANIFEST_INVALID"}, std::string("manifest: ") + e.what());
    }

    // Compile: NVRTC, for the device's architecture.
    std::string arch = job.arch;
    std::string why;
    if (arch.empty())
        if (const char *v = std::getenv("SIEVE_CUDA_ARCH"); v && *v)
            arch = v;
    if (arch.empty() && job.gpu)
        arch = deviceArchIsolated(job.device, &why);
    if (arch.empty())
        arch = "sm_90";
    CompileOptions options;
    options.arch = normalizeArch(arch);
    CompileResult compiled;
    try {
        compiled = NvrtcCompiler(job.cacheDir).compile(job.code, job.name, options);
    } catch (const CompilerUnavailable &e) {
        return result("UNVERIFIABLE", "compile", {"NVRTC_UNAVAILABLE"}, e.what());
    }
    nlohmann::json resources = nlohmann::json::array();
    for (const auto &k : compiled.resources.kernels)
        resources.push_back({{"kernel", k.name},
                             {"registers", k.registers},
                             {"shared_bytes", k.sharedBytes},
                             {"const_bytes", k.constBytes},
                             {"spill_store_bytes", k.spillStoreBytes},
                             {"spill_load_bytes", k.spillLoadBytes}});
    if (!compiled.ok) {
        auto r = result("FAIL_COMPILE", "compile", {"COMPILE_ERROR"},
                        "NVRTC (" + compiled.arch + ") rejected the source: " + std::to_string(compiled.errorCount()) +
                            " error(s)",
                        compiled.log);
        return r;
    }
    const std::size_t taskInputs = job.cases.empty() ? manifest.inputs.size() : job.cases[0].inputs.size();
    try {
        validateManifest(manifest, ptxEntries(compiled.ptx), taskInputs);
    } catch (const ManifestError &e) {
        return result("FAIL_STATIC", "static", {"MANIFEST_MISMATCH"}, std::string("manifest: ") + e.what(),
                      compiled.log);
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto &l : manifest.launches)
        kernels.push_back(l.kernel);
    if (!job.gpu) {
        auto r = result("UNVERIFIABLE", "compile", {"NO_GPU"},
                        "compiled with NVRTC (" + compiled.arch +
                            ") and its manifest matches the kernels; "
                            "running raw CUDA needs a GPU",
                        compiled.log);
        r["resources"] = resources;
        r["kernels"] = kernels;
        return r;
    }

    // Correct: every shape and seed in one launch child.
    LaunchRequest req;
    req.image = compiled.cubin.empty() ? compiled.ptx : compiled.cubin;
    req.manifest = manifest;
    req.manifestJson = *manifestText;
    req.device = job.device;
    req.timeoutSeconds = job.launchTimeoutS;
    req.launcher = job.launcher;
    std::vector<std::vector<HostTensor>> expected;
    for (const auto &c : job.cases) {
        req.cases.emplace_back();
        for (std::size_t i = 0; i < c.inputs.size(); ++i)
            req.cases.back().push_back(loadTensor(c.inputs[i], c.inputDtypes[i]));
        expected.emplace_back();
        for (std::size_t i = 0; i < c.expected.size(); ++i)
            expected.back().push_back(loadTensor(c.expected[i], c.expectedDtypes[i]));
    }
    const LaunchOutcome out = launchIsolated(req, job.scratchDir + "/correct");
    auto failed = [&](const std::string &status, const std::string &stage, const std::string &reason,
                      const std::string &message) {
        auto r = result(status, stage, {reason}, message, compiled.log);
        r["resources"] = resources;
        r["kernels"] = kernels;
        return r;
    };
    switch (out.status) {
    case LaunchOutcome::Status::Ok:
        break;
    case LaunchOutcome::Status::Timeout:
        return failed("TIMEOUT", "correct", "STAGE_TIMEOUT", "the kernels were " + out.message);
    case LaunchOutcome::Status::Crash:
        return failed("CRASH", "correct", "SIGNAL", "the launch process died: " + out.message);
    case LaunchOutcome::Status::NoDevice:
        return failed("UNVERIFIABLE", "correct", "NO_GPU", out.message);
    case LaunchOutcome::Status::LaunchError: {
        const bool illegal =
            out.message.find("illegal") != std::string::npos || out.message.find("misaligned") != std::string::npos;
        return failed("FAIL_RUNTIME", "correct", illegal ? "ILLEGAL_ADDRESS" : "RUNTIME_ERROR", out.message);
    }
    }
    nlohmann::json checks = nlohmann::json::array();
    std::string firstFailure;
    for (std::size_t c = 0; c < job.cases.size(); ++c) {
        nlohmann::json check{{"shape_index", job.cases[c].shapeIndex},
                             {"shape", job.cases[c].shape},
                             {"seed", job.cases[c].seed},
                             {"ok", true},
                             {"max_abs", 0.0},
                             {"max_rel", 0.0},
                             {"mismatches", 0},
                             {"nonfinite_mismatches", 0}};
        const NativeCase &nc = job.cases[c];
        if (!nc.inputSet.empty())
            check["input_set"] = nc.inputSet;
        if (nc.atol || nc.rtol)
            check["atol"] = job.atolOf(nc), check["rtol"] = job.rtolOf(nc);
        const auto &got = out.outputs.at(c);
        if (got.size() != expected[c].size())
            check["ok"] = false, check["note"] = "the manifest has " + std::to_string(got.size()) +
                                                 " outputs, the reference " + std::to_string(expected[c].size());
        for (std::size_t i = 0; i < std::min(got.size(), expected[c].size()); ++i)
            compareTensor(expected[c][i], got[i], job.atolOf(nc), job.rtolOf(nc), check,
                          "output " + manifest.outputs[i].name);
        if (!check["ok"].get<bool>() && firstFailure.empty()) {
            // "shape 3 seed 0 (inputs: exact)", as the worker's messages name a derived input set
            const std::string where = "shape " + std::to_string(nc.shapeIndex) + " seed " + std::to_string(nc.seed) +
                                      (nc.inputSet.empty() ? std::string() : " (inputs: " + nc.inputSet + ")");
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          ": %lld values outside atol=%g rtol=%g (max abs %.3g), %lld NaN/inf mismatches",
                          static_cast<long long>(check["mismatches"].get<std::int64_t>()), job.atolOf(nc),
                          job.rtolOf(nc), check["max_abs"].get<double>(),
                          static_cast<long long>(check["nonfinite_mismatches"].get<std::int64_t>()));
            firstFailure =
                where + (check.contains("note") ? ": " + check["note"].get<std::string>() : std::string(buf));
        }
        checks.push_back(std::move(check));
    }
    const std::int64_t launches = static_cast<std::int64_t>(manifest.launches.size() * job.cases.size());
    if (!firstFailure.empty()) {
        auto r = failed("FAIL_MISMATCH", "correct", "MISMATCH", firstFailure);
        r["checks"] = checks;
        r["launches"] = launches;
        bool nonfinite = false;
        for (const auto &c : checks)
            nonfinite |= c.value("nonfinite_mismatches", std::int64_t(0)) > 0;
        if (nonfinite)
            r["reasons"].push_back("NONFINITE_MISMATCH");
        return r;
    }

    // Timing: the first case, the GPU held alone (the worker's lock), L2 flushed before each run.
    nlohmann::json timings = nlohmann::json::array();
    if (job.timingRuns > 0) {
        LaunchRequest timed = req;
        timed.cases.resize(1);
        timed.timingRuns = job.timingRuns;
        LaunchOutcome t;
        {
            TimingLock lock(job.lockPath);
            t = launchIsolated(timed, job.scratchDir + "/timing");
        }
        if (t.status != LaunchOutcome::Status::Ok || t.timingsMs.empty())
            return failed(t.status == LaunchOutcome::Status::Timeout ? "TIMEOUT" : "FAIL_RUNTIME", "timing",
                          t.status == LaunchOutcome::Status::Timeout ? "STAGE_TIMEOUT" : "RUNTIME_ERROR",
                          "timing runs failed: " + t.message);
        std::vector<double> ms = t.timingsMs;
        std::sort(ms.begin(), ms.end());
        double mean = 0;
        for (double v : ms)
            mean += v;
        mean /= static_cast<double>(ms.size());
        double var = 0;
        for (double v : ms)
            var += (v - mean) * (v - mean);
        const double median = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
        timings.push_back({{"shape_index", job.cases.empty() ? 0 : job.cases[0].shapeIndex},
                           {"which", "candidate"},
                           {"median_ms", median},
                           {"mean_ms", mean},
                           {"std_ms", ms.size() > 1 ? std::sqrt(var / static_cast<double>(ms.size() - 1)) : 0.0},
                           {"runs", ms.size()}});
    }
    auto r = result("PASS", job.timingRuns > 0 ? "timing" : "correct", {},
                    "matches the reference on " + std::to_string(checks.size()) + " shape/seed checks (native: NVRTC " +
                        compiled.arch + ", driver API launches)",
                    compiled.log);
    r["checks"] = checks;
    r["timings"] = timings;
    r["launches"] = launches;
    r["kernels"] = kernels;
    r["resources"] = resources;
    return r;
}

} // namespace sieve::gpu
