#include "core/import/importrow.h"

#include <cctype>
#include <cmath>

namespace sieve::importing {

const char *typeName(simdjson::dom::element e)
{
    using simdjson::dom::element_type;
    switch (e.type()) {
    case element_type::ARRAY:
        return "an array";
    case element_type::OBJECT:
        return "an object";
    case element_type::INT64:
    case element_type::UINT64:
        return "an integer";
    case element_type::DOUBLE:
        return "a number";
    case element_type::STRING:
        return "a string";
    case element_type::BOOL:
        return "a boolean";
    case element_type::NULL_VALUE:
        return "null";
    }
    return "a value";
}

bool Row::has(std::string_view key) const
{
    simdjson::dom::element e;
    return !m_obj.at_key(key).get(e) && !e.is_null();
}

void Row::fail(std::string_view field, std::string message)
{
    if (!m_error)
        m_error = RecordError{std::string(field), std::move(message), {}};
}

std::optional<simdjson::dom::element> Row::lookup(std::string_view key, bool required)
{
    if (m_error)
        return std::nullopt;
    simdjson::dom::element e;
    if (m_obj.at_key(key).get(e) || e.is_null()) {
        if (required)
            fail(key, "missing (required)");
        return std::nullopt;
    }
    return e;
}

void Row::wrongType(std::string_view key, const char *expected, simdjson::dom::element e)
{
    fail(key, std::string("expected ") + expected + ", got " + typeName(e));
}

std::optional<std::string_view> Row::string(std::string_view key, bool required)
{
    const auto e = lookup(key, required);
    if (!e)
        return std::nullopt;
    std::string_view s;
    if (e->get(s)) {
        wrongType(key, "a string", *e);
        return std::nullopt;
    }
    return s;
}

std::optional<std::string> Row::id(std::string_view key, bool required)
{
    const auto e = lookup(key, required);
    if (!e)
        return std::nullopt;
    std::string_view s;
    if (!e->get(s)) {
        if (s.empty()) {
            fail(key, "must not be empty");
            return std::nullopt;
        }
        return std::string(s);
    }
    std::int64_t i = 0;
    if (!e->get(i))
        return std::to_string(i);
    wrongType(key, "a string or an integer", *e);
    return std::nullopt;
}

std::optional<std::int64_t> Row::integer(std::string_view key, bool required)
{
    const auto e = lookup(key, required);
    if (!e)
        return std::nullopt;
    std::int64_t i = 0;
    if (!e->get(i))
        return i;
    double d = 0;
    if (!e->get(d) && std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15)
        return static_cast<std::int64_t>(d);
    wrongType(key, "an integer", *e);
    return std::nullopt;
}

std::optional<double> Row::number(std::string_view key, bool required)
{
    const auto e = lookup(key, required);
    if (!e)
        return std::nullopt;
    double d = 0;
    if (!e->get(d))
        return d;
    std::int64_t i = 0;
    if (!e->get(i))
        return static_cast<double>(i);
    std::uint64_t u = 0;
    if (!e->get(u))
        return static_cast<double>(u);
    wrongType(key, "a number", *e);
    return std::nullopt;
}

std::optional<bool> Row::boolean(std::string_view key, bool required)
{
    const auto e = lookup(key, required);
    if (!e)
        return std::nullopt;
    bool b = false;
    if (!e->get(b))
        return b;
    std::int64_t i = 0;
    if (!e->get(i) && (i == 0 || i == 1))
        return i == 1;
    std::string_view s;
    if (!e->get(s)) {
        std::string lower;
        for (char c : s)
            lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        if (lower == "true")
            return true;
        if (lower == "false")
            return false;
    }
    wrongType(key, "a boolean", *e);
    return std::nullopt;
}

std::optional<simdjson::dom::element> Row::element(std::string_view key, bool required)
{
    return lookup(key, required);
}

std::string pickJson(Row &row, std::initializer_list<std::string_view> keys)
{
    std::string out = "{";
    for (std::string_view k : keys) {
        simdjson::dom::element e;
        if (row.object().at_key(k).get(e))
            continue;
        if (out.size() > 1)
            out.push_back(',');
        out.push_back('"');
        out.append(k);
        out.append("\":");
        out.append(simdjson::minify(e));
    }
    out.push_back('}');
    return out;
}

std::string keyBefore(std::string_view line, std::size_t offset)
{
    // Walk back over `"key":` patterns; the nearest one before the offset is the best guess.
    std::size_t pos = std::min(offset, line.size());
    while (pos > 0) {
        const std::size_t colon = line.rfind(':', pos - 1);
        if (colon == std::string_view::npos || colon == 0)
            break;
        std::size_t q = colon;
        while (q > 0 && (line[q - 1] == ' ' || line[q - 1] == '\t'))
            --q;
        if (q > 0 && line[q - 1] == '"') {
            std::size_t start = q - 1;
            while (start > 0 && (std::isalnum(static_cast<unsigned char>(line[start - 1])) || line[start - 1] == '_'))
                --start;
            if (start > 0 && line[start - 1] == '"' && start < q - 1)
                return std::string(line.substr(start, q - 1 - start));
        }
        pos = colon;
    }
    return "record";
}

} // namespace sieve::importing
