// KernelBook rows (PyTorch modules from GitHub with Triton from torch.compile): python_code becomes the
// task, triton_code an expert sample. Its get_init_inputs() returns [args, kwargs] and its reference
// class is named after entry_point, both recorded in the task's flags for the verifier.
#include "core/import/importformats.h"

#include <nlohmann/json.hpp>

namespace sieve::importing {

namespace {

bool looksLikeKernelBook(const Row &row)
{
    return row.has("python_code") || row.has("triton_code");
}

void parseKernelBookRow(Row &row, std::vector<Item> &out, std::uint64_t line)
{
    const auto python = row.string("python_code", true);
    const auto triton = row.string("triton_code");
    const auto entry = row.string("entry_point", true);
    const auto uuid = row.id("uuid", true);
    // Typed checks on the provenance columns, so that a broken export is caught here.
    row.string("repo_name");
    row.string("sha");
    row.string("repo_link");
    row.string("module_name");
    row.integer("stars");
    row.boolean("synthetic");
    std::string license;
    if (const auto lic = row.element("licenses")) {
        simdjson::dom::array arr;
        if (lic->get(arr)) {
            row.fail("licenses", std::string("expected a list of strings, got ") + typeName(*lic));
        } else {
            for (simdjson::dom::element e : arr) {
                std::string_view s;
                if (e.get(s)) {
                    row.fail("licenses",
                             std::string("expected a list of strings, got an entry that is ") + typeName(e));
                    break;
                }
                if (!license.empty())
                    license += ", ";
                license += s;
            }
        }
    }
    if (python && entry) {
        if (const std::string problem = referenceProblem(*python, *entry); !problem.empty())
            row.fail("python_code", problem);
    }
    if (row.failed()) {
        out.push_back({line, row.error()});
        return;
    }
    TaskRecord t;
    t.name = "kernelbook/" + *uuid + "_" + std::string(*entry);
    t.userNamed = false;
    t.nameField = "uuid";
    t.referenceCode = std::string(*python);
    t.source = "kernelbook";
    if (!license.empty())
        t.license = license;
    t.provenanceJson = pickJson(
        row, {"repo_name", "sha", "licenses", "stars", "repo_link", "uuid", "entry_point", "module_name", "synthetic"});
    t.flags = nlohmann::json{{"init_inputs", "args_kwargs"},
                             {"reference_class", std::string(*entry)},
                             {"answer_class", std::string(*entry) + "New"}}
                  .dump();
    t.atol = t.rtol = defaultTolerance(t.dtype);
    finishTask(t);
    const std::string taskName = t.name;
    out.push_back({line, std::move(t)});
    if (triton && !triton->empty()) {
        SampleRecord s;
        s.name = "kernelbook/" + *uuid + "/expert";
        s.taskName = taskName;
        s.backend = "triton";
        s.origin = "expert";
        finishSample(s, *triton, std::nullopt, std::nullopt);
        out.push_back({line, std::move(s)});
    }
}

} // namespace

RowFormat kernelBookRowFormat()
{
    return {ImportFormat::KernelBook, looksLikeKernelBook, parseKernelBookRow};
}

} // namespace sieve::importing
