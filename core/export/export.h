#pragma once
// SFT and preference export: selected samples -> train.jsonl, validation.jsonl and manifest.json in one
// folder (docs/EXPORT.md has the row forms).
//
// Rows (one JSON object per line, keys in this order):
//   messages:               {"messages":[system, user, assistant], "meta":{...}}
//   prompt-completion:      {"prompt":SYSTEM\n\nUSER, "completion":ANSWER, "meta":{...}}
//   chat-prompt-completion: {"prompt":[system, user], "completion":[assistant], "meta":{...}}
//   preference:             {"prompt":[system, user], "chosen":[assistant], "rejected":[assistant], "meta":{...}}
//   preference-text:        {"prompt":SYSTEM\n\nUSER, "chosen":ANSWER, "rejected":ANSWER, "meta":{...}}
// Reasoning goes into the answer in <think> tags (default), onto the assistant message as
// reasoning_content (messages forms only), or is left out. The user prompt is a template from
// resources/prompts for the answer's backend, filled with the task's reference module; the answer is
// the kernel file in one ```python fenced block. Preference pairs come from core/select/preference.h.
// The split is by task, stratified by difficulty, seeded. With a tokenizer, a row's tokens are the
// sum of its text fields each encoded alone without special tokens (no chat-template overhead); with a
// chat template (chatTemplatePath) they are the rendered row's, and the row is written rendered:
//   chat text:   {"text":RENDERED, "assistant_spans":[[start,end]], "meta":{...}}
//   chat tokens: {"input_ids":[..], "labels":[.. -100 outside the assistant turn], "assistant_masks":[..], "meta"}
// Rows over the budget are left out and listed in the manifest. A split without rows has no file.
// Same corpus content, same options and seed: byte-identical output files and manifest (the manifest
// has no clock time, no paths, and identifies the corpus by the content exported).
#include "core/export/chatrender.h"
#include "core/select/preference.h"
#include "core/select/selection.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sieve {

enum class ExportFormat { Messages, PromptCompletion, ChatPromptCompletion, Preference, PreferenceText };
enum class ReasoningMode { Field, Think, None };
const char *formatName(ExportFormat f);
const char *reasoningName(ReasoningMode r);
std::optional<ExportFormat> parseFormat(std::string_view s);
std::optional<ReasoningMode> parseReasoning(std::string_view s);

struct ExportOptions
{
    ExportFormat format = ExportFormat::Messages;
    ReasoningMode reasoning = ReasoningMode::Think;
    double validationFraction = 0.2;
    std::optional<std::size_t> maxTokens;
    std::string tokenizerPath; // required with maxTokens; also counts tokens without a budget
    // Rows as the trainer sees them (core/export/chatrender.h): a tokenizer_config.json whose chat template
    // renders each messages row, tokenized with tokenizerPath; the budget counts the rendered row.
    std::string chatTemplatePath;
    ChatRows chatRows = ChatRows::Text;
    std::string userTemplate;              // name or path; empty: the template named after the task's backend
    std::string systemTemplate = "system"; // name or path; "none": no system message
    std::vector<std::string> tags;         // metadata tags in the prompt: backend, target, difficulty, level, category
    SelectionOptions selection;
    PairOptions pairs; // --format preference / preference-text
    // Rows of hard and unsolved tasks are written this many times into train: the copies after the first
    // pass over the rows, in the same order (1: once; SFT formats only).
    int hardWeight = 1;
    // Rows ordered easy -> hard (difficulty easy, unknown, hard, unsolved; then level; then task name),
    // not by task name; for trainers that keep the file's order (SFT formats only).
    bool curriculum = false;
    bool dryRun = false;
    // Samples without reasoning of their own get the reasoning a teacher wrote for them (sieve-cli
    // explain, core/store/teacherstore.h); such rows carry meta.reasoning_source "teacher" and
    // meta.reasoning_model, and the manifest counts them (teacher_reasoning.rows). The chosen side only.
    bool teacherReasoning = false;
};

struct ExportResult
{
    nlohmann::ordered_json manifest;
    std::optional<std::int64_t> exportId; // row in the exports table (not for dry runs)
    // Set when the files are complete but the export could not be recorded: the corpus is read-only.
    std::string warning;
};

// Reads the corpus file at corpusPath (hashing it first), writes outDir (created when missing) and
// records the export in the corpus' exports table (a read-only corpus: not recorded, `warning` says so;
// a damaged one is refused before anything is written). Throws std::runtime_error on I/O, template and
// tokenizer errors (naming the file and field).
ExportResult exportCorpus(const std::string &corpusPath, const std::string &outDir, const ExportOptions &options);

// The options an export manifest (sieve-export/2) was made with, to make the same files again. The
// tokenizer's path is not in a manifest: set tokenizerPath when parameters.tokenizer is not null (the
// caller checks its SHA-256). Throws std::runtime_error naming `origin` and the field.
ExportOptions exportOptionsFromManifest(const nlohmann::ordered_json &manifest, const std::string &origin);

// A template option as the manifest names it: a name as given, a path by its file name only.
std::string templateLabel(const std::string &nameOrPath);

// Replaces invalid UTF-8 by U+FFFD so that every row is valid JSON text and counts the text written.
std::string validUtf8(std::string_view text);

} // namespace sieve
