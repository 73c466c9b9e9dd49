#pragma once
// Raw CUDA answers: a .cu of extern "C" __global__ kernels plus a launch manifest that says which kernels
// to launch, with which grid, block and dynamic shared memory (integer expressions of the input shapes),
// and how their parameters bind to the task's inputs, outputs and scalars. docs/FORMATS.md, "Raw CUDA
// answers", is the user-facing description. Validation names the offending field, and checks every
// launch against the kernel's PTX signature, so a mismatch is caught before anything runs on a GPU.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sieve::gpu {

// A manifest error: `field` is a JSON path such as "launches[0].args[2].type".
struct ManifestError : std::runtime_error
{
    ManifestError(const std::string &field, const std::string &message)
        : std::runtime_error(field + ": " + message), field(field)
    {
    }
    std::string field;
};

enum class ElemType { F32, F16, BF16, F64, I32, I64, U8 };
std::optional<ElemType> elemTypeFromName(const std::string &name); // "fp32", "f32", "float32", ...
const char *elemTypeName(ElemType t);
std::size_t elemSize(ElemType t);

struct TensorSpec
{
    std::string name;
    std::vector<std::string> shape; // expressions; empty for inputs (their shapes come from the task)
    ElemType dtype = ElemType::F32;
};

struct ArgBinding
{
    enum class Kind { Input, Output, Scalar } kind = Kind::Input;
    std::string name;              // input/output name
    std::string expr;              // scalar: an integer expression of the shapes...
    std::optional<double> literal; // ...or a number given as a JSON number (any scalar type)
    ElemType type = ElemType::I32; // scalar type
};

struct Launch
{
    std::string kernel;
    std::vector<std::string> grid;  // 1-3 expressions
    std::vector<std::string> block; // 1-3 expressions
    std::string sharedBytes = "0";
    std::vector<ArgBinding> args;
};

struct LaunchManifest
{
    std::vector<std::string> inputs;                            // names, in the order of the task's get_inputs()
    std::vector<TensorSpec> outputs;                            // in the order of forward()'s results
    std::vector<std::pair<std::string, std::string>> constants; // named integer expressions, in order
    std::vector<Launch> launches;
};

// Parses the JSON manifest; throws ManifestError naming the field.
LaunchManifest parseManifest(const std::string &json);

// The manifest embedded in a .cu as a block comment that starts with "sieve:launch". nullopt if none.
std::optional<std::string> embeddedManifest(const std::string &cuSource);

// One .entry of a PTX module: its name and the PTX type of each parameter (".u64", ".f32", ".b8[16]"...).
struct PtxEntry
{
    std::string name;
    std::vector<std::string> params;
};
std::vector<PtxEntry> ptxEntries(const std::string &ptx);

// Every launch names an extern "C" entry of the PTX, with one binding per parameter of a compatible
// type; every input/output named by a binding exists; every expression parses and uses known symbols.
// When `taskInputs` is given (the task's input count), the manifest must list exactly that many inputs.
void validateManifest(const LaunchManifest &m, const std::vector<PtxEntry> &entries,
                      std::optional<std::size_t> taskInputs = std::nullopt);

// Integer expressions: + - * / % (floor division on integers), parentheses, min(a,b), max(a,b),
// ceil_div(a,b); identifiers from `symbols` (x.shape[0], x.numel, x.ndim for each input, task constants).
using Symbols = std::map<std::string, std::int64_t>;
std::int64_t evalExpr(const std::string &expr, const Symbols &symbols, const std::string &field);
// The symbols of inputs with the given shapes, plus the manifest's constants (evaluated in order).
Symbols shapeSymbols(const LaunchManifest &m, const std::vector<std::vector<std::int64_t>> &inputShapes);

} // namespace sieve::gpu
