// Sieve's own JSONL: task rows (they carry reference_code) and sample rows, in one file or several.
#include "core/import/importformats.h"

#include <cctype>

namespace sieve::importing {

namespace {

bool isIdentifier(std::string_view s)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            return false;
    return true;
}

// shapes: [{"M": 7, "N": 1000}, ...] overriding module-level constants; values are numbers, booleans or
// (nested) lists of numbers, as KernelBench constants are.
bool validShapeValue(simdjson::dom::element v)
{
    using simdjson::dom::element_type;
    switch (v.type()) {
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE:
    case element_type::BOOL:
        return true;
    case element_type::ARRAY: {
        simdjson::dom::array arr;
        if (v.get(arr))
            return false;
        for (simdjson::dom::element x : arr)
            if (!validShapeValue(x))
                return false;
        return true;
    }
    default:
        return false;
    }
}

std::optional<std::string> readShapes(Row &row)
{
    const auto e = row.element("shapes");
    if (!e)
        return std::nullopt;
    simdjson::dom::array arr;
    if (e->get(arr)) {
        row.fail("shapes", std::string("expected a list of objects, got ") + typeName(*e));
        return std::nullopt;
    }
    std::size_t i = 0;
    for (simdjson::dom::element entry : arr) {
        simdjson::dom::object obj;
        if (entry.get(obj)) {
            row.fail("shapes", "entry " + std::to_string(i) + ": expected an object, got " + typeName(entry));
            return std::nullopt;
        }
        if (obj.size() == 0) {
            row.fail("shapes", "entry " + std::to_string(i) + ": empty object");
            return std::nullopt;
        }
        for (auto field : obj) {
            if (!isIdentifier(field.key)) {
                row.fail("shapes", "entry " + std::to_string(i) + ": '" + std::string(field.key) +
                                       "' is not a Python identifier");
                return std::nullopt;
            }
            if (!validShapeValue(field.value)) {
                row.fail("shapes", "entry " + std::to_string(i) + ": '" + std::string(field.key) +
                                       "' must be a number, a boolean or a list of numbers, got " +
                                       typeName(field.value));
                return std::nullopt;
            }
        }
        ++i;
    }
    if (i == 0) {
        row.fail("shapes", "empty list (leave the field out to use the module's own constants)");
        return std::nullopt;
    }
    return simdjson::minify(*e);
}

std::optional<std::string> optString(Row &row, std::string_view key)
{
    const auto s = row.string(key);
    return s ? std::optional<std::string>(std::string(*s)) : std::nullopt;
}

void parseTask(Row &row, std::vector<Item> &out, std::uint64_t line)
{
    TaskRecord t;
    t.userNamed = true;
    t.nameField = "task_id";
    const auto name = row.id("task_id", true);
    const auto code = row.string("reference_code", true);
    if (code) {
        if (const std::string problem = referenceProblem(*code); !problem.empty())
            row.fail("reference_code", problem);
    }
    if (const auto dtype = row.string("dtype")) {
        const auto norm = normaliseDtype(*dtype);
        if (!norm)
            row.fail("dtype", "unknown dtype '" + std::string(*dtype) + "' (expected fp32, fp16, bf16 or fp64)");
        else
            t.dtype = *norm;
    }
    t.atol = row.number("atol");
    t.rtol = row.number("rtol");
    if ((t.atol && *t.atol < 0))
        row.fail("atol", "must not be negative");
    if ((t.rtol && *t.rtol < 0))
        row.fail("rtol", "must not be negative");
    t.level = row.integer("level");
    if (t.level && *t.level < 0)
        row.fail("level", "must not be negative");
    t.category = optString(row, "category");
    if (const auto backend = row.string("backend")) {
        if (*backend != "triton" && *backend != "cuda" && *backend != "nki")
            row.fail("backend", "unknown backend '" + std::string(*backend) + "' (expected triton, cuda or nki)");
        t.backend = std::string(*backend);
    }
    t.target = optString(row, "target");
    t.shapesJson = readShapes(row);
    t.source = optString(row, "source");
    t.license = optString(row, "license");
    if (const auto prov = row.element("provenance")) {
        if (!prov->is_object())
            row.fail("provenance", std::string("expected an object, got ") + typeName(*prov));
        else
            t.provenanceJson = simdjson::minify(*prov);
    }
    if (row.failed()) {
        out.push_back({line, row.error()});
        return;
    }
    t.name = *name;
    t.referenceCode = std::string(*code);
    if (!t.atol)
        t.atol = defaultTolerance(t.dtype);
    if (!t.rtol)
        t.rtol = defaultTolerance(t.dtype);
    finishTask(t);
    out.push_back({line, std::move(t)});
}

void parseSample(Row &row, std::vector<Item> &out, std::uint64_t line)
{
    SampleRecord s;
    s.userNamed = true;
    const auto name = row.id("sample_id", true);
    const auto task = row.id("task_id", true);
    const auto code = row.string("code");
    std::optional<std::string_view> response;
    std::string responseJson;
    if (const auto e = row.element("response")) {
        std::string_view text;
        if (!e->get(text)) {
            response = text;
        } else if (e->is_object()) {
            responseJson = simdjson::minify(*e);
            response = responseJson;
        } else {
            row.fail("response", std::string("expected a string or an OpenAI response object, got ") + typeName(*e));
        }
    }
    const auto reasoning = row.string("reasoning");
    s.model = optString(row, "model");
    s.temperature = row.number("temperature");
    if (s.temperature && *s.temperature < 0)
        row.fail("temperature", "must not be negative");
    s.attempt = row.integer("attempt");
    if (s.attempt && *s.attempt < 0)
        row.fail("attempt", "must not be negative");
    if (const auto backend = row.string("backend")) {
        if (*backend != "triton" && *backend != "cuda" && *backend != "nki")
            row.fail("backend", "unknown backend '" + std::string(*backend) + "' (expected triton, cuda or nki)");
        s.backend = std::string(*backend);
    }
    s.origin = optString(row, "origin").value_or("teacher");
    if (!row.failed() && !code && !response)
        row.fail("code", "a sample row needs 'code' or 'response'");
    if (row.failed()) {
        out.push_back({line, row.error()});
        return;
    }
    s.name = *name;
    s.taskName = *task;
    finishSample(s, code, response, reasoning);
    out.push_back({line, std::move(s)});
}

bool looksLikeSieve(const Row &row)
{
    return row.has("task_id") || row.has("sample_id") || row.has("reference_code");
}

void parseSieve(Row &row, std::vector<Item> &out, std::uint64_t line)
{
    if (row.has("reference_code"))
        parseTask(row, out, line);
    else
        parseSample(row, out, line);
}

} // namespace

RowFormat sieveRowFormat()
{
    return {ImportFormat::Sieve, looksLikeSieve, parseSieve};
}

} // namespace sieve::importing
