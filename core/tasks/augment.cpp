#include "core/tasks/augment.h"

#include "core/db/payload.h"
#include "core/db/unixtime.h"
#include "core/import/importformats.h"
#include "core/util/hashing.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace sieve {

namespace {

nlohmann::json parseValue(const std::string &v, const std::string &text)
{
    if (v == "true" || v == "false")
        return v == "true";
    if (!v.empty() && v.front() == '[') {
        const auto j = nlohmann::json::parse(v, nullptr, false);
        if (!j.is_discarded() && j.is_array() &&
            std::all_of(j.begin(), j.end(), [](const auto &x) { return x.is_number(); }))
            return j;
    } else {
        const auto j = nlohmann::json::parse(v, nullptr, false);
        if (!j.is_discarded() && j.is_number())
            return j;
    }
    throw std::invalid_argument("shape '" + text + "': '" + v + "' is not a number, true/false or a [n, ...] list");
}

bool identifier(const std::string &k)
{
    if (k.empty() || !(std::isalpha(static_cast<unsigned char>(k[0])) || k[0] == '_'))
        return false;
    return std::all_of(k.begin(), k.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string formatDouble(const std::optional<double> &v)
{
    if (!v)
        return "";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", *v);
    return buf;
}

// As the importers key a task (core/import/importcommon.cpp), so a variant equal to an imported task is
// found.
// The parent's reference is keyed (not the variant's with its constants rewritten): a variant keeps the key
// it had before references were rewritten, so augmenting again finds it.
std::string variantKey(const VariantTask &t, const std::string &parentReference)
{
    return hashing::contentKey(
        {"task", parentReference, t.dtype, formatDouble(t.atol), formatDouble(t.rtol), t.shapesJson.value_or("")});
}

std::string shapeLabel(const std::optional<std::string> &shapesJson)
{
    if (!shapesJson)
        return {};
    const auto j = nlohmann::json::parse(*shapesJson);
    std::string out;
    for (const auto &shape : j) {
        if (!out.empty())
            out += ";";
        bool first = true;
        for (auto it = shape.begin(); it != shape.end(); ++it) {
            out += (first ? "" : ",") + it.key() + "=" + it.value().dump();
            first = false;
        }
    }
    return out;
}

// A shape value as a Python literal; `tupleStyle`: a list written as a tuple, as the original was.
std::string pythonLiteral(const nlohmann::json &v, bool tupleStyle)
{
    if (v.is_boolean())
        return v.get<bool>() ? "True" : "False";
    if (!v.is_array())
        return v.dump();
    std::string out;
    for (const auto &x : v)
        out += (out.empty() ? "" : ", ") + x.dump();
    if (tupleStyle)
        return "(" + out + (v.size() == 1 ? ",)" : ")");
    return "[" + out + "]";
}

} // namespace

std::string withShapeConstants(const std::string &reference, const std::string &shapesJson)
{
    const auto shapes = nlohmann::json::parse(shapesJson, nullptr, false);
    if (!shapes.is_array() || shapes.empty() || !shapes[0].is_object())
        return reference;
    const nlohmann::json &shape = shapes[0];
    std::string out;
    std::size_t pos = 0;
    while (pos < reference.size()) {
        std::size_t end = reference.find('\n', pos);
        const bool newline = end != std::string::npos;
        end = newline ? end : reference.size();
        const std::string line = reference.substr(pos, end - pos);
        pos = end + 1;
        // NAME = VALUE (or NAME: TYPE = VALUE) at module level, for a NAME the shape sets.
        std::size_t n = 0;
        while (n < line.size() && (std::isalnum(static_cast<unsigned char>(line[n])) || line[n] == '_'))
            ++n;
        const std::string name = line.substr(0, n);
        const std::size_t after = line.find_first_not_of(" \t", n);
        const std::size_t eq = line.find('=', n);
        const bool assignment = n > 0 && !std::isdigit(static_cast<unsigned char>(line[0])) && shape.contains(name) &&
                                after != std::string::npos && (line[after] == '=' || line[after] == ':') &&
                                eq != std::string::npos && (eq + 1 >= line.size() || line[eq + 1] != '=');
        if (!assignment) {
            out += line;
        } else {
            const std::size_t valueStart = line.find_first_not_of(" \t", eq + 1);
            const bool tuple = valueStart != std::string::npos && line[valueStart] == '(';
            const std::size_t hash = line.find('#', eq);
            out += line.substr(0, eq + 1) + " " + pythonLiteral(shape[name], tuple);
            if (hash != std::string::npos)
                out += "  " + line.substr(hash);
        }
        if (newline)
            out += '\n';
    }
    return out;
}

std::string parseShapeSet(const std::string &text)
{
    nlohmann::json shapes = nlohmann::json::array();
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        const std::string part = text.substr(start, end - start);
        nlohmann::json shape = nlohmann::json::object();
        std::size_t p = 0;
        while (p < part.size()) {
            const std::size_t eq = part.find('=', p);
            if (eq == std::string::npos)
                throw std::invalid_argument("shape '" + text + "': expected NAME=VALUE at '" + part.substr(p) + "'");
            std::size_t next = eq + 1;
            if (next < part.size() && part[next] == '[')
                next = part.find(']', next) == std::string::npos ? part.size() : part.find(']', next) + 1;
            next = std::min(part.find(',', next), part.size());
            std::string key = part.substr(p, eq - p);
            key.erase(0, key.find_first_not_of(' '));
            key.erase(key.find_last_not_of(' ') + 1);
            if (!identifier(key))
                throw std::invalid_argument("shape '" + text + "': '" + key + "' is not a Python identifier");
            shape[key] = parseValue(part.substr(eq + 1, next - eq - 1), text);
            p = next + 1;
        }
        if (shape.empty())
            throw std::invalid_argument("shape '" + text + "': empty");
        shapes.push_back(std::move(shape));
        start = end + 1;
    }
    return shapes.dump();
}

std::vector<VariantSpec> variantSpecs(const std::vector<std::string> &shapeSets, const std::vector<std::string> &dtypes,
                                      bool grid)
{
    std::vector<std::string> shapes;
    for (const std::string &s : shapeSets)
        shapes.push_back(parseShapeSet(s));
    std::vector<std::string> types;
    for (const std::string &d : dtypes) {
        const auto n = importing::normaliseDtype(d);
        if (!n)
            throw std::invalid_argument("dtype '" + d + "' is not fp32, fp16, bf16 or fp64");
        types.push_back(*n);
    }
    std::vector<VariantSpec> out;
    if (grid) {
        for (const auto &s : shapes.empty() ? std::vector<std::string>{""} : shapes)
            for (const auto &d : types.empty() ? std::vector<std::string>{""} : types)
                out.push_back(
                    {s.empty() ? std::nullopt : std::optional(s), d.empty() ? std::nullopt : std::optional(d)});
    } else {
        for (const auto &s : shapes)
            out.push_back({s, std::nullopt});
        for (const auto &d : types)
            out.push_back({std::nullopt, d});
    }
    return out;
}

std::vector<VariantOutcome> augmentTask(Corpus &corpus, const std::string &parentName,
                                        const std::vector<VariantSpec> &specs, const VariantCheck &check)
{
    db::Database &db = corpus.db();
    db::Statement st = db.prepare(
        "SELECT t.id, t.task_key, t.level, t.category, t.backend, t.target, t.dtype, t.atol, t.rtol, t.shapes_json, "
        "t.source, t.license, t.provenance_json, p.reference_code FROM tasks t LEFT JOIN task_payloads p "
        "ON p.task_id=t.id WHERE t.name=?1");
    st.bind(1, parentName);
    if (!st.step())
        throw std::runtime_error("no task named '" + parentName + "' in the corpus");
    if (st.isNull(13))
        throw std::runtime_error("task '" + parentName + "' has no reference code to make variants of");
    const std::string parentKey = st.text(1), parentDtype = st.text(6);
    const auto parentAtol = st.optReal(7), parentRtol = st.optReal(8);
    const std::optional<std::string> parentShapes = st.isNull(9) ? std::nullopt : std::optional(st.text(9));
    std::string familyKey = parentKey;
    if (!st.isNull(12)) {
        const auto prov = nlohmann::json::parse(st.text(12), nullptr, false);
        if (prov.is_object() && prov.contains("variant_of") && prov["variant_of"].is_string())
            familyKey = prov["variant_of"].get<std::string>();
    }
    const std::string reference = payload::unpack(st.blob(13));
    struct Copy
    {
        std::optional<std::int64_t> level;
        std::optional<std::string> category, target, source, license;
        std::string backend;
    } parent{st.optInt64(2),
             st.isNull(3) ? std::nullopt : std::optional(st.text(3)),
             st.isNull(5) ? std::nullopt : std::optional(st.text(5)),
             st.isNull(10) ? std::nullopt : std::optional(st.text(10)),
             st.isNull(11) ? std::nullopt : std::optional(st.text(11)),
             st.text(4)};
    st.reset();

    std::vector<VariantOutcome> out;
    for (const VariantSpec &spec : specs) {
        VariantOutcome o;
        VariantTask &v = o.task;
        v.parentName = parentName;
        v.familyKey = familyKey;
        // The prompt shows the reference: with the variant's own constants, not the parent's.
        v.referenceCode = spec.shapesJson ? withShapeConstants(reference, *spec.shapesJson) : reference;
        v.dtype = spec.dtype.value_or(parentDtype);
        v.shapesJson = spec.shapesJson ? spec.shapesJson : parentShapes;
        // Tolerances follow the dtype: the parent's when it is unchanged, the import default otherwise.
        if (v.dtype == parentDtype) {
            v.atol = parentAtol;
            v.rtol = parentRtol;
        } else {
            v.atol = v.rtol = importing::defaultTolerance(v.dtype);
        }
        v.key = variantKey(v, reference);
        std::string label = shapeLabel(spec.shapesJson);
        if (spec.dtype)
            label += (label.empty() ? "" : "/") + v.dtype;
        v.name = parentName + "@" + (label.empty() ? "same" : label);
        {
            db::Statement exists = db.prepare("SELECT id FROM tasks WHERE task_key=?1");
            exists.bind(1, v.key);
            if (exists.step()) {
                o.state = "exists";
                o.taskId = exists.int64(0);
                out.push_back(std::move(o));
                continue;
            }
        }
        o.message = check ? check(v) : std::string();
        if (!o.message.empty()) {
            o.state = "failed";
            out.push_back(std::move(o));
            continue;
        }
        nlohmann::json prov = {{"variant_of", familyKey}, {"parent", parentName}, {"dtype", v.dtype}};
        prov["shapes"] = v.shapesJson ? nlohmann::json::parse(*v.shapesJson) : nlohmann::json();
        if (spec.generatorJson)
            prov["generator"] = nlohmann::json::parse(*spec.generatorJson);
        db::Transaction tx(db);
        db.prepare(
              "INSERT INTO tasks(task_key, name, level, category, backend, target, dtype, atol, rtol, shapes_json, "
              "source, license, provenance_json, created_at) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)")
            .bind(1, v.key)
            .bind(2, v.name)
            .bind(3, parent.level)
            .bind(4, parent.category)
            .bind(5, parent.backend)
            .bind(6, parent.target)
            .bind(7, v.dtype)
            .bind(8, v.atol)
            .bind(9, v.rtol)
            .bind(10, v.shapesJson)
            .bind(11, parent.source)
            .bind(12, parent.license)
            .bind(13, prov.dump())
            .bind(14, unixNow())
            .run();
        o.taskId = db.lastInsertId();
        db.prepare("INSERT INTO task_payloads(task_id, reference_code) VALUES(?1, ?2)")
            .bind(1, *o.taskId)
            .bindBlob(2, payload::pack(v.referenceCode))
            .run();
        tx.commit();
        o.state = "created";
        out.push_back(std::move(o));
    }
    return out;
}

int variantsProposedBy(const db::Database &db, const std::string &parentName, const std::string &by)
{
    db::Statement st = db.prepare("SELECT count(*) FROM tasks WHERE json_valid(provenance_json) AND "
                                  "json_extract(provenance_json, '$.parent') = ?1 AND "
                                  "json_extract(provenance_json, '$.generator.by') = ?2");
    st.bind(1, parentName);
    st.bind(2, by);
    st.step();
    return static_cast<int>(st.int64(0));
}

std::map<std::int64_t, std::string> taskFamilies(const db::Database &db)
{
    std::map<std::string, std::string> nameByKey;
    std::map<std::int64_t, std::string> familyKey;
    db::Statement st = db.prepare("SELECT id, task_key, name, CASE WHEN json_valid(provenance_json) THEN "
                                  "json_extract(provenance_json, '$.variant_of') END FROM tasks");
    std::map<std::int64_t, std::string> names;
    while (st.step()) {
        nameByKey[st.text(1)] = st.text(2);
        names[st.int64(0)] = st.text(2);
        familyKey[st.int64(0)] = st.isNull(3) ? st.text(1) : st.text(3);
    }
    std::map<std::int64_t, std::string> out;
    for (const auto &[id, key] : familyKey) {
        const auto root = nameByKey.find(key);
        out[id] = root != nameByKey.end() ? root->second : names[id]; // a root no longer in the corpus: itself
    }
    return out;
}

} // namespace sieve
