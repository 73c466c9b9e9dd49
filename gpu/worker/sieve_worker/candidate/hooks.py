"""Launch hook: counts launches of kernels defined in the candidate's own file, records their pointer
arguments, can turn them into launches that only poison their outputs (the proof-of-work probe) and,
under TRITON_INTERPRET, checks every load and store against the tensors passed to the launch
(out-of-bounds accesses otherwise read garbage or crash the interpreter).

The hook wraps the `run` method of the kernel classes, which both the `kernel[grid](...)` path and the
autotuner go through; that is stable across triton 3.x, unlike the launch-hook knobs (knobs.runtime.
launch_enter_hook in 3.4+, CompiledKernel.launch_enter_hook before).
"""
import time

import numpy as np


class OutOfBounds(Exception):
    pass


def tensor_ranges(args, kwargs):
    """[(lo, hi)] of the storages of the tensors among a launch's arguments."""
    import torch
    out = []

    def visit(a):
        if isinstance(a, torch.Tensor):
            st = a.untyped_storage()
            out.append((st.data_ptr(), st.data_ptr() + st.nbytes()))
        elif isinstance(a, (tuple, list)):
            for x in a:
                visit(x)
    for a in list(args) + list(kwargs.values()):
        visit(a)
    return out


def fill_poison(args, kwargs, poison, protect):
    """The probe's launch: instead of the kernel, every tensor argument that is not (part of) an input or
    parameter (protect: their storage ranges) gets the poison value over its whole storage, whatever the kernel
    would write. The runtime wall calls it with the poison it keeps (sieve_wall.cpp)."""
    import torch
    from ..data.transport import poison_value
    seen = set()

    def visit(a):
        if isinstance(a, torch.Tensor):
            st = a.untyped_storage()
            lo, hi = st.data_ptr(), st.data_ptr() + st.nbytes()
            if lo in seen or any(p < hi and lo < q for p, q in protect):
                return
            seen.add(lo)
            n = st.nbytes() // a.element_size()
            if n:
                whole = torch.empty(0, dtype=a.dtype, device=a.device).set_(st, 0, (n,), (1,))
                whole.fill_(poison_value(str(a.dtype).replace("torch.", ""), poison))
        elif isinstance(a, (tuple, list)):
            for x in a:
                visit(x)
    for a in list(args) + list(kwargs.values()):
        visit(a)


def poison_extension_call(args, kwargs, result, poison, protect):
    """A CUDA answer's extension function on the probe (the wall calls it after the real call): its tensor
    arguments and results get the poison."""
    fill_poison(list(args) + [result], kwargs or {}, poison, protect)
    return result


class LaunchHook:
    """With the runtime wall (install(wall_mod)), the counts, the kernel names, the probe's poison and what it
    protects are the wall's C++ statics (sieve_wall.cpp, launch accounting): this object holds none of what the
    verdict reads, and an answer that finds it (gc) learns nothing and changes nothing. Without the wall
    (runtime_wall: false) they are kept here, as before the wall, and the answer can reach them."""

    def __init__(self, candidate_file):
        self.file = candidate_file
        self.wall = None
        self._launches = 0
        self._names = set()
        self._ranges = []         # (lo, hi) of tensor args of candidate launches, for the output check
        self._poison = None       # the probe: launches only fill their (non-input) tensor arguments with this
        self._last = None
        self._protect = []        # storage ranges the probe leaves alone (the model's inputs and parameters)
        self._forward_seconds = 0.0
        self._seconds = 0.0       # wall time inside candidate launches (the CPU share figure)
        self.share = {"timer": None}  # "timer": a list while the GPU share is measured: (start, end) events
        self.Event = self.record = None
        self.check_ranges = None  # allowed [lo, hi) address ranges while an interpreted launch runs (no wall)

    # ---- what the child reads and sets (the wall's statics, or this object without the wall) --------------

    def counts(self):
        """(launches, kernel names, seconds in the answer's launches, seconds in forward windows)."""
        if self.wall is not None:
            n, names, sec, fwd = self.wall.counts()
            return n, set(names), sec, fwd
        return self._launches, set(self._names), self._seconds, self._forward_seconds

    def add_forward_seconds(self, s):
        if self.wall is None:  # the wall times its windows itself
            self._forward_seconds += s

    def harness_calls(self):
        """(arm(poison or None, ablate_extensions), protect([(lo, hi)]), probed()): the next forward's probe,
        what it leaves alone, and whether the forward that just ended was it. With the wall they are its C
        functions (sieve_wall.cpp), which the child holds from before the answer loads."""
        if self.wall is not None:
            return self.wall.arm, self.wall.protect, self.wall.probed

        def arm(poison, ablate_extensions):
            self._poison = poison

        def protect(ranges):
            self._protect = ranges

        def probed():
            was, self._poison = self._poison is not None, None
            return was
        return arm, protect, probed

    def count_kernel(self, name):
        if self.wall is not None:
            self.wall.count_kernel(name)
        else:
            self._launches += 1
            self._names.add(name)

    def overlaps(self, tensor):
        st = tensor.untyped_storage()
        lo, hi = st.data_ptr(), st.data_ptr() + st.nbytes()
        if self.wall is not None:
            return self.wall.overlaps(lo, hi)
        return any(a < hi and lo < b for a, b in self._ranges)

    def is_candidate(self, kernel):
        fn = kernel
        for _ in range(8):  # Autotuner/Heuristics wrap the JITFunction in .fn
            inner = getattr(fn, "fn", None)
            if inner is None:
                break
            fn = inner
        code = getattr(fn, "__code__", None)
        return code is not None and code.co_filename == self.file, getattr(fn, "__name__", "?")

    def install(self, wall_mod=None):
        """Routes triton's launches through the hook: through the runtime wall's launch() (which counts, runs
        the probe and times them in C++) when there is one, else through Python."""
        _refuse_device_prints()
        from triton.runtime import jit
        classes = [jit.JITFunction]
        try:
            from triton.runtime.interpreter import InterpretedFunction
            classes.append(InterpretedFunction)
        except ImportError:
            pass
        self.wall = wall_mod
        if wall_mod is not None:
            _wall_device_calls(wall_mod.callee)  # before launch_setup, which keeps the classes as they are then
            runs = [c.run for c in classes] + [None] * (2 - len(classes))
            wall_mod.launch_setup(classes[0], runs[0], classes[1] if len(classes) > 1 else None, runs[1],
                                  fill_poison, tensor_ranges)
            for kind, cls in enumerate(classes):
                cls.run = _wall_run(kind, wall_mod.launch, self)
            self.install_bounds_check()
            return
        hook = self
        for cls in classes:
            original = cls.run
            interpreted = cls.__name__ == "InterpretedFunction"

            def run(kself, *args, _orig=original, _interp=interpreted, **kwargs):
                mine, name = hook.is_candidate(kself)
                if not mine or kwargs.get("warmup"):
                    return _orig(kself, *args, **kwargs)
                hook._launches += 1
                hook._names.add(name)
                ranges = tensor_ranges(args, kwargs)
                hook._ranges += ranges
                if hook._poison is not None:
                    fill_poison(args, kwargs, hook._poison, hook._protect)
                    return None
                t0 = time.perf_counter()
                if _interp:
                    hook.check_ranges = ranges
                timer = hook.share["timer"]
                if timer is not None:
                    ev0 = hook.Event(enable_timing=True)
                    hook.record(ev0)
                try:
                    return _orig(kself, *args, **kwargs)
                finally:
                    hook.check_ranges = None
                    hook._seconds += time.perf_counter() - t0
                    if timer is not None:
                        ev1 = hook.Event(enable_timing=True)
                        hook.record(ev1)
                        timer.append((ev0, ev1))
            cls.run = run
        self.install_bounds_check()

    def current_ranges(self):
        return self.wall.launch_ranges() if self.wall is not None else self.check_ranges

    def install_bounds_check(self):
        try:
            from triton.runtime import interpreter as it
        except ImportError:
            return
        builder = it.InterpreterBuilder
        hook = self

        def check(ptrs, mask, what):
            rng = hook.current_ranges()
            if rng is None:
                return
            addr = np.asarray(ptrs.data).astype(np.uint64)
            m = np.ones(addr.shape, dtype=bool) if mask is None else np.asarray(mask.data).astype(bool)
            m = np.broadcast_to(m, addr.shape)
            active = addr[m]
            if active.size == 0:
                return
            try:
                esz = it._get_np_dtype(ptrs.get_element_ty()).itemsize
            except Exception:
                esz = 1
            ok = np.zeros(active.shape, dtype=bool)
            for lo, hi in rng:
                ok |= (active >= lo) & (active + esz <= hi)
            if not ok.all():
                bad = int(active[~ok][0])
                raise OutOfBounds(f"{what} at address {bad:#x} outside every tensor passed to the kernel")

        orig_load, orig_store = builder.create_masked_load, builder.create_masked_store

        def create_masked_load(bself, ptrs, mask, other, cache_policy, is_volatile):
            check(ptrs, mask, "load")
            return orig_load(bself, ptrs, mask, other, cache_policy, is_volatile)

        def create_masked_store(bself, ptrs, value, mask, cache_policy):
            check(ptrs, mask, "store")
            return orig_store(bself, ptrs, value, mask, cache_policy)
        builder.create_masked_load = create_masked_load
        builder.create_masked_store = create_masked_store
        for name in ("create_atomic_rmw", "create_atomic_cas"):
            orig = getattr(builder, name, None)
            if orig is None:
                continue

            def atomic(bself, *a, _orig=orig, _name=name):
                check(a[1] if _name == "create_atomic_rmw" else a[0], a[3] if _name == "create_atomic_rmw" else None,
                      "atomic")
                return _orig(bself, *a)
            setattr(builder, name, atomic)


class DevicePrint(PermissionError):
    pass


def _refuse_device_prints():
    """A device print is a channel from the kernel's data to the host that no op sees (redteam/wall2
    h_r47_device_print_leak: a kernel printed its input, the forward caught fd 1 or sys.stdout, computed in Python
    and a second kernel copied the result out). Verification needs no print: triton's print, wherever a kernel
    reaches it (tl.device_print, Python's print in a kernel, a builtin of the answer's calling the semantic or the
    IR builder itself), is replaced by a refusal before the answer loads, and no reference to the original is kept."""
    def refuse(*args, **kwargs):
        raise DevicePrint("sieve runtime wall: refused: a device print in a kernel (a channel from the kernel's "
                          "data to the host that no op sees)")
    try:
        from triton.language.semantic import TritonSemantic
        TritonSemantic.device_print = refuse
    except ImportError:
        pass
    try:
        from triton._C.libtriton import ir
        ir.builder.create_print = refuse
    except (ImportError, AttributeError, TypeError):
        pass
    try:
        from triton.runtime import interpreter
        interpreter.InterpreterBuilder.create_print = refuse
        # the interpreter's tl.static_print is Python's print (its _patch_lang reads the module's name `print`),
        # which prints a tile's values; on the GPU it prints at compile time, types and constants only: quiet here
        interpreter.print = lambda *args, **kwargs: None
    except ImportError:
        pass


def _wall_device_calls(callee):
    """Every function triton compiles (a CodeGenerator is made for the kernel and for each device function it calls,
    whatever reached it) and every device function the interpreter calls goes to the wall's callee() first, which
    refuses one that is neither the answer's nor triton's own (callees.cpp; redteam/wall2
    h_r39_device_call_torch_kernel). The wrappers' classes and closures are held by the wall."""
    try:
        from triton.compiler.code_generator import CodeGenerator
    except ImportError:
        CodeGenerator = None
    if CodeGenerator is not None:
        init = CodeGenerator.__init__

        def __init__(gself, *args, **kwargs):
            callee(0, kwargs.get("jit_fn"))
            init(gself, *args, **kwargs)
        CodeGenerator.__init__ = __init__
    try:
        from triton.runtime.interpreter import InterpretedFunction
    except ImportError:
        return
    call = InterpretedFunction.__call__

    def __call__(kself, *args, **kwargs):
        callee(1, kself)
        return call(kself, *args, **kwargs)
    InterpretedFunction.__call__ = __call__
    # a reduction's or scan's combine function: the interpreter calls its `fn` itself, past __call__ (round 43:
    # redteam/wall2 h_r43_combine_fn_plain_numpy handed it an object of the answer's with a plain helper as `fn`)
    try:
        from triton.runtime.interpreter import ReduceScanOpInterface
    except ImportError:
        return
    reduce_init = ReduceScanOpInterface.__init__  # its own name: `init` above is the code generator wrapper's cell

    def __init__(rself, axis, combine_fn, *args, **kwargs):
        callee(1, combine_fn)
        reduce_init(rself, axis, combine_fn, *args, **kwargs)
    ReduceScanOpInterface.__init__ = __init__


def _wall_run(kind, launch, hook):
    """The run method of triton's kernel class `kind` under the runtime wall: every launch goes to the wall's
    launch() (the closure is in the wall's snapshot). The GPU share's events are recorded around the answer's
    launches here, while the share is measured (hook.share["timer"])."""
    def run(kself, *args, **kwargs):
        timer = hook.share["timer"]
        if timer is None or not hook.is_candidate(kself)[0]:
            return launch(kind, kself, args, kwargs)
        ev0 = hook.Event(enable_timing=True)
        hook.record(ev0)
        try:
            return launch(kind, kself, args, kwargs)
        finally:
            ev1 = hook.Event(enable_timing=True)
            hook.record(ev1)
            timer.append((ev0, ev1))
    return run


def fix_interpreter_scalars():
    """triton <= 3.6 converts a loop bound with int(array of shape (1,)), which numpy >= 2.5 refuses
    ("only 0-dimensional arrays can be converted to Python scalars"): `for off in range(0, N, BLOCK)`
    then dies under TRITON_INTERPRET. Newer triton squeezes first; make every version do so."""
    try:
        from triton.runtime import interpreter as it
    except ImportError:
        return False
    original = getattr(it, "_patch_lang_tensor", None)
    if original is None or getattr(original, "_sieve_fixed", False):
        return False

    def index(self):
        return int(np.asarray(self.handle.data).reshape(-1)[0])

    def patched(tensor, *rest):  # (tensor), (tensor, builder) or (tensor, scope) depending on the version
        original(tensor, *rest)
        if rest and hasattr(rest[0], "set_attr"):
            rest[0].set_attr(tensor, "__index__", index)
        else:
            tensor.__index__ = index
    patched._sieve_fixed = True
    it._patch_lang_tensor = patched
    return True
