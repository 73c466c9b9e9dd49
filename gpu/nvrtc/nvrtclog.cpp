#include "gpu/nvrtc/nvrtclog.h"

#include <cstdlib>
#include <cxxabi.h>
#include <memory>
#include <regex>
#include <sstream>

namespace sieve::gpu {

namespace {

std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

bool isPtxasLine(const std::string &line)
{
    return line.rfind("ptxas", 0) == 0;
}

long number(const std::smatch &m, int i)
{
    return std::strtol(m[i].str().c_str(), nullptr, 10);
}

} // namespace

SourceMap SourceMap::identity(const std::string &file, const std::string &text)
{
    SourceMap map{file, {}};
    int n = 1;
    for (char c : text)
        n += c == '\n';
    for (int i = 1; i <= n; ++i)
        map.lines.push_back(i);
    return map;
}

int SourceMap::originalLine(int generatedLine) const
{
    if (generatedLine < 1 || generatedLine > static_cast<int>(lines.size()))
        return 0;
    return lines[static_cast<std::size_t>(generatedLine - 1)];
}

std::string demangle(const std::string &mangled)
{
    int status = 0;
    std::unique_ptr<char, void (*)(void *)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                std::free);
    return status == 0 && out ? std::string(out.get()) : mangled;
}

PtxasReport parsePtxas(const std::string &log)
{
    static const std::regex entry(R"(Compiling entry function '([^']+)')");
    static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
    static const std::regex used(R"(Used (\d+) registers)");
    static const std::regex barriers(R"((\d+) barriers)");
    static const std::regex smem(R"((\d+) bytes smem)");
    static const std::regex cmem(R"((\d+) bytes cmem\[\d+\])");
    static const std::regex gmem(R"(info\s*: (\d+) bytes gmem)");

    PtxasReport report;
    KernelResources *current = nullptr;
    bool inEntryProperties = false;
    for (const auto &line : splitLines(log)) {
        if (!isPtxasLine(line))
            continue;
        std::smatch m;
        if (std::regex_search(line, m, entry)) {
            report.kernels.push_back({demangle(m[1]), m[1], 0, 0, 0, 0, 0, 0, 0});
            current = &report.kernels.back();
            inEntryProperties = false;
        } else if (line.find("Function properties for") != std::string::npos) {
            // Non-entry device functions get their own properties block; only the entry's counts.
            inEntryProperties = current && line.find(current->mangled) != std::string::npos;
        } else if (std::regex_search(line, m, frame)) {
            if (current && inEntryProperties) {
                current->stackFrameBytes = number(m, 1);
                current->spillStoreBytes = number(m, 2);
                current->spillLoadBytes = number(m, 3);
            }
        } else if (std::regex_search(line, m, used)) {
            if (!current)
                continue;
            current->registers = static_cast<int>(number(m, 1));
            if (std::regex_search(line, m, barriers))
                current->barriers = static_cast<int>(number(m, 1));
            if (std::regex_search(line, m, smem))
                current->sharedBytes = number(m, 1);
            for (auto it = std::sregex_iterator(line.begin(), line.end(), cmem); it != std::sregex_iterator(); ++it)
                current->constBytes += std::strtol((*it)[1].str().c_str(), nullptr, 10);
        } else if (std::regex_search(line, m, gmem)) {
            report.globalBytes += number(m, 1);
            for (auto it = std::sregex_iterator(line.begin(), line.end(), cmem); it != std::sregex_iterator(); ++it)
                report.userConstBytes += std::strtol((*it)[1].str().c_str(), nullptr, 10);
        }
    }
    return report;
}

namespace {

// "<name>(12): error: ..." at the start of a line.
std::regex locationPattern(const std::string &programName)
{
    std::string escaped;
    for (char c : programName) {
        if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos)
            escaped += '\\';
        escaped += c;
    }
    return std::regex("^" + escaped + R"(\((\d+)\): (catastrophic error|error|warning|remark)[^:]*: (.*)$)");
}

std::string location(const SourceMap &map, int generated)
{
    const int original = map.originalLine(generated);
    if (original > 0)
        return map.file + "(" + std::to_string(original) + ")";
    return "<sieve prelude>(" + std::to_string(generated) + ")";
}

} // namespace

std::string mapLog(const std::string &log, const std::string &programName, const SourceMap &map)
{
    const std::regex loc = locationPattern(programName);
    const std::string prefix = programName + "(";
    std::string out;
    for (const auto &line : splitLines(log)) {
        if (isPtxasLine(line))
            continue;
        std::smatch m;
        if (std::regex_search(line, m, loc)) {
            const int generated = std::atoi(m[1].str().c_str());
            out += location(map, generated) + line.substr(prefix.size() + m[1].length() + 1) + "\n";
        } else if (const auto at = line.find("\"" + programName + "\""); at != std::string::npos) {
            out += line.substr(0, at) + "\"" + map.file + "\"" + line.substr(at + programName.size() + 2) + "\n";
        } else {
            out += line + "\n";
        }
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
        out.pop_back();
    return out.empty() ? out : out + "\n";
}

std::vector<Diagnostic> parseDiagnostics(const std::string &log, const std::string &programName, const SourceMap &map)
{
    const std::regex loc = locationPattern(programName);
    std::vector<Diagnostic> out;
    for (const auto &line : splitLines(log)) {
        std::smatch m;
        if (std::regex_search(line, m, loc)) {
            const int generated = std::atoi(m[1].str().c_str());
            out.push_back({map.originalLine(generated), generated, m[2], m[3]});
        }
    }
    return out;
}

} // namespace sieve::gpu
