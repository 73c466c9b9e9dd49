#include "gpu/nvrtc/nvrtccheck.h"

#include <nlohmann/json.hpp>
#include <regex>

namespace sieve::gpu {

const char *statusName(UnitCheck::Status status)
{
    switch (status) {
    case UnitCheck::Status::Compiled:
        return "compiled";
    case UnitCheck::Status::Failed:
        return "failed";
    case UnitCheck::Status::Skipped:
        return "skipped";
    case UnitCheck::Status::Inconclusive:
        return "inconclusive";
    }
    return "?";
}

std::vector<CudaUnit> cudaUnitsOf(const std::string &code, const std::string &fileName)
{
    static const std::regex pythonish(
        R"((^|\n)\s*(import\s+\w|from\s+\w+(\.\w+)*\s+import\b|class\s+\w+\s*\(|def\s+\w+\s*\())");
    const bool py = (fileName.size() > 3 && fileName.compare(fileName.size() - 3, 3, ".py") == 0) ||
                    (code.find("__global__") == std::string::npos ? std::regex_search(code, pythonish)
                                                                  : code.find("load_inline") != std::string::npos);
    if (py)
        return extractCudaFromPython(code, fileName);
    return {cudaUnitFromFile(code, fileName)};
}

UnitCheck checkUnit(const CudaUnit &unit, const NvrtcCompiler &compiler, const CompileOptions &options)
{
    static const std::regex torchInclude(R"(#\s*include\s*[<"](torch|ATen|c10|pybind11)/)");
    UnitCheck check;
    check.unit = unit;
    const bool raw = unit.origin == "whole file" && !std::regex_search(unit.source, torchInclude);
    if (raw) {
        if (!unit.dynamicReason.empty()) {
            check.reason = "not compiled: the CUDA source is " + unit.dynamicReason;
            return check;
        }
        check.result = compiler.compile(unit.source, unit.map, options);
        check.status = check.result->ok ? UnitCheck::Status::Compiled : UnitCheck::Status::Failed;
        return check;
    }
    check.prechecked = true;
    PrecheckSource pre = prepareForNvrtc(unit);
    if (!pre.skipReason.empty()) {
        check.reason = pre.skipReason;
        return check;
    }
    CompileOptions opts = options;
    opts.extra.insert(opts.extra.begin(), pre.options.begin(), pre.options.end());
    opts.nameExpressions = pre.nameExpressions;
    check.result = compiler.compile(pre.source, pre.map, opts);
    if (!pre.uninstantiated.empty()) {
        check.reason = "template kernels not instantiated, their bodies are unchecked:";
        for (const auto &n : pre.uninstantiated)
            check.reason += " " + n;
    }
    if (check.result->ok) {
        check.status = UnitCheck::Status::Compiled;
        if (!pre.nameExpressions.empty())
            check.reason += std::string(check.reason.empty() ? "" : "; ") + "instantiated as float: " + [&] {
                std::string all;
                for (const auto &n : pre.nameExpressions)
                    all += (all.empty() ? "" : ", ") + n.substr(1);
                return all;
            }();
    } else if (precheckInconclusive(check.result->diagnostics)) {
        check.status = UnitCheck::Status::Inconclusive;
        check.reason = "precheck inconclusive: the errors name macros or headers that the precheck removed "
                       "(torch headers); the full extension build decides";
    } else {
        check.status = UnitCheck::Status::Failed;
    }
    return check;
}

nlohmann::json toJson(const UnitCheck &check, bool withPtx)
{
    nlohmann::json j{{"origin", check.unit.origin},
                     {"first_line", check.unit.firstLine},
                     {"last_line", check.unit.lastLine},
                     {"status", statusName(check.status)},
                     {"prechecked", check.prechecked}};
    if (!check.reason.empty())
        j["reason"] = check.reason;
    if (!check.result)
        return j;
    const CompileResult &r = *check.result;
    j["arch"] = r.arch;
    j["nvrtc"] = r.nvrtcVersion;
    j["options"] = r.options;
    j["from_cache"] = r.fromCache;
    j["millis"] = r.millis;
    j["log"] = r.log;
    j["diagnostics"] = nlohmann::json::array();
    for (const auto &d : r.diagnostics)
        j["diagnostics"].push_back({{"line", d.line}, {"severity", d.severity}, {"message", d.message}});
    j["kernels"] = nlohmann::json::array();
    for (const auto &k : r.resources.kernels)
        j["kernels"].push_back({{"name", k.name},
                                {"mangled", k.mangled},
                                {"registers", k.registers},
                                {"barriers", k.barriers},
                                {"shared_bytes", k.sharedBytes},
                                {"const_bytes", k.constBytes},
                                {"stack_frame_bytes", k.stackFrameBytes},
                                {"spill_store_bytes", k.spillStoreBytes},
                                {"spill_load_bytes", k.spillLoadBytes}});
    j["global_bytes"] = r.resources.globalBytes;
    j["user_const_bytes"] = r.resources.userConstBytes;
    j["ptx_bytes"] = r.ptx.size();
    j["cubin_bytes"] = r.cubin.size();
    if (withPtx)
        j["ptx"] = r.ptx;
    return j;
}

} // namespace sieve::gpu
