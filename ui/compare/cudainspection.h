#pragma once
// What NVRTC makes of a sample's CUDA answer (a .cu file or load_inline sources in Python): PTX, SASS
// when a disassembler is installed, the mapped log and the per-kernel resources. Computed through the
// gpu/ compiler service and its disk cache; the result is a plain value that may cross threads.
#include <QList>
#include <QMetaType>
#include <QString>

namespace sieve::ui {

struct CudaKernelInfo
{
    QString name;
    int registers = 0;
    long spillStores = 0;
    long spillLoads = 0;
    long stack = 0;
    long shared = 0;
    long constant = 0;
    int barriers = 0;
};

struct CudaUnitInfo
{
    QString origin; // "whole file", "load_inline(name='relu') cuda_sources", ...
    int firstLine = 0;
    int lastLine = 0;
    QString status; // compiled, failed, skipped, inconclusive
    QString reason;
    bool prechecked = false; // host code and torch includes removed before NVRTC saw it
    bool fromCache = false;
    double millis = 0;
    QString arch;
    QString nvrtcVersion;
    QString log;
    QString ptx;
    QString sass; // empty when there is no disassembler; then sassWhy says so
    QString sassWhy;
    QList<CudaKernelInfo> kernels;
    long userConstBytes = 0;
    long globalBytes = 0;
};

struct CudaInspection
{
    qint64 sampleId = -1;
    QString error; // NVRTC missing, a bad architecture, or no CUDA in the sample
    QList<CudaUnitInfo> units;
    bool ok() const { return error.isEmpty(); }
};

namespace cuda {

// Cheap test on the GUI thread: does the text hold a CUDA kernel at all?
bool looksLikeCuda(const QString &code);

// Compiles every CUDA unit of `code` for `arch`. Blocking (NVRTC: up to a second per unit when the
// cache is cold): call it off the GUI thread. `cacheDir` empty: the compiler's default cache.
CudaInspection inspect(qint64 sampleId, const QString &code, const QString &fileName, const QString &arch,
                       const QString &cacheDir = {});

} // namespace cuda
} // namespace sieve::ui

Q_DECLARE_METATYPE(sieve::ui::CudaInspection)
