"""Stage 0's language: what an answer may contain. Everything not listed here is rejected.

The tables are data; resolver.py applies them to the code reachable from ModelNew's entry points and
static.py to the whole file. docs/VERIFIER.md ("Stage 0") describes the language in prose.
"""
import ast

# ---- imports -------------------------------------------------------------------------------------
# Exact module paths an answer may import (a module's listed children only: `import torch.multiprocessing`
# is refused although torch is allowed).
ALLOWED_MODULES = {
    "torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.parameter", "torch.autograd",
    "torch.cuda", "torch.utils", "torch.utils.cpp_extension",
    "triton", "triton.language", "triton.language.extra", "triton.language.extra.cuda",
    "triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice", "triton.language.math",
    "math", "typing", "functools", "itertools", "operator", "dataclasses", "collections", "__future__",
}
THREAD_MODULES = {"threading", "_thread", "multiprocessing", "concurrent", "asyncio", "torch.multiprocessing"}
# Attribute names that are modules outside the allowlist, re-exported by allowed ones (torch.os,
# typing.sys, torch.ctypes, ...): reaching them through any value is refused.
FORBIDDEN_ATTRS = {
    "os", "sys", "ctypes", "subprocess", "socket", "importlib", "pickle", "gc", "inspect", "builtins", "io",
    "threading", "multiprocessing", "shutil", "pathlib", "signal", "types", "weakref", "platform", "site",
    "runpy", "tempfile", "glob", "mmap", "resource", "fcntl", "select", "asyncio", "concurrent", "code",
    "codeop", "pdb", "traceback", "linecache", "zipimport", "pkgutil", "sysconfig", "copyreg", "marshal",
    "dill", "cloudpickle", "warnings", "logging", "time", "numpy", "np", "contextlib", "random",
}
# second-level names of the allowed libraries that are not part of the language (torch.hub, triton.runtime)
LIB_FORBIDDEN = {
    "torch": {"hub", "package", "distributed", "testing", "jit", "fx", "export", "onnx", "profiler", "overrides",
              "library", "multiprocessing", "backends", "random", "serialization", "storage", "compiler",
              "monitor", "futures", "mps", "xpu", "mtia", "amp", "accelerator", "Generator", "classes",
              "fft_not_allowed"},
    "triton": {"runtime", "compiler", "testing", "backends", "tools", "knobs", "experimental", "profiler"},
}
# torch.utils is allowed only for cpp_extension
TORCH_UTILS_ALLOWED = {"cpp_extension"}
# private names of a library that are part of the language: nn.Linear's own reset_parameters uses
# _calculate_fan_in_and_fan_out (two ints from a tensor's dim() and size()), and answers copy it
PRIVATE_OK = {"torch.nn.init._calculate_fan_in_and_fan_out"}

# ---- builtins ------------------------------------------------------------------------------------
DYNAMIC_BUILTINS = {"exec", "eval", "compile", "__import__"}
INTROSPECTION_BUILTINS = {"globals", "locals", "vars", "dir", "id", "type"}
FORBIDDEN_BUILTINS = {"open", "input", "breakpoint", "exit", "quit", "help", "memoryview", "bytearray",
                      "bytes", "map", "filter", "iter", "next", "aiter", "anext", "setattr", "delattr",
                      "format", "repr", "ascii", "hash", "issubclass", "classmethod", "staticmethod",
                      "property", "super", "frozenset", "complex", "ord", "chr", "bin", "oct", "hex"}
# builtins whose arguments must not be tensors (they would compute on them or read their values)
SCALAR_BUILTINS = {"int", "float", "bool", "str", "min", "max", "abs", "round", "sum", "divmod", "pow",
                   "print", "any", "all", "sorted", "range"}
# builtins that only move values around
STRUCTURAL_BUILTINS = {"len", "isinstance", "tuple", "list", "dict", "set", "enumerate", "zip", "reversed",
                       "hasattr", "getattr", "callable", "slice"}
EXCEPTIONS = {"Exception", "ValueError", "RuntimeError", "TypeError", "AssertionError", "NotImplementedError",
              "IndexError", "KeyError"}
# the builtins a @triton.jit body may call
KERNEL_BUILTINS = {"range", "min", "max", "len", "int", "float", "abs", "isinstance", "print"}

# ---- torch on the host ---------------------------------------------------------------------------
# torch.<name> calls allowed in forward: allocation, metadata, grad mode. value: what they return.
TORCH_FORWARD = {
    "empty": "tensor", "empty_like": "tensor", "empty_strided": "tensor", "zeros": "tensor",
    "zeros_like": "tensor", "ones": "tensor", "ones_like": "tensor", "full": "tensor", "full_like": "tensor",
    "device": "scalar", "Size": "scalar", "finfo": "scalar", "iinfo": "scalar", "is_tensor": "scalar",
    "is_floating_point": "scalar", "get_default_dtype": "scalar", "promote_types": "scalar",
    "is_grad_enabled": "scalar", "no_grad": "ctx", "inference_mode": "ctx", "enable_grad": "ctx",
}
TORCH_CUDA_FORWARD = {"current_device": "scalar", "is_available": "scalar", "device_count": "scalar",
                      "get_device_properties": "scalar", "get_device_capability": "scalar",
                      "get_device_name": "scalar", "synchronize": "scalar", "device": "ctx"}
# torch.<name> calls allowed at set-up (module level, class bodies, __init__ and what they call) besides
# the forward ones: parameter-sized initialisation that cannot see an input.
TORCH_SETUP = {"randn", "rand", "randint", "randn_like", "rand_like", "randint_like", "randperm", "normal",
               "arange", "linspace", "logspace", "eye", "tensor", "as_tensor", "manual_seed_not_allowed"}
TORCH_SETUP.discard("manual_seed_not_allowed")
# torch.* names that are values, not callables (passing them around is fine anywhere)
TORCH_CONSTANTS = {
    "float16", "float32", "float64", "bfloat16", "half", "float", "double", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool", "long", "int", "short", "complex64", "complex128",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "Tensor", "Size", "device",
    "dtype", "strided", "contiguous_format", "channels_last", "preserve_format", "inf", "nan", "pi", "e",
}
TORCH_DTYPES = {"float16", "float32", "float64", "bfloat16", "half", "float", "double", "int8", "int16", "int32",
                "int64", "uint8", "uint16", "uint32", "uint64", "bool", "long", "int", "short", "complex64",
                "complex128", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"}
# torch.* names of the "core" ops that KernelBench's rule lets torch keep (policy kernelbench)
CORE_OPS = {
    "torch.matmul", "torch.mm", "torch.bmm", "torch.addmm", "torch.baddbmm", "torch.addbmm", "torch.einsum",
    "torch.tensordot", "torch.conv1d", "torch.conv2d", "torch.conv3d", "torch.conv_transpose1d",
    "torch.conv_transpose2d", "torch.conv_transpose3d", "torch.nn.functional.conv1d",
    "torch.nn.functional.conv2d", "torch.nn.functional.conv3d", "torch.nn.functional.conv_transpose1d",
    "torch.nn.functional.conv_transpose2d", "torch.nn.functional.conv_transpose3d",
    "torch.nn.functional.linear", "torch.nn.functional.bilinear",
    "torch.nn.functional.scaled_dot_product_attention",
    "torch.nn.Linear", "torch.nn.Bilinear", "torch.nn.Conv1d", "torch.nn.Conv2d", "torch.nn.Conv3d",
    "torch.nn.ConvTranspose1d", "torch.nn.ConvTranspose2d", "torch.nn.ConvTranspose3d",
    "torch.Tensor.matmul", "torch.Tensor.mm", "torch.Tensor.bmm", "torch.Tensor.addmm",
    "torch.Tensor.baddbmm", "torch.ops.aten.mm", "torch.ops.aten.bmm", "torch.ops.aten.addmm",
    "torch.ops.aten.convolution", "torch.ops.aten.matmul", "torch.ops.aten.linear",
}


def einsum_contracts(node):
    """Whether a torch.einsum call (ast.Call) is GEMM-like: its equation a string constant in which a label shared
    by two operands is summed, and every summed label shared (a label summed inside one operand is a reduction
    torch does: "ij->i", "ij,i->i"; one that sums none is a product: "i,j->ij"). Policy kernelbench keeps only such
    an einsum as a core op (redteam/wall2 h_kb_einsum_reduction)."""
    if not isinstance(node, ast.Call) or not node.args or not isinstance(node.args[0], ast.Constant) \
            or not isinstance(node.args[0].value, str):
        return False
    eq = node.args[0].value.replace(" ", "").replace("...", "")
    lhs, arrow, rhs = eq.partition("->")
    ops = lhs.split(",")
    if len(ops) < 2:
        return False
    if not arrow:
        rhs = "".join(sorted(c for c in set(lhs) if c.isalpha() and lhs.count(c) == 1))
    summed = {c for op in ops for c in op if c.isalpha() and c not in rhs}
    shared = {c for c in summed if sum(c in op for op in ops) >= 2}
    return bool(summed) and summed == shared


def tensordot_contracts(node):
    """Whether a torch.tensordot call (ast.Call) contracts: dims left out (2), an int constant >= 1, or two lists of
    dimensions that are not empty. dims=0 is an outer product (redteam/wall2 h_r33_tensordot_outer)."""
    if not isinstance(node, ast.Call):
        return False
    dims = next((k.value for k in node.keywords if k.arg == "dims"), node.args[2] if len(node.args) > 2 else None)
    if dims is None:
        return True
    if isinstance(dims, ast.Constant):
        return type(dims.value) is int and dims.value >= 1
    return isinstance(dims, (ast.List, ast.Tuple)) and len(dims.elts) == 2 and all(
        isinstance(e, (ast.List, ast.Tuple)) and e.elts for e in dims.elts)


# core ops that are GEMM-like only as some calls make them: the test of the call, and what the others are
CORE_ONLY_WHERE = {
    "torch.einsum": (einsum_contracts, "an einsum that contracts no two operands is a reduction or a product"),
    "torch.tensordot": (tensordot_contracts, "a tensordot over no dimension is an outer product"),
}


def not_core(core, node):
    """Why the call `node` of core op `core` is no core op (CORE_ONLY_WHERE), or None."""
    test, why = CORE_ONLY_WHERE.get(core, (None, None))
    return why if test is not None and not test(node) else None


def core_op(path):
    """The canonical name of a core op (torch.ops.aten.mm.default -> torch.ops.aten.mm), or None."""
    if path in CORE_OPS:
        return path
    parts = path.split(".")
    if len(parts) > 4 and parts[:3] == ["torch", "ops", "aten"] and ".".join(parts[:4]) in CORE_OPS:
        return ".".join(parts[:4])
    return None


# ---- tensor methods and attributes ---------------------------------------------------------------
# views: no data moves. Copies and casts are kernels torch runs, and for a transpose, slice, cast or copy task
# they are the whole computation, so in forward:
# - TENSOR_COPY_METHODS always count as torch compute;
# - TENSOR_LAYOUT_METHODS are free on a tensor no reordering view touched (on an input or an allocation they
#   return it or copy it unchanged) and count as torch compute on one that a TENSOR_REORDER_METHODS view, .T,
#   .mT, a subscript or a split produced (x.t().contiguous() is the transpose);
# - the views themselves are free: a kernel that reads a permuted view through its strides does the work.
TENSOR_REORDER_METHODS = {"permute", "transpose", "t", "expand", "expand_as", "narrow", "select", "movedim",
                          "as_strided", "swapaxes", "swapdims", "mT"}
# dtype casts: policy kernelbench lets them stay around an own kernel (HOST_CAST_ALLOWED), strict refuses them
TENSOR_CAST_METHODS = {"to", "type_as", "float", "half", "bfloat16", "double", "int", "long", "short", "bool", "byte",
                       "char"}
TENSOR_LAYOUT_METHODS = {"contiguous", "reshape", "reshape_as", "flatten", "unflatten"}
TENSOR_COPY_METHODS = {"clone", "to", "cuda", "cpu", "float", "half", "bfloat16", "double", "type_as", "int",
                       "long", "short", "bool", "byte", "char"}
TENSOR_VIEW_METHODS = {"view", "view_as", "unsqueeze", "squeeze", "detach", "requires_grad_"} | \
    TENSOR_REORDER_METHODS | TENSOR_LAYOUT_METHODS | TENSOR_COPY_METHODS
TENSOR_SPLIT_METHODS = {"unbind", "split", "chunk"}
TENSOR_ALLOC_METHODS = {"new_empty", "new_zeros", "new_ones", "new_full", "new_empty_strided"}
TENSOR_FILL_METHODS = {"fill_", "zero_"}
TENSOR_META_METHODS = {"size", "stride", "numel", "dim", "ndimension", "nelement", "element_size", "data_ptr",
                       "is_contiguous", "is_floating_point", "is_complex", "get_device", "storage_offset"}
TENSOR_ATTRS = {"shape", "dtype", "device", "ndim", "is_cuda", "is_cpu", "requires_grad", "layout", "is_leaf",
                "itemsize", "nbytes"}
TENSOR_VIEW_ATTRS = {"T", "mT", "data"}
# set-up may initialise parameters in place
TENSOR_INIT_METHODS = {"normal_", "uniform_", "zero_", "fill_", "copy_", "mul_", "add_", "div_", "clamp_",
                       "bernoulli_", "random_", "exponential_", "kaiming_uniform_"}
HOST_READ_METHODS = {"item", "tolist", "numpy", "__array__", "__float__", "__int__", "__bool__", "__index__"}

# attributes of torch.nn layers held as parameter holders: tensors (everything else is configuration)
def layer_attr_is_tensor(name):
    return "weight" in name or "bias" in name or name.startswith("running_") or name == "num_batches_tracked"


# torch.nn containers
NN_CONTAINERS = {"ModuleList", "ModuleDict", "Sequential", "ParameterList", "ParameterDict"}
# class bases an answer's classes may have
ALLOWED_BASES = {"torch.nn.Module", "torch.autograd.Function", "builtins.object"}
# nn.Module's own methods: an answer's module that overrides one intercepts the harness (load_state_dict,
# state_dict, to, ...), so only forward, __init__ and names of its own are allowed.
NN_MODULE_API = {
    "add_module", "apply", "bfloat16", "buffers", "children", "compile", "cpu", "cuda", "double", "eval",
    "extra_repr", "float", "get_buffer", "get_extra_state", "get_parameter", "get_submodule", "half", "ipu",
    "load_state_dict", "modules", "mtia", "named_buffers", "named_children", "named_modules",
    "named_parameters", "parameters", "register_backward_hook", "register_buffer", "register_forward_hook",
    "register_forward_pre_hook", "register_full_backward_hook", "register_full_backward_pre_hook",
    "register_load_state_dict_post_hook", "register_load_state_dict_pre_hook", "register_module",
    "register_parameter", "register_state_dict_post_hook", "register_state_dict_pre_hook", "requires_grad_",
    "set_extra_state", "set_submodule", "share_memory", "state_dict", "to", "to_empty", "train", "type",
    "xpu", "zero_grad", "_apply", "_call_impl", "_wrapped_call_impl", "_load_from_state_dict",
    "_save_to_state_dict", "_named_members", "_get_name", "_register_state_dict_hook",
    "_register_load_state_dict_pre_hook", "_replicate_for_data_parallel", "_slow_forward",
}
MODULE_METHODS_OK = {"forward"}  # extra_repr runs whenever the module is printed or formatted: not allowed
# nn.Module methods that move or cast a module's tensors in place and return the module itself (in set-up a
# torch layer built and moved at once, nn.Linear(4, 4).cuda(), is that layer)
MODULE_SELF_RETURNING = {"cuda", "cpu", "to", "float", "half", "double", "bfloat16", "eval", "train",
                         "requires_grad_"}
# what they give of a module's or torch layer's own: its tensors (named: (name, tensor) pairs)
PARAM_ITERATORS = {"parameters", "named_parameters", "buffers", "named_buffers"}
# dunder methods a class may define (others run outside forward or change what the harness sees)
ALLOWED_DUNDER_DEFS = {"__init__", "__call__"}
# dunder names a class body may bind as data (TorchScript's constants, a docstring, slots)
CLASS_DATA_DUNDERS = {"__constants__", "__doc__", "__slots__", "__annotations__"}
AUTOGRAD_METHODS = {"forward", "backward", "setup_context", "jvp", "vmap"}
CTX_METHODS = {"save_for_backward", "mark_dirty", "mark_non_differentiable", "set_materialize_grads"}

# ---- triton on the host --------------------------------------------------------------------------
TRITON_HOST = {"cdiv": "scalar", "next_power_of_2": "scalar"}
TRITON_DECORATORS = {"jit", "autotune", "heuristics"}
AUTOTUNE_KWARGS = {"configs", "key", "prune_configs_by", "reset_to_zero", "restore_value", "pre_hook",
                   "post_hook", "warmup", "rep", "use_cuda_graph", "cache_results"}
JIT_KWARGS = {"do_not_specialize", "do_not_specialize_on_alignment", "debug", "noinline", "version",
              "launch_metadata", "repr"}
CONFIG_KWARGS = {"kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg", "pre_hook", "num_buffers_warp_spec",
                 "num_consumer_groups", "reg_dec_producer", "reg_inc_consumer"}

# ---- other modules -------------------------------------------------------------------------------
# operator: only plain arithmetic on scalars (attrgetter/methodcaller/itemgetter compute names)
OPERATOR_OK = {"add", "sub", "mul", "truediv", "floordiv", "mod", "neg", "pos", "eq", "ne", "lt", "le", "gt",
               "ge", "and_", "or_", "xor", "lshift", "rshift", "index", "not_", "abs"}
FUNCTOOLS_OK = {"partial", "reduce", "wraps"}
FUNCTOOLS_CACHES = {"lru_cache", "cache", "cached_property"}
ITERTOOLS_OK = {"product", "chain", "accumulate", "repeat", "combinations", "permutations", "count", "islice"}
TYPING_OK = None  # typing.* names are annotations: any, never called but as generics
DATACLASSES_OK = {"dataclass", "field"}
COLLECTIONS_OK = {"namedtuple", "OrderedDict", "defaultdict"}
SCALAR_METHODS = {"bit_length", "is_integer", "startswith", "endswith", "lower", "upper", "strip", "split",
                  "join", "replace"}
CONTAINER_READ_METHODS = {"get", "items", "keys", "values", "index", "count", "copy"}
CONTAINER_WRITE_METHODS = {"append", "extend", "insert", "pop", "update", "setdefault", "clear", "remove",
                           "add", "popitem", "discard", "sort", "reverse"}

# ---- everywhere ----------------------------------------------------------------------------------
# attribute names that walk from an object to the interpreter's internals
INTROSPECTION_ATTRS = {
    "f_globals", "f_locals", "f_back", "f_code", "f_builtins", "gi_frame", "gi_code", "cr_frame", "ag_frame",
    "tb_frame", "tb_next", "co_consts", "co_code", "co_names", "cell_contents", "func_globals",
}
# dunder attributes that are fine to name (super().__init__ is handled where it appears)
DUNDER_OK = {"__init__", "__name__"}
HOOK_WORDS = ("register_forward_hook", "register_forward_pre_hook", "register_backward_hook",
              "register_full_backward_hook", "register_full_backward_pre_hook", "register_hook",
              "register_module_forward_hook", "register_module_forward_pre_hook", "register_module_full_backward_hook",
              "register_module_buffer_registration_hook", "register_module_parameter_registration_hook",
              "register_module_module_registration_hook", "register_state_dict_pre_hook",
              "register_load_state_dict_post_hook", "register_load_state_dict_pre_hook",
              "register_state_dict_post_hook", "register_post_accumulate_grad_hook", "register_multi_grad_hook")
# torch code that runs the answer's functions when torch computes (a parametrization's forward on every read of
# the weight, weight_norm's recomputation, pack hooks on save_for_backward): hooks by another name
CALLBACK_PATHS = ("torch.nn.utils.parametrize", "torch.nn.utils.parametrizations", "torch.nn.utils.weight_norm",
                  "torch.nn.utils.spectral_norm", "torch.nn.utils.remove_weight_norm",
                  "torch.nn.utils.remove_spectral_norm", "torch.nn.utils.stateless", "torch.autograd.graph",
                  "torch.nn.modules.module", "torch.func", "torch.utils.hooks")


def calls_back(path):
    """Is path (or what it lies in) one of CALLBACK_PATHS?"""
    return any(path == p or path.startswith(p + ".") for p in CALLBACK_PATHS)


DISPATCH_WORDS = ("TorchFunctionMode", "TorchDispatchMode", "__torch_function__", "__torch_dispatch__",
                  "_python_dispatch", "overrides", "enable_python_dispatcher", "_DisableTorchDispatch",
                  "DisableTorchFunction", "_disabled_torch_function_impl", "BaseTorchFunctionMode")
STREAM_WORDS = ("Stream", "stream", "current_stream", "default_stream", "set_stream", "ExternalStream",
                "StreamContext")
GRAPH_WORDS = ("CUDAGraph", "graph", "graphs", "make_graphed_callables", "graph_pool_handle")
TIMER_WORDS = ("Event", "elapsed_time", "synchronize", "perf_counter", "time", "record", "do_bench",
               "monotonic", "process_time")
# roots whose attributes an answer must not write, with the reason code
PATCH_ROOTS = {"torch": "PATCHES_TORCH", "triton": "PATCHES_TORCH", "numpy": "PATCHES_TORCH",
               "math": "PATCHES_TORCH", "functools": "PATCHES_TORCH", "operator": "PATCHES_TORCH",
               "itertools": "PATCHES_TORCH", "typing": "PATCHES_TORCH", "dataclasses": "PATCHES_TORCH",
               "collections": "PATCHES_TORCH", "time": "PATCHES_TIMER", "builtins": "PATCHES_HARNESS",
               "sys": "PATCHES_HARNESS", "os": "PATCHES_HARNESS", "sieve_worker": "PATCHES_HARNESS",
               "__builtins__": "PATCHES_HARNESS"}

# ---- reason codes --------------------------------------------------------------------------------
# findings that do not fail the sample
NON_FATAL = {"CPU_FALLBACK_NOTE", "TORCH_CORE_OP_ALLOWED", "HOST_CAST_ALLOWED"}
POLICIES = ("strict", "kernelbench")
