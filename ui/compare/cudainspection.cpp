#include "ui/compare/cudainspection.h"

#include "gpu/nvrtc/nvrtccheck.h"
#include "gpu/nvrtc/nvrtcsass.h"

#include <QCoreApplication>

#include <stdexcept>

namespace sieve::ui::cuda {

namespace {
QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

CudaUnitInfo unitInfo(const gpu::UnitCheck &check)
{
    CudaUnitInfo u;
    u.origin = qs(check.unit.origin);
    u.firstLine = check.unit.firstLine;
    u.lastLine = check.unit.lastLine;
    u.status = QString::fromLatin1(gpu::statusName(check.status));
    u.reason = qs(check.reason);
    u.prechecked = check.prechecked;
    if (!check.result)
        return u;
    const gpu::CompileResult &r = *check.result;
    u.fromCache = r.fromCache;
    u.millis = r.millis;
    u.arch = qs(r.arch);
    u.nvrtcVersion = qs(r.nvrtcVersion);
    u.log = qs(r.log);
    u.ptx = qs(r.ptx);
    u.userConstBytes = r.resources.userConstBytes;
    u.globalBytes = r.resources.globalBytes;
    for (const gpu::KernelResources &k : r.resources.kernels)
        u.kernels << CudaKernelInfo{qs(k.name),        k.registers,   k.spillStoreBytes, k.spillLoadBytes,
                                    k.stackFrameBytes, k.sharedBytes, k.constBytes,      k.barriers};
    if (!r.cubin.empty()) {
        std::string why;
        if (auto text = gpu::disassemble(r.cubin, &why))
            u.sass = qs(*text);
        else
            u.sassWhy = qs(why);
    }
    return u;
}
} // namespace

bool looksLikeCuda(const QString &code)
{
    return code.contains(QLatin1String("__global__"));
}

CudaInspection inspect(qint64 sampleId, const QString &code, const QString &fileName, const QString &arch,
                       const QString &cacheDir)
{
    CudaInspection out;
    out.sampleId = sampleId;
    try {
        gpu::CompileOptions options;
        options.arch = gpu::normalizeArch(arch.toStdString());
        const auto units = gpu::cudaUnitsOf(code.toStdString(), fileName.toStdString());
        if (units.empty()) {
            out.error = QCoreApplication::translate("sieve::ui::PtxView", "No CUDA source in this sample.");
            return out;
        }
        const gpu::NvrtcCompiler compiler(cacheDir.toStdString());
        for (const gpu::CudaUnit &unit : units)
            out.units << unitInfo(gpu::checkUnit(unit, compiler, options));
    } catch (const std::exception &e) {
        // CompilerUnavailable (no libnvrtc) or an architecture that cannot be named.
        out.error = qs(e.what());
        out.units.clear();
    }
    return out;
}

} // namespace sieve::ui::cuda
