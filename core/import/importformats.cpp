#include "core/import/importformats.h"

#include <stdexcept>

namespace sieve::importing {

RowFormat kernelBenchRowFormat();
RowFormat kernelBookRowFormat();
RowFormat cudaArchiveRowFormat();
RowFormat sieveRowFormat();

const std::vector<RowFormat> &rowFormats()
{
    static const std::vector<RowFormat> all = {kernelBenchRowFormat(), kernelBookRowFormat(), cudaArchiveRowFormat(),
                                               sieveRowFormat()};
    return all;
}

const RowFormat &rowFormat(ImportFormat format)
{
    for (const RowFormat &f : rowFormats())
        if (f.format == format)
            return f;
    throw std::logic_error("no parser for an import format");
}

} // namespace sieve::importing

namespace sieve {

const std::vector<ImportFormat> &allImportFormats()
{
    static const std::vector<ImportFormat> all = {ImportFormat::KernelBench, ImportFormat::KernelBook,
                                                  ImportFormat::CudaArchive, ImportFormat::Sieve};
    return all;
}

std::string_view importFormatName(ImportFormat format)
{
    switch (format) {
    case ImportFormat::KernelBench:
        return "kernelbench";
    case ImportFormat::KernelBook:
        return "kernelbook";
    case ImportFormat::CudaArchive:
        return "cuda-archive";
    case ImportFormat::Sieve:
        return "sieve";
    }
    return "?";
}

std::optional<ImportFormat> parseImportFormat(std::string_view name)
{
    for (ImportFormat f : allImportFormats())
        if (importFormatName(f) == name)
            return f;
    return std::nullopt;
}

} // namespace sieve
