"""Results as data: the candidate's outputs cross into the worker through a shared buffer, not a stream.

The worker knows every output's dtype and shape from the reference. Per job it creates one memfd sized to
the largest set of outputs of one call (all of a call's outputs, each at a 64-byte aligned offset), seals
its size (so the child cannot shrink it under the worker's mapping, which would turn a read into SIGBUS),
and passes it to the child as an fd. The child copies a call's outputs into the mapping (`copy_` from the
device straight into the mapped pages: no intermediate host copy) and sends a short JSON note on its
control pipe; the worker checks the note's metadata (count, dtype, shape, device) against the reference
BEFORE it reads anything, then compares from its own mapping at its own offsets. The next call is not
started before the worker answers, so one buffer serves the whole job.

Control messages are JSON objects, one per line, at most MAX_LINE bytes each and MAX_STREAM bytes in all;
anything else (garbage bytes, an unterminated or oversized line, a non-object, an unknown type) is the
candidate's failure (RESULT_STREAM_INVALID), never the harness's.
"""
import fcntl
import gc
import json
import mmap
import os
import warnings

import numpy as np

MAX_LINE = 64 << 10
MAX_STREAM = 16 << 20
ALIGN = 64
PIN_MIN = 64 << 20  # a mapping this large is page-locked for the device's copies (pin_mapping)

# names the worker and the child agree on (torch dtype name -> numpy dtype of the bytes in the buffer)
NP_OF = {"float32": "<f4", "float16": "<f2", "float64": "<f8", "bfloat16": "<u2", "int8": "|i1", "uint8": "|u1",
         "int16": "<i2", "int32": "<i4", "int64": "<i8", "bool": "|b1", "complex64": "<c8", "complex128": "<c16"}
ITEMSIZE = {k: np.dtype(v).itemsize for k, v in NP_OF.items()}


# The candidate's own mappings and torch, bound before its runtime wall starts: the wall snapshots this module's
# names, so these tuples stay what the harness made. Writer.write makes a tensor over its mapping as the
# harness's own call (trusted.cpp harness_own_call); an answer that gets the harness to call it (a
# functools.partial as its parameters()) must not hand it a mapping, tensors or a torch of its own, whose
# __torch_function__ would be handed that tensor (redteam/wall2 h_gadget_transport_writer_torch_function).
# These checks call names an answer can swap and put back before the call (builtins.any): the wall itself takes
# Writer.write's torch.frombuffer only over the mapping the child registered with it (Wall.start's mappings), in the
# write after a forward (trusted.cpp mapping_call_refused).
_MAPS = ()
_TORCH = ()
_WRITE = ()  # the runtime wall's write (bind_write): where a wall runs, the outputs are copied by it, not here
_GC = (gc.isenabled, gc.disable, gc.enable)  # no collection (an answer's __del__ at gc.get_objects) in a write


def bind(torch):
    """The candidate's torch, the only one Writer.write takes from here on (child.py, before the wall starts)."""
    global _TORCH
    _TORCH = (torch,)


def bind_write(write):
    """The runtime wall's write (sieve_wall.cpp w_write), which Writer.write hands the copy to from here on: it
    copies with the GIL held and leaves the mapping read-only (wall.Wall.start, before the wall snapshots this
    module's names)."""
    global _WRITE
    _WRITE = (write,)


class StreamInvalid(Exception):
    pass


_DRIVER = None


def _driver():
    """libcuda (the driver API), loaded once: registering through it leaves the runtime's last-error state
    alone, where a refused cudaHostRegister would stay pending and fail the next unrelated kernel launch."""
    global _DRIVER
    if _DRIVER is None:
        try:
            import ctypes
            lib = ctypes.CDLL("libcuda.so.1")
            lib.cuMemHostRegister_v2.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint]
            lib.cuMemHostUnregister.argtypes = [ctypes.c_void_p]
            _DRIVER = lib
        except (OSError, AttributeError):
            _DRIVER = False
    return _DRIVER or None


CU_MEMHOSTREGISTER_PORTABLE, CU_MEMHOSTREGISTER_READ_ONLY = 0x01, 0x08


def pin_mapping(torch, buf, size, read_only=False):
    """Registers a mapping with CUDA (cuMemHostRegister): the device then copies to and from it by DMA, about
    4x as fast as through a pageable staging buffer (6.4 GB: 0.12 s instead of 0.45 s to the host, 0.13 s
    instead of 0.9 s from it, on an H200), and a fresh mapping's pages are made in one go instead of one
    fault at a time (5.8 s for the first pageable copy of 6.4 GB). Returns the handle for unpin_mapping, or
    None where it is small, there is no GPU or the driver refuses (the copies then go the slow way: the
    same bytes). read_only: a PROT_READ mapping (registered read-only, so pinning makes no private copies
    of its pages). Call it with the device's context current (after the process used the device). The handle is
    the mapping's address, never the tensor made over it: the candidate's harness calls this where the runtime
    wall lets only the harness make a tensor over foreign memory, and a tensor handed back would serve an answer
    that got the harness to call it on its own buffer (docs/VERIFIER.md, "Tensors over memory numpy...")."""
    if buf is None or size < PIN_MIN or not torch.cuda.is_available():
        return None
    lib = _driver()
    if lib is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # a read-only buffer: torch only takes its address
            base = torch.frombuffer(buf, dtype=torch.uint8, count=size)
        flags = CU_MEMHOSTREGISTER_PORTABLE | (CU_MEMHOSTREGISTER_READ_ONLY if read_only else 0)
        addr = base.data_ptr()
        if lib.cuMemHostRegister_v2(addr, size, flags) != 0:
            return None
        return addr
    except Exception:
        return None


def unpin_mapping(handle):
    lib = _driver()
    if handle is not None and lib is not None:
        lib.cuMemHostUnregister(handle)


def nbytes_of(dtype, shape):
    n = ITEMSIZE[dtype]
    for d in shape:
        n *= int(d)
    return n


def layout(metas):
    """metas: [(dtype name, shape)] -> ([offsets], total bytes)."""
    offs, pos = [], 0
    for dt, shape in metas:
        offs.append(pos)
        pos += nbytes_of(dt, shape)
        pos = (pos + ALIGN - 1) // ALIGN * ALIGN
    return offs, pos


class Buffer:
    """Worker side: the sealed memfd and a read-only mapping of it."""

    def __init__(self, size, name="sieve-outputs"):
        self.size = max(ALIGN, int(size))
        self.fd = os.memfd_create(name, os.MFD_ALLOW_SEALING)
        os.ftruncate(self.fd, self.size)
        fcntl.fcntl(self.fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
        self.map = mmap.mmap(self.fd, self.size, mmap.MAP_SHARED, mmap.PROT_READ)

    def arrays(self, metas):
        """Views of the expected outputs in the mapping (metas already validated against the reference)."""
        offs, total = layout(metas)
        if total > self.size:
            raise ValueError("outputs larger than the buffer")
        out = []
        for (dt, shape), off in zip(metas, offs):
            n = 1
            for d in shape:
                n *= int(d)
            a = np.frombuffer(self.map, dtype=np.dtype(NP_OF[dt]), count=n, offset=off).reshape(shape)
            out.append((dt, a))
        return out

    def close(self):
        try:
            self.map.close()
        except (BufferError, ValueError):
            pass  # a view is still alive: the mapping goes when it does
        try:
            os.close(self.fd)
        except OSError:
            pass


class LineReader:
    """Worker side: JSON lines from the child's control pipe, bounded in line length and total size."""

    def __init__(self):
        self.buf = bytearray()
        self.total = 0

    def feed(self, data):
        """Returns the complete messages (dicts with a string "t"); raises StreamInvalid."""
        self.total += len(data)
        if self.total > MAX_STREAM:
            raise StreamInvalid(f"more than {MAX_STREAM} bytes of control messages")
        self.buf += data
        out = []
        while True:
            i = self.buf.find(b"\n")
            if i < 0:
                if len(self.buf) > MAX_LINE:
                    raise StreamInvalid(f"a control message longer than {MAX_LINE} bytes")
                return out
            if i > MAX_LINE:
                raise StreamInvalid(f"a control message longer than {MAX_LINE} bytes")
            line = bytes(self.buf[:i])
            del self.buf[:i + 1]
            try:
                msg = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as e:
                raise StreamInvalid(f"a control message that is not JSON ({type(e).__name__}: {line[:60]!r})")
            if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
                raise StreamInvalid(f"a control message that is not an object with a type: {line[:60]!r}")
            out.append(msg)

    def leftover(self):
        return bool(self.buf)


def check_metas(got, expected, device):
    """The child's note against the reference: None when they agree, else a sentence saying how not.
    got: [{"dtype","shape","device"}] (untrusted); expected: [(dtype, shape)]."""
    if not isinstance(got, list) or len(got) > 4096:
        raise StreamInvalid("output metadata is not a list")
    if len(got) != len(expected):
        return f"returns {len(got)} outputs, the reference {len(expected)}"
    for i, (g, (dt, shape)) in enumerate(zip(got, expected)):
        if not isinstance(g, dict):
            raise StreamInvalid("output metadata entries are not objects")
        gdt, gshape, gdev = g.get("dtype"), g.get("shape"), g.get("device")
        if not isinstance(gdt, str) or not isinstance(gshape, list) or not all(type(d) is int for d in gshape):
            raise StreamInvalid("output metadata with a malformed dtype or shape")
        if gdt != dt:
            return f"output {i} has dtype {gdt[:40]}, the reference {dt}"
        if list(gshape) != list(shape):
            return f"output {i} has shape {gshape[:8]}, the reference {list(shape)}"
        if device is not None and (not isinstance(gdev, str) or gdev.split(":")[0] != device.split(":")[0]):
            return f"output {i} is on {str(gdev)[:40]}, the answer runs on {device}"
    return None


def poison_value(dtype, v):
    """The value the probe's poisoned launches write into a tensor of this dtype (v: the job's secret)."""
    if dtype in ("float16", "bfloat16", "float32", "float64") or dtype.startswith("complex"):
        return float(v)
    if dtype == "bool":
        return 1
    if dtype in ("int8", "uint8"):
        return int(abs(v)) % 100 + 1
    return int(v)



# ---- child side ------------------------------------------------------------------------------------------
def send_line(fd, obj):
    data = memoryview((json.dumps(obj) + "\n").encode())
    while data:
        data = data[os.write(fd, data):]


class Writer:
    """Child side: writes a call's outputs into the shared buffer and notes on the control pipe."""

    def __init__(self, fd, size, out_fd):
        self.size = size
        self.map = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE) if size else None
        if self.map is not None:
            global _MAPS
            _MAPS = _MAPS + (self.map,)
        self.out_fd = out_fd
        self.pinned = [None]  # pin_mapping's handle, from the first call whose outputs are on the device (a holder)

    def send(self, obj):
        send_line(self.out_fd, obj)

    def adopt(self, buf):
        """Writes into buf (the runtime wall's own mapping of the same buffer, wall map_shared) from here on, not
        into this writer's mmap, which is closed (with the descriptor it keeps). Before the wall starts."""
        global _MAPS
        old, self.map = self.map, buf
        _MAPS = tuple(buf if m is old else m for m in _MAPS)
        old.close()

    def write(self, tensors, torch):
        """Copies plain tensors into the buffer at the layout's offsets; returns their metadata. Outputs
        that do not fit the buffer are described but not written (the worker refuses them on the metadata).
        Only a Writer of this module over its own mapping, the bound torch and plain tensors (see _MAPS)."""
        if (type(self) is not Writer or (self.map is not None and not any(self.map is m for m in _MAPS))
                or (_TORCH and torch is not _TORCH[0])
                or type(tensors) is not list or any(type(t) is not torch.Tensor for t in tensors)):
            raise TypeError("transport.Writer.write: the harness's own writer, torch and plain tensors only")
        metas = [(str(t.dtype).replace("torch.", ""), list(t.shape)) for t in tensors]
        desc = [{"dtype": d, "shape": s, "device": str(t.device)} for (d, s), t in zip(metas, tensors)]
        if any(d not in NP_OF for d, _ in metas):
            return desc
        offs, total = layout(metas)
        if total > self.size:
            return desc
        if self.pinned[0] is None and any(t.is_cuda for t in tensors):
            handle = pin_mapping(torch, self.map, self.size)  # an address
            self.pinned[0] = False if handle is None else handle
        if _WRITE:
            # the wall copies with the GIL held and leaves the mapping read-only until its next write
            _WRITE[0](self.map, tensors, offs)
            return desc
        collecting = _GC[0]()
        _GC[1]()
        try:
            for t, off, (d, s) in zip(tensors, offs, metas):
                n = t.numel()
                if n == 0:
                    continue
                dst = torch.frombuffer(self.map, dtype=t.dtype, count=n, offset=off).view(t.shape)
                dst.copy_(t.detach())  # device -> mapped pages directly; strides/expansions resolved by copy_
                del dst
        finally:
            if collecting:
                _GC[2]()
        return desc
