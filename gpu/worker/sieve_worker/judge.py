"""The judge: a trusted process with its own device context that compares a candidate's outputs with the
reference where the reference is made, on the device, for shapes whose references are too large to keep
(taskref.compute_references marks them `recompute`: a call's outputs over RECOMPUTE_BYTES on a GPU, or
references that would not fit the disk). Nothing of such a reference is stored: for each check the judge
builds the task's inputs from the check's secret seed, runs the reference, and compares the candidate's
outputs (read from the job's shared buffer, passed as an fd) chunk by chunk on the device.

The judge is a trusted.Server: forked before the worker has touched CUDA, one JSON line per request with
the buffer's fd attached (SCM_RIGHTS), one JSON line per answer. It never sees candidate code or a
candidate process, only the bytes of its outputs; it holds no state between requests but loaded task
modules.
"""
import mmap
import os
import warnings

from . import taskref, trusted

CHUNK = 1 << 26  # elements compared at a time: float64 temporaries of a whole 6 GB output would not fit


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

    def reference(self, req):
        """The reference's outputs for the request's shape and secret seed, on the device."""
        torch = self.torch
        key = (req["task_path"], req["code_hash"])  # a task's file is replaced when its code changes
        mod = self.modules.get(key)
        if mod is None:
            mod = self.modules[key] = taskref.load_module(key[0], "sieve_judge_" + str(len(self.modules)))
        taskref.apply_shape(mod, req["shape"])
        model = taskref.build(mod, mod.Model, req["secret"], req["style"]).to(self.device).eval()
        inputs = taskref.device_inputs(mod, req["secret"], self.device)
        with torch.no_grad():
            return taskref.flatten_outputs(model(*inputs))

    def compare(self, req, fd):
        """The check dict of compare.compare for the candidate's outputs in the buffer behind fd."""
        from .compare import add_figures, new_result
        from .transport import layout, pin_mapping, unpin_mapping
        torch = self.torch
        metas = [(d, list(s)) for d, s in req["metas"]]
        refs = self.reference(req)
        res = new_result()
        got = [(str(t.dtype).replace("torch.", ""), list(t.shape)) for t in refs]
        if got != metas:  # the reference as computed now is not the one the checks were promised
            raise RuntimeError(f"the reference's outputs changed: {got} instead of {metas}")
        offs, total = layout(metas)
        size = os.fstat(fd).st_size
        if total > size:
            raise RuntimeError("the outputs do not fit the buffer")
        # a read-only shared mapping, page-locked for the copies to the device (transport.pin_mapping): the
        # judge cannot write the candidate's bytes, and torch reads them without a host copy
        buf = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ) if size else None
        pinned = pin_mapping(torch, buf, size, read_only=True) if self.device.type == "cuda" else None
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
            unpin_mapping(pinned)
            del pinned
            if buf is not None:
                buf.close()
        return res


def handler(device):
    """The judge's request handler (trusted.serve): one compare per request, the buffer's fd attached."""
    judge = Judge(device)

    def handle(req, fds):
        try:
            if len(fds) != 1:
                raise RuntimeError(f"a request with {len(fds)} buffers")
            return judge.compare(req, fds[0])
        finally:
            if judge.device.type == "cuda":
                judge.torch.cuda.empty_cache()  # the candidates need the room between checks
    return handle


class Client:
    """Worker side: forks the judge on first use (before this process ever touches CUDA) and asks it."""

    def __init__(self, device, timeout):
        self.timeout = timeout
        self.server = trusted.Server("judge", lambda: handler(device))

    @property
    def pid(self):
        return self.server.pid

    def start(self):
        self.server.start()

    def compare(self, req, fd):
        """The check dict, or raises RuntimeError (the judge failed: the harness's fault, not the sample's)."""
        out = self.server.call(req, [fd], self.timeout)
        if "error" in out:
            raise RuntimeError(f"the judge could not compare: {out['error']}")
        return out["res"]

    def stop(self):
        self.server.stop()
