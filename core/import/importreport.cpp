#include "core/import/importer.h"

#include <nlohmann/json.hpp>

namespace sieve {

std::string ImportError::text() const
{
    return file + ":" + std::to_string(line) + ": " + field + ": " + message;
}

namespace {
template <typename F> std::uint64_t sum(const std::vector<ImportFileReport> &files, F f)
{
    std::uint64_t n = 0;
    for (const auto &r : files)
        n += f(r);
    return n;
}
} // namespace

std::uint64_t ImportReport::tasksAdded() const
{
    return sum(files, [](const ImportFileReport &r) { return r.tasksAdded; });
}
std::uint64_t ImportReport::samplesAdded() const
{
    return sum(files, [](const ImportFileReport &r) { return r.samplesAdded; });
}
std::uint64_t ImportReport::unchanged() const
{
    return sum(files, [](const ImportFileReport &r) { return r.unchanged; });
}
std::uint64_t ImportReport::rejected() const
{
    return sum(files, [](const ImportFileReport &r) { return r.rejected; });
}

nlohmann::json ImportReport::toJson() const
{
    nlohmann::json out;
    out["import_id"] = importId;
    out["format"] = format;
    out["interrupted"] = interrupted;
    out["seconds"] = seconds;
    out["cpu_seconds"] = {
        {"parse", parseCpuSeconds}, {"pack", packCpuSeconds}, {"write", writeCpuSeconds}, {"index", indexCpuSeconds}};
    out["indices_rebuilt"] = indicesRebuilt;
    out["index_seconds"] = indexSeconds;
    out["tasks_added"] = tasksAdded();
    out["samples_added"] = samplesAdded();
    out["unchanged"] = unchanged();
    out["rejected"] = rejected();
    nlohmann::json fs = nlohmann::json::array();
    for (const auto &f : files) {
        nlohmann::json errs = nlohmann::json::array();
        for (const auto &e : f.errors)
            errs.push_back({{"file", e.file}, {"line", e.line}, {"field", e.field}, {"message", e.message}});
        fs.push_back({{"path", f.path},
                      {"tasks_added", f.tasksAdded},
                      {"samples_added", f.samplesAdded},
                      {"unchanged", f.unchanged},
                      {"rejected", f.rejected},
                      {"errors", std::move(errs)},
                      {"errors_not_listed", f.errorsNotListed}});
    }
    out["files"] = std::move(fs);
    return out;
}

} // namespace sieve
