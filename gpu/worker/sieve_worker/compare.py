"""Output comparison in the worker (outside the candidate's process).

Arrays may be views of the candidate's shared buffer and of memory-mapped reference files of many GB, so
everything works on flat chunks of CHUNK elements: memory stays bounded whatever the output size. 0-d
outputs (a loss) are arrays of one element like any other.
"""
import numpy as np

from .transport import poison_value  # noqa: F401  (shared with the candidate's launch hook)

CHUNK = 1 << 20


def as_values(dtype, a):
    """One chunk as numbers to compare: float32 for 16/32-bit floats (bf16 bits, <u2, widened), float64
    for everything else, complex128 for complex."""
    if dtype == "bfloat16" and a.dtype == np.uint16:
        return (a.astype(np.uint32) << 16).view(np.float32)
    if a.dtype.kind == "c":
        return a.astype(np.complex128)
    if a.dtype in (np.float16, np.float32):
        return a.astype(np.float32, copy=False)
    return a.astype(np.float64)


def chunks(a):
    flat = a.reshape(-1)
    for i in range(0, max(flat.size, 1), CHUNK):
        yield i, flat[i:i + CHUNK]


def compare(ref, cand, atol, rtol):
    """ref, cand: lists of (dtype name, ndarray). Returns the check dict of the protocol (less indices)."""
    res = {"ok": True, "max_abs": 0.0, "max_rel": 0.0, "mismatches": 0, "nonfinite_mismatches": 0}
    notes = []
    if len(ref) != len(cand):
        res["ok"] = False
        notes.append(f"returns {len(cand)} outputs, the reference {len(ref)}")
    for i, ((rd, r), (cd, c)) in enumerate(zip(ref, cand)):
        if rd != cd:
            res["ok"] = False
            notes.append(f"output {i} has dtype {cd}, the reference {rd}")
        if tuple(r.shape) != tuple(c.shape):
            res["ok"] = False
            notes.append(f"output {i} has shape {list(c.shape)}, the reference {list(r.shape)}")
            res["mismatches"] += max(r.size, c.size)
            continue
        cflat = c.reshape(-1)
        for off, rc in chunks(r):
            if rc.size == 0:
                break
            rv = as_values(rd, rc)
            cv = as_values(cd, cflat[off:off + rc.size])
            if cv.dtype != rv.dtype:
                cv = cv.astype(np.result_type(rv.dtype, cv.dtype))
                rv = rv.astype(cv.dtype, copy=False)
            with np.errstate(all="ignore"):
                diff = np.abs(rv - cv)
                ar = np.abs(rv)
                if np.isfinite(diff).all():  # both finite everywhere: no masks, no copies
                    bad = int(np.count_nonzero(diff > atol + rtol * ar))
                    bad_nf = 0
                    res["max_abs"] = max(res["max_abs"], float(diff.max()))
                    res["max_rel"] = max(res["max_rel"], float((diff / np.maximum(ar, 1e-12)).max()))
                else:
                    rfin, cfin = np.isfinite(rv), np.isfinite(cv)
                    both = rfin & cfin
                    # NaN/inf positions: a match only when both sides hold the same non-finite value
                    same_nf = (np.isnan(rv) & np.isnan(cv)) | ((rv == cv) & ~rfin)
                    bad_nf = int(np.count_nonzero(~both & ~same_nf))
                    d, rb = diff[both], ar[both]
                    bad = int(np.count_nonzero(d > atol + rtol * rb))
                    if d.size:
                        res["max_abs"] = max(res["max_abs"], float(d.max()))
                        res["max_rel"] = max(res["max_rel"], float((d / np.maximum(rb, 1e-12)).max()))
            res["mismatches"] += bad
            res["nonfinite_mismatches"] += bad_nf
            if bad or bad_nf:
                res["ok"] = False
    if notes:
        res["note"] = "; ".join(notes)
    return res


def is_poison(dtype, a, poison):
    """Probe: with the sample's kernels turned into launches that only fill their tensor arguments (other
    than the model's inputs) with the secret poison value, an output the kernels produced is that poison
    everywhere (their buffer, or a view or copy of it). A torch result, or a torch result plus or times a
    kernel-written buffer, is not. Returns (ok, sentence)."""
    if a.size == 0:
        return True, "empty output"
    flat = a.reshape(-1)
    first = as_values(dtype, flat[:1])[0]
    want = poison_value(dtype, poison)
    if dtype in ("float16", "float32"):
        want = float(np.array([want], dtype=np.float16 if dtype == "float16" else np.float32)[0])
    for _, ch in chunks(a):
        v = as_values(dtype, ch)
        with np.errstate(all="ignore"):
            if not np.all((v == first) | (np.isnan(v) & np.isnan(first))):
                return False, ("differs from the poison its kernels were made to write: something else "
                               "computed it")
    if first == want or (dtype == "bfloat16" and abs(first - want) <= 1e-2 * abs(want)):
        return True, "the poison"
    if a.size > 1 and np.isfinite(first):
        # a constant other than the poison (a cast of the kernels' buffer, a constant the launches never
        # touched): still nothing computed without the kernels
        return True, f"a constant {first:.6g}"
    return False, f"a single value {first:.6g}, not the poison {want:.6g} its kernels were made to write"

