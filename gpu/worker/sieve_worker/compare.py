"""Output comparison in the worker (outside the candidate's process)."""
import numpy as np


def decode(meta, blob):
    """Array bytes from the candidate child: numeric dtypes only, and the bytes must fill the shape."""
    dt = np.dtype(str(meta["np"]))
    if dt.kind not in "biufc" or dt.hasobject:
        raise ValueError(f"dtype {dt} is not a numeric array type")
    shape = [int(d) for d in meta["shape"]]
    if any(d < 0 for d in shape) or int(np.prod(shape, dtype=np.int64)) * dt.itemsize != len(blob):
        raise ValueError("array bytes do not match the declared shape")
    return np.frombuffer(blob, dtype=dt).reshape(shape)


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
        if r.shape != c.shape:
            res["ok"] = False
            notes.append(f"output {i} has shape {list(c.shape)}, the reference {list(r.shape)}")
            res["mismatches"] += max(r.size, c.size)
            continue
        r64 = r.astype(np.float64) if r.dtype.kind != "c" else r
        c64 = c.astype(np.float64) if c.dtype.kind != "c" else c
        rfin, cfin = np.isfinite(r64), np.isfinite(c64)
        both = rfin & cfin
        # NaN/inf positions: a match only when both sides hold the same non-finite value
        nf = ~both
        same_nf = (np.isnan(r64) & np.isnan(c64)) | ((r64 == c64) & ~rfin)
        bad_nf = int(np.count_nonzero(nf & ~same_nf))
        diff = np.abs(r64[both] - c64[both])
        tol = atol + rtol * np.abs(r64[both])
        bad = int(np.count_nonzero(diff > tol))
        if diff.size:
            res["max_abs"] = max(res["max_abs"], float(diff.max()))
            rel = diff / np.maximum(np.abs(r64[both]), 1e-12)
            res["max_rel"] = max(res["max_rel"], float(rel.max()))
        res["mismatches"] += bad
        res["nonfinite_mismatches"] += bad_nf
        if bad or bad_nf:
            res["ok"] = False
    if notes:
        res["note"] = "; ".join(notes)
    return res


def same(a, b, atol, rtol):
    """Probe: are the outputs with and without the candidate's kernels the same (within tolerance)?"""
    if len(a) != len(b):
        return False
    for (_, x), (_, y) in zip(a, b):
        if x.shape != y.shape:
            return False
        with np.errstate(all="ignore"):
            x64, y64 = x.astype(np.float64), y.astype(np.float64)
        if not np.allclose(y64, x64, atol=atol, rtol=rtol, equal_nan=True):
            return False
    return True
