// Turning a worker's verdict message into the record the corpus writer stores.
#include "gpu/verify/verifytypes.h"

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

namespace sieve::gpu {

namespace {
// nlohmann's get<integer>() is a plain cast: from a float out of the type's range ("runs": 2e24) that is
// undefined behaviour, from an integer out of range (a shape_index of 2^40) a silent wrap. A number
// that does not fit its field is a wrongly typed field. Floats that fit are truncated, as before.
template <typename T> std::optional<T> integral(const nlohmann::json &v)
{
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        return std::in_range<T>(u) ? std::optional<T>(static_cast<T>(u)) : std::nullopt;
    }
    if (v.is_number_integer()) {
        const auto i = v.get<std::int64_t>();
        return std::in_range<T>(i) ? std::optional<T>(static_cast<T>(i)) : std::nullopt;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        const double hi = std::ldexp(1.0, std::numeric_limits<T>::digits); // exclusive; -hi is T's minimum
        const bool fits = std::is_signed_v<T> ? d >= -hi && d < hi : d > -1.0 && d < hi; // NaN fits nothing
        return fits ? std::optional<T>(static_cast<T>(d)) : std::nullopt;
    }
    return std::nullopt;
}

template <typename T> std::optional<T> opt(const nlohmann::json &j, const char *key)
{
    if (!j.contains(key) || j.at(key).is_null())
        return std::nullopt;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        return integral<T>(j.at(key));
    } else {
        try {
            return j.at(key).get<T>();
        } catch (const nlohmann::json::exception &) {
            return std::nullopt; // a wrongly typed optional field is dropped, not fatal: the rest is still a verdict
        }
    }
}

std::vector<std::string> strings(const nlohmann::json &j, const char *key)
{
    std::vector<std::string> out;
    if (j.contains(key) && j.at(key).is_array())
        for (const auto &e : j.at(key))
            if (e.is_string())
                out.push_back(e.get<std::string>());
    return out;
}
} // namespace

VerdictRecord verdictFromMessage(const nlohmann::json &msg)
{
    VerdictRecord v;
    v.sampleId = opt<std::int64_t>(msg, "sample_id").value_or(0);
    v.status = opt<std::string>(msg, "status").value_or("CRASH");
    v.stage = opt<std::string>(msg, "stage").value_or("");
    v.reasons = strings(msg, "reasons");
    v.message = opt<std::string>(msg, "message").value_or("");
    v.log = opt<std::string>(msg, "log").value_or("");
    v.interpreted = opt<bool>(msg, "interpreted").value_or(false);
    v.kernelsLaunched = opt<std::int64_t>(msg, "kernels_launched");
    v.customKernelShare = opt<double>(msg, "custom_kernel_share");
    v.speedup = opt<double>(msg, "speedup");
    v.flags = strings(msg, "flags");
    v.durationMs = opt<double>(msg, "duration_ms");
    if (msg.contains("checks") && msg.at("checks").is_array()) {
        for (const auto &c : msg.at("checks")) {
            VerdictCheck k;
            k.shapeIndex = opt<int>(c, "shape_index").value_or(0);
            k.shapeJson = c.contains("shape") ? c.at("shape").dump() : std::string();
            k.seed = opt<int>(c, "seed").value_or(0);
            k.ok = opt<bool>(c, "ok").value_or(false);
            k.maxAbs = opt<double>(c, "max_abs");
            k.maxRel = opt<double>(c, "max_rel");
            k.mismatches = opt<std::int64_t>(c, "mismatches");
            k.nonfiniteMismatches = opt<std::int64_t>(c, "nonfinite_mismatches");
            v.checks.push_back(std::move(k));
        }
    }
    // Per kind, the run time over all shapes: candidate and baselines are summed over the same shapes,
    // so their ratio is the speedup a user would see on that shape set.
    std::map<std::string, double> totals;
    std::map<std::string, bool> complete;
    if (msg.contains("timings") && msg.at("timings").is_array()) {
        for (const auto &t : msg.at("timings")) {
            VerdictTiming k;
            k.shapeIndex = opt<int>(t, "shape_index").value_or(0);
            k.which = opt<std::string>(t, "which").value_or("candidate");
            k.medianMs = opt<double>(t, "median_ms");
            k.meanMs = opt<double>(t, "mean_ms");
            k.stdMs = opt<double>(t, "std_ms");
            k.runs = opt<std::int64_t>(t, "runs");
            if (!complete.count(k.which))
                complete[k.which] = true;
            if (k.medianMs)
                totals[k.which] += *k.medianMs;
            else
                complete[k.which] = false;
            v.timings.push_back(std::move(k));
        }
    }
    auto total = [&](const char *which) -> std::optional<double> {
        if (!totals.count(which) || !complete[which])
            return std::nullopt;
        return totals[which];
    };
    v.candidateMs = total("candidate");
    v.eagerMs = total("eager");
    v.compileMs = total("compile");
    // Everything but the bulky log is kept as details for the reviewer's view.
    v.details = msg;
    v.details.erase("log");
    v.details.erase("op");
    return v;
}

} // namespace sieve::gpu
