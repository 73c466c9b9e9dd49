// Helpers shared by the format parsers: keys, dtype defaults, payload packing and answer extraction.
#include "core/db/payload.h"
#include "core/import/importformats.h"
#include "core/prompt/answer.h"
#include "core/util/hashing.h"

#include <cstdio>

namespace sieve::importing {

std::string formatDouble(std::optional<double> v)
{
    if (!v)
        return {};
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", *v);
    return buf;
}

std::string taskKey(const TaskRecord &t)
{
    return hashing::contentKey(
        {"task", t.referenceCode, t.dtype, formatDouble(t.atol), formatDouble(t.rtol), t.shapesJson.value_or("")});
}

std::optional<std::string> normaliseDtype(std::string_view d)
{
    if (d == "fp32" || d == "float32" || d == "float")
        return "fp32";
    if (d == "fp16" || d == "float16" || d == "half")
        return "fp16";
    if (d == "bf16" || d == "bfloat16")
        return "bf16";
    if (d == "fp64" || d == "float64" || d == "double")
        return "fp64";
    return std::nullopt;
}

// KernelBench's tolerances: 1e-4 for fp32 (and fp64), 1e-2 for the half types.
double defaultTolerance(std::string_view dtype)
{
    return (dtype == "fp16" || dtype == "bf16") ? 1e-2 : 1e-4;
}

std::string referenceProblem(std::string_view code, std::string_view className)
{
    if (!answer::definesClass(code, className))
        return "does not define class " + std::string(className) + "(nn.Module)";
    if (code.find("def get_inputs") == std::string_view::npos)
        return "does not define get_inputs()";
    return {};
}

void finishTask(TaskRecord &t)
{
    t.key = taskKey(t);
}

void finishSample(SampleRecord &s, std::optional<std::string_view> code, std::optional<std::string_view> response,
                  std::optional<std::string_view> reasoning)
{
    answer::Extracted extracted;
    if (!code && response) {
        extracted = answer::extract(*response);
        if (extracted.hasAnswer)
            code = extracted.code;
        if (!reasoning && !extracted.reasoning.empty())
            reasoning = extracted.reasoning;
    }
    const bool codeGiven = code && code->find_first_not_of(" \t\r\n") != std::string_view::npos;
    s.hasAnswer = codeGiven;
    if (codeGiven) {
        s.code = std::string(*code);
        s.codeHash = hashing::contentKey({*code});
        s.codeBytes = static_cast<std::int64_t>(code->size());
    }
    if (response)
        s.response = std::string(*response);
    if (reasoning && !reasoning->empty())
        s.reasoning = std::string(*reasoning);
    s.contentKey = hashing::contentKey(
        {"sample", s.origin, s.name, code.value_or(std::string_view{}), response.value_or(std::string_view{})});
}

void packPayloads(Batch &batch, std::uint32_t dictionary, payload::Codec codec)
{
    auto pack = [dictionary, codec](std::optional<std::string> &text) {
        if (text)
            text = payload::pack(*text, dictionary, codec);
    };
    for (Item &item : batch.items) {
        if (auto *t = std::get_if<TaskRecord>(&item.value)) {
            t->packedReference = payload::pack(t->referenceCode, dictionary, codec);
        } else if (auto *s = std::get_if<SampleRecord>(&item.value)) {
            pack(s->code);
            pack(s->reasoning);
            pack(s->response);
        }
    }
    batch.packed = true;
}

} // namespace sieve::importing
