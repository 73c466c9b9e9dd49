#pragma once
// Prompt templates: text files with {{name}} placeholders and {{#name}}...{{/name}} sections that
// appear only when `name` has a non-empty value. {{! text }} is a comment; {{%verbatim}} marks a template
// whose rendered text is the prompt byte for byte (renderPrompt keeps its trailing line ends); a comment
// or pragma renders nothing, nor the line end right after it. The exporter and the sampler render prompts through
// this one class, so a training row's prompt is the prompt the model was (or will be) sampled with.
// Templates live in resources/prompts/ (installed as share/sieve/prompts/).
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {

class PromptTemplate
{
public:
    // Throws std::runtime_error naming the origin and line on an unclosed or mismatched section.
    static PromptTemplate fromString(std::string text, std::string origin = "template");
    static PromptTemplate fromFile(const std::filesystem::path &path);
    // A template by name ("triton" -> triton.txt in the prompts folder) or by path.
    static PromptTemplate load(const std::string &nameOrPath);

    // Renders with values; a placeholder without a value is an error (std::runtime_error naming it),
    // so a typo in a template never yields a silently empty prompt. Values are inserted verbatim.
    std::string render(const std::map<std::string, std::string> &values) const;
    // The prompt a model is given: render() without trailing blank lines and spaces (a template file's
    // final newline), unless the template is {{%verbatim}}.
    std::string renderPrompt(const std::map<std::string, std::string> &values) const;
    bool verbatim() const { return m_verbatim; }

    // Placeholder and section names used, sorted, without duplicates.
    std::vector<std::string> names() const;
    const std::string &text() const { return m_text; }
    const std::string &origin() const { return m_origin; }

private:
    struct Node
    {
        enum Kind { Text, Value, Section } kind;
        std::string text; // literal text, or the name
        std::vector<Node> children;
    };
    PromptTemplate() = default;
    void renderNodes(const std::vector<Node> &nodes, const std::map<std::string, std::string> &values,
                     std::string &out) const;
    std::string m_text;
    std::string m_origin;
    std::vector<Node> m_nodes;
    bool m_verbatim = false;
};

// Where prompt templates are: $SIEVE_PROMPTS_DIR, ../share/sieve/prompts beside the executable, or
// the source tree's resources/prompts. Throws when none exists.
std::filesystem::path promptsDir();

// The template for a backend ("triton" -> triton.txt in promptsDir()); throws std::runtime_error naming
// the backend and the path when there is none. `hint` is appended to that message.
PromptTemplate backendTemplate(const std::string &backend, const std::string &hint = {});

// The facts of a task (and of the answer) that a prompt can carry, for the exporter and the sampler
// alike. `backend` is the answer's: it picks the template (a CUDA answer to a Triton task is prompted
// for CUDA); `taskBackend` is the task's.
struct PromptFacts
{
    std::string reference; // the task's PyTorch module
    std::string task, backend, taskBackend, target, dtype, level, category, difficulty;
    std::string shapes; // tasks.shapes_json as text (shapesText)
};

// The metadata tags a prompt can carry (--tags), in this order.
const std::vector<std::string> &promptTagNames();

// KernelBench's words for a dtype in its precision note ("FP16 (16-bit floating point)"); fp32's for
// any other dtype (KernelBench's default precision).
std::string precisionDisplay(std::string_view dtype);

// The values a template is rendered with: every fact under its name ("reference", "task", "backend",
// "task_backend", "target", "dtype", "level", "category", "difficulty", "shapes"; "reference" without
// trailing whitespace, "reference_raw" exactly as stored), "precision_display" (precisionDisplay of
// the dtype), "backend_triton" and
// "backend_cuda" ("1" or empty, for one template with a section per backend), and "tags": the line
// "[backend: triton] [dtype: fp16] ..." of the asked tags that have a value, in the order asked.
std::map<std::string, std::string> promptValues(const PromptFacts &facts, const std::vector<std::string> &tags);

// shapes_json ([{"M": 7, "N": 1000}, ...]) as "M=7, N=1000; ..."; "" for none; malformed JSON as it is.
std::string shapesText(std::string_view shapesJson);

// A rendered prompt or a code block without its trailing blank lines and spaces (a view into `s`).
std::string_view trimTrailingSpace(std::string_view s);

} // namespace sieve
