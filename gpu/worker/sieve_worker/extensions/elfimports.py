"""A built extension judged by what it imports: its ELF's undefined dynamic symbols and needed libraries.

Whatever the C++ text looks like (macros, digraphs, line splices, -D namespaces, templates), a call into
another library goes through a dynamic symbol the module imports; the module can reach torch's compute,
the dispatcher, vendor libraries, the dynamic loader or Python's interpreter only through one (or through a
pointer it was handed at run time: the runtime wall's part). Symbols are demangled (c++filt) and judged:
- torch (at::, c10::, torch::, THP*): an allowlist of what a kernel wrapper needs (tensor metadata,
  allocation, views, the current stream and device, checks and errors, the Python binding glue);
  `at::_ops::<op>::call` names the ATen op: allocation/view/metadata ops pass, the core ops pass under
  policy kernelbench (TORCH_CORE_OP_ALLOWED), every other op and every other torch symbol is refused;
- Python's C API: what pybind11's binding code needs; importing, running code, evaluating, calling
  objects by name are refused;
- the CUDA runtime: launches, memory, errors, device queries; the driver API's module loading and every
  vendor library (cuBLAS, cuDNN, cuFFT, cuSPARSE, cuRAND host, cuSOLVER, NCCL, NVRTC) are refused, by
  symbol and by needed library;
- the C and C++ runtime: an allowlist too (memory and string functions, libm, formatted output to the
  standard streams, locks, clocks, the C++ ABI; libstdc++'s strings, string streams, exceptions, hashing,
  trees). Everything else is refused, so the loader (`dl_iterate_phdr` as much as `dlsym`), processes,
  signals and timers, sockets, files, and libstdc++'s own wrappers of them (std::ifstream, std::thread,
  std::filesystem) are refused by name.
Symbols are judged by their qualified name (`c++filt -p`: no return type, no parameters), so a template's
return type cannot hide its namespace. Python's C API that calls objects by name or reaches the builtins
(GLUE_ONLY) is pybind11's binding glue: its calls are allowed only from pybind11's functions (GLUE_SITE,
found by disassembling the module); the answer's own functions calling it are refused with the function named. A
`syscall`/`sysenter`/`int 0x80` instruction in the module's code is refused (an inline system call imports
nothing).
Library code compiled into the module (CUB, Thrust, CUTLASS header templates) is the answer's own code: it
imports nothing, so it passes here (docs/VERIFIER.md, Extension builder).
"""
import os
import re
import struct
import subprocess

from ..static import cppext

# at::_ops::<op>::call that a wrapper needs: allocation, views, metadata, copies into its own buffers
OPS_OK = {
    "empty_memory_format", "empty_strided", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full",
    "full_like", "new_empty", "new_empty_strided", "new_zeros", "new_ones", "new_full", "fill_", "zero_",
    "copy_", "contiguous", "view", "view_dtype", "reshape", "as_strided", "expand", "permute", "transpose_int",
    "unsqueeze", "squeeze", "squeeze_dim", "flatten_using_ints", "select_int", "slice_Tensor", "narrow",
    "t", "detach", "alias", "_reshape_alias", "unflatten_int", "resize_", "to_dtype", "to_device",
    "to_dtype_layout", "to_other", "_to_copy", "empty_names", "is_contiguous", "size_int", "stride_int",
    "numel", "chunk", "split_Tensor", "unbind_int", "view_as", "expand_as", "reshape_as", "clone",
    "set_", "item", "_local_scalar_dense", "is_nonzero", "record_stream", "resize_as_", "empty_permuted",
    "movedim_int", "swapaxes", "mT", "mH", "type_as", "_unsafe_view", "unfold", "diagonal",
}
# Python's C API pybind11 3's binding code and torch's type casters import (measured on built wrappers, see
# tests/data/verifier/redteam/wall2/gen_builder.py's legit cases): object families by prefix, the rest by name
PY_OK = tuple("""
PyType_ PyTuple_ PyList_ PyDict_ PyLong_ PyFloat_ PyBool_ PyUnicode_ PyBytes_ PyByteArray_ PyExc_ PyErr_
PyException_ PyCapsule_New PyCapsule_Get PyCapsule_Set PyCapsule_IsValid PyCapsule_Type PyCFunction_
PyCMethod_New PyModule_ PyModuleDef_ PyMethod_ PyInstanceMethod_ PyProperty_Type PyStaticMethod_
PyClassMethod_ PyWeakref_ PySlice_ PyIndex_ PyNumber_ PySequence_ PyIter_ PyMem_ PyComplex_ PyBaseObject_Type
PyBuffer_IsContiguous PyBuffer_Release PyBuffer_FillInfo
PyObject_SetAttr PyObject_HasAttr PyObject_GenericGetAttr PyObject_GenericSetAttr PyObject_GenericGetDict
PyObject_GenericSetDict PyObject_ClearWeakRefs PyObject_IsInstance PyObject_IsSubclass PyObject_Str
PyObject_Repr PyObject_Hash PyObject_RichCompare PyObject_Free PyObject_Malloc PyObject_Realloc PyObject_GC_
PyObject_Init PyObject_GetIter PyObject_Size PyObject_Length PyObject_Type PyObject_IsTrue PyObject_GetItem
PyObject_SetItem PyObject_DelItem PyObject_GetBuffer PyObject_CheckBuffer
PyFrame_GetBack PyFrame_GetCode PyFrame_GetLineNumber PyThread_tss_ PyThreadState_New PyThreadState_Clear
PyThreadState_DeleteCurrent PyThreadState_Get PyThreadState_Swap PyGILState_ PyInterpreterState_Get
PyEval_SaveThread PyEval_RestoreThread PyEval_AcquireThread PyEval_ReleaseThread PyEval_InitThreads
PyCallable_Check PyOS_snprintf PyArg_ Py_GetVersion Py_IncRef Py_DecRef Py_IsInitialized Py_BuildValue
_Py_Dealloc _Py_NoneStruct _Py_TrueStruct _Py_FalseStruct _Py_NotImplementedStruct _Py_EllipsisObject
_PyObject_New _PyObject_GetDictPtr _PyType_Lookup _PyThreadState_UncheckedGet _Py_IncRef _Py_DecRef
_PyObject_GC_New _PyArg_ _PyErr_ _Py_BuildValue_SizeT _PyLong_ _PyUnicode_ _Py_CheckFunctionResult
""".split())
# Python's C API that calls an object by name or reaches the builtins: pybind11's glue needs it (attribute
# lookups, calling a Python type, pickling a function record), an answer calling it directly does not
GLUE_ONLY = re.compile(r"PyEval_GetBuiltins|PyObject_GetAttr(String)?|PyObject_Call(Object|FunctionObjArgs|"
                       r"Function|Method|MethodObjArgs|OneArg|NoArgs|MethodNoArgs|MethodOneArg)?|"
                       r"_?PyObject_Vectorcall(Dict|Method)?|PyVectorcall_Call|_PyObject_MakeTpCall|PyCFunction_Call|"
                       r"_PyObject_CallFunction_SizeT|_PyObject_CallMethod_SizeT")
# where pybind11's glue calls them (mangled names of the calling functions): pybind11's namespace, its local
# lambdas, and its C-level glue (`PyInit_<name>`, `pybind11_exec_<name>`, `pybind11_init_<name>`, the
# metaclass's and buffer protocol's `pybind11_*`). Measured at -O0 to -O3: inlining moves the calls into
# whichever of these functions holds them (at -O3 the module's own init), so no list of exact functions holds
GLUE_SITE = re.compile(r"(_ZZ?N[KVRO]*8pybind11\w*|_ZZ?L?\d+pybind11_(init|exec)_\w+|PyInit_\w+|pybind11_\w+)(\.\w+)*")
# never: importing modules, running or compiling code, reaching frames' globals, sys, marshal
PY_BAD = re.compile(r"_?Py(Import_|Run_|Eval_(Eval|GetGlobals|GetLocals|GetFrame|CallObject|CallFunction)|"
                    r"Frame_(GetGlobals|GetLocals|GetBuiltins|FastToLocals)|ThreadState_GetFrame|Code_|Function_|"
                    r"Marshal_|Sys_|_Compile|_CompileString|_Main|_Exec|_Initialize|Interpreter_New|"
                    r"_NewInterpreter|Ast_|Parser_|Compile)\w*")
# torch symbols a kernel wrapper needs, by prefix (demangled): checks and errors, logging, tensor and storage
# metadata, scalar types, devices, streams and guards, allocation helpers, the Python binding glue. Not on
# it, so refused: RecordFunction and its callbacks (the runtime wall's observer), dispatch-key TLS setters
# (IncludeDispatchKeyGuard, tls_set_*), which could step around what the runtime wall watches.
TORCH_OK = tuple("""
c10::detail::torchCheck c10::detail::torchInternalAssert c10::Error c10::Warning c10::WarningUtils
c10::ValueError c10::TypeError c10::IndexError c10::NotImplementedError c10::OutOfMemoryError c10::warn
c10::TensorImpl c10::StorageImpl c10::UndefinedTensorImpl c10::intrusive_ptr c10::SymInt c10::SymBool
c10::SymFloat c10::SymNode c10::impl::cow c10::impl::PyInterpreter c10::DeviceType c10::Device c10::Layout
c10::MemoryFormat c10::ScalarType c10::toString c10::typeMetaToScalarType c10::TypeMeta c10::impl::getDeviceGuardImpl
c10::impl::device_guard_impl_registry c10::impl::VirtualGuardImpl c10::detail::_str c10::str c10::Half
c10::BFloat16 c10::get_backtrace c10::GetExceptionString c10::Allocator c10::GetAllocator c10::GetCPUAllocator
c10::DataPtr c10::ArrayRef c10::SmallVectorBase c10::RefcountedDeleter c10::TensorOptions c10::operator<<
c10::AutogradMetaInterface c10::detail::LogAPIUsage c10::LogAPIUsage c10::DispatchKeySet c10::isIntegralType
c10::elementSize c10::Stream c10::DeviceGuard c10::StreamGuard c10::demangle c10::MessageLogger
c10::ThrowEnforceNotMet c10::impl::ExcludeDispatchKeyGuard
c10::AutoDispatchBelowADInplaceOrView c10::InferenceMode c10::AutogradState c10::GradMode c10::SafePyObject
c10::Scalar c10::ivalue::ConstantString c10::IValue::reportToTensorTypeError
c10::SymbolicShapeMeta c10::impl::getGlobalPyInterpreter caffe2::TypeMeta c10::SymNodeImpl c10::detail::
c10::cuda::getCurrentCUDAStream c10::cuda::getDefaultCUDAStream c10::cuda::CUDAStream
c10::cuda::c10_cuda_check_implementation c10::cuda::device_count c10::cuda::current_device
c10::cuda::set_device c10::cuda::get_cuda_check_suffix c10::cuda::CUDAKernelLaunchRegistry
c10::cuda::ExchangeDevice c10::cuda::GetDevice c10::cuda::SetDevice c10::cuda::MaybeSetDevice
c10::cuda::getStreamFromPool c10::cuda::impl:: c10::cuda::CUDACachingAllocator::get
c10::cuda::CUDACachingAllocator::raw_alloc c10::cuda::CUDACachingAllocator::raw_delete
c10::cuda::CUDACachingAllocator::allocator c10::cuda::warning_state c10::cuda::getCurrentCUDAStream
c10::cuda::CUDAErrorLogCapture c10::throwNullDataPtrError c10::cuda::setCurrentCUDAStream c10::impl::GPUTrace::
at::TensorBase:: at::Tensor::print at::Tensor::toString at::cuda::getCurrentCUDAStream
at::cuda::getCurrentDeviceProperties at::cuda::getDeviceProperties at::cuda::warp_size at::cuda::detail::
at::cuda::getStreamFromPool at::cuda::getDefaultCUDAStream at::cuda::device_count at::cuda::current_device
at::cuda::is_available at::detail::empty_cpu at::detail::empty_cuda at::detail::empty_generic
at::detail::empty_strided_cpu at::detail::empty_strided_cuda at::detail::check_size_nonnegative
at::detail::computeStorageNbytes at::detail::scalar_type at::print at::toString at::DeprecatedTypeProperties
at::TensorGeometry at::getCPUAllocator at::OptionalTensorRef at::NamedTensorMeta at::impl::GetVariableHooks
at::impl::MaybeSetTLSOnEntryGuard at::globalContext at::Context::getCUDAHooks at::Context::lazyInitDevice
torch::detail::TensorDataContainer torch::PyWarningHandler torch::translate_exception_to_python torch::utils::
torch::autograd::utils::wrap torch::autograd::Variable torch::python:: torch::wrap_pybind
THPVariable_Wrap THPVariable_Check THPVariableClass THPVariable_Unpack THPDevice THPDtype THPLayout
THPMemoryFormat THPSize THPUtils THPException THPStream THPGenerator
""".split())
TORCH_FAMILY = re.compile(r"(at|c10|torch|caffe2)::|THP")
CUDA_RT_OK = re.compile(
    r"__cuda(RegisterFatBinary|RegisterFatBinaryEnd|UnregisterFatBinary|RegisterFunction|RegisterVar|"
    r"RegisterManagedVar|RegisterTexture|RegisterSurface|PushCallConfiguration|PopCallConfiguration|"
    r"InitModule|RegisterLinkedBinary|LaunchKernel|GetKernel)\w*|"
    r"cuda(LaunchKernel|LaunchKernelExC|LaunchCooperativeKernel|GetLastError|PeekAtLastError|GetErrorString|"
    r"GetErrorName|Malloc|MallocAsync|Free|FreeAsync|Memcpy|Memset|MemcpyAsync|MemsetAsync|Memcpy2D|"
    r"Memcpy2DAsync|MemcpyToSymbol|MemcpyFromSymbol|MemcpyToSymbolAsync|MemcpyFromSymbolAsync|"
    r"GetSymbolAddress|FuncSetAttribute|FuncGetAttributes|FuncSetCacheConfig|FuncSetSharedMemConfig|"
    r"Occupancy\w+|DeviceGetAttribute|GetDevice|GetDeviceCount|GetDeviceProperties|SetDevice|"
    r"DeviceSynchronize|StreamSynchronize|DeviceGetLimit|DeviceSetLimit|DeviceGetCacheConfig|"
    r"DeviceSetCacheConfig|DeviceSetSharedMemConfig|DriverGetVersion|RuntimeGetVersion|PointerGetAttributes|"
    r"CreateChannelDesc|GetFuncBySymbol|LaunchHostFunc|Event(Create|CreateWithFlags|Destroy|Record|"
    r"RecordWithFlags|Query|Synchronize|ElapsedTime)|Stream(IsCapturing|WaitEvent|Query|GetPriority|Create|"
    r"CreateWithFlags|CreateWithPriority|Destroy)|DeviceGetStreamPriorityRange)(_v\d+|_ptds|_ptsz)?")
CUDA_BAD = re.compile(
    r"(cublas|cublasLt|cudnn|cufft|cusparse|curand|cusolver|nccl|nvrtc|nvJitLink|cutensor|npp|nvjpeg)\w*|"
    r"cu(Module|Library|Link|Kernel|Graph|Launch|GetProcAddress|Ctx)\w*|cuda(Graph|GetDriverEntryPoint|"
    r"StreamBeginCapture|StreamEndCapture|LibraryLoad|Library|Kernel)\w*")
# the C and C++ runtime a kernel wrapper needs; anything else (the loader, processes, signals, timers, files,
# sockets, raw I/O, the environment, libstdc++'s file, thread and filesystem classes) is refused by name
LIBC_OK = re.compile(
    r"(mem(cpy|move|set|cmp|chr|rchr)|str(len|nlen|cmp|ncmp|cpy|ncpy|cat|ncat|chr|rchr|str|dup|ndup|spn|cspn|"
    r"pbrk|coll|xfrm|error|error_r|tol|toul|toll|toull|tod|tof|told|tok_r)|__isoc(99|23)_(strtol|strtoul|strtoll|"
    r"strtoull|sscanf)|sscanf|ato[ifl]|atoll|abs|labs|llabs|div|ldiv|qsort|bsearch|to(lower|upper)|is(alpha|"
    r"digit|alnum|space|upper|lower|xdigit|punct|print)|__ctype_(b|tolower|toupper)_loc|__errno_location|"
    r"malloc|calloc|realloc|free|posix_memalign|aligned_alloc|memalign|(__)?(v?f?printf|v?s?n?printf|puts|"
    r"fputs|fputc|putc|putchar|fwrite|fflush)(_chk)?|__(memcpy|memmove|memset|strcpy|strcat|strncpy|"
    r"vsnprintf|snprintf|sprintf|vsprintf)_chk|stdout|stderr|__stack_chk_fail|__assert_fail|abort|"
    r"__cxa_\w+|__gxx_personality_v0|_Unwind_\w+|__dynamic_cast|__tls_get_addr|__libc_single_threaded|"
    r"__gmon_start__|_ITM_(de)?registerTMCloneTable|__once_proxy|"
    r"pthread_(mutex|cond|rwlock|once|key|getspecific|setspecific|self|equal|spin)\w*|__pthread_key_create|"
    r"clock_gettime|clock|gettimeofday|time|sched_yield|localeconv|"
    r"__(add|sub|mul|div|mod|udiv|umod|neg|popcount|clz|ctz|ffs|parity|bswap|fix|float|extend|trunc|cmp|ucmp|"
    r"pow)\w*|"
    r"__(isnan|isinf|fpclassify|signbit|finite)[fl]?|__\w+_finite|"
    r"(fabs|acos|asin|atan|atan2|cos|sin|tan|cosh|sinh|tanh|acosh|asinh|atanh|exp|exp2|expm1|exp10|log|log10|log2|"
    r"log1p|logb|pow|sqrt|cbrt|hypot|erf|erfc|tgamma|lgamma|lgamma_r|ceil|floor|trunc|round|lround|llround|"
    r"rint|lrint|llrint|nearbyint|fmod|remainder|remquo|fma|fmax|fmin|fdim|frexp|ldexp|modf|scalbn|scalbln|"
    r"ilogb|copysign|nan|nextafter|nexttoward|sincos)[fl]?)")
# libstdc++ by qualified name: strings, string streams and the standard streams' formatting, exceptions,
# hashing and node containers' helpers, clocks, once and condition variables
STD_OK = tuple("""
std::__cxx11::basic_string< std::basic_string< std::__cxx11::basic_ostringstream< std::__cxx11::basic_istringstream<
std::__cxx11::basic_stringstream< std::__cxx11::basic_stringbuf< std::basic_ostream< std::basic_istream<
std::basic_iostream< std::basic_ios< std::basic_streambuf< std::ios_base:: std::locale:: std::ctype<
std::num_put< std::num_get< std::numpunct< std::__cxx11::numpunct< std::use_facet< std::has_facet<
std::__ostream_insert<
std::operator<< std::operator>> std::getline< std::endl< std::flush< std::ws< std::__throw_ std::runtime_error::
std::logic_error:: std::invalid_argument:: std::out_of_range:: std::length_error:: std::domain_error::
std::range_error:: std::overflow_error:: std::underflow_error:: std::exception:: std::bad_alloc:: std::bad_cast::
std::bad_typeid:: std::bad_function_call:: std::bad_optional_access:: std::bad_variant_access::
std::bad_array_new_length:: std::bad_weak_ptr:: std::nested_exception:: std::system_error:: std::error_category::
std::_V2::error_category:: std::_V2::system_category std::_V2::generic_category std::__exception_ptr::
std::rethrow_exception std::current_exception std::terminate std::uncaught_exception std::type_info::
std::_Hash_bytes std::_Fnv_hash_bytes std::__detail::_Prime_rehash_policy:: std::__detail::_List_node_base::
std::_Rb_tree_ std::_List_node_base:: std::_Sp_make_shared_tag:: std::chrono::_V2::steady_clock::now
std::chrono::_V2::system_clock::now std::cout std::cerr std::clog std::__once_callable std::__once_call
std::condition_variable:: std::__glibcxx_assert_fail std::nothrow std::get_new_handler std::allocator<char>::
std::__cxx11::to_string std::__detail::__to_chars std::align_val_t std::ios_base_library_init
""".split())
# the classes an imported vtable, VTT or typeinfo may name: the C++ ABI's, torch's error and autograd types
TYPEINFO_OK = ("__cxxabiv1::", "c10::", "at::", "torch::autograd::AutogradMeta", "caffe2::", "pybind11::",
               "bool", "char", "int", "long", "unsigned", "float", "double", "void", "short", "signed")
RAW_SYSCALL = re.compile(r":\t(syscall|sysenter|int\s+\$0x80)\b")
FATAL = {"EXTENSION_IMPORT", "EXTENSION_LIBRARY_KERNEL"}
NEEDED_BAD = re.compile(r"lib(cublas|cublasLt|cudnn|cufft|cusparse|curand|cusolver|nccl|nvrtc|nvJitLink|"
                        r"cutensor|npp|nvjpeg|dl|python)\w*\.so.*|libcuda\.so.*")


def _sections(data):
    """The section headers of an ELF64 little-endian file (sh_name, sh_type, ..., as struct tuples)."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    return [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]


def _elf(data):
    """(undefined dynamic symbol names, DT_NEEDED names) of an ELF64 little-endian shared object."""
    secs = _sections(data)
    undefined, needed = [], []

    def cstr(off):
        return data[off:data.index(b"\0", off)].decode("utf-8", "replace")
    for s in secs:
        if s[1] == 11:  # SHT_DYNSYM
            strtab = secs[s[6]][4]
            for off in range(s[4], s[4] + s[5], 24):
                name, info, _other, shndx = struct.unpack_from("<IBBH", data, off)
                if shndx == 0 and name:
                    undefined.append(cstr(strtab + name))
        elif s[1] == 6:  # SHT_DYNAMIC
            strtab = secs[s[6]][4]
            for off in range(s[4], s[4] + s[5], 16):
                tag, val = struct.unpack_from("<qQ", data, off)
                if tag == 1:
                    needed.append(cstr(strtab + val))
                elif tag == 0:
                    break
    return undefined, needed


def _defined_functions(data):
    """Names of the functions the module itself defines (.symtab and .dynsym, local ones too)."""
    secs = _sections(data)
    names = set()
    for s in secs:
        if s[1] in (2, 11):  # SHT_SYMTAB, SHT_DYNSYM
            strtab = secs[s[6]][4]
            for off in range(s[4], s[4] + s[5], 24):
                name, info, _other, shndx = struct.unpack_from("<IBBH", data, off)
                if shndx != 0 and name and info & 0xF == 2:  # STT_FUNC
                    names.add(data[strtab + name:data.index(b"\0", strtab + name)].decode("utf-8", "replace"))
    return sorted(names)


# the host stubs of a library's device-wide kernels compiled into the module (block- and warp-level
# primitives are inlined into the answer's own kernels and leave no such stub)
LIBRARY_KERNEL = re.compile(r"void (cub|thrust|cutlass)::\S*?(Device\w*Kernel|_kernel_agent|Kernel2?|device_kernel)\b")


def library_kernels(data):
    cands = [n for n in _defined_functions(data) if any(k in n for k in ("cub", "thrust", "cutlass"))]
    return sorted({m.group(0)[5:] for m in (LIBRARY_KERNEL.match(d) for d in demangle(cands)) if m})


def demangle(names, qualified=False):
    """c++filt's names; qualified: without return type and parameters (`c++filt -p`), what is judged."""
    try:
        out = subprocess.run(["c++filt"] + (["-p"] if qualified else []), input="\n".join(names),
                             capture_output=True, text=True, timeout=60)
        lines = out.stdout.split("\n")
        if out.returncode == 0 and len(lines) >= len(names):
            return lines[:len(names)]
    except (OSError, subprocess.SubprocessError):
        pass
    return list(names)


def _op_of(sym):
    m = re.match(r"at::_ops::(\w+)::(call|redispatch)\b", sym)
    return m.group(1) if m else None


TYPE_PREFIX = re.compile(r"(vtable|VTT|typeinfo|typeinfo name|construction vtable) for (.*)")


def judge_symbol(sym, policy):
    """(code or None, message): EXTENSION_IMPORT (fatal), TORCH_CORE_OP_ALLOWED (non-fatal), GLUE_ONLY (allowed
    where pybind11's own functions call it: judge() looks at the call sites) or None (fine). sym is the
    qualified name (demangle(..., qualified=True))."""
    base = sym.split("@")[0]
    op = _op_of(base)
    if op is not None:
        if op in OPS_OK:
            return None, ""
        core = op.split("_")[0] if op.split("_")[0] in cppext.CORE_ATEN else op
        if policy == "kernelbench" and (op in cppext.CORE_ATEN or core in cppext.CORE_ATEN):
            return "TORCH_CORE_OP_ALLOWED", f"calls the ATen core op {op} (policy kernelbench)"
        return "EXTENSION_IMPORT", f"calls the ATen op {op} ({base})"
    t = TYPE_PREFIX.fullmatch(base)
    if t:  # a vtable or typeinfo: the class's virtual functions come with it
        cls = t.group(2)
        if cls.startswith("std::"):
            return (None, "") if (cls + "::").startswith(STD_OK) or cls.startswith(STD_OK) else (
                "EXTENSION_IMPORT", f"uses libstdc++'s {cls[:160]}, which is not on the kernel wrapper's allowlist")
        return (None, "") if cls.startswith(TYPEINFO_OK) else (
            "EXTENSION_IMPORT", f"uses the {t.group(1)} of {cls[:160]}, which is not on the kernel wrapper's allowlist")
    if re.match(r"(c10::Dispatcher|c10::OperatorHandle|c10::impl::OperatorEntry|c10::KernelFunction|"
                r"torch::jit|torch::nn|torch::autograd::(?!utils::wrap|Variable)|at::native|at::cpu::|"
                r"at::cuda::(?!getCurrent|getDefault|getDevice|warp_size|detail::|getStreamFromPool|"
                r"device_count|current_device|is_available|CUDAEvent)|at::(compositeexplicitautograd|"
                r"compositeimplicitautograd|meta|cuda::blas|redispatch)|c10::impl::BoxedKernelWrapper)", base):
        return "EXTENSION_IMPORT", f"uses torch's {base[:160]} (compute or the dispatcher)"
    if TORCH_FAMILY.match(base):
        if base.startswith(TORCH_OK):
            return None, ""
        return "EXTENSION_IMPORT", f"uses torch's {base[:160]}, which is not on the kernel wrapper's allowlist"
    if base.startswith("pybind11::"):  # pybind11's code as torch_python exports it (its tensor caster)
        return None, ""
    if base.startswith(("Py", "_Py")):
        if PY_BAD.fullmatch(base):
            return "EXTENSION_IMPORT", f"uses Python's C API {base} beyond what the binding needs"
        if GLUE_ONLY.fullmatch(base):
            return "GLUE_ONLY", ""
        if not base.startswith(PY_OK):
            return "EXTENSION_IMPORT", f"uses Python's C API {base} beyond what the binding needs"
        return None, ""
    if CUDA_BAD.fullmatch(base):
        return "EXTENSION_IMPORT", f"calls the vendor library or driver function {base}"
    if base.startswith(("cuda", "__cuda")):
        return (None, "") if CUDA_RT_OK.fullmatch(base) else (
            "EXTENSION_IMPORT", f"calls the CUDA runtime's {base}, which a kernel wrapper does not need")
    if re.fullmatch(r"cu[A-Z]\w*", base):
        return "EXTENSION_IMPORT", f"calls the CUDA driver's {base}"
    if base.startswith("std::"):
        return (None, "") if base.startswith(STD_OK) else (
            "EXTENSION_IMPORT", f"calls libstdc++'s {base[:160]} (files, threads, the file system or other "
                                "services a kernel wrapper does not need)")
    if base.startswith(("operator new", "operator delete")) or LIBC_OK.fullmatch(base):
        return None, ""
    return "EXTENSION_IMPORT", f"calls {base[:160]}, which is not on the kernel wrapper's allowlist (the loader, " \
                               "processes, signals and timers, files, sockets or raw I/O)"


def _objdump(args):
    """binutils' objdump (the toolchain the builder needs has it); a failure to run it is a module the judge
    cannot read (ValueError: the scheduler refuses the build)."""
    try:
        return subprocess.run(["objdump"] + args, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as e:
        raise ValueError(f"objdump could not read the module: {e}") from e


def _disassembly(path):
    """(references, raw system calls) of the module's code: {symbol: {function (mangled) that references it}}, by
    objdump's disassembly (calls, jumps and address loads, through the PLT or the GOT); [function] holding a
    syscall/sysenter/int 0x80 instruction."""
    out = _objdump(["-d", "--no-show-raw-insn", path])
    if out.returncode != 0:
        raise ValueError(f"objdump could not disassemble the module: {out.stderr[-300:]}")
    refs, raw, fn = {}, [], None
    for line in out.stdout.splitlines():
        if not line.startswith(" "):
            m = re.match(r"[0-9a-f]+ <(.*)>:$", line)
            if m:
                fn = m.group(1)
            continue
        if fn is None or fn.endswith("@plt"):
            continue
        if RAW_SYSCALL.search(line):
            raw.append(fn)
        for t in re.findall(r"<([A-Za-z_][\w.]*)(?:@plt|@Base)?(?:\+0x[0-9a-f]+)?>", line):
            refs.setdefault(t, set()).add(fn)
    return refs, raw


def _stored_addresses(path):
    """Imported symbols whose address the module stores in its data (absolute dynamic relocations), not only
    in the GOT slots its code calls through."""
    out = _objdump(["-R", path])
    return {m.group(1) for m in re.finditer(r"^[0-9a-f]+ R_X86_64_(?:64|32|32S)\s+([^@\s+]+)", out.stdout, re.M)}


def judge(path, policy="strict"):
    """[(code, message, symbol)] of the module at path: EXTENSION_IMPORT findings are fatal."""
    with open(path, "rb") as f:
        data = f.read()
    undefined, needed = _elf(data)
    out = []
    for lib in needed:
        if NEEDED_BAD.fullmatch(lib):
            out.append(("EXTENSION_IMPORT", f"links {lib}, a library a kernel wrapper does not need", lib))
    glue = []
    for mangled, sym in zip(undefined, demangle(undefined, qualified=True)):
        code, message = judge_symbol(sym, policy)
        if code == "GLUE_ONLY":
            glue.append(mangled)
        elif code is not None:
            out.append((code, message, _op_of(sym) or mangled))
    refs, raw = _disassembly(path)
    raw = sorted(set(raw))[:3]
    for fn, name in zip(raw, demangle(raw)):
        out.append(("EXTENSION_IMPORT", f"executes a raw syscall instruction in {name[:160]} (a system call that "
                                        "imports nothing)", "syscall"))
    stored = _stored_addresses(path) if glue else set()
    for sym in glue:
        callers = demangle(sorted(f for f in refs.get(sym, ()) if not GLUE_SITE.fullmatch(f)))
        if sym in stored:  # its address in data: whoever calls through it is not seen in the code
            out.append(("EXTENSION_IMPORT", f"stores the address of Python's C API {sym} in data (a call "
                                            "through it is not pybind11's binding glue)", sym))
        elif callers:
            out.append(("EXTENSION_IMPORT", f"calls Python's C API {sym} from {callers[0][:160]}, not from "
                                            "pybind11's binding glue (calling objects by name, the builtins)", sym))
    for k in library_kernels(data)[:5]:
        out.append(("EXTENSION_LIBRARY_KERNEL" if policy != "kernelbench" else "LIBRARY_KERNEL_ALLOWED",
                    f"holds the library kernel {k[:160]} (a device-wide algorithm does the work)", k))
    out += device_prints(os.path.dirname(path))
    return out


def device_prints(build_dir):
    """[(EXTENSION_IMPORT, message, "vprintf")] when the device code nvcc compiled in build_dir prints: printf in a
    kernel is vprintf in its PTX, which nvcc writes to the build folder (its TMPDIR) and leaves there. A print is a
    channel from the kernel's data to the host that no op sees (redteam/wall2 h_r47_device_print_leak, a Triton
    kernel's; hooks.py refuses triton's print). The host's imports cannot show it: vprintf is the device's."""
    try:
        names = sorted(n for n in os.listdir(build_dir) if n.endswith(".ptx"))
    except OSError:
        return []
    for n in names:
        with open(os.path.join(build_dir, n), "rb") as f:
            if re.search(rb"\bvprintf\b", f.read()):
                return [("EXTENSION_IMPORT", "prints from its device code (vprintf, a channel from the kernel's data "
                                             "to the host that no op sees)", "vprintf")]
    return []


def imports(path):
    """Demangled undefined symbols and needed libraries (for logs and tests)."""
    with open(path, "rb") as f:
        undefined, needed = _elf(f.read())
    return demangle(undefined), needed
