"""Output comparison in the worker (outside the candidate's process).

Arrays may be views of the candidate's shared buffer and of memory-mapped reference files of many GB, so
everything works on flat chunks of CHUNK elements: memory stays bounded whatever the output size, and an
output of more than PARALLEL_MIN elements is cut into spans compared by one thread each. 0-d
outputs (a loss) are arrays of one element like any other.
"""
import concurrent.futures
import os

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


PARALLEL_MIN = 1 << 24  # elements: a larger output is compared by several threads (numpy frees the GIL)


def spans(n):
    """[(lo, hi)]: n elements cut into one span per thread (CHUNK multiples), or one span when n is small."""
    threads = max(1, min(16, os.cpu_count() or 1)) if n >= PARALLEL_MIN else 1
    step = -(-max(n, 1) // threads)
    step = -(-step // CHUNK) * CHUNK
    return [(lo, min(n, lo + step)) for lo in range(0, max(n, 1), step)]


def over_spans(fn, n):
    """[fn(lo, hi)] over spans(n), in threads when there are several. The pool lives only for this call: no
    thread is left behind when the worker forks its next child."""
    sp = spans(n)
    if len(sp) == 1:
        return [fn(*sp[0])]
    with concurrent.futures.ThreadPoolExecutor(len(sp), thread_name_prefix="sieve-compare") as ex:
        return list(ex.map(lambda s: fn(*s), sp))


def _compare_span(rd, rflat, cd, cflat, lo, hi, atol, rtol):
    """(max abs, max rel, mismatches, NaN/inf mismatches) of elements lo..hi."""
    max_abs = max_rel = 0.0
    bad_all = bad_nf_all = 0
    for off in range(lo, max(hi, lo + 1), CHUNK):
        end = min(hi, off + CHUNK)
        if end <= off:
            break
        rv = as_values(rd, rflat[off:end])
        cv = as_values(cd, cflat[off:end])
        if cv.dtype != rv.dtype:
            cv = cv.astype(np.result_type(rv.dtype, cv.dtype))
            rv = rv.astype(cv.dtype, copy=False)
        with np.errstate(all="ignore"):
            diff = np.abs(rv - cv)
            ar = np.abs(rv)
            if np.isfinite(diff).all():  # both finite everywhere: no masks, no copies
                bad = int(np.count_nonzero(diff > atol + rtol * ar))
                bad_nf = 0
                max_abs = max(max_abs, float(diff.max()))
                max_rel = max(max_rel, float((diff / np.maximum(ar, 1e-12)).max()))
            else:
                rfin, cfin = np.isfinite(rv), np.isfinite(cv)
                both = rfin & cfin
                # NaN/inf positions: a match only when both sides hold the same non-finite value
                same_nf = (np.isnan(rv) & np.isnan(cv)) | ((rv == cv) & ~rfin)
                bad_nf = int(np.count_nonzero(~both & ~same_nf))
                d, rb = diff[both], ar[both]
                bad = int(np.count_nonzero(d > atol + rtol * rb))
                if d.size:
                    max_abs = max(max_abs, float(d.max()))
                    max_rel = max(max_rel, float((d / np.maximum(rb, 1e-12)).max()))
        bad_all += bad
        bad_nf_all += bad_nf
    return max_abs, max_rel, bad_all, bad_nf_all


def new_result():
    return {"ok": True, "max_abs": 0.0, "max_rel": 0.0, "mismatches": 0, "nonfinite_mismatches": 0}


def add_figures(res, figures):
    """Folds (max abs, max rel, mismatches, NaN/inf mismatches) of some elements into a check dict."""
    max_abs, max_rel, bad, bad_nf = figures
    res["max_abs"] = max(res["max_abs"], max_abs)
    res["max_rel"] = max(res["max_rel"], max_rel)
    res["mismatches"] += bad
    res["nonfinite_mismatches"] += bad_nf
    if bad or bad_nf:
        res["ok"] = False


def compare(ref, cand, atol, rtol):
    """ref, cand: lists of (dtype name, ndarray). Returns the check dict of the protocol (less indices)."""
    res = new_result()
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
        rflat, cflat = r.reshape(-1), c.reshape(-1)
        for figures in over_spans(lambda lo, hi: _compare_span(rd, rflat, cd, cflat, lo, hi, atol, rtol),
                                  rflat.size):
            add_figures(res, figures)
    if notes:
        res["note"] = "; ".join(notes)
    return res


def poison_casts(poison):
    """The values the secret poison takes in the dtypes a launch can write it in, and after a cast between
    them (a kernel's fp32 buffer returned as fp16, an int buffer returned as float). Not int8's (1..100) nor
    bool's (1): a small constant of the forward's own would pass for the poison cast (a constant 7.0 did, one
    job in a hundred: test_transport test_poison), and so would any all-ones output."""
    out = set()
    for dt in ("float64", "float32", "float16", "int64"):
        v = poison_value(dt, poison)
        out.add(float(v))
        out.add(float(np.float32(v)))
        out.add(float(np.float16(v)))
    return out


def is_poison(dtype, a, poison):
    """Probe: with the sample's kernels turned into launches that only fill their tensor arguments (other
    than the model's inputs) with the secret poison value, an output the kernels produced is that poison
    everywhere (their buffer, or a view, copy or cast of it). A torch result, or a torch result plus or times a
    kernel-written buffer, is not; nor is any other constant: a forward that returns a constant on the probe
    (zeros, a value it chose) shows nothing of its kernels (issue 30: "a constant output proves nothing"), and
    the poison is secret, so only a value that came out of a launch can match it. Returns (ok, sentence)."""
    if a.size == 0:
        return True, "empty output"
    flat = a.reshape(-1)
    first = as_values(dtype, flat[:1])[0]
    want = poison_value(dtype, poison)
    if dtype in ("float16", "float32"):
        want = float(np.array([want], dtype=np.float16 if dtype == "float16" else np.float32)[0])

    def same(lo, hi):
        for off in range(lo, hi, CHUNK):
            v = as_values(dtype, flat[off:min(hi, off + CHUNK)])
            with np.errstate(all="ignore"):
                if not np.all((v == first) | (np.isnan(v) & np.isnan(first))):
                    return False
        return True
    if not all(over_spans(same, flat.size)):
        return False, "differs from the poison its kernels were made to write: something else computed it"
    if first == want or (dtype == "bfloat16" and abs(first - want) <= 1e-2 * abs(want)):
        return True, "the poison"
    if np.isfinite(first) and np.imag(first) == 0:
        v, tol = float(np.real(first)), 1e-2 if dtype == "bfloat16" else 0.0
        if any(abs(v - c) <= tol * abs(c) for c in poison_casts(poison)):
            return True, "the poison, cast"
    return False, (f"a constant {first:.6g}, not the secret poison {want:.6g} its kernels were made to write: "
                   "a constant shows nothing of the kernels")
