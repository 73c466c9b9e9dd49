#include "core/teacher/judgeanswer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace sieve::judge {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> splitLines(std::string_view code)
{
    std::vector<std::string_view> out;
    while (!code.empty()) {
        const auto nl = code.find('\n');
        out.push_back(code.substr(0, nl));
        if (nl == std::string_view::npos)
            break;
        code.remove_prefix(nl + 1);
    }
    return out;
}

} // namespace

std::optional<std::string_view> answerJsonText(std::string_view content, char bare, std::string &error)
{
    // A reasoning model may think in the content itself: the answer is what follows its thinking.
    if (const auto think = content.rfind("</think>"); think != std::string_view::npos)
        content.remove_prefix(think + 8);
    content = trim(content);
    if (content.empty()) {
        error = "the answer is empty";
        return std::nullopt;
    }
    if (content.front() == bare)
        return content;
    const auto open = content.find("```");
    if (open == std::string_view::npos) {
        error = bare == '[' ? "the answer is not a JSON list" : "the answer is not a JSON object";
        return std::nullopt;
    }
    const auto bodyStart = content.find('\n', open);
    const auto close = bodyStart == std::string_view::npos ? bodyStart : content.find("```", bodyStart);
    if (close == std::string_view::npos) {
        error = "the answer's code block is not closed";
        return std::nullopt;
    }
    if (content.find("```", close + 3) != std::string_view::npos) {
        error = "the answer holds more than one code block";
        return std::nullopt;
    }
    return trim(content.substr(bodyStart + 1, close - bodyStart - 1));
}

bool isFlagged(std::string_view verdict)
{
    return verdict == "delegates" || verdict == "wrong";
}

std::string numberedLines(std::string_view code)
{
    const auto lines = splitLines(code);
    std::string out;
    char prefix[32];
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::snprintf(prefix, sizeof prefix, "%4zu| ", i + 1);
        out += prefix;
        out += lines[i];
        out += '\n';
    }
    return out;
}

Parsed parseAnswer(std::string_view content, std::string_view code)
{
    Parsed p;
    auto fail = [&](std::string why) {
        Parsed bad;
        bad.error = std::move(why);
        return bad;
    };
    const auto text = answerJsonText(content, '{', p.error);
    if (!text)
        return p;
    const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_discarded())
        return fail("the answer is not valid JSON");
    if (!j.is_object())
        return fail("the answer is JSON but not an object");
    if (!j.contains("verdict") || !j["verdict"].is_string())
        return fail("'verdict' is missing or not a string");
    std::string verdict = j["verdict"].get<std::string>();
    std::transform(verdict.begin(), verdict.end(), verdict.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (std::find_if(std::begin(kVerdicts), std::end(kVerdicts), [&](const char *v) { return verdict == v; }) ==
        std::end(kVerdicts))
        return fail("'verdict' is '" + j["verdict"].get<std::string>() +
                    "', not implements, delegates, wrong or unsure");
    if (!j.contains("confidence") || !j["confidence"].is_number())
        return fail("'confidence' is missing or not a number");
    const double confidence = j["confidence"].get<double>();
    if (!(confidence >= 0 && confidence <= 1))
        return fail("'confidence' is " + j["confidence"].dump() + ", not between 0 and 1");
    p.verdict = verdict;
    p.confidence = confidence;
    if (j.contains("delegated_to") && !j["delegated_to"].is_null()) {
        if (!j["delegated_to"].is_array())
            return fail("'delegated_to' is not a list");
        for (const auto &d : j["delegated_to"]) {
            if (!d.is_string())
                return fail("'delegated_to' holds something other than text");
            p.delegatedTo.push_back(d.get<std::string>());
        }
    }
    if (j.contains("reasoning_consistent") && !j["reasoning_consistent"].is_null()) {
        if (!j["reasoning_consistent"].is_boolean())
            return fail("'reasoning_consistent' is not true, false or null");
        p.reasoningConsistent = j["reasoning_consistent"].get<bool>();
    }
    if (j.contains("summary") && !j["summary"].is_null()) {
        if (!j["summary"].is_string())
            return fail("'summary' is not text");
        p.summary = j["summary"].get<std::string>();
    }
    const auto codeLines = splitLines(code);
    if (j.contains("lines") && !j["lines"].is_null()) {
        if (!j["lines"].is_array())
            return fail("'lines' is not a list");
        for (const auto &l : j["lines"]) {
            if (!l.is_object() || !l.contains("text") || !l["text"].is_string())
                return fail("an item of 'lines' is not {\"line\", \"text\", \"why\"}");
            QuotedLine q;
            q.text = l["text"].get<std::string>();
            if (l.contains("line") && !l["line"].is_null()) {
                if (!l["line"].is_number_integer() || l["line"].get<long long>() < 1)
                    return fail("an item of 'lines' has a line number that is not a whole number >= 1");
                q.line = static_cast<int>(std::min<long long>(l["line"].get<long long>(), 1 << 30));
            }
            if (l.contains("why") && l["why"].is_string())
                q.why = l["why"].get<std::string>();
            // The rubric shows the code as "  12| text": a quote may carry the prefix.
            std::string_view quoted = trim(q.text);
            if (const auto bar = quoted.find("| ");
                bar != std::string_view::npos && bar <= 6 &&
                std::all_of(quoted.begin(), quoted.begin() + bar, [](char c) { return c == ' ' || std::isdigit(c); }))
                quoted = trim(quoted.substr(bar + 2));
            if (q.line > 0)
                q.matches = static_cast<std::size_t>(q.line) <= codeLines.size() && !quoted.empty() &&
                            trim(codeLines[q.line - 1]) == quoted;
            else
                q.matches = !quoted.empty() && std::any_of(codeLines.begin(), codeLines.end(),
                                                           [&](std::string_view c) { return trim(c) == quoted; });
            p.lines.push_back(std::move(q));
        }
    }
    p.ok = true;
    return p;
}

nlohmann::json detailsJson(const Parsed &p)
{
    if (!p.ok)
        return {{"error", p.error}};
    nlohmann::json lines = nlohmann::json::array();
    for (const QuotedLine &q : p.lines)
        lines.push_back({{"line", q.line > 0 ? nlohmann::json(q.line) : nlohmann::json()},
                         {"text", q.text},
                         {"why", q.why},
                         {"matches", q.matches}});
    return {{"delegated_to", p.delegatedTo},
            {"reasoning_consistent", p.reasoningConsistent ? nlohmann::json(*p.reasoningConsistent) : nlohmann::json()},
            {"lines", std::move(lines)},
            {"summary", p.summary}};
}

} // namespace sieve::judge
