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
- the C library: processes, the dynamic loader, sockets, files and memory protection are refused; the rest
  of libc, libstdc++ and libgcc passes.
Library code compiled into the module (CUB, Thrust, CUTLASS header templates) is the answer's own code: it
imports nothing, so it passes here (docs/VERIFIER.md, Extension builder).
"""
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
# Python's C API pybind11's binding code and torch's type casters import (measured on built wrappers)
PY_OK = tuple("""
PyType_ PyTuple_ PyList_ PyDict_ PyLong_ PyFloat_ PyBool_ PyUnicode_ PyBytes_ PyByteArray_ PyExc_ PyErr_
PyException_ PyCapsule_ PyCFunction_ PyCMethod_New PyModule_ PyModuleDef_ PyMethod_ PyInstanceMethod_
PyProperty_Type PyStaticMethod_ PyClassMethod_ PyWeakref_ PySlice_ PyIndex_ PyNumber_ PySequence_ PyIter_
PyMem_ PyBaseObject_Type PyObject_GetAttr PyObject_SetAttr PyObject_HasAttr PyObject_GenericGetAttr
PyObject_GenericSetAttr PyObject_GenericGetDict PyObject_GenericSetDict PyObject_ClearWeakRefs
PyObject_IsInstance PyObject_IsSubclass PyObject_Str PyObject_Repr PyObject_Hash PyObject_RichCompare
PyObject_Free PyObject_Malloc PyObject_Realloc PyObject_GC_ PyObject_Init PyObject_GetIter PyObject_Size
PyObject_Length PyObject_Type PyObject_IsTrue PyObject_GetItem PyObject_SetItem PyObject_DelItem
PyObject_CallFunctionObjArgs PyObject_CallObject PyObject_Call PyObject_GetBuffer PyBuffer_ PyMemoryView_
PyFrame_GetBack PyFrame_GetCode PyFrame_GetLineNumber PyThread_tss_ PyThreadState_New PyThreadState_Clear
PyThreadState_DeleteCurrent PyThreadState_Get PyThreadState_Swap PyGILState_ PyInterpreterState_Get
PyEval_SaveThread PyEval_RestoreThread PyEval_AcquireThread PyEval_ReleaseThread PyEval_GetBuiltins
PyEval_InitThreads PyComplex_ PyGen_ PyCell_ PyStructSequence_ PyCallable_Check PyOS_snprintf PyArg_
Py_GetVersion Py_IncRef Py_DecRef Py_IsInitialized Py_BuildValue _Py_Dealloc _Py_NoneStruct _Py_TrueStruct
_Py_FalseStruct _Py_NotImplementedStruct _Py_EllipsisObject _PyObject_New _PyObject_GetDictPtr _PyType_Lookup
_PyThreadState_UncheckedGet _Py_IncRef _Py_DecRef _PyObject_GC_New _PyArg_ _PyErr_ _Py_BuildValue_SizeT
_PyLong_ _PyUnicode_ _PyObject_MakeTpCall _Py_CheckFunctionResult _PyObject_Vectorcall
""".split())
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
c10::cuda::CUDAErrorLogCapture c10::throwNullDataPtrError
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
    r"CreateChannelDesc|GetFuncBySymbol|LaunchHostFunc)(_v\d+|_ptds|_ptsz)?")
CUDA_BAD = re.compile(
    r"(cublas|cublasLt|cudnn|cufft|cusparse|curand|cusolver|nccl|nvrtc|nvJitLink|cutensor|npp|nvjpeg)\w*|"
    r"cu(Module|Library|Link|Kernel|Graph|Launch|GetProcAddress|Ctx)\w*|cuda(Graph|GetDriverEntryPoint|"
    r"StreamBeginCapture|StreamEndCapture|LibraryLoad|Library|Kernel)\w*")
LIBC_BAD = re.compile(
    r"(dlopen|dlmopen|dlsym|dlvsym|dladdr|dlinfo|_dl_\w+|system|popen|execl|execlp|execle|execv|execve|execvp|"
    r"execvpe|fexecve|fork|vfork|clone|clone3|posix_spawn\w*|wordexp|socket|socketpair|connect|bind|listen|"
    r"accept|accept4|sendto|sendmsg|recvfrom|recvmsg|getaddrinfo|gethostbyname|ptrace|syscall|mprotect|"
    r"pkey_mprotect|memfd_create|open|open64|openat|openat64|fopen|fopen64|freopen|creat|unlink|unlinkat|"
    r"rename|renameat|chmod|chown|mkdir|rmdir|symlink|link|truncate|getenv|secure_getenv|setenv|putenv|kill|"
    r"prctl|setuid|setgid|unshare|setns|pthread_create|process_vm_readv|process_vm_writev|"
    r"__libc_(system|fork|dlopen|dlsym|dlvsym|dlclose)|shm_open|shmget|shmat|mmap|mmap64|dup2|dup3|chdir|fchdir)(@\S+)?")
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


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, timeout=60)
        lines = out.stdout.split("\n")
        if out.returncode == 0 and len(lines) >= len(names):
            return lines[:len(names)]
    except (OSError, subprocess.SubprocessError):
        pass
    return list(names)


def _op_of(sym):
    m = re.match(r"at::_ops::(\w+)::(call|redispatch)\b", sym)
    return m.group(1) if m else None


def judge_symbol(sym, policy):
    """(code or None, message): EXTENSION_IMPORT (fatal), TORCH_CORE_OP_ALLOWED (non-fatal) or None (fine)."""
    base = sym.split("@")[0]
    op = _op_of(base)
    if op is not None:
        if op in OPS_OK:
            return None, ""
        core = op.split("_")[0] if op.split("_")[0] in cppext.CORE_ATEN else op
        if policy == "kernelbench" and (op in cppext.CORE_ATEN or core in cppext.CORE_ATEN):
            return "TORCH_CORE_OP_ALLOWED", f"calls the ATen core op {op} (policy kernelbench)"
        return "EXTENSION_IMPORT", f"calls the ATen op {op} ({base})"
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
    if base.startswith(("Py", "_Py")):
        if PY_BAD.fullmatch(base) or not base.startswith(PY_OK):
            return "EXTENSION_IMPORT", f"uses Python's C API {base} beyond what the binding needs"
        return None, ""
    if CUDA_BAD.fullmatch(base):
        return "EXTENSION_IMPORT", f"calls the vendor library or driver function {base}"
    if base.startswith(("cuda", "__cuda")):
        return (None, "") if CUDA_RT_OK.fullmatch(base) else (
            "EXTENSION_IMPORT", f"calls the CUDA runtime's {base}, which a kernel wrapper does not need")
    if re.fullmatch(r"cu[A-Z]\w*", base):
        return "EXTENSION_IMPORT", f"calls the CUDA driver's {base}"
    if LIBC_BAD.fullmatch(base):
        return "EXTENSION_IMPORT", f"calls {base} (processes, files, the loader or the network)"
    return None, ""


def judge(path, policy="strict"):
    """[(code, message, symbol)] of the module at path: EXTENSION_IMPORT findings are fatal."""
    with open(path, "rb") as f:
        data = f.read()
    undefined, needed = _elf(data)
    out = []
    for lib in needed:
        if NEEDED_BAD.fullmatch(lib):
            out.append(("EXTENSION_IMPORT", f"links {lib}, a library a kernel wrapper does not need", lib))
    for mangled, sym in zip(undefined, demangle(undefined)):
        code, message = judge_symbol(sym, policy)
        if code is not None:
            out.append((code, message, _op_of(sym) or mangled))
    for k in library_kernels(data)[:5]:
        out.append(("EXTENSION_LIBRARY_KERNEL" if policy != "kernelbench" else "LIBRARY_KERNEL_ALLOWED",
                    f"holds the library kernel {k[:160]} (a device-wide algorithm does the work)", k))
    return out


def imports(path):
    """Demangled undefined symbols and needed libraries (for logs and tests)."""
    with open(path, "rb") as f:
        undefined, needed = _elf(f.read())
    return demangle(undefined), needed
