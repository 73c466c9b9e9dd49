#include "gpu/cuda/cudadriverlauncher.h"

#include "gpu/cuda/cudadriver.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sieve::gpu {

std::int64_t HostTensor::numel() const
{
    std::int64_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

const char *outcomeName(LaunchOutcome::Status s)
{
    switch (s) {
    case LaunchOutcome::Status::Ok:
        return "ok";
    case LaunchOutcome::Status::LaunchError:
        return "launch_error";
    case LaunchOutcome::Status::Timeout:
        return "timeout";
    case LaunchOutcome::Status::Crash:
        return "crash";
    case LaunchOutcome::Status::NoDevice:
        return "no_device";
    }
    return "?";
}

// ---- .npy -------------------------------------------------------------------------------------------

namespace {

const std::vector<std::pair<std::string, ElemType>> kDescr{
    {"<f4", ElemType::F32}, {"<f2", ElemType::F16}, {"<f8", ElemType::F64}, {"<i4", ElemType::I32},
    {"<i8", ElemType::I64}, {"|u1", ElemType::U8},  {"|b1", ElemType::U8},  {"<u2", ElemType::BF16}};

} // namespace

HostTensor readNpy(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot read");
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0)
        throw std::runtime_error(path + ": not a .npy file");
    const int major = static_cast<unsigned char>(data[6]);
    std::size_t headerLen = 0, offset = 0;
    if (major == 1) {
        headerLen =
            static_cast<unsigned char>(data[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(data[9])) << 8);
        offset = 10;
    } else {
        for (int i = 0; i < 4; ++i)
            headerLen |= static_cast<std::size_t>(static_cast<unsigned char>(data[8 + static_cast<std::size_t>(i)]))
                         << (8 * i);
        offset = 12;
    }
    const std::string header = data.substr(offset, headerLen);
    std::smatch m;
    if (!std::regex_search(header, m, std::regex(R"('descr':\s*'([^']+)')")))
        throw std::runtime_error(path + ": header: no descr");
    HostTensor t;
    auto d = std::find_if(kDescr.begin(), kDescr.end(), [&](const auto &p) { return p.first == m[1].str(); });
    if (d == kDescr.end())
        throw std::runtime_error(path + ": header: descr '" + m[1].str() + "' is not supported");
    t.dtype = d->second;
    if (std::regex_search(header, m, std::regex(R"('fortran_order':\s*True)")))
        throw std::runtime_error(path + ": header: fortran_order arrays are not supported");
    if (!std::regex_search(header, m, std::regex(R"('shape':\s*\(([^)]*)\))")))
        throw std::runtime_error(path + ": header: no shape");
    const std::string dims = m[1];
    static const std::regex number(R"(\d+)");
    for (auto it = std::sregex_iterator(dims.begin(), dims.end(), number); it != std::sregex_iterator(); ++it)
        t.shape.push_back(std::stoll(it->str()));
    t.bytes = data.substr(offset + headerLen);
    if (t.bytes.size() != static_cast<std::size_t>(t.numel()) * elemSize(t.dtype))
        throw std::runtime_error(path + ": data: " + std::to_string(t.bytes.size()) + " bytes for shape of " +
                                 std::to_string(t.numel()) + " elements");
    return t;
}

void writeNpy(const std::string &path, const HostTensor &t)
{
    std::string descr = "<f4";
    for (const auto &[name, type] : kDescr)
        if (type == t.dtype && name != "|b1") {
            descr = name;
            break;
        }
    std::string shape = "(";
    for (auto d : t.shape)
        shape += std::to_string(d) + ",";
    if (t.shape.size() > 1)
        shape.pop_back();
    shape += ")";
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    const char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
    out.write(len, 2);
    out << header;
    out.write(t.bytes.data(), static_cast<std::streamsize>(t.bytes.size()));
    if (!out)
        throw std::runtime_error(path + ": cannot write");
}

// ---- the child's work ------------------------------------------------------------------------------

namespace {

struct DeviceBuffer
{
    const CudaDriver &cu;
    CudaDriver::DevicePtr ptr = 0;
    DeviceBuffer(const CudaDriver &d, std::size_t bytes) : cu(d)
    {
        cu.check(cu.memAlloc(&ptr, std::max<std::size_t>(bytes, 1)), "cuMemAlloc");
    }
    ~DeviceBuffer()
    {
        if (ptr)
            cu.memFree(ptr);
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

unsigned dim(const std::vector<std::string> &exprs, std::size_t i, const Symbols &s, const std::string &field)
{
    if (i >= exprs.size())
        return 1;
    const std::int64_t v = evalExpr(exprs[i], s, field + "[" + std::to_string(i) + "]");
    if (v < 1 || v > 0x7fffffff)
        throw ManifestError(field + "[" + std::to_string(i) + "]", "evaluates to " + std::to_string(v));
    return static_cast<unsigned>(v);
}

// Everything that touches CUDA; runs only in the child.
void runChild(const LaunchRequest &req, const std::string &dir)
{
    std::string why;
    const CudaDriver *cu = CudaDriver::get(&why);
    if (!cu)
        throw std::runtime_error("NODEVICE " + why);
    if (cu->initialisedBy() != static_cast<int>(getpid()))
        throw std::runtime_error("CUDA was initialised in the parent before fork; launch from a process that has "
                                 "not used CUDA (sieve-cli cuda-run, or probe with deviceArchIsolated)");
    CudaDriver::Device dev = 0;
    cu->check(cu->deviceGet(&dev, req.device), "cuDeviceGet");
    CudaDriver::Context ctx = nullptr;
    cu->check(cu->primaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    cu->check(cu->ctxSetCurrent(ctx), "cuCtxSetCurrent");
    CudaDriver::Module module = nullptr;
    std::string image = req.image;
    image.push_back('\0'); // PTX must be NUL-terminated; harmless after an ELF image
    cu->check(cu->moduleLoadData(&module, image.data()), "cuModuleLoadData");

    if (req.cases.empty())
        throw std::runtime_error("launch request without inputs");
    // One context and one module for every case; each case gets its own buffers and launch parameters.
    struct Prepared
    {
        CudaDriver::Function fn = nullptr;
        unsigned grid[3], block[3], shared;
        std::vector<std::vector<unsigned char>> storage;
        std::vector<void *> params;
    };
    std::map<std::string, std::unique_ptr<DeviceBuffer>> buffers;
    std::vector<Prepared> launches;
    std::vector<HostTensor> outputs;
    auto prepare = [&](const std::vector<HostTensor> &inputs) {
        buffers.clear();
        outputs.clear();
        std::vector<std::vector<std::int64_t>> shapes;
        for (const auto &t : inputs)
            shapes.push_back(t.shape);
        const Symbols symbols = shapeSymbols(req.manifest, shapes);
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            auto b = std::make_unique<DeviceBuffer>(*cu, inputs[i].bytes.size());
            cu->check(cu->memcpyHtoD(b->ptr, inputs[i].bytes.data(), inputs[i].bytes.size()), "cuMemcpyHtoD");
            buffers[req.manifest.inputs[i]] = std::move(b);
        }
        for (std::size_t i = 0; i < req.manifest.outputs.size(); ++i) {
            const TensorSpec &spec = req.manifest.outputs[i];
            HostTensor t;
            t.dtype = spec.dtype;
            for (std::size_t d = 0; d < spec.shape.size(); ++d)
                t.shape.push_back(evalExpr(spec.shape[d], symbols,
                                           "outputs[" + std::to_string(i) + "].shape[" + std::to_string(d) + "]"));
            t.bytes.resize(static_cast<std::size_t>(t.numel()) * elemSize(t.dtype));
            auto b = std::make_unique<DeviceBuffer>(*cu, t.bytes.size());
            // A poison pattern (NaN for floats), so an output the kernels never write cannot pass as zeros.
            cu->check(cu->memsetD8(b->ptr, 0xff, t.bytes.size()), "cuMemsetD8");
            buffers[spec.name] = std::move(b);
            outputs.push_back(std::move(t));
        }
        launches.assign(req.manifest.launches.size(), Prepared{});
        for (std::size_t i = 0; i < launches.size(); ++i) {
            const Launch &l = req.manifest.launches[i];
            const std::string path = "launches[" + std::to_string(i) + "]";
            Prepared &p = launches[i];
            cu->check(cu->moduleGetFunction(&p.fn, module, l.kernel.c_str()),
                      ("cuModuleGetFunction(" + l.kernel + ")").c_str());
            for (std::size_t d = 0; d < 3; ++d) {
                p.grid[d] = dim(l.grid, d, symbols, path + ".grid");
                p.block[d] = dim(l.block, d, symbols, path + ".block");
            }
            const std::int64_t shared = evalExpr(l.sharedBytes, symbols, path + ".shared_bytes");
            if (shared < 0)
                throw ManifestError(path + ".shared_bytes", "evaluates to " + std::to_string(shared));
            p.shared = static_cast<unsigned>(shared);
            if (p.shared > 48 * 1024)
                cu->check(cu->funcSetAttribute(p.fn, CudaDriver::kFuncAttrMaxDynamicShared, static_cast<int>(p.shared)),
                          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
            for (const ArgBinding &b : l.args) {
                std::vector<unsigned char> bytes;
                auto put = [&](const auto &v) {
                    bytes.resize(sizeof v);
                    std::memcpy(bytes.data(), &v, sizeof v);
                };
                if (b.kind != ArgBinding::Kind::Scalar) {
                    put(buffers.at(b.name)->ptr);
                } else {
                    const double value =
                        b.literal ? *b.literal : static_cast<double>(evalExpr(b.expr, symbols, path + ".args"));
                    switch (b.type) {
                    case ElemType::I32:
                        put(static_cast<std::int32_t>(value));
                        break;
                    case ElemType::I64:
                        put(static_cast<std::int64_t>(value));
                        break;
                    case ElemType::F32:
                        put(static_cast<float>(value));
                        break;
                    default:
                        put(value);
                        break;
                    }
                }
                p.storage.push_back(std::move(bytes));
            }
            for (auto &st : p.storage)
                p.params.push_back(st.data());
        }
    };
    auto launchAll = [&] {
        for (std::size_t i = 0; i < launches.size(); ++i) {
            Prepared &p = launches[i];
            cu->check(cu->launchKernel(p.fn, p.grid[0], p.grid[1], p.grid[2], p.block[0], p.block[1], p.block[2],
                                       p.shared, nullptr, p.params.data(), nullptr),
                      ("cuLaunchKernel(" + req.manifest.launches[i].kernel + ")").c_str());
        }
    };
    // Cases in reverse, so that the first one's buffers are still prepared for the timed runs.
    for (std::size_t c = req.cases.size(); c-- > 0;) {
        prepare(req.cases[c]);
        launchAll();
        cu->check(cu->ctxSynchronize(), "cuCtxSynchronize (the kernels' execution)");
        for (std::size_t i = 0; i < outputs.size(); ++i) {
            cu->check(cu->memcpyDtoH(outputs[i].bytes.data(), buffers.at(req.manifest.outputs[i].name)->ptr,
                                     outputs[i].bytes.size()),
                      "cuMemcpyDtoH");
            writeNpy(dir + "/out" + std::to_string(c) + "_" + std::to_string(i) + ".npy", outputs[i]);
        }
    }
    std::ofstream timings(dir + "/timings.txt");
    if (req.timingRuns > 0) {
        // Flush L2 between runs with a buffer twice its size, as the brief's timing method asks.
        int l2 = 0;
        cu->deviceGetAttribute(&l2, CudaDriver::kAttrL2CacheSize, dev);
        DeviceBuffer flush(*cu, static_cast<std::size_t>(std::max(l2, 1 << 20)) * 2);
        CudaDriver::Event start = nullptr, stop = nullptr;
        cu->check(cu->eventCreate(&start, 0), "cuEventCreate");
        cu->check(cu->eventCreate(&stop, 0), "cuEventCreate");
        launchAll(); // warm-up
        for (int r = 0; r < req.timingRuns; ++r) {
            cu->check(cu->memsetD8(flush.ptr, static_cast<unsigned char>(r),
                                   static_cast<std::size_t>(std::max(l2, 1 << 20)) * 2),
                      "cuMemsetD8 (L2 flush)");
            cu->check(cu->eventRecord(start, nullptr), "cuEventRecord");
            launchAll();
            cu->check(cu->eventRecord(stop, nullptr), "cuEventRecord");
            cu->check(cu->eventSynchronize(stop), "cuEventSynchronize");
            float ms = 0;
            cu->check(cu->eventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
            timings << ms << "\n";
        }
        cu->eventDestroy(start);
        cu->eventDestroy(stop);
    }
    cu->moduleUnload(module);
}

} // namespace

namespace {

// "sm_XY" of `device` asked of the driver in this process; empty with `reason` set when it cannot say.
std::string archInThisProcess(int device, std::string &reason)
{
    const CudaDriver *cu = CudaDriver::get(&reason);
    if (!cu)
        return {};
    try {
        const auto devices = cu->devices();
        if (device >= 0 && device < static_cast<int>(devices.size()))
            return "sm_" + std::to_string(devices[static_cast<std::size_t>(device)].major * 10 +
                                          devices[static_cast<std::size_t>(device)].minor);
        reason = "no CUDA device " + std::to_string(device);
    } catch (const std::exception &e) {
        reason = e.what();
    }
    return {};
}

std::string probeArchInChild(int device, std::string *why)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        std::string reason;
        std::string answer = archInThisProcess(device, reason);
        if (answer.empty())
            answer = "!" + reason;
        [[maybe_unused]] auto n = write(fds[1], answer.data(), answer.size());
        _exit(0);
    }
    close(fds[1]);
    std::string answer;
    char buf[512];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
        answer.append(buf, static_cast<std::size_t>(n));
    close(fds[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    if (answer.empty() || answer[0] == '!') {
        if (why)
            *why = answer.empty() ? "the device probe died" : answer.substr(1);
        return {};
    }
    return answer;
}

} // namespace

std::string deviceArchIsolated(int device, std::string *why)
{
    // Asked once per device and process. When a forked probe cannot start CUDA because this process
    // already did (NVRTC itself calls cuInit), ask the driver here: launches run in exec'd children, so
    // CUDA in this process harms nothing.
    static std::mutex mutex;
    static std::map<int, std::string> known;
    std::lock_guard lock(mutex);
    if (auto it = known.find(device); it != known.end())
        return it->second;
    std::string reason;
    std::string arch = probeArchInChild(device, &reason);
    if (arch.empty() && reason.find("initialization error") != std::string::npos)
        arch = archInThisProcess(device, reason);
    if (arch.empty()) {
        if (why)
            *why = reason;
        return {};
    }
    return known[device] = arch;
}

namespace {

std::string ownExecutable()
{
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

void writeRequest(const LaunchRequest &req, const std::string &dir)
{
    if (req.manifestJson.empty())
        throw std::runtime_error("launch request without its manifest text");
    nlohmann::json j{{"device", req.device},
                     {"timing_runs", req.timingRuns},
                     {"manifest", req.manifestJson},
                     {"cases", nlohmann::json::array()}};
    for (std::size_t c = 0; c < req.cases.size(); ++c) {
        nlohmann::json dtypes = nlohmann::json::array();
        for (std::size_t i = 0; i < req.cases[c].size(); ++i) {
            writeNpy(dir + "/in" + std::to_string(c) + "_" + std::to_string(i) + ".npy", req.cases[c][i]);
            dtypes.push_back(elemTypeName(req.cases[c][i].dtype));
        }
        j["cases"].push_back(dtypes);
    }
    std::ofstream(dir + "/image.bin", std::ios::binary) << req.image;
    std::ofstream(dir + "/request.json") << j.dump();
}

LaunchRequest readRequest(const std::string &dir)
{
    std::ifstream in(dir + "/request.json");
    const nlohmann::json j = nlohmann::json::parse(in);
    LaunchRequest req;
    req.device = j.at("device").get<int>();
    req.timingRuns = j.at("timing_runs").get<int>();
    req.manifestJson = j.at("manifest").get<std::string>();
    req.manifest = parseManifest(req.manifestJson);
    const auto &cases = j.at("cases");
    for (std::size_t c = 0; c < cases.size(); ++c) {
        req.cases.emplace_back();
        for (std::size_t i = 0; i < cases[c].size(); ++i) {
            HostTensor t = readNpy(dir + "/in" + std::to_string(c) + "_" + std::to_string(i) + ".npy");
            if (auto d = elemTypeFromName(cases[c][i].get<std::string>()))
                t.dtype = *d; // bf16 travels as <u2
            req.cases.back().push_back(std::move(t));
        }
    }
    std::ifstream image(dir + "/image.bin", std::ios::binary);
    req.image.assign(std::istreambuf_iterator<char>(image), std::istreambuf_iterator<char>());
    return req;
}

} // namespace

int runLaunchChild(const std::string &dir)
{
    try {
        runChild(readRequest(dir), dir);
        return 0;
    } catch (const std::exception &e) {
        std::ofstream(dir + "/error.txt") << e.what();
        return 3;
    }
}

LaunchOutcome launchIsolated(const LaunchRequest &request, const std::string &scratchDir)
{
    fs::create_directories(scratchDir);
    const std::string errorFile = scratchDir + "/error.txt";
    fs::remove(errorFile);
    writeRequest(request, scratchDir);
    const std::string launcher = request.launcher.empty() ? ownExecutable() : request.launcher;
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); // never outlive the parent
        if (getppid() != parent)          // nor one that died before the line above
            _exit(3);
        setpgid(0, 0);
        const char *argv[] = {launcher.c_str(), "cuda-launch-child", scratchDir.c_str(), nullptr};
        execv(launcher.c_str(), const_cast<char *const *>(argv));
        std::ofstream(errorFile) << "exec " << launcher << ": " << std::strerror(errno);
        _exit(3);
    }
    LaunchOutcome out;
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(request.timeoutSeconds);
    for (;;) {
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (std::chrono::steady_clock::now() > deadline) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            out.status = LaunchOutcome::Status::Timeout;
            out.message = "killed after " + std::to_string(request.timeoutSeconds) + " s";
            return out;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (WIFSIGNALED(status)) {
        out.status = LaunchOutcome::Status::Crash;
        out.message = std::string("child killed by signal ") + strsignal(WTERMSIG(status));
        return out;
    }
    if (WEXITSTATUS(status) != 0) {
        std::ifstream in(errorFile);
        std::string msg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (msg.rfind("NODEVICE ", 0) == 0) {
            out.status = LaunchOutcome::Status::NoDevice;
            out.message = msg.substr(9);
        } else {
            out.status = LaunchOutcome::Status::LaunchError;
            out.message = msg.empty() ? "child exited with status " + std::to_string(WEXITSTATUS(status)) : msg;
        }
        return out;
    }
    for (std::size_t c = 0; c < request.cases.size(); ++c) {
        out.outputs.emplace_back();
        for (std::size_t i = 0; i < request.manifest.outputs.size(); ++i)
            out.outputs.back().push_back(
                readNpy(scratchDir + "/out" + std::to_string(c) + "_" + std::to_string(i) + ".npy"));
    }
    std::ifstream timings(scratchDir + "/timings.txt");
    for (double ms; timings >> ms;)
        out.timingsMs.push_back(ms);
    return out;
}

} // namespace sieve::gpu
