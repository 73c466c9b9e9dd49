#include "gpu/cuda/cudasourcemanifest.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <regex>
#include <set>

namespace sieve::gpu {

using json = nlohmann::ordered_json; // constants are evaluated in the order written

std::optional<ElemType> elemTypeFromName(const std::string &name)
{
    static const std::map<std::string, ElemType> names{
        {"fp32", ElemType::F32},    {"f32", ElemType::F32},       {"float32", ElemType::F32}, {"float", ElemType::F32},
        {"fp16", ElemType::F16},    {"f16", ElemType::F16},       {"float16", ElemType::F16}, {"half", ElemType::F16},
        {"bf16", ElemType::BF16},   {"bfloat16", ElemType::BF16}, {"fp64", ElemType::F64},    {"f64", ElemType::F64},
        {"float64", ElemType::F64}, {"double", ElemType::F64},    {"i32", ElemType::I32},     {"int32", ElemType::I32},
        {"int", ElemType::I32},     {"i64", ElemType::I64},       {"int64", ElemType::I64},   {"u8", ElemType::U8},
        {"uint8", ElemType::U8},    {"bool", ElemType::U8}};
    auto it = names.find(name);
    return it == names.end() ? std::nullopt : std::optional<ElemType>(it->second);
}

const char *elemTypeName(ElemType t)
{
    switch (t) {
    case ElemType::F32:
        return "fp32";
    case ElemType::F16:
        return "fp16";
    case ElemType::BF16:
        return "bf16";
    case ElemType::F64:
        return "fp64";
    case ElemType::I32:
        return "i32";
    case ElemType::I64:
        return "i64";
    case ElemType::U8:
        return "u8";
    }
    return "?";
}

std::size_t elemSize(ElemType t)
{
    switch (t) {
    case ElemType::F16:
    case ElemType::BF16:
        return 2;
    case ElemType::F64:
    case ElemType::I64:
        return 8;
    case ElemType::U8:
        return 1;
    default:
        return 4;
    }
}

// ---- integer expressions -------------------------------------------------------------------------

namespace {

class ExprParser
{
public:
    // lookup == nullptr: syntax and symbol check only (known symbols evaluate to a placeholder).
    ExprParser(const std::string &text, const Symbols &symbols, const std::set<std::string> *known,
               const std::string &field)
        : m_s(text), m_symbols(symbols), m_known(known), m_field(field)
    {
    }

    std::int64_t parse()
    {
        const std::int64_t v = sum();
        skip();
        if (m_i != m_s.size())
            fail("unexpected '" + m_s.substr(m_i, 1) + "' at position " + std::to_string(m_i + 1));
        return v;
    }

private:
    [[noreturn]] void fail(const std::string &why) const
    {
        throw ManifestError(m_field, "expression '" + m_s + "': " + why);
    }
    void skip()
    {
        while (m_i < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_i])))
            ++m_i;
    }
    bool eat(char c)
    {
        skip();
        if (m_i < m_s.size() && m_s[m_i] == c) {
            ++m_i;
            return true;
        }
        return false;
    }
    static std::int64_t floorDiv(std::int64_t a, std::int64_t b)
    {
        std::int64_t q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    std::int64_t sum()
    {
        std::int64_t v = product();
        for (;;) {
            if (eat('+'))
                v += product();
            else if (eat('-'))
                v -= product();
            else
                return v;
        }
    }
    std::int64_t product()
    {
        std::int64_t v = unary();
        for (;;) {
            skip();
            if (m_s.compare(m_i, 2, "//") == 0) {
                m_i += 2;
                v = divide(v, unary(), false);
            } else if (eat('*')) {
                v *= unary();
            } else if (eat('/')) {
                v = divide(v, unary(), false);
            } else if (eat('%')) {
                v = divide(v, unary(), true);
            } else {
                return v;
            }
        }
    }
    std::int64_t divide(std::int64_t a, std::int64_t b, bool modulo)
    {
        if (b == 0) {
            if (!m_known)
                fail("division by zero");
            return 1; // checking only: the symbol values are placeholders
        }
        return modulo ? a - floorDiv(a, b) * b : floorDiv(a, b);
    }
    std::int64_t unary()
    {
        if (eat('-'))
            return -unary();
        if (eat('+'))
            return unary();
        return atom();
    }
    std::int64_t atom()
    {
        skip();
        if (eat('(')) {
            const std::int64_t v = sum();
            if (!eat(')'))
                fail("missing ')'");
            return v;
        }
        if (m_i < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_i]))) {
            std::size_t start = m_i;
            while (m_i < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_i])))
                ++m_i;
            return std::stoll(m_s.substr(start, m_i - start));
        }
        std::size_t start = m_i;
        while (m_i < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_i])) || m_s[m_i] == '_' ||
                                    m_s[m_i] == '.' || m_s[m_i] == '[' || m_s[m_i] == ']'))
            ++m_i;
        const std::string name = m_s.substr(start, m_i - start);
        if (name.empty())
            fail(m_i < m_s.size() ? "unexpected '" + m_s.substr(m_i, 1) + "'" : "unexpected end");
        if (name == "min" || name == "max" || name == "ceil_div") {
            if (!eat('('))
                fail(name + " needs two arguments in parentheses");
            const std::int64_t a = sum();
            if (!eat(','))
                fail(name + " needs two arguments");
            const std::int64_t b = sum();
            if (!eat(')'))
                fail("missing ')' after " + name + "(...)");
            if (name == "min")
                return std::min(a, b);
            if (name == "max")
                return std::max(a, b);
            if (b == 0)
                return divide(a, b, false);
            return floorDiv(a + b - 1, b);
        }
        if (m_known) {
            if (!m_known->count(name))
                fail("unknown symbol '" + name + "'");
            return 7;
        }
        auto it = m_symbols.find(name);
        if (it == m_symbols.end())
            fail("unknown symbol '" + name + "'");
        return it->second;
    }

    const std::string &m_s;
    const Symbols &m_symbols;
    const std::set<std::string> *m_known;
    std::string m_field;
    std::size_t m_i = 0;
};

void checkExpr(const std::string &expr, const std::set<std::string> &known, const std::string &field)
{
    static const Symbols none;
    ExprParser(expr, none, &known, field).parse();
}

std::string exprOf(const json &v, const std::string &field)
{
    if (v.is_number_integer())
        return std::to_string(v.get<std::int64_t>());
    if (v.is_string())
        return v.get<std::string>();
    throw ManifestError(field, "expected an integer or an expression string");
}

const json &require(const json &obj, const char *key, const std::string &path)
{
    if (!obj.contains(key))
        throw ManifestError(path + "." + key, "missing");
    return obj.at(key);
}

void onlyKeys(const json &obj, std::initializer_list<const char *> keys, const std::string &path)
{
    for (const auto &[k, v] : obj.items()) {
        bool ok = false;
        for (const char *allowed : keys)
            ok |= k == allowed;
        if (!ok)
            throw ManifestError(path + "." + k, "unknown field");
    }
}

std::vector<std::string> dims(const json &v, const std::string &field)
{
    if (!v.is_array() || v.empty() || v.size() > 3)
        throw ManifestError(field, "expected an array of 1 to 3 expressions");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(exprOf(v[i], field + "[" + std::to_string(i) + "]"));
    return out;
}

} // namespace

std::int64_t evalExpr(const std::string &expr, const Symbols &symbols, const std::string &field)
{
    return ExprParser(expr, symbols, nullptr, field).parse();
}

// ---- parsing --------------------------------------------------------------------------------------

LaunchManifest parseManifest(const std::string &text)
{
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error &e) {
        throw ManifestError("manifest", std::string("not valid JSON: ") + e.what());
    }
    if (!j.is_object())
        throw ManifestError("manifest", "expected a JSON object");
    onlyKeys(j, {"format", "inputs", "outputs", "constants", "launches"}, "manifest");
    const json &format = require(j, "format", "manifest");
    if (format != "sieve-raw-cuda/1")
        throw ManifestError("manifest.format", "expected \"sieve-raw-cuda/1\", got " + format.dump());

    LaunchManifest m;
    const json &inputs = require(j, "inputs", "manifest");
    if (!inputs.is_array())
        throw ManifestError("manifest.inputs", "expected an array of names");
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i].is_string() || inputs[i].get<std::string>().empty())
            throw ManifestError("inputs[" + std::to_string(i) + "]", "expected a name");
        m.inputs.push_back(inputs[i]);
    }
    const json &outputs = require(j, "outputs", "manifest");
    if (!outputs.is_array() || outputs.empty())
        throw ManifestError("manifest.outputs", "expected a non-empty array");
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string path = "outputs[" + std::to_string(i) + "]";
        const json &o = outputs[i];
        if (!o.is_object())
            throw ManifestError(path, "expected an object with name, shape and dtype");
        onlyKeys(o, {"name", "shape", "dtype"}, path);
        TensorSpec t;
        if (!require(o, "name", path).is_string())
            throw ManifestError(path + ".name", "expected a string");
        t.name = o["name"];
        const json &shape = require(o, "shape", path);
        if (!shape.is_array())
            throw ManifestError(path + ".shape", "expected an array of expressions");
        for (std::size_t d = 0; d < shape.size(); ++d)
            t.shape.push_back(exprOf(shape[d], path + ".shape[" + std::to_string(d) + "]"));
        const std::string dtype = o.value("dtype", std::string("fp32"));
        auto type = elemTypeFromName(dtype);
        if (!type)
            throw ManifestError(path + ".dtype", "unknown dtype '" + dtype + "'");
        t.dtype = *type;
        m.outputs.push_back(t);
    }
    if (j.contains("constants")) {
        if (!j["constants"].is_object())
            throw ManifestError("manifest.constants", "expected an object of name: expression");
        for (const auto &[k, v] : j["constants"].items())
            m.constants.emplace_back(k, exprOf(v, "constants." + k));
    }
    const json &launches = require(j, "launches", "manifest");
    if (!launches.is_array() || launches.empty())
        throw ManifestError("manifest.launches", "expected a non-empty array");
    for (std::size_t i = 0; i < launches.size(); ++i) {
        const std::string path = "launches[" + std::to_string(i) + "]";
        const json &l = launches[i];
        if (!l.is_object())
            throw ManifestError(path, "expected an object");
        onlyKeys(l, {"kernel", "grid", "block", "shared_bytes", "args"}, path);
        Launch launch;
        if (!require(l, "kernel", path).is_string())
            throw ManifestError(path + ".kernel", "expected a kernel name");
        launch.kernel = l["kernel"];
        launch.grid = dims(require(l, "grid", path), path + ".grid");
        launch.block = dims(require(l, "block", path), path + ".block");
        if (l.contains("shared_bytes"))
            launch.sharedBytes = exprOf(l["shared_bytes"], path + ".shared_bytes");
        const json &args = require(l, "args", path);
        if (!args.is_array())
            throw ManifestError(path + ".args", "expected an array");
        for (std::size_t a = 0; a < args.size(); ++a) {
            const std::string ap = path + ".args[" + std::to_string(a) + "]";
            const json &arg = args[a];
            if (!arg.is_object())
                throw ManifestError(
                    ap, "expected {\"input\": name}, {\"output\": name} or {\"scalar\": expr, \"type\": t}");
            onlyKeys(arg, {"input", "output", "scalar", "type"}, ap);
            ArgBinding b;
            const int kinds = arg.contains("input") + arg.contains("output") + arg.contains("scalar");
            if (kinds != 1)
                throw ManifestError(ap, "needs exactly one of input, output, scalar");
            if (arg.contains("input") || arg.contains("output")) {
                const char *key = arg.contains("input") ? "input" : "output";
                b.kind = arg.contains("input") ? ArgBinding::Kind::Input : ArgBinding::Kind::Output;
                if (!arg[key].is_string())
                    throw ManifestError(ap + "." + key, "expected a name");
                b.name = arg[key];
                if (arg.contains("type"))
                    throw ManifestError(ap + ".type", "only scalars take a type (tensors have their own dtype)");
            } else {
                b.kind = ArgBinding::Kind::Scalar;
                const json &s = arg["scalar"];
                if (s.is_number())
                    b.literal = s.get<double>();
                else
                    b.expr = exprOf(s, ap + ".scalar");
                const std::string type = require(arg, "type", ap);
                auto t = elemTypeFromName(type);
                if (!t || (*t != ElemType::I32 && *t != ElemType::I64 && *t != ElemType::F32 && *t != ElemType::F64))
                    throw ManifestError(ap + ".type", "expected i32, i64, f32 or f64, got '" + type + "'");
                b.type = *t;
            }
            launch.args.push_back(b);
        }
        m.launches.push_back(launch);
    }
    return m;
}

std::optional<std::string> embeddedManifest(const std::string &cu)
{
    const std::size_t tag = cu.find("sieve:launch");
    if (tag == std::string::npos)
        return std::nullopt;
    const std::size_t open = cu.rfind("/*", tag);
    const std::size_t close = cu.find("*/", tag);
    if (open == std::string::npos || close == std::string::npos)
        return std::nullopt;
    return cu.substr(tag + 12, close - tag - 12);
}

// ---- PTX signatures and validation ------------------------------------------------------------------

std::vector<PtxEntry> ptxEntries(const std::string &ptx)
{
    static const std::regex entry(R"(\.entry\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\))");
    static const std::regex type(R"(\.([usbf](8|16|32|64))\b)");
    static const std::regex array(R"(\[(\d+)\]\s*$)");
    std::vector<PtxEntry> out;
    for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), entry); it != std::sregex_iterator(); ++it) {
        PtxEntry e{(*it)[1], {}};
        const std::string params = (*it)[2];
        std::size_t start = 0;
        while (start < params.size()) {
            std::size_t end = params.find(',', start);
            if (end == std::string::npos)
                end = params.size();
            const std::string p = params.substr(start, end - start);
            std::smatch m, a;
            if (std::regex_search(p, m, type)) {
                std::string t = "." + m[1].str();
                if (std::regex_search(p, a, array))
                    t += "[" + a[1].str() + "]";
                e.params.push_back(t);
            }
            start = end + 1;
        }
        out.push_back(e);
    }
    return out;
}

namespace {

bool compatible(const ArgBinding &b, const std::string &ptxType)
{
    if (ptxType.find('[') != std::string::npos)
        return false; // struct or array by value: not expressible in a manifest
    if (b.kind != ArgBinding::Kind::Scalar)
        return ptxType == ".u64" || ptxType == ".b64" || ptxType == ".s64";
    switch (b.type) {
    case ElemType::I32:
        return ptxType == ".u32" || ptxType == ".s32" || ptxType == ".b32";
    case ElemType::I64:
        return ptxType == ".u64" || ptxType == ".s64" || ptxType == ".b64";
    case ElemType::F32:
        return ptxType == ".f32" || ptxType == ".b32";
    case ElemType::F64:
        return ptxType == ".f64" || ptxType == ".b64";
    default:
        return false;
    }
}

std::string describe(const ArgBinding &b)
{
    switch (b.kind) {
    case ArgBinding::Kind::Input:
        return "input '" + b.name + "' (a pointer)";
    case ArgBinding::Kind::Output:
        return "output '" + b.name + "' (a pointer)";
    case ArgBinding::Kind::Scalar:
        return std::string("a scalar of type ") + elemTypeName(b.type);
    }
    return "?";
}

} // namespace

void validateManifest(const LaunchManifest &m, const std::vector<PtxEntry> &entries,
                      std::optional<std::size_t> taskInputs)
{
    if (taskInputs && m.inputs.size() != *taskInputs)
        throw ManifestError("inputs", "lists " + std::to_string(m.inputs.size()) +
                                          " inputs but the task's get_inputs() returns " + std::to_string(*taskInputs));
    std::set<std::string> names;
    for (const auto &n : m.inputs)
        if (!names.insert(n).second)
            throw ManifestError("inputs", "duplicate name '" + n + "'");
    std::set<std::string> outputs;
    for (std::size_t i = 0; i < m.outputs.size(); ++i)
        if (names.count(m.outputs[i].name) || !outputs.insert(m.outputs[i].name).second)
            throw ManifestError("outputs[" + std::to_string(i) + "].name",
                                "duplicate name '" + m.outputs[i].name + "'");

    // Symbols an expression may use before any shape is known.
    std::set<std::string> known;
    for (const auto &n : m.inputs) {
        known.insert(n + ".numel");
        known.insert(n + ".ndim");
        for (int d = 0; d < 8; ++d)
            known.insert(n + ".shape[" + std::to_string(d) + "]");
    }
    for (const auto &[name, expr] : m.constants) {
        checkExpr(expr, known, "constants." + name);
        known.insert(name);
    }
    for (std::size_t i = 0; i < m.outputs.size(); ++i)
        for (std::size_t d = 0; d < m.outputs[i].shape.size(); ++d)
            checkExpr(m.outputs[i].shape[d], known,
                      "outputs[" + std::to_string(i) + "].shape[" + std::to_string(d) + "]");

    std::string entryList;
    for (const auto &e : entries)
        entryList += (entryList.empty() ? "" : ", ") + e.name;
    for (std::size_t i = 0; i < m.launches.size(); ++i) {
        const Launch &l = m.launches[i];
        const std::string path = "launches[" + std::to_string(i) + "]";
        const PtxEntry *entry = nullptr;
        for (const auto &e : entries)
            if (e.name == l.kernel)
                entry = &e;
        if (!entry)
            throw ManifestError(path + ".kernel",
                                "no extern \"C\" __global__ function '" + l.kernel +
                                    "' in the source (kernels: " + (entryList.empty() ? "none" : entryList) + ")");
        for (std::size_t d = 0; d < l.grid.size(); ++d)
            checkExpr(l.grid[d], known, path + ".grid[" + std::to_string(d) + "]");
        for (std::size_t d = 0; d < l.block.size(); ++d)
            checkExpr(l.block[d], known, path + ".block[" + std::to_string(d) + "]");
        checkExpr(l.sharedBytes, known, path + ".shared_bytes");
        if (l.args.size() != entry->params.size())
            throw ManifestError(path + ".args", std::to_string(l.args.size()) + " arguments for '" + l.kernel +
                                                    "', which takes " + std::to_string(entry->params.size()));
        for (std::size_t a = 0; a < l.args.size(); ++a) {
            const ArgBinding &b = l.args[a];
            const std::string ap = path + ".args[" + std::to_string(a) + "]";
            if (b.kind == ArgBinding::Kind::Input && !names.count(b.name))
                throw ManifestError(ap + ".input", "'" + b.name + "' is not one of the manifest's inputs");
            if (b.kind == ArgBinding::Kind::Output && !outputs.count(b.name))
                throw ManifestError(ap + ".output", "'" + b.name + "' is not one of the manifest's outputs");
            if (b.kind == ArgBinding::Kind::Scalar && !b.literal)
                checkExpr(b.expr, known, ap + ".scalar");
            if (!compatible(b, entry->params[a]))
                throw ManifestError(ap, describe(b) + " does not match parameter " + std::to_string(a) + " of '" +
                                            l.kernel + "', which is " + entry->params[a] + " in the PTX");
        }
    }
}

Symbols shapeSymbols(const LaunchManifest &m, const std::vector<std::vector<std::int64_t>> &inputShapes)
{
    if (inputShapes.size() != m.inputs.size())
        throw ManifestError("inputs", "the manifest names " + std::to_string(m.inputs.size()) + " inputs, " +
                                          std::to_string(inputShapes.size()) + " were given");
    Symbols s;
    for (std::size_t i = 0; i < m.inputs.size(); ++i) {
        std::int64_t numel = 1;
        for (std::size_t d = 0; d < inputShapes[i].size(); ++d) {
            s[m.inputs[i] + ".shape[" + std::to_string(d) + "]"] = inputShapes[i][d];
            numel *= inputShapes[i][d];
        }
        s[m.inputs[i] + ".numel"] = numel;
        s[m.inputs[i] + ".ndim"] = static_cast<std::int64_t>(inputShapes[i].size());
    }
    for (const auto &[name, expr] : m.constants)
        s[name] = evalExpr(expr, s, "constants." + name);
    return s;
}

} // namespace sieve::gpu
