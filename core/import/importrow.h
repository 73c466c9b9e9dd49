#pragma once
// Typed access to one JSON record with error messages that name the field. Internal to the importers
// (simdjson stays out of public headers). The first problem wins; later reads return nothing.
#include "core/import/importrecords.h"

#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>

namespace sieve::importing {

class Row
{
public:
    explicit Row(simdjson::dom::object obj) : m_obj(obj) {}

    bool has(std::string_view key) const;
    // Each returns nullopt when the key is absent or null (an error when `required`) or has the wrong type.
    std::optional<std::string_view> string(std::string_view key, bool required = false);
    // A string or an integer, as text (ids come both ways).
    std::optional<std::string> id(std::string_view key, bool required = false);
    std::optional<std::int64_t> integer(std::string_view key, bool required = false);
    std::optional<double> number(std::string_view key, bool required = false);
    // true/false, 0/1 or "true"/"false" (any case).
    std::optional<bool> boolean(std::string_view key, bool required = false);
    std::optional<simdjson::dom::element> element(std::string_view key, bool required = false);

    void fail(std::string_view field, std::string message);
    bool failed() const { return m_error.has_value(); }
    const RecordError &error() const { return *m_error; }
    simdjson::dom::object object() const { return m_obj; }

private:
    std::optional<simdjson::dom::element> lookup(std::string_view key, bool required);
    void wrongType(std::string_view key, const char *expected, simdjson::dom::element e);
    simdjson::dom::object m_obj;
    std::optional<RecordError> m_error;
};

const char *typeName(simdjson::dom::element e);

// `{"k":v,...}` from a row's own values, minified, for provenance_json.
std::string pickJson(Row &row, std::initializer_list<std::string_view> keys);

// Best guess at the key whose value holds byte `offset` of a raw JSON line (for UTF-8 errors).
std::string keyBefore(std::string_view line, std::size_t offset);

} // namespace sieve::importing
