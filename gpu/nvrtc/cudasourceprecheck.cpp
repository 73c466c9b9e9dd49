#include "gpu/nvrtc/cudasource.h"

#include <cctype>
#include <iterator>
#include <regex>

namespace sieve::gpu {

namespace {

// What <cstdint>, <cfloat>, <climits> and <cmath> give device code under nvcc; NVRTC has none of them.
const char *const kPrelude =
    "typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t;\n"
    "typedef unsigned short uint16_t; typedef int int32_t; typedef unsigned int uint32_t;\n"
    "typedef long long int64_t; typedef unsigned long long uint64_t; typedef long long intptr_t;\n"
    "#define FLT_MAX 3.402823466e+38F\n"
    "#define FLT_MIN 1.175494351e-38F\n"
    "#define FLT_EPSILON 1.192092896e-07F\n"
    "#define DBL_MAX 1.7976931348623158e+308\n"
    "#define INFINITY __int_as_float(0x7f800000)\n"
    "#define NAN __int_as_float(0x7fffffff)\n"
    "#define INT_MAX 2147483647\n"
    "#define INT_MIN (-2147483647 - 1)\n"
    "#define UINT_MAX 4294967295U\n"
    "#define M_PI 3.14159265358979323846\n"
    "#define M_SQRT2 1.41421356237309504880\n"
    "#define M_SQRT1_2 0.70710678118654752440\n"
    "#define M_2_SQRTPI 1.12837916709551257390\n"
    "#define M_E 2.7182818284590452354\n"
    "#define M_LN2 0.69314718055994530942\n";

// Headers NVRTC can open with the toolkit's include directory on its path.
const std::regex kNvrtcHeaders(
    R"(^(cuda_fp16|cuda_bf16|cuda_fp8|cuda_fp6|cuda_fp4|mma|cuda_pipeline|cuda_pipeline_primitives|cuda_awbarrier|cuda_awbarrier_primitives|cooperative_groups|vector_types|vector_functions|sm_\d+_intrinsics)(\.h|\.hpp)?$|^(cooperative_groups|cuda|cub)/)");

// Everything else is host code or torch; what the prelude stands in for is listed here so that a
// missing definition can be told apart from a genuine error.
const std::regex kHostMention(
    R"(\b(torch|at|c10|pybind11|py|std)::|\bPYBIND11_|\bTORCH_|\busing\s+namespace\s+(torch|at|c10|std|pybind11)\b)");
const std::regex kTorchInDevice(R"(\b(torch|at|c10)::\w+|\b(TORCH_|AT_|C10_)\w+)");
const std::regex kStdInDevice(R"(\bstd::\w+)");
const std::regex kDeviceQualifier(R"(\b(__global__|__device__|constexpr)\b)");
const std::regex kAggregate(R"(^\s*(typedef\s+)?(struct|class|union|enum)\b)");
const std::regex kScope(R"(^\s*(inline\s+)?namespace\b[^()]*$)");
const std::regex kExternC(R"(extern\s*"C(\+\+)?"\s*$)");

void blank(std::string &s, std::size_t from, std::size_t to)
{
    for (std::size_t i = from; i < to && i < s.size(); ++i)
        if (s[i] != '\n')
            s[i] = ' ';
}

// Comments and string/char literals replaced by spaces, so that braces and keywords inside them do
// not confuse the structural scan.
std::string maskLiterals(const std::string &s)
{
    std::string m = s;
    std::size_t i = 0;
    while (i < s.size()) {
        if (s.compare(i, 2, "//") == 0) {
            const std::size_t e = s.find('\n', i);
            blank(m, i, e == std::string::npos ? s.size() : e);
            i = e == std::string::npos ? s.size() : e;
        } else if (s.compare(i, 2, "/*") == 0) {
            const std::size_t e = s.find("*/", i + 2);
            const std::size_t end = e == std::string::npos ? s.size() : e + 2;
            blank(m, i, end);
            i = end;
        } else if (s[i] == '"' || (s[i] == '\'' && !(i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]))))) {
            const char q = s[i];
            std::size_t j = i + 1;
            while (j < s.size() && s[j] != q && s[j] != '\n')
                j += s[j] == '\\' ? 2 : 1;
            blank(m, i + 1, j); // keep the quotes: `extern "C"` stays recognisable
            i = j + 1;
        } else {
            ++i;
        }
    }
    return m;
}

std::size_t matchingBrace(const std::string &m, std::size_t open)
{
    int depth = 0;
    for (std::size_t i = open; i < m.size(); ++i) {
        if (m[i] == '{')
            ++depth;
        else if (m[i] == '}' && --depth == 0)
            return i;
    }
    return m.size();
}

std::string stripTemplateHeader(const std::string &header)
{
    std::size_t i = header.find_first_not_of(" \t\n");
    if (i == std::string::npos || header.compare(i, 8, "template") != 0)
        return header;
    i = header.find('<', i);
    int depth = 0;
    for (; i < header.size(); ++i) {
        if (header[i] == '<')
            ++depth;
        else if (header[i] == '>' && --depth == 0)
            return header.substr(i + 1);
    }
    return header;
}

bool hasTopLevelAssign(const std::string &header)
{
    int depth = 0;
    for (std::size_t i = 0; i < header.size(); ++i) {
        const char c = header[i];
        if (c == '(' || c == '[' || c == '<')
            ++depth;
        else if (c == ')' || c == ']' || c == '>')
            --depth;
        else if (c == '=' && depth == 0 && (i + 1 >= header.size() || header[i + 1] != '='))
            return true;
    }
    return false;
}

int lineAt(const std::string &s, std::size_t pos)
{
    int line = 1;
    for (std::size_t i = 0; i < pos && i < s.size(); ++i)
        line += s[i] == '\n';
    return line;
}

} // namespace

PrecheckSource prepareForNvrtc(const CudaUnit &unit)
{
    PrecheckSource out;
    out.options = {"-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
                   "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__"};
    out.options.insert(out.options.end(), unit.extraOptions.begin(), unit.extraOptions.end());

    std::string text = unit.source;
    std::string m = maskLiterals(text);

    // Preprocessor lines: includes NVRTC cannot open are blanked; all are hidden from the scan below.
    static const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
    std::size_t lineStart = 0;
    while (lineStart < m.size()) {
        std::size_t lineEnd = m.find('\n', lineStart);
        if (lineEnd == std::string::npos)
            lineEnd = m.size();
        const std::size_t first = m.find_first_not_of(" \t", lineStart);
        if (first < lineEnd && m[first] == '#') {
            std::size_t end = lineEnd; // a directive continues over lines ending in a backslash
            while (end > 0 && end < m.size() && text[end - 1] == '\\') {
                const std::size_t next = m.find('\n', end + 1);
                end = next == std::string::npos ? m.size() : next;
            }
            const std::string directive = text.substr(lineStart, lineEnd - lineStart);
            std::smatch inc;
            if (std::regex_search(directive, inc, include) && !std::regex_search(inc[1].str(), kNvrtcHeaders))
                blank(text, lineStart, end);
            blank(m, lineStart, end);
            lineEnd = end;
        }
        lineStart = lineEnd + 1;
    }

    // Top-level scan: keep device functions, types and data; blank host functions and declarations.
    std::size_t seg = 0;
    int scopes = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
        const char c = m[i];
        if (c == '{') {
            const std::string header = m.substr(seg, i - seg);
            if (std::regex_search(header, kScope) || std::regex_search(text.substr(seg, i - seg), kExternC)) {
                ++scopes;
                seg = i + 1;
                continue;
            }
            const std::size_t close = matchingBrace(m, i);
            const std::string decl = stripTemplateHeader(header);
            const bool function =
                decl.find('(') != std::string::npos && !std::regex_search(decl, kAggregate) && !hasTopLevelAssign(decl);
            if (function) {
                if (!std::regex_search(header, kDeviceQualifier)) {
                    blank(text, seg, close + 1);
                    blank(m, seg, close + 1);
                }
                seg = close + 1;
            }
            i = close; // aggregates and initialisers run on to their ';'
        } else if (c == '}' && scopes > 0) {
            --scopes;
            seg = i + 1;
        } else if (c == ';') {
            const std::string stmt = m.substr(seg, i + 1 - seg);
            if (stmt.find('{') == std::string::npos && std::regex_search(stmt, kHostMention)) {
                blank(text, seg, i + 1);
                blank(m, seg, i + 1);
            }
            seg = i + 1;
        }
    }

    std::smatch hit;
    if (std::regex_search(m, hit, kTorchInDevice)) {
        out.skipReason = "precheck skipped: needs torch headers ('" + hit[0].str() + "' at " + unit.map.file + ":" +
                         std::to_string(unit.map.originalLine(lineAt(m, static_cast<std::size_t>(hit.position(0))))) +
                         ")";
    } else if (std::regex_search(m, hit, kStdInDevice)) {
        out.skipReason = "precheck skipped: device code uses the C++ standard library ('" + hit[0].str() + "' at " +
                         unit.map.file + ":" +
                         std::to_string(unit.map.originalLine(lineAt(m, static_cast<std::size_t>(hit.position(0))))) +
                         "), which NVRTC does not provide";
    }
    static const std::regex global(R"(\b__global__\b)");
    out.kernels =
        static_cast<int>(std::distance(std::sregex_iterator(m.begin(), m.end(), global), std::sregex_iterator()));
    if (out.skipReason.empty() && out.kernels == 0)
        out.skipReason = "precheck skipped: no __global__ kernel in the CUDA source";
    if (out.skipReason.empty() && !unit.dynamicReason.empty())
        out.skipReason = "precheck skipped: the CUDA source is " + unit.dynamicReason;

    // Kernel templates: EDG does not look inside an uninstantiated template body, so a typo there would
    // pass. Instantiate with float where the source does so itself; name the others as unchecked.
    static const std::regex templateKernel(
        R"(template\s*<([^<>]*)>\s*__global__\s+(?:void\s+)?(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\()");
    static const std::regex typeParam(R"(^\s*(typename|class)\s+\w+\s*$)");
    for (auto it = std::sregex_iterator(m.begin(), m.end(), templateKernel); it != std::sregex_iterator(); ++it) {
        const std::string params = (*it)[1], name = (*it)[2];
        std::vector<std::string> args;
        bool allTypes = true;
        for (std::size_t start = 0; start <= params.size();) {
            std::size_t end = params.find(',', start);
            if (end == std::string::npos)
                end = params.size();
            allTypes &= std::regex_match(params.substr(start, end - start), typeParam);
            args.emplace_back("float");
            start = end + 1;
        }
        const bool floatUsed = unit.source.find("AT_DISPATCH_FLOATING") != std::string::npos ||
                               unit.source.find(name + "<float") != std::string::npos;
        if (allTypes && floatUsed) {
            std::string expr = "&" + name + "<";
            for (std::size_t i = 0; i < args.size(); ++i)
                expr += (i ? ", " : "") + args[i];
            out.nameExpressions.push_back(expr + ">");
        } else {
            out.uninstantiated.push_back(name);
        }
    }

    out.source = std::string(kPrelude) + text;
    out.map.file = unit.map.file;
    for (const char *p = kPrelude; *p; ++p)
        if (*p == '\n')
            out.map.lines.push_back(0);
    out.map.lines.insert(out.map.lines.end(), unit.map.lines.begin(), unit.map.lines.end());
    return out;
}

bool precheckInconclusive(const std::vector<Diagnostic> &diagnostics)
{
    static const std::regex macroLike(R"(identifier "[A-Z][A-Z0-9_]*" is undefined)");
    bool anyError = false;
    for (const auto &d : diagnostics) {
        if (d.severity.find("error") == std::string::npos)
            continue;
        anyError = true;
        const bool fromRemoved = std::regex_search(d.message, macroLike) ||
                                 d.message.find("could not open source file") != std::string::npos;
        if (!fromRemoved)
            return false; // at least one error is the device code's own
    }
    return anyError;
}

} // namespace sieve::gpu
