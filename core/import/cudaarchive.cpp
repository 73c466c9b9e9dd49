// The AI-CUDA-Engineer archive: a task from PyTorch_Code_Module (named from Level_ID/Task_ID/Op_Name),
// a CUDA sample from CUDA_Code, and the archive's own labels as an external verdict — never ours.
#include "core/import/importformats.h"

namespace sieve::importing {

namespace {

bool looksLikeCudaArchive(const Row &row)
{
    return row.has("CUDA_Code") || row.has("PyTorch_Code_Module");
}

void parseCudaArchiveRow(Row &row, std::vector<Item> &out, std::uint64_t line)
{
    const auto op = row.string("Op_Name", true);
    const auto level = row.integer("Level_ID", true);
    const auto taskId = row.integer("Task_ID", true);
    const auto kernel = row.id("Kernel_Name", true);
    const auto module = row.string("PyTorch_Code_Module", true);
    const auto cuda = row.string("CUDA_Code", true);
    row.string("PyTorch_Code_Functional");
    ExternalVerdict v;
    v.source = "ai-cuda-engineer";
    if (const auto c = row.boolean("Correct"))
        v.correct = *c ? 1 : 0;
    v.maxDiff = row.number("Max_Diff");
    v.runtimeMs = row.number("CUDA_Runtime");
    v.refRuntimeMs = row.number("PyTorch_Native_Runtime");
    v.refCompileRuntimeMs = row.number("PyTorch_Compile_Runtime");
    v.speedupNative = row.number("CUDA_Speedup_Native");
    v.speedupCompile = row.number("CUDA_Speedup_Compile");
    if (const auto e = row.string("Error"))
        v.error = std::string(*e);
    if (module) {
        if (const std::string problem = referenceProblem(*module); !problem.empty())
            row.fail("PyTorch_Code_Module", problem);
    }
    if (row.failed()) {
        out.push_back({line, row.error()});
        return;
    }
    std::string stem(*op);
    const std::string prefix = std::to_string(*taskId) + "_";
    if (stem.rfind(prefix, 0) != 0)
        stem = prefix + stem;
    TaskRecord t;
    t.name = "cuda-archive/level" + std::to_string(*level) + "/" + stem;
    t.userNamed = false;
    t.nameField = "Op_Name";
    t.referenceCode = std::string(*module);
    t.level = *level;
    t.backend = "cuda";
    t.source = "ai-cuda-engineer";
    t.provenanceJson = pickJson(row, {"Op_Name", "Level_ID", "Task_ID", "PyTorch_Code_Functional"});
    t.atol = t.rtol = defaultTolerance(t.dtype);
    finishTask(t);
    const std::string taskName = t.name;
    out.push_back({line, std::move(t)});

    SampleRecord s;
    s.name = *kernel;
    s.taskName = taskName;
    s.backend = "cuda";
    s.origin = "archive";
    s.verdict = std::move(v);
    finishSample(s, *cuda, std::nullopt, std::nullopt);
    out.push_back({line, std::move(s)});
}

} // namespace

RowFormat cudaArchiveRowFormat()
{
    return {ImportFormat::CudaArchive, looksLikeCudaArchive, parseCudaArchiveRow};
}

} // namespace sieve::importing
