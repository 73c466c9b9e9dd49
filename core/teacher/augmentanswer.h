#pragma once
// The teacher as a source of task variants (sieve-cli augment --teacher; seed 000, "Task augmentation":
// TritonRL has a teacher write extra input generators and keeps up to five execution-validated ones per
// task). The prompt is resources/prompts/augment.txt (versioned; its SHA-256 is stored with every variant
// it made). It shows the reference and its module-level integer constants, and asks for shapes and dtypes
// that change the right implementation.
//
// An answer is one JSON list (bare, or alone in one fenced block; after a <think> block, if any) of
// proposals, each an object with exactly these fields:
//   {"shapes": {NAME: VALUE, ...},  the reference's constants to change: NAME one of them, VALUE a
//                                   positive integer (a list of them where the constant is a tuple/list)
//    "dtype": "fp16",               optional: fp32 | fp16 | bf16 | fp64 (or torch's names); default the task's
//    "why": "..."}                  optional: one sentence, kept with the variant
// A reply that is not such a list is unparseable (the error says why) and makes no variant; a proposal that
// breaks a rule is dropped with a reason naming it (1-based) and the field, and the others are still used.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sieve::augment {

// The prompt resource (resources/prompts/augment.txt).
inline constexpr const char *kPromptName = "augment";
// The largest value a constant may take: a size beyond a 32-bit index is too large to be a task.
inline constexpr long long kMaxValue = 2147483647;

// A module-level constant NAME = INT (or a tuple/list of ints) at column 0 of the reference, in order.
struct Constant
{
    std::string name;
    nlohmann::json value; // an integer or a list of integers
};
std::vector<Constant> integerConstants(std::string_view reference);
// "batch_size = 16, dim = 16384" (lists as [a, b]).
std::string constantsLine(const std::vector<Constant> &constants);

// Why a proposal was dropped, by kind (the command's summary counts them).
enum class DropKind {
    Invalid,   // not an object, unknown field, unknown variable, a value that is not a positive integer...
    TooLarge,  // a value over kMaxValue (the check's REF_TOO_LARGE is counted here too)
    Duplicate, // the same as an earlier proposal, as the task itself, or as a task already in the corpus
    Failed,    // the reference does not run on it (the verifier worker's check)
    OverCap,   // the task had its variants before this one was tried
};
const char *dropKindName(DropKind k); // invalid | too_large | duplicate | reference_failed | over_cap

struct Proposal
{
    int index = 0;                    // 1-based, in the answer
    nlohmann::json shapes;            // one shape object (NAME: VALUE)
    std::optional<std::string> dtype; // normalised; unset: the task's
    std::string why;
    std::optional<DropKind> dropped; // set when it breaks a rule
    std::string reason;              // why it was dropped
};

struct Parsed
{
    bool ok = false;
    std::string error;               // why the answer is unparseable
    std::vector<Proposal> proposals; // every proposal, dropped ones included, in the answer's order
};

// Reads an answer about a task whose reference has `constants` and whose dtype is `taskDtype`. Never
// throws. A proposal equal to an earlier one or to the task itself (every value the task's, same dtype)
// is a duplicate.
Parsed parseAnswer(std::string_view content, const std::vector<Constant> &constants, const std::string &taskDtype);

} // namespace sieve::augment
