"""The judge: a trusted process with its own device context that compares a candidate's outputs with the
reference where the reference is made, on the device, for shapes whose references are too large to keep
(taskref.compute_references marks them `recompute`: a call's outputs over RECOMPUTE_BYTES on a GPU, or
references that would not fit the disk). Nothing of such a reference is stored: for each check the judge
builds the task's inputs from the check's secret seed, runs the reference, and compares the candidate's
outputs (read from the job's shared buffer, passed as an fd) chunk by chunk on the device.

The judge is a trusted.Server: forked before the worker has touched CUDA, one JSON line per request with
the buffer's fd attached (SCM_RIGHTS), one JSON line per answer. It never sees candidate code or a
candidate process, only the bytes of its outputs; it holds no state between requests but loaded task
modules and the page-locked mappings of the buffers of jobs it is judging (registering a 6.4 GB mapping
with CUDA takes 0.27 s, as long as the copy itself: once per job, not per check), dropped when the worker
says the job is over (op "release") or, beyond MAPPINGS of them, the oldest first.

The worker does not wait for it: Client sends a request and the worker's loop reads the answer when it
comes (a check of a 6.4 GB output takes about 0.3 s, and every other child's messages waited behind it
while the worker blocked on it: KernelBench's level 1 ran about one large answer at a time).
"""
import collections
import mmap
import os
import time
import warnings

from ..tasks import context, taskref, trusted
from ..tasks.runmode import as_kernelbench_runs

CHUNK = 1 << 26  # elements compared at a time: float64 temporaries of a whole 6 GB output would not fit
MAPPINGS = 4  # page-locked buffer mappings kept between checks (jobs judged at once)
OOM_TRIES = 6  # a compare that finds the device full is tried again, after 0.5, 1, ... 2.5 s (7.5 s in all)


def values(t):
    """As compare.as_values, in torch: float32 for 16/32-bit floats, complex128 for complex, float64 else."""
    import torch
    if t.is_complex():
        return t.to(torch.complex128)
    if t.dtype in (torch.float16, torch.float32, torch.bfloat16):
        return t.to(torch.float32)
    return t.to(torch.float64)


def compare_flat(r, c, atol, rtol, load=lambda x: x):
    """compare.compare's per-output figures for two flat tensors of one size (r on the device, c anywhere:
    each chunk of c goes through load, e.g. a copy to the device): (max abs, max rel, mismatches, NaN/inf
    mismatches), with the same rules."""
    import torch
    max_abs = max_rel = 0.0
    bad = bad_nf = 0
    for off in range(0, r.numel(), CHUNK):
        rv, cv = values(r[off:off + CHUNK]), values(load(c[off:off + CHUNK]))
        if cv.dtype != rv.dtype:
            common = torch.promote_types(rv.dtype, cv.dtype)
            rv, cv = rv.to(common), cv.to(common)
        diff = (rv - cv).abs()
        ar = rv.abs()
        if bool(torch.isfinite(diff).all()):
            bad += int((diff > atol + rtol * ar).sum())
            if diff.numel():
                max_abs = max(max_abs, float(diff.max()))
                max_rel = max(max_rel, float((diff / ar.clamp_min(1e-12)).max()))
        else:
            rfin, cfin = torch.isfinite(rv), torch.isfinite(cv)
            both = rfin & cfin
            same_nf = (torch.isnan(rv) & torch.isnan(cv)) | ((rv == cv) & ~rfin)
            bad_nf += int((~both & ~same_nf).sum())
            d, rb = diff[both], ar[both]
            bad += int((d > atol + rtol * rb).sum())
            if d.numel():
                max_abs = max(max_abs, float(d.max()))
                max_rel = max(max_rel, float((d / rb.clamp_min(1e-12)).max()))
    return max_abs, max_rel, bad, bad_nf


class Judge:
    def __init__(self, device):
        import torch
        self.torch = torch
        self.device = torch.device(device)
        taskref.setup_device(self.device)
        self.modules = {}
        self.mappings = {}  # buffer id (device, inode) -> (mmap, pin handle, size), oldest first

    def reference(self, req):
        """The reference's outputs for the request's shape and secret seed, on the device."""
        torch = self.torch
        key = (req["task_path"], req["code_hash"])  # a task's file is replaced when its code changes
        mod = self.modules.get(key)
        if mod is None:
            mod = self.modules[key] = taskref.load_module(key[0], "sieve_judge_" + str(len(self.modules)))
        taskref.apply_shape(mod, req["shape"])
        model = as_kernelbench_runs(taskref.build(mod, mod.Model, req["secret"], req["style"],
                                                  input_set=req.get("input_set")).to(self.device))
        inputs = taskref.set_inputs(mod, req["secret"], self.device, req.get("input_set"))
        with torch.no_grad():
            return taskref.flatten_outputs(model(*inputs))

    def mapping(self, fd):
        """(mmap, size) of the buffer behind fd: a read-only shared mapping, page-locked for the copies to the
        device (transport.pin_mapping), kept for the job's next checks. The judge cannot write the
        candidate's bytes, and torch reads them without a host copy."""
        from .transport import pin_mapping
        key, size = tuple(buffer_id(fd)), os.fstat(fd).st_size
        hit = self.mappings.pop(key, None)
        if hit is None or hit[2] != size:
            if hit is not None:
                self.drop_mapping(hit)
            buf = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ) if size else None
            pinned = pin_mapping(self.torch, buf, size, read_only=True) if self.device.type == "cuda" else None
            hit = (buf, pinned, size)
        self.mappings[key] = hit  # most recently used last
        while len(self.mappings) > MAPPINGS:
            self.drop_mapping(self.mappings.pop(next(iter(self.mappings))))
        return hit[0], hit[2]

    @staticmethod
    def drop_mapping(entry):
        from .transport import unpin_mapping
        buf, pinned, _ = entry
        unpin_mapping(pinned)
        if buf is not None:
            try:
                buf.close()
            except BufferError:
                pass  # a view is still alive: the mapping goes when it does

    def release(self, buffers):
        """Forgets the mappings of these buffers ([device, inode] pairs): their jobs are over."""
        for b in buffers:
            entry = self.mappings.pop(tuple(b), None) if isinstance(b, (list, tuple)) else None
            if entry is not None:
                self.drop_mapping(entry)

    def compare_when_room(self, req, fd, tries=OOM_TRIES):
        """compare(), tried again after a pause when the device is out of memory: its working set is held
        for it in admission, but others can hold more than they were promised for a moment (on the H200 a
        reference pass beside it did), and a failed compare costs the job a restart from nothing."""
        for attempt in range(tries):
            try:
                return self.compare(req, fd)
            except self.torch.cuda.OutOfMemoryError:
                if attempt == tries - 1:
                    raise
                self.torch.cuda.empty_cache()
                time.sleep(0.5 * (attempt + 1))

    def compare(self, req, fd):
        """The check dict of compare.compare for the candidate's outputs in the buffer behind fd."""
        from .compare import add_figures, new_result
        from .transport import layout
        torch = self.torch
        metas = [(d, list(s)) for d, s in req["metas"]]
        refs = self.reference(req)
        res = new_result()
        got = [(str(t.dtype).replace("torch.", ""), list(t.shape)) for t in refs]
        if got != metas:  # the reference as computed now is not the one the checks were promised
            raise RuntimeError(f"the reference's outputs changed: {got} instead of {metas}")
        offs, total = layout(metas)
        buf, size = self.mapping(fd)
        if total > size:
            raise RuntimeError("the outputs do not fit the buffer")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # not writable: only read, chunk by chunk
                for r, off in zip(refs, offs):
                    if r.numel() == 0:
                        continue
                    c = torch.frombuffer(buf, dtype=r.dtype, count=r.numel(), offset=off)
                    add_figures(res, compare_flat(r.reshape(-1), c, req["atol"], req["rtol"],
                                                  load=lambda x: x.to(self.device)))
                    del c
        finally:
            del refs
        return res


def buffer_id(fd):
    """What the judge knows a job's buffer by (release): the memfd's device and inode."""
    st = os.fstat(fd)
    return [st.st_dev, st.st_ino]


def handler(device):
    """The judge's request handler (trusted.serve): a compare with the buffer's fd attached, or a release."""
    judge = Judge(device)

    def handle(req, fds):
        try:
            if req.get("op") == "release":
                judge.release(req.get("buffers") or [])
                return {"released": True}
            if len(fds) != 1:
                raise RuntimeError(f"a request with {len(fds)} buffers")
            return judge.compare_when_room(req, fds[0])
        finally:
            context.empty_cache(judge.device)  # the candidates need the room between checks
    handle.lost = lambda: context.lost(judge.device)  # a sticky device error: it answers, then exits (context.py)
    return handle


class Client:
    """Worker side: forks the judge on first use (before this process ever touches CUDA) and asks it, one
    request at a time, without waiting: submit() queues a request, the worker's loop calls read() when
    fileno() is readable and expire() past deadline(); each request's on_done(check dict or None, error)
    runs in the loop. A judge that fails or takes longer than `timeout` is stopped (a fresh one takes the
    next request) and its request ends in an error: the harness's fault, never the sample's."""

    def __init__(self, device, timeout):
        self.timeout = timeout
        self.server = trusted.Server("judge", lambda: handler(device))
        self.waiting = collections.deque()  # (request, dup of the buffer's fd or None, on_done)
        self.current = None  # (on_done, deadline) of the request the judge is working on
        self.on_start = lambda fileno: None  # the worker registers the socket of a (re)started judge
        self.on_stop = lambda fileno: None

    @property
    def pid(self):
        return self.server.pid

    def start(self):
        if self.server.sock is None:
            self.server.start()
            self.on_start(self.server.fileno())

    def fileno(self):
        return self.server.fileno() if self.server.sock is not None else None

    def busy(self):
        return self.current is not None or bool(self.waiting)

    def submit(self, req, fd, on_done):
        """Queues a compare of the outputs in the buffer behind fd (duplicated here: the job may end before
        its turn comes); on_done(res, None) or on_done(None, error) runs when it is answered."""
        self.waiting.append((dict(req, op="compare"), os.dup(fd), on_done))
        self.pump()

    def release(self, buffer):
        """The job that owned this buffer is over: the judge unpins and unmaps it when its turn comes."""
        if self.server.sock is not None:
            self.waiting.append(({"op": "release", "buffers": [buffer]}, None, None))
            self.pump()

    def pump(self):
        while self.current is None and self.waiting:
            req, fd, on_done = self.waiting.popleft()
            error = None
            for _ in range(2):  # a judge that died while idle: a fresh one takes the request
                try:
                    self.start()
                    self.server.send(req, [fd] if fd is not None else [])
                    self.current = (on_done, time.monotonic() + self.timeout)
                    error = None
                    break
                except (OSError, RuntimeError) as e:
                    error = f"the judge failed: {e}"
                    if self.fileno() is not None:
                        self.on_stop(self.fileno())
                    self.server.stop()
            if fd is not None:
                os.close(fd)
            if error is not None and on_done is not None:
                on_done(None, error)

    def read(self):
        """The judge's socket is readable: its answer, or its death."""
        try:
            out = self.server.poll()
        except RuntimeError as e:
            return self.fail(str(e))
        if out is None:
            return
        on_done, self.current = self.current[0], None
        if out.get("context_lost"):  # it exited after this answer (trusted.serve): a fresh judge takes the next
            self.on_stop(self.fileno())
            self.server.stop()
        self.pump()
        if on_done is not None:
            if "error" in out:
                on_done(None, f"the judge could not compare: {out['error']}")
            else:
                on_done(out["res"], None)

    def deadline(self):
        return self.current[1] if self.current is not None else None

    def expire(self):
        if self.current is not None and time.monotonic() > self.current[1]:
            self.fail(f"the judge gave no answer in {self.timeout} s")

    def fail(self, why):
        """Stops the judge; the request it was working on ends in an error, the waiting ones go to a fresh one."""
        fileno = self.fileno()
        if fileno is not None:
            self.on_stop(fileno)
        self.server.stop()
        current, self.current = self.current, None
        if current is not None and current[0] is not None:
            current[0](None, why)
        self.pump()

    def stop(self):
        for _, fd, _ in self.waiting:
            if fd is not None:
                os.close(fd)
        self.waiting.clear()
        self.current = None
        self.server.stop()
