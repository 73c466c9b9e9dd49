#include "core/dedup/normaliser_names.h"
#include "core/dedup/normaliser.h"

#include <initializer_list>
#include <vector>

namespace sieve::normaliser_names {

namespace {

// A set of 64-bit name hashes, open-addressed: the lexer asks it once per identifier, so it must be
// cheaper than hashing the string again.
class HashSet
{
public:
    HashSet(std::initializer_list<const char *> names)
    {
        size_t cap = 64;
        while (cap < names.size() * 4)
            cap *= 2;
        m_slots.assign(cap, 0);
        for (const char *n : names)
            insert(normaliser_tokens::hashText(n));
    }
    bool contains(std::uint64_t h) const
    {
        const size_t mask = m_slots.size() - 1;
        for (size_t i = h & mask;; i = (i + 1) & mask) {
            if (m_slots[i] == h)
                return true;
            if (m_slots[i] == 0)
                return false;
        }
    }

private:
    void insert(std::uint64_t h)
    {
        const size_t mask = m_slots.size() - 1;
        size_t i = h & mask;
        while (m_slots[i] != 0 && m_slots[i] != h)
            i = (i + 1) & mask;
        m_slots[i] = h;
    }
    std::vector<std::uint64_t> m_slots;
};

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

} // namespace

bool pythonKept(std::string_view ident, std::uint64_t hash)
{
    static const HashSet names = {
        // keywords and soft keywords
        "False",
        "None",
        "True",
        "and",
        "as",
        "assert",
        "async",
        "await",
        "break",
        "class",
        "continue",
        "def",
        "del",
        "elif",
        "else",
        "except",
        "finally",
        "for",
        "from",
        "global",
        "if",
        "import",
        "in",
        "is",
        "lambda",
        "nonlocal",
        "not",
        "or",
        "pass",
        "raise",
        "return",
        "try",
        "while",
        "with",
        "yield",
        "match",
        "case",
        "self",
        "cls",
        // builtins
        "range",
        "len",
        "int",
        "float",
        "bool",
        "str",
        "list",
        "dict",
        "tuple",
        "set",
        "print",
        "min",
        "max",
        "abs",
        "sum",
        "isinstance",
        "super",
        "enumerate",
        "zip",
        "map",
        "filter",
        "any",
        "all",
        "getattr",
        "setattr",
        "hasattr",
        "type",
        "object",
        "property",
        "staticmethod",
        "classmethod",
        "divmod",
        "round",
        "pow",
        "sorted",
        "reversed",
        "iter",
        "next",
        "slice",
        "open",
        "ValueError",
        "RuntimeError",
        "AssertionError",
        "TypeError",
        "NotImplementedError",
        "Exception",
        "KeyError",
        "IndexError",
        // modules and their usual aliases
        "torch",
        "tl",
        "triton",
        "nn",
        "F",
        "math",
        "np",
        "numpy",
        "libdevice",
        "tlm",
        "functional",
        "cuda",
        "cpp_extension",
        "load_inline",
        "typing",
        "functools",
        "Optional",
        "Tuple",
        "List",
        "Dict",
        // KernelBench's interface
        "Model",
        "ModelNew",
        "forward",
        "get_inputs",
        "get_init_inputs",
    };
    if (names.contains(hash))
        return true;
    return startsWith(ident, "__") && ident.size() > 4 && ident.substr(ident.size() - 2) == "__";
}

bool cudaKept(std::string_view ident, std::uint64_t hash)
{
    static const HashSet names = {
        // C++ keywords
        "alignas",
        "alignof",
        "auto",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "constexpr",
        "const_cast",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "nullptr",
        "operator",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "throw",
        "true",
        "try",
        "typedef",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "while",
        "include",
        "define",
        "pragma",
        "ifdef",
        "ifndef",
        "endif",
        "unroll",
        // types
        "size_t",
        "int8_t",
        "int16_t",
        "int32_t",
        "int64_t",
        "uint8_t",
        "uint16_t",
        "uint32_t",
        "uint64_t",
        "half",
        "half2",
        "nv_bfloat16",
        "nv_bfloat162",
        "dim3",
        "float2",
        "float3",
        "float4",
        "int2",
        "int3",
        "int4",
        "uint2",
        "uint4",
        "double2",
        "char4",
        "scalar_t",
        "index_t",
        // CUDA built-ins
        "threadIdx",
        "blockIdx",
        "blockDim",
        "gridDim",
        "warpSize",
        // device math and intrinsics without a double underscore
        "atomicAdd",
        "atomicMax",
        "atomicMin",
        "atomicExch",
        "atomicCAS",
        "atomicSub",
        "atomicAnd",
        "atomicOr",
        "expf",
        "exp",
        "exp2f",
        "logf",
        "log",
        "log2f",
        "sqrtf",
        "sqrt",
        "rsqrtf",
        "rsqrt",
        "powf",
        "pow",
        "fabsf",
        "fabs",
        "abs",
        "fmaxf",
        "fminf",
        "fmax",
        "fmin",
        "max",
        "min",
        "tanhf",
        "tanh",
        "erff",
        "erf",
        "sinf",
        "cosf",
        "floorf",
        "ceilf",
        "fmaf",
        "roundf",
        "isnan",
        "isinf",
        "make_float2",
        "make_float4",
        "make_int2",
        "make_int4",
        "make_half2",
        "cub",
        "wmma",
        "nvcuda",
        "cooperative_groups",
        "cg",
        // host side: the torch extension API
        "torch",
        "at",
        "c10",
        "std",
        "Tensor",
        "TensorOptions",
        "PYBIND11_MODULE",
        "def",
        "TORCH_EXTENSION_NAME",
        "AT_DISPATCH_FLOATING_TYPES",
        "AT_DISPATCH_FLOATING_TYPES_AND_HALF",
        "TORCH_CHECK",
        "C10_CUDA_KERNEL_LAUNCH_CHECK",
    };
    if (names.contains(hash))
        return true;
    return startsWith(ident, "__") || startsWith(ident, "cuda") || startsWith(ident, "CUDA_") ||
           startsWith(ident, "AT_") || startsWith(ident, "TORCH_") || startsWith(ident, "atomic");
}

} // namespace sieve::normaliser_names
