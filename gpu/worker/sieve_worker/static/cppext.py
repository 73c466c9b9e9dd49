"""Stage 0 for KernelBench's CUDA pattern: `load_inline(name=..., cpp_sources=..., cuda_sources=...,
functions=[...])`.

The call must be literal enough to judge: sources that fold to constant strings, flags from a short
allowlist (no plugins, linker scripts, include paths or build folders), keyword arguments torch documents.
The C++/CUDA text is scanned by token, not parsed: it must define a `__global__` kernel, include only
CUDA's, torch's and the standard library's headers, and not call ATen compute (`torch::matmul`,
`x.sum()`), cuBLAS, processes, files, threads, streams or graphs.
"""
import re
from dataclasses import dataclass

LOAD_INLINE_PARAMS = ["name", "cpp_sources", "cuda_sources", "functions", "extra_cflags", "extra_cuda_cflags",
                      "extra_ldflags", "extra_include_paths", "build_directory", "verbose", "with_cuda",
                      "is_python_module", "with_pytorch_error_handling", "keep_intermediates", "use_pch"]
ALLOWED_KWARGS = {"name", "cpp_sources", "cuda_sources", "functions", "extra_cflags", "extra_cuda_cflags",
                  "extra_ldflags", "verbose", "with_cuda", "with_pytorch_error_handling", "keep_intermediates",
                  "is_python_module"}
CFLAG_PATTERNS = [re.compile(p) for p in (
    r"-O[0-3s]?", r"--?use_fast_math", r"-std=c\+\+(11|14|17|20)", r"-lineinfo", r"-arch=(sm|compute)_\d+a?",
    r"--gpu-architecture=(sm|compute)_\d+a?", r"-gencode=arch=compute_\d+a?,code=(sm|compute)_\d+a?",
    r"-D[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.]+)?", r"-U[A-Za-z_][A-Za-z0-9_]*", r"--expt-relaxed-constexpr",
    r"--expt-extended-lambda", r"--?maxrregcount=\d+", r"-ffast-math", r"-funroll-loops", r"-w", r"-Wall",
    r"-Wextra", r"-Wno-[a-z][a-z0-9-]*", r"-Xptxas=-v", r"--ptxas-options=-v", r"-Xptxas", r"-v", r"-fPIC",
    r"--restrict", r"-ftz=(true|false)", r"-prec-div=(true|false)", r"-prec-sqrt=(true|false)",
    r"--fmad=(true|false)", r"-march=native", r"-DNDEBUG", r"--extended-lambda", r"-Xcompiler=-fPIC")]
LDFLAG_PATTERNS = [re.compile(p) for p in (r"-lcuda", r"-lcudart", r"-lcublas", r"-lcublasLt")]
INCLUDE_OK = re.compile(
    r"(torch/|ATen/|c10/|cuda|cub/|cublas_v2\.h$|cublas_api\.h$|cublasLt\.h$|cooperative_groups|mma\.h|crt/|curand|math_constants\.h|thrust/|"
    r"vector$|cmath$|math\.h$|algorithm$|limits$|cstdint$|stdint\.h$|cstdio$|stdio\.h$|float\.h$|cfloat$|"
    r"type_traits$|utility$|array$|tuple$|iostream$|cassert$|assert\.h$|climits$|limits\.h$|string$|"
    r"cstddef$|stddef\.h$|functional$|numeric$|initializer_list$|cstring$|pybind11/|cstdlib$|stdlib\.h$|"
    r"memory$|cstdarg$|optional$|map$|unordered_map$|sstream$|stdexcept$|exception$|cub/)")
ATEN_OK = {"empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full",
           "full_like", "TensorOptions", "dtype", "device", "Device", "ScalarType", "IntArrayRef", "Tensor",
           "getCurrentCUDAStream", "CUDAGuard", "OptionalCUDAGuard", "getCurrentDeviceProperties",
           "current_device", "device_count", "DeviceGuard", "OptionalDeviceGuard", "CUDAStreamGuard",
           "elementSize", "toString", "kFloat", "kHalf", "kBFloat16", "kCUDA", "kInt", "kLong", "kDouble",
           "requires_grad", "layout", "memory_format", "Half", "BFloat16", "Scalar", "detail", "check",
           "typeMetaToScalarType", "empty_cuda", "getDeviceProperties"}
CORE_ATEN = {"matmul", "mm", "bmm", "addmm", "baddbmm", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
             "conv_transpose2d", "conv_transpose3d", "linear", "einsum", "convolution",
             "scaled_dot_product_attention", "cudnn_convolution", "tensordot"}
COMPUTE_METHODS = {
    "matmul", "mm", "bmm", "addmm", "baddbmm", "sum", "mean", "softmax", "log_softmax", "exp", "log", "relu",
    "gelu", "sigmoid", "tanh", "add", "sub", "mul", "div", "pow", "sqrt", "rsqrt", "abs", "clamp", "clamp_min",
    "clamp_max", "norm", "var", "std", "cumsum", "cumprod", "layer_norm", "max", "min", "argmax", "argmin",
    "amax", "amin", "topk", "sort", "gather", "scatter", "index_select", "masked_fill", "where", "add_", "mul_",
    "div_", "sub_", "prod", "logsumexp", "erf", "neg", "reciprocal", "square", "maximum", "minimum", "sign",
    "floor", "ceil", "round", "eq", "ne", "lt", "gt", "le", "ge", "copy_", "conv2d", "linear", "einsum",
    "sin", "cos", "transpose_", "hardtanh", "leaky_relu", "silu", "mish", "softplus", "dropout", "batch_norm",
    "group_norm", "instance_norm", "avg_pool2d", "max_pool2d", "clone", "t_", "addcmul", "lerp", "triu", "tril"}
FORBIDDEN_C_CALLS = re.compile(
    r"\b(system|popen|fopen|freopen|fdopen|dlopen|dlmopen|dlsym|dlvsym|fork|vfork|exec[lv]\w*|fexecve|"
    r"posix_spawn\w*|wordexp|socket|ptrace|syscall|getenv|setenv|putenv|unlink|unlinkat|rename|renameat|chmod|"
    r"fchmod|mprotect|mmap|mmap64|dup2|dup3|kill|prctl|setuid|setgid|chdir|mkdir|rmdir|symlink|link|truncate|"
    r"ftruncate|creat|openat|open64|tmpfile|tmpnam|mkstemp|sendfile|pipe2|clone3|unshare|setns|"
    r"process_vm_writev|process_vm_readv|__libc_\w+)\b")
# POSIX names that are also ordinary words (x.clone(), a stream's write()): forbidden when called as a free
# function (`open(...)`, `::write(...)`), allowed after `.`, `->` or `std::` (std::remove is the algorithm).
FORBIDDEN_C_FREE_CALLS = re.compile(
    r"(?<![\w.])(?<!->)(?<!std::)(?:::\s*)?\b(open|read|write|pread|pwrite|readv|writev|clone|remove|close|"
    r"ioctl|fcntl|access|pipe|splice)\s*\(")
# Hand-declared C linkage reaches any libc (or CUDA driver) symbol without a header; only kernels may use it.
EXTERN_C = re.compile(r"\bextern\s*\"C\"(?!\s*(?:__global__|__device__|__constant__|__shared__)\b)")
HOST_ASM = re.compile(r"\bint\s*\$?0x80\b|\bsysenter\b")
FILE_STREAMS = re.compile(r"\bstd::(of|if|f)stream\b|\bFILE\s*\*")
THREAD_WORDS = re.compile(r"\bstd::(thread|async|jthread)\b|\bpthread_create\b|#\s*pragma\s+omp")
STREAM_WORDS = re.compile(r"\bcudaStreamCreate\w*|\bgetStreamFromPool\b|\bcudaStreamWaitEvent\b")
GRAPH_WORDS = re.compile(r"\bcudaGraph\w*|\bcudaStreamBeginCapture\b|\bCUDAGraph\b")
ATEN_CALL = re.compile(r"\b(?:torch|at)((?:::\w+)+)\s*(?:<[^<>()]*>)?\s*\(")
METHOD_CALL = re.compile(r"[\w\)\]]\s*(?:\.|->)\s*(\w+)\s*\(")
CUBLAS = re.compile(r"\b(?:cublas|cublasLt|cudnn)[A-Z]\w*\s*\(")
# a cuBLAS function named without a call (&cublasSgemm_v2, a function pointer); its types (cublasHandle_t) are
# not calls
CUBLAS_REF = re.compile(r"\b(?:cublas|cudnn)[A-Z]\w*\b(?<!_t)(?!\s*\()")
TENSOR_DECL = re.compile(r"\b(?:torch|at)::Tensor\s*(?:const\s*)?&{0,2}\s*(?:const\s+)?(\w+)|"
                         r"\bauto\s*&{0,2}\s*(\w+)\s*=\s*(?:torch|at)::")
# names that stand for torch's namespaces or ATen's functions where a token scan cannot see them used:
# `using namespace at;` (then `add(a, b)`), `using at::add;`, `namespace T = at;`, `using T = torch::Tensor;`,
# `typedef at::Tensor T;`
SCOPE_ALIAS = re.compile(r"\busing\s+namespace\s+(?:::\s*)?(?:torch|at|c10|ATen)\b|"
                         r"\bnamespace\s+\w+\s*=\s*(?:::\s*)?(?:torch|at|c10)\b|"
                         r"\busing\s+(?:::\s*)?(?:torch|at|c10)\s*::|"
                         r"\busing\s+\w+\s*=\s*(?:typename\s+)?(?:::\s*)?(?:torch|at|c10)\s*::|"
                         r"\btypedef\s+(?:typename\s+)?(?:::\s*)?(?:torch|at|c10)\s*::")
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?((?:[^\n\\]|\\\n|\\)*)", re.M)
# an ATen function named without being called (&at::add, a macro argument CALL(at::add), a function pointer)
ATEN_REF = re.compile(r"\b(?:torch|at)((?:\s*::\s*\w+)+)(?!\s*(?:[(<\w]|::))")
ATEN_NAMESPACES = {"cuda", "native", "detail", "indexing", "nn", "functional", "autograd", "jit", "utils", "nullopt"}
# what host code may do with a tensor it holds by name: metadata, raw pointers, views of it, fresh buffers
TENSOR_OK_METHODS = {
    "data_ptr", "mutable_data_ptr", "const_data_ptr", "size", "sizes", "stride", "strides", "numel", "dim",
    "ndimension", "is_cuda", "is_contiguous", "scalar_type", "dtype", "device", "options", "get_device",
    "element_size", "itemsize", "nbytes", "defined", "is_floating_point", "storage_offset", "accessor",
    "packed_accessor", "packed_accessor32", "packed_accessor64", "generic_packed_accessor", "layout",
    "requires_grad", "is_same_size", "suggest_memory_format", "is_non_overlapping_and_dense", "type",
    "contiguous", "view", "unsqueeze", "squeeze", "expand", "zero_", "fill_", "new_empty", "new_zeros",
    "is_complex", "has_storage", "numel", "sym_size", "sym_numel", "toString", "name", "is_sparse",
    "view_as",  # x.view_as(y): x.view(y.sizes()), no data moves
    "to", "cuda"}  # a device move of a buffer the function allocated (torch::zeros(...).to(device))
# methods that return a tensor aliasing (or copying) the one they are called on
TENSOR_VIEWS = {"contiguous", "view", "reshape", "unsqueeze", "squeeze", "expand", "t", "transpose", "permute",
                "flatten", "narrow", "select", "slice", "detach", "clone", "to", "cuda", "float", "half", "as_strided",
                "view_as", "reshape_as", "expand_as", "zero_", "fill_"}
# views after which .contiguous() / .clone() copies data into a new order (a broadcast, a transpose)
REORDERING = {"expand", "expand_as", "t", "transpose", "permute", "as_strided"}
# what the arguments of .to() may name: a device only (a dtype or another tensor's options is a cast)
CAST_TOKEN = re.compile(r"\bk(?!CUDA\b|CPU\b)[A-Z]\w*|dtype|scalar_type|options|ScalarType|TensorOptions|"
                        r"\b(?:float|double|half|int|long|bool)\b")
CHAIN_CALL = re.compile(r"\s*(?:\.|->)\s*(\w+)\s*(?:<[^<>()]*>)?\s*\(")
FUNC_HEAD = re.compile(r"\(([^()]*)\)\s*(?:const\s*)?\{")  # linear: no backtracking over names
MAX_SOURCE = 1 << 20


def call_args(body, open_at):
    """The text between the parenthesis at open_at and its match, and the index after the match."""
    depth, i = 0, open_at
    while i < len(body):
        depth += {"(": 1, ")": -1}.get(body[i], 0)
        i += 1
        if depth == 0:
            return body[open_at + 1:i - 1], i
    return body[open_at + 1:], len(body)


def cast_args(body, args):
    """What .to(args) names: a bare local (auto device = torch::kHalf) stands for what it was set to."""
    m = re.fullmatch(r"\s*(\w+)\s*", args)
    if m:
        d = re.search(r"\b" + m.group(1) + r"\s*=\s*([^;]+);", body)
        if d:
            return d.group(1)
    return args


def chained_calls(body, start):
    """(method, args) of each call in the chain that starts at body[start] (a '.' or '->' after a tensor name),
    as long as each call returns a tensor (a view, a move); a metadata call (.sizes(), .data_ptr()) ends it."""
    out = []
    while len(out) < 32:
        m = CHAIN_CALL.match(body, start)
        if not m:
            break
        args, start = call_args(body, m.end() - 1)
        out.append((m.group(1), args))
        if m.group(1) not in TENSOR_VIEWS:
            break
    return out


def tensor_functions(src):
    """(body, tensor names) of each function whose parameters include a torch::Tensor / at::Tensor."""
    out = []
    for m in FUNC_HEAD.finditer(src):
        if "Tensor" not in m.group(1) or len(out) >= 200:
            continue
        depth, i = 1, m.end()
        while i < len(src) and depth:
            depth += {"{": 1, "}": -1}.get(src[i], 0)
            i += 1
        body = src[m.end():i]
        names = {n for d in TENSOR_DECL.finditer(m.group(1) + ";" + body) for n in d.groups() if n}
        for _ in range(3):  # auto y = x; auto y = x.contiguous(); torch::Tensor& y = x: y is a tensor too
            more = {d.group(1) for d in re.finditer(r"\bauto\s*&{0,2}\s*(\w+)\s*=\s*(\w+)\s*(?:;|(?:\.|->)\s*(\w+)\s*\()",
                                                  body)
                    if d.group(2) in names and (d.group(3) is None or d.group(3) in TENSOR_VIEWS)}
            if more <= names:
                break
            names |= more
        names.discard("const")
        out.append((body, names))
    return out
INCLUDE = re.compile(r"^\s*#\s*include\s*([<\"])([^>\"]*)[>\"]", re.M)
INCLUDE_LINE = re.compile(r"^\s*#\s*include\b(.*)$", re.M)
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class ExtInfo:
    functions: object  # set of exported names, or None when they are not literal
    has_kernel: bool
    line: int


def consts(v):
    """The constant strings of an abstract value (a string, or a list/tuple of strings), or None."""
    if v is None:
        return None
    if v.kind == "scalar":
        if isinstance(v.const, str):
            return [v.const]
        return [] if v.const is None else None  # None: not given; anything else is not a literal
    if v.kind == "container" and v.items is not None and not v.extra and not v.pairs:
        out = []
        for i in v.items:
            c = consts(i)
            if c is None:
                return None
            out += c
        return out
    return None


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", " ", src)


def check_load_inline(node, args, kwargs, add, policy):
    line = getattr(node, "lineno", 0)
    bound = {}
    for i, v in enumerate(args):
        if i < len(LOAD_INLINE_PARAMS):
            bound[LOAD_INLINE_PARAMS[i]] = v
    for k, v in kwargs.items():
        if k == "**":
            add("EXTENSION_FLAGS", node, "load_inline(**kwargs): its options must be written out")
            continue
        bound[k] = v
    for k in bound:
        # extra_include_paths=[] (models write it out empty) names no path
        if k == "extra_include_paths" and consts(bound[k]) == []:
            continue
        if k not in ALLOWED_KWARGS:
            add("EXTENSION_FLAGS", node, f"load_inline({k}=...) is not allowed: no include paths, build folders "
                                         f"or other files reach the build")
    if "is_python_module" in bound and not (bound["is_python_module"].kind == "scalar"
                                            and bound["is_python_module"].const is True):
        add("EXTENSION_FLAGS", node, "load_inline(is_python_module=False) loads a library into the process")
    for key, pats in (("extra_cflags", CFLAG_PATTERNS), ("extra_cuda_cflags", CFLAG_PATTERNS),
                      ("extra_ldflags", LDFLAG_PATTERNS)):
        if key not in bound:
            continue
        flags = consts(bound[key])
        if flags is None:
            add("EXTENSION_FLAGS", node, f"load_inline({key}=...) is not a literal list of strings")
            continue
        for f in flags:
            # KernelBench's own example passes extra_cflags=[""] and extra_ldflags=[""], and models copy it:
            # an empty flag adds nothing to the command line
            if not f.strip():
                continue
            if not any(p.fullmatch(f) for p in pats):
                add("EXTENSION_FLAGS", node, f"load_inline {key} flag {f!r} is outside the allowlist "
                                             f"(docs/VERIFIER.md, Stage 0)")
    sources = []
    for key in ("cpp_sources", "cuda_sources"):
        if key not in bound:
            continue
        s = consts(bound[key])
        if s is None:
            add("EXTENSION_SOURCE", node, f"load_inline({key}=...) does not fold to constant strings, so stage 0 "
                                          f"cannot read the C++/CUDA it builds")
            continue
        sources.append((key, "\n".join(s)))
    functions = None
    if "functions" in bound:
        f = consts(bound["functions"])
        functions = set(f) if f is not None else None
        if bound["functions"].kind == "container" and bound["functions"].pairs is not None:
            add("EXTENSION_FLAGS", node, "load_inline(functions={...}): docstrings are pasted into generated C++; "
                                         "give a list of names")
        for name in functions or ():
            if not IDENT.fullmatch(name):
                add("EXTENSION_FLAGS", node, f"load_inline function name {name!r} is not an identifier (it is pasted "
                                             f"into generated C++)")
    if "name" in bound:
        n = consts(bound["name"])
        if not n or len(n) != 1 or not IDENT.fullmatch(n[0]):
            add("EXTENSION_FLAGS", node, "load_inline(name=...) must be a literal identifier (it names the build "
                                         "folder and the module)")
    if sum(len(s) for _, s in sources) > MAX_SOURCE:
        add("EXTENSION_SOURCE", node, f"the extension's sources are larger than {MAX_SOURCE} bytes")
        return ExtInfo(functions, False, line)
    cuda = "\n".join(strip_comments(s) for k, s in sources if k == "cuda_sources")
    allsrc = "\n".join(strip_comments(s) for _, s in sources)
    has_kernel = "__global__" in cuda
    scan(allsrc, node, add, policy)
    return ExtInfo(functions, has_kernel, line)


def scan(src, node, add, policy):
    for m in INCLUDE_LINE.finditer(src):
        if not re.match(r"\s*[<\"]", m.group(1)):
            add("INCLUDE_FORBIDDEN", node, f"the extension includes through a macro ({m.group(0).strip()})")
    # an object-like macro whose body begins with # (a line splice may carry it to the next line); not a
    # `#define X_H` whose next line is a directive of its own (an include guard)
    if "##" in src or re.search(r"#[ \t]*define[ \t]+\w+(?:[ \t]|\\\r?\n)+#", src):
        add("EXTENSION_SOURCE", node, "the extension pastes tokens with ## (names stage 0 cannot read)")
    for m in INCLUDE.finditer(src):
        quote, name = m.group(1), m.group(2).strip()
        if quote == '"' or not INCLUDE_OK.match(name) or ".." in name or name.startswith("/"):
            add("INCLUDE_FORBIDDEN", node, f"the extension includes {quote}{name}: only CUDA's, torch's and the "
                                           f"standard library's headers are allowed")
    for m in FORBIDDEN_C_CALLS.finditer(src):
        add("FORBIDDEN_CALL", node, f"the extension calls {m.group(1)}()")
    for m in FORBIDDEN_C_FREE_CALLS.finditer(src):
        add("FORBIDDEN_CALL", node, f"the extension calls {m.group(1)}()")
    if EXTERN_C.search(src):
        add("FORBIDDEN_CALL", node, 'the extension declares extern "C" functions (only __global__/__device__ '
                                    'kernels may have C linkage): a hand declaration reaches libc without a header')
    if HOST_ASM.search(src):
        add("FORBIDDEN_CALL", node, "the extension makes system calls in inline assembly")
    if FILE_STREAMS.search(src):
        add("FORBIDDEN_CALL", node, "the extension opens files")
    if THREAD_WORDS.search(src):
        add("THREADS", node, "the extension starts threads")
    if STREAM_WORDS.search(src):
        add("STREAMS", node, "the extension creates or waits on its own CUDA streams")
    if GRAPH_WORDS.search(src):
        add("CUDA_GRAPHS", node, "the extension captures or replays CUDA graphs")
    for m in ATEN_CALL.finditer(src):
        parts = [p for p in m.group(1).split("::") if p]
        name = parts[-1]
        if "blas" in parts:
            report(add, node, policy, "at::cuda::blas", True, f"the extension calls torch's {'::'.join(parts)}")
            continue
        if name in ATEN_OK or parts[0] in ("cuda", "detail") or (name[:1] == "k" and name[1:2].isupper()):
            continue
        report(add, node, policy, f"at::{name}", name in CORE_ATEN, f"the extension calls torch's {'::'.join(parts)}")
    if SCOPE_ALIAS.search(src):
        add("EXTENSION_SOURCE", node, f"the extension renames torch's namespaces or functions "
                                      f"({SCOPE_ALIAS.search(src).group(0).strip()}): unqualified names could be ATen "
                                      f"ops stage 0 cannot see; write torch::/at:: in full")
    for m in DEFINE.finditer(src):
        params = [p.strip() for p in (m.group(2) or "()")[1:-1].split(",") if p.strip()]
        body = m.group(3)
        if re.search(r"\b(?:torch|at|c10|ATen)\b(?!\s*::\s*\w)", body):
            add("EXTENSION_SOURCE", node, f"the macro {m.group(1)} stands for a torch namespace (names stage 0 "
                                          f"cannot read)")
        for prm in params:
            if prm == "..." or not IDENT.fullmatch(prm):
                continue
            if re.search(r"(?:\.|->|::)\s*" + prm + r"\b|\b" + prm + r"\s*::", body):
                add("EXTENSION_SOURCE", node, f"the macro {m.group(1)} builds a method or namespace name from its "
                                              f"parameter {prm} (names stage 0 cannot read)")
    if re.search(r"(?:\.|->)\s*operator\b", src):
        add("TORCH_OP_IN_FORWARD", node, "the extension calls an operator method explicitly (a.operator+(b)): "
                                         "ATen's operators on tensors are torch doing the work", op="at::Tensor::operator")
    for m in ATEN_REF.finditer(src):
        parts = [p.strip() for p in m.group(1).split("::") if p.strip()]
        name = parts[-1]
        if name in ATEN_OK or name in ATEN_NAMESPACES or not name[:1].islower() or \
                (name[:1] == "k" and name[1:2].isupper()):
            continue
        report(add, node, policy, f"at::{name}", name in CORE_ATEN,
               f"the extension names torch's {'::'.join(parts)} without calling it (a function value)")
    for m in METHOD_CALL.finditer(src):
        name = m.group(1)
        if name in COMPUTE_METHODS:
            report(add, node, policy, f"at::Tensor::{name}", name in CORE_ATEN,
                   f"the extension calls the ATen method .{name}()")
    # ATen's operators on tensor variables (a + b, out *= 2) are torch doing the work. A token scan sees them
    # in host functions that take tensors, for names declared there as tensors.
    for body, names in tensor_functions(src):
        # names bound to a reordering view of a tensor (auto e = a.expand(...)): a copy of them is a kernel
        reordered = set()
        for _ in range(3):  # auto e = a.unsqueeze(0).expand(s); auto f = e.view(...): both reordered
            for d in re.finditer(r"\bauto\s*&{0,2}\s*(\w+)\s*=\s*(\w+)(?=\s*(?:\.|->))", body):
                if d.group(2) in names and (d.group(2) in reordered or
                                            any(m in REORDERING for m, _ in chained_calls(body, d.end()))):
                    reordered.add(d.group(1))
        for n in sorted(names):
            for mm in re.finditer(r"(?<![\w.])" + n + r"(?=\s*(?:\.|->))", body):
                # every call of the chain on it: x.contiguous().t(), x.expand(s).contiguous(), x.to(kHalf)
                seen_reorder = n in reordered
                for method, args in chained_calls(body, mm.end()):
                    what = f"{n}...{method}()" if method else n
                    if method not in TENSOR_OK_METHODS and method not in COMPUTE_METHODS:
                        report(add, node, policy, f"at::Tensor::{method}", method in CORE_ATEN,
                               f"the extension calls the tensor method {what}, which is not metadata, a "
                               f"pointer or a view: ATen does that work")
                    elif method in ("to", "cuda") and CAST_TOKEN.search(cast_args(body, args)):
                        report(add, node, policy, "at::Tensor::to", False,
                               f"the extension casts the tensor {n} ({method}({args.strip()[:60]})): a dtype "
                               f"conversion is ATen doing the work; only a move to a device is glue")
                    elif method in ("contiguous", "clone") and seen_reorder:
                        report(add, node, policy, f"at::Tensor::{method}", False,
                               f"the extension copies a broadcast or reordered view of {n} ({what}): ATen's "
                               f"copy kernel does that work")
                    seen_reorder = seen_reorder or method in REORDERING
            op = re.search(r"(?:\breturn\b|[=(,?:])\s*-?\s*" + n + r"\s*[-+*/%]\s*[\w(]|(?<![\w.>:])" + n +
                           r"\s*[-+*/%]=|[-+*/%]\s*" + n + r"\s*[;),]", body)
            if op:
                report(add, node, policy, "at::Tensor::operator", False,
                       f"the extension applies ATen's operators to the tensor {n} ({op.group(0).strip()})")
    for m in CUBLAS.finditer(src):
        report(add, node, policy, "cublas", True, f"the extension calls {m.group(0).rstrip('( ')}")
    for m in CUBLAS_REF.finditer(src):
        report(add, node, policy, "cublas", True, f"the extension names {m.group(0)} without calling it (a "
                                                  f"function value)")


def report(add, node, policy, op, core, desc):
    if core and policy == "kernelbench":
        add("TORCH_CORE_OP_ALLOWED", node, f"{desc}: a library core op (policy kernelbench)", op=op, fatal=False)
        return
    add("TORCH_OP_IN_FORWARD", node, f"{desc}: torch (ATen) does that work, not the answer's kernel", op=op)
    if core:
        add("TORCH_CORE_OP", node, f"{desc}: the core op runs in a library", op=op)
