#pragma once
// SFT export: selected samples -> train.jsonl, validation.jsonl and manifest.json in one folder.
//
// Rows (one JSON object per line, keys in this order):
//   messages form:  {"messages":[{"role":"system",..},{"role":"user",..},{"role":"assistant","content":ANSWER,
//                    "reasoning_content":R}], "meta":{...}}   (reasoning as a field, in <think> tags
//                    before the answer, or left out)
//   prompt-completion form: {"prompt":SYSTEM\n\nUSER, "completion":ANSWER, "reasoning_content":R?, "meta":{...}}
// The user prompt is a template from resources/prompts (one per backend) filled with the task's
// reference module; the answer is the kernel file in one ```python fenced block.
// The split is by task, stratified by difficulty, seeded. With a tokenizer, a row's tokens are the
// sum of its text fields each encoded alone without special tokens (no chat-template overhead); rows
// over the budget are left out and listed in the manifest.
// Same corpus file, same options and seed: byte-identical output files (the manifest has no clock
// time and no paths; the exports table records when and where).
#include "selection.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sieve {

enum class ExportFormat { Messages, PromptCompletion };
enum class ReasoningMode { Field, Think, None };
const char *formatName(ExportFormat f);
const char *reasoningName(ReasoningMode r);
std::optional<ExportFormat> parseFormat(std::string_view s);
std::optional<ReasoningMode> parseReasoning(std::string_view s);

struct ExportOptions {
    ExportFormat format = ExportFormat::Messages;
    ReasoningMode reasoning = ReasoningMode::Field;
    double validationFraction = 0.2;
    std::optional<std::size_t> maxTokens;
    std::string tokenizerPath;   // required with maxTokens; also counts tokens without a budget
    std::string userTemplate;    // name or path; empty: the template named after the task's backend
    std::string systemTemplate = "system"; // name or path; "none": no system message
    std::vector<std::string> tags; // metadata tags in the prompt: backend, target, difficulty, level, category
    SelectionOptions selection;
    bool dryRun = false;
};

struct ExportResult {
    nlohmann::ordered_json manifest;
    std::optional<std::int64_t> exportId; // row in the exports table (not for dry runs)
};

// Reads the corpus file at corpusPath (hashing it first), writes outDir (created when missing) and
// records the export in the corpus' exports table. Throws std::runtime_error on I/O, template and
// tokenizer errors (naming the file and field).
ExportResult exportCorpus(const std::string &corpusPath, const std::string &outDir, const ExportOptions &options);

// Replaces invalid UTF-8 by U+FFFD so that every row is valid JSON text and counts the text written.
std::string validUtf8(std::string_view text);

} // namespace sieve
