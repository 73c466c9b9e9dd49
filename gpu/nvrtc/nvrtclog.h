#pragma once
// What NVRTC's program log says, in the sample's own terms: diagnostics with line numbers mapped back
// to the file the source came from (a .cu, or the .py whose string literal held it), and the ptxas
// resource report (-Xptxas -v) parsed per kernel.
#include <string>
#include <vector>

namespace sieve::gpu {

// For each line of the text that NVRTC compiles, the line of the original file it came from (0 for
// lines Sieve added, such as a prelude).
struct SourceMap
{
    std::string file;       // shown in diagnostics, e.g. "answer.py"
    std::vector<int> lines; // lines[i] = original line of generated line i+1

    static SourceMap identity(const std::string &file, const std::string &text);
    int originalLine(int generatedLine) const;
};

struct Diagnostic
{
    int line = 0; // in the original file; 0 when unknown or in Sieve's prelude
    int generatedLine = 0;
    std::string severity; // "error", "warning", "catastrophic error", "remark"
    std::string message;
};

struct KernelResources
{
    std::string name;    // demangled
    std::string mangled; // the PTX entry / ELF symbol
    int registers = 0;
    int barriers = 0;
    long sharedBytes = 0; // static __shared__
    long constBytes = 0;  // the kernel's constant banks (parameters and compiler constants)
    long stackFrameBytes = 0;
    long spillStoreBytes = 0;
    long spillLoadBytes = 0;
};

struct PtxasReport
{
    std::vector<KernelResources> kernels;
    long globalBytes = 0;    // __device__ variables
    long userConstBytes = 0; // __constant__ variables of the module
};

std::string demangle(const std::string &mangled);

// Parses the "ptxas info" lines of an NVRTC log compiled with --ptxas-options=-v.
PtxasReport parsePtxas(const std::string &log);

// The log without ptxas info lines, with "<programName>(N)" rewritten to "<map.file>(M)".
std::string mapLog(const std::string &log, const std::string &programName, const SourceMap &map);

// Diagnostics of the log (lines already mapped through `map`).
std::vector<Diagnostic> parseDiagnostics(const std::string &log, const std::string &programName, const SourceMap &map);

} // namespace sieve::gpu
