#pragma once
// The teacher as the reviewer's assistant (sieve-cli judge, explain): the judge's rubric and answer
// shape, and reading an answer back. The rubric is resources/prompts/judge.txt; its SHA-256 is stored
// with every suggestion, so suggestions made under different rubric texts can be told apart.
//
// An answer is one JSON object (bare, or alone in one fenced block; after a <think> block, if any):
//   {"verdict": "implements"|"delegates"|"wrong"|"unsure", "confidence": 0..1,
//    "delegated_to": ["torch.matmul", ...], "reasoning_consistent": true|false|null,
//    "lines": [{"line": 12, "text": "...", "why": "..."}], "summary": "..."}
// Anything else is unparseable: recorded as such with the reason, never guessed at.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sieve::judge {

// The verdicts a teacher may give, and the one Sieve records for an answer it cannot read.
inline constexpr const char *kVerdicts[] = {"implements", "delegates", "wrong", "unsure"};
inline constexpr const char *kUnparseable = "unparseable";
// The prompt resources (resources/prompts/<name>.txt).
inline constexpr const char *kRubricName = "judge";
inline constexpr const char *kExplainName = "explain";

// A verdict that says the sample does not implement the operator itself (what --judge exclude drops).
bool isFlagged(std::string_view verdict);

struct QuotedLine
{
    int line = 0; // 1-based, in the sample's code; 0 when the teacher gave none
    std::string text, why;
    bool matches = false; // the quoted text is that line of the code (or, without a number, some line)
};

struct Parsed
{
    bool ok = false;
    std::string error; // why it is unparseable
    std::string verdict;
    std::optional<double> confidence;
    std::vector<std::string> delegatedTo;
    std::optional<bool> reasoningConsistent;
    std::vector<QuotedLine> lines;
    std::string summary;
};

// The JSON text of a teacher's answer (the judge's, augment's): after a <think> block, if any, the whole
// content when it starts with `bare` ('{' or '['), else the inside of its only fenced block. Without one,
// `error` says why.
std::optional<std::string_view> answerJsonText(std::string_view content, char bare, std::string &error);

// Reads a judge's answer about `code`. Never throws.
Parsed parseAnswer(std::string_view content, std::string_view code);

// What is stored besides the verdict and confidence: {"delegated_to", "reasoning_consistent", "lines",
// "summary"}, or {"error"} for an unparseable answer.
nlohmann::json detailsJson(const Parsed &p);

// The code with right-aligned line numbers ("  12| x = ..."), as the rubric shows it, so the teacher can
// quote line numbers.
std::string numberedLines(std::string_view code);

} // namespace sieve::judge
