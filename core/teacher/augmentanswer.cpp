#include "core/teacher/augmentanswer.h"

#include "core/import/importformats.h"
#include "core/teacher/judgeanswer.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace sieve::augment {

namespace {

std::string listing(const std::vector<Constant> &constants)
{
    std::string out;
    for (const Constant &c : constants)
        out += (out.empty() ? "" : ", ") + c.name;
    return out.empty() ? std::string("none") : out;
}

bool positiveInteger(const nlohmann::json &v)
{
    return (v.is_number_integer() || v.is_number_unsigned()) && v.get<long long>() > 0;
}

bool overMax(const nlohmann::json &v)
{
    if (v.is_array())
        return std::any_of(v.begin(), v.end(), overMax);
    return v.is_number_unsigned() ? v.get<unsigned long long>() > static_cast<unsigned long long>(kMaxValue)
                                  : v.get<long long>() > kMaxValue;
}

// Reads one proposal into `p` (its `dropped`/`reason` say what was wrong).
void readProposal(const nlohmann::json &j, const std::vector<Constant> &constants, Proposal &p)
{
    const std::string at = "proposal " + std::to_string(p.index);
    auto drop = [&](DropKind k, const std::string &why) {
        p.dropped = k;
        p.reason = at + ": " + why;
    };
    if (!j.is_object())
        return drop(DropKind::Invalid, "not an object but " + std::string(j.type_name()));
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "shapes" && it.key() != "dtype" && it.key() != "why")
            return drop(DropKind::Invalid, "unknown field '" + it.key() + "' (fields: shapes, dtype, why)");
    if (j.contains("why")) {
        if (!j["why"].is_string())
            return drop(DropKind::Invalid, "'why' is not a string");
        p.why = j["why"].get<std::string>();
    }
    if (j.contains("dtype") && !j["dtype"].is_null()) {
        const auto d = j["dtype"].is_string() ? importing::normaliseDtype(j["dtype"].get<std::string>()) : std::nullopt;
        if (!d)
            return drop(DropKind::Invalid, "'dtype' " + j["dtype"].dump() + " is not fp32, fp16, bf16 or fp64");
        p.dtype = *d;
    }
    if (!j.contains("shapes"))
        return drop(DropKind::Invalid, "no 'shapes' field");
    const nlohmann::json &shapes = j["shapes"];
    if (!shapes.is_object())
        return drop(DropKind::Invalid, "'shapes' is not an object of NAME: integer");
    if (shapes.empty() && !p.dtype)
        return drop(DropKind::Invalid, "'shapes' is empty and no 'dtype' is given: nothing changes");
    for (auto it = shapes.begin(); it != shapes.end(); ++it) {
        const auto c =
            std::find_if(constants.begin(), constants.end(), [&](const Constant &k) { return k.name == it.key(); });
        if (c == constants.end())
            return drop(DropKind::Invalid, "unknown variable '" + it.key() +
                                               "' in 'shapes' (the reference's constants: " + listing(constants) + ")");
        const nlohmann::json &v = it.value();
        const bool shapeOk = c->value.is_array() ? v.is_array() && v.size() == c->value.size() &&
                                                       std::all_of(v.begin(), v.end(), positiveInteger)
                                                 : positiveInteger(v);
        if (!shapeOk)
            return drop(DropKind::Invalid,
                        "'shapes." + it.key() + "' is " + v.dump() + ", not " +
                            (c->value.is_array() ? "a list of " + std::to_string(c->value.size()) + " positive integers"
                                                 : std::string("a positive integer")));
        if (overMax(v))
            return drop(DropKind::TooLarge,
                        "'shapes." + it.key() + "' is " + v.dump() + ", over " + std::to_string(kMaxValue));
    }
    p.shapes = shapes;
}

} // namespace

std::vector<Constant> integerConstants(std::string_view reference)
{
    // NAME = 16, NAME: int = 16, NAME = (2, 3) or [2, 3], a comment after it; at column 0 only.
    static const std::regex line(R"(^([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n]*)?=[ \t]*([^#\n]*?)[ \t]*(?:#.*)?$)");
    static const std::regex integer(R"(^[0-9]+$)");
    static const std::regex sequence(R"(^[\(\[][ \t]*[0-9]+(?:[ \t]*,[ \t]*[0-9]+)*[ \t]*,?[ \t]*[\)\]]$)");
    std::vector<Constant> out;
    std::size_t pos = 0;
    while (pos < reference.size()) {
        const std::size_t end = std::min(reference.find('\n', pos), reference.size());
        const std::string text(reference.substr(pos, end - pos));
        pos = end + 1;
        std::smatch m;
        if (!std::regex_match(text, m, line))
            continue;
        const std::string name = m[1], value = m[2];
        if (std::any_of(out.begin(), out.end(), [&](const Constant &c) { return c.name == name; }))
            continue; // the first assignment is the one the prompt shows; withShapeConstants rewrites each
        if (std::regex_match(value, integer)) {
            out.push_back({name, nlohmann::json(std::stoll(value))});
        } else if (std::regex_match(value, sequence)) {
            nlohmann::json list = nlohmann::json::array();
            static const std::regex number(R"([0-9]+)");
            for (auto it = std::sregex_iterator(value.begin(), value.end(), number); it != std::sregex_iterator(); ++it)
                list.push_back(std::stoll(it->str()));
            out.push_back({name, std::move(list)});
        }
    }
    return out;
}

std::string constantsLine(const std::vector<Constant> &constants)
{
    std::string out;
    for (const Constant &c : constants)
        out += (out.empty() ? "" : ", ") + c.name + " = " + c.value.dump();
    return out;
}

const char *dropKindName(DropKind k)
{
    switch (k) {
    case DropKind::Invalid:
        return "invalid";
    case DropKind::TooLarge:
        return "too_large";
    case DropKind::Duplicate:
        return "duplicate";
    case DropKind::Failed:
        return "reference_failed";
    case DropKind::OverCap:
        return "over_cap";
    }
    return "invalid";
}

Parsed parseAnswer(std::string_view content, const std::vector<Constant> &constants, const std::string &taskDtype)
{
    Parsed out;
    const auto text = judge::answerJsonText(content, '[', out.error);
    if (!text)
        return out;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::parse_error &e) {
        out.error = std::string("the answer's JSON does not parse: ") + e.what();
        return out;
    }
    if (!j.is_array()) {
        out.error = std::string("the answer is a JSON ") + j.type_name() + ", not a list of proposals";
        return out;
    }
    out.ok = true;
    for (std::size_t i = 0; i < j.size(); ++i) {
        Proposal p;
        p.index = static_cast<int>(i) + 1;
        readProposal(j[i], constants, p);
        if (!p.dropped) {
            // A value equal to the task's own changes nothing: left out, so equal variants are equal here
            // and in the corpus (the variant's content key covers its shapes).
            for (const Constant &c : constants)
                if (p.shapes.contains(c.name) && p.shapes[c.name] == c.value)
                    p.shapes.erase(c.name);
            const std::string dtype = p.dtype.value_or(taskDtype);
            const std::string at = "proposal " + std::to_string(p.index) + ": ";
            if (p.shapes.empty() && dtype == taskDtype) {
                p.dropped = DropKind::Duplicate;
                p.reason = at + "the task itself (its own values and dtype)";
            }
            for (const Proposal &q : out.proposals) {
                if (!p.dropped && !q.dropped && q.shapes == p.shapes && q.dtype.value_or(taskDtype) == dtype) {
                    p.dropped = DropKind::Duplicate;
                    p.reason = at + "the same as proposal " + std::to_string(q.index);
                }
            }
        }
        out.proposals.push_back(std::move(p));
    }
    return out;
}

} // namespace sieve::augment
