"""Derived input sets: inputs made from the task's own by a pure function, checked besides them.

A task's `get_inputs()` may draw from a distribution on which a wrong answer is right: KernelBench's ReLU,
LeakyReLU, ELU and HardTanh draw `torch.rand` (all >= 0), on which each of them is the identity, so a kernel
that copies its input passed. The reference is run on derived sets, and a set is kept for a task only where
it tells something the task's own inputs do not (choose()). Candidate and reference make a derived set the
same way: derive(task inputs of the check's secret seed, set name, seed), on the same device.

Sets (float tensors only; integer, bool and index inputs are never changed):
  signed  an input that is all >= 0 is mapped x -> 2x - max(x) (torch.rand's [0, 1) becomes [-1, 1))
  wide    signed, times 256 (exact in every float format): overflow, cancellation and saturation show
          (a softmax without its max subtraction overflows; the reference's does not)
  narrow  signed, times 2^-10 (exact in every float format): an op's epsilon is no longer small beside its
          inputs' variance, so an eps added in the wrong place or of the wrong size shows (a LayerNorm with
          1 / (std + eps) for 1 / sqrt(var + eps) is off by 2e-5 at unit variance, by a factor of 3 here:
          r15_layernorm_eps_outside_sqrt). Weighed where the reference's code has an epsilon (has_epsilon: an
          `eps`, a normalization layer or function; a Linear before a LayerNorm keeps wide, and its LayerNorm's
          eps still shows: r17_linear_layernorm_eps_outside_sqrt) or does not tell `wide` from `signed` but by a
          scale (ReLU and matmul too, which narrow drops the same way)
  exact   integers: at one element in 64 an odd integer of magnitude 257..2047 (exact in fp32, TF32 and fp16,
          not in bf16; bf16 inputs never get one), elsewhere -3..3. For ops whose exact result is what the
          reference computes (exact_gate): checked with zero tolerance (TOLERANCES), so a kernel that rounds
          its inputs to bf16 or accumulates in fp16/bf16 fails whatever the task's tolerance; one that uses
          TF32 (what `fp32_precision` `deployed` accepts) computes these sums exactly and passes
  special signed, with one element in 64 replaced by -0.0, +-denormal, +inf or -inf (no NaN, _special): for references
          that pass them through (special_gate); the comparison matches inf with inf of the same sign
          position by position (data/compare.py), so a ReLU written as `x * (x > 0)` (NaN at -inf) fails
  offset  signed, minus 256 (offset16: 16, where 256 is ill conditioned) times its largest magnitude: every value negative and far from zero beside its
          spread. A max that pads its tiles with 0 instead of -inf (an all-negative column's max became 0) and a
          variance computed as E[x^2] - E[x]^2 (LayerNorm rows off by 0.04) passed every other set (redteam inputs
          r14_max_dim_pad_zero, r14_layernorm_one_pass). Kept only where the reference is well conditioned there
          (offset_gate: its float32 output within a quarter of the tolerance of its float64 one), and checked with
          an atol of at least OFFSET_ULPS roundings of the largest input (set_floor), so that a correct float32
          kernel, summing in another order, passes
  masked  signed, with all but the last two elements of the last dimension -inf (a mask that covers a block of
          any size; two stay, so the output still moves with the seed): an online softmax with no guard for a running max of -inf made its rows NaN
          (r14_softmax_online_neginf_chunk, r15_softmax_online_block128_unguarded). Kept where the reference's
          output stays finite. Where it is not there, the same along the dimension before, and so on
          (`masked@-2`, `masked@-3`, ...: masked_name): a softmax over the channels of (batch, channels, length)
          is NaN wherever a whole column of its last dimension is -inf, finite with most channels -inf
          (r15_softmax_dim1_online_unguarded)
  fixed   the inputs the task's generator holds fixed, drawn anew from the check's seed (_fixed; the others as
          they are): a float input of one value (a gain of ones, a carry of zeros) per element, magnitudes
          log-uniform in [0.05, 2] x max(|v|, 1) of v's sign (0: either; inf: finite at three quarters); a Python
          float times [1/2, 2]; a pattern of two values (a 0/-inf or 0/1 mask, an all-ones int mask, a bool mask)
          with a quarter of its positions flipped, the first of each row held (no row masked whole); an integer of
          one other value v in [0, v]; distinct integers >= 0 (randperm[:k] indices) drawn with repeats in [0,
          largest]. Integer and bool inputs are changed by no other set, and an
          affine map keeps one value one value: an answer that ignored an all-ones mask, read a gain of ones as
          gain[0], dropped a zero carry, built its own causal mask or stored where it must add at repeated indices
          passed every other set (redteam inputs r36_*). Kept where two runs of the reference on it agree within
          the tolerance (a scatter's winner at a repeated index is not the task's).
  fixed_rows  fixed with two drawn rows of a pattern whole at its lower and its higher value (_whole_rows): a row
          masked whole, whichever value masks (r37_mean_pool_no_clamp); tried where it differs from fixed.
Every set but fixed keeps the task's zeros, and every one its symmetric matrices (_keep_zeros, _keep_symmetry): a
triangular or symmetric input is the task's contract.

Eight more sets vary the model (params, params_flip, ...): paramsets.
Every kept set is checked at the anchor shape at SEEDS seeds and at every other checked shape at one, where gate_at
keeps it there. Redteam inputs r22_* to r28_* (docs/VERIFIER.md)
"""


import re

from .outputs import finite, same
from .paramsets import PARAMS_NOT_FINITE, PARAMS_SIGNED, params_set

SETS = ("signed", "wide", "narrow", "exact", "special", "offset", "offset16", "masked", "fixed", "fixed_rows")
FIXED = "fixed"
FIXED_ROWS = "fixed_rows"  # fixed, with two drawn rows of a pattern whole at its lower and its higher value
FIXEDS = (FIXED, FIXED_ROWS)
FIXED_SHARE = 0.25  # of a pattern's positions the fixed set flips
FIXED_MAX_ELEMENTS = 1 << 24  # inputs larger than this stay as they are in the fixed set (drawn on the host)
MASKED_DIMS = 6  # masked@-1 (`masked`) .. masked@-6: the dimensions masked_name tries, from the last
WIDE = 256.0
NARROW = 2.0 ** -10
# offset: x - OFFSET * max|x| (signed x); offset16, the same by 16, is tried where the reference is ill conditioned
# at the first (LayerNorm at the strict fp32 tolerance: its own float32 rounding at x - 1000 is 6e-5)
OFFSETS = {"offset": 256.0, "offset16": 16.0}
SCALES = {"wide": WIDE, "narrow": NARROW}  # sets whose output is dropped where it is signed's scaled (p = 0..2)
OFFSET_ULPS = 64  # an offset set's least atol, in roundings of its largest input (set_floor)
SEEDS = 1  # seeds a kept set is checked at (the reference is judged on two)
TOLERANCES = {"exact": (0.0, 0.0)}  # (atol, rtol) of a set's checks instead of the task's (taskref.set_atol)
RATE = 64  # one element in RATE gets a large integer (exact) or a special value (special)
ACCUMULATOR_BITS = 24  # exact: every partial sum of a correct fp32-accumulating kernel is exact below 2^24
# float64 runs (exact, the offsets' conditioning, a set's own atol: outputs.set_noise) are made only where they are
# cheap, judged by the work torch counts in the float32 call (torch.utils.flop_counter), never by its time: at 0.05 s
# a loaded machine dropped a set that an idle one kept, and the checks of one corpus differed between two runs.
# Convolutions have no fast float64 kernels: their FLOPs have a bound of their own. Per device type.
F64_MAX_FLOPS = {"cuda": 1 << 40, "cpu": 1 << 32}
F64_MAX_CONV_FLOPS = {"cuda": 1 << 34, "cpu": 1 << 29}
EXACT_MAX_BYTES = 2 << 30  # exact: float64 copies of the inputs beyond this are not made (the set is dropped)


def counted(run, inputs):
    """(run(inputs), whether a float64 run of the same call is cheap: its FLOPs as torch counts them within
    F64_MAX_FLOPS and its convolutions' within F64_MAX_CONV_FLOPS for the inputs' device type; not cheap where
    the count fails, which it does the same way every time)."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode
    dev = next((t.device.type for t in inputs if isinstance(t, torch.Tensor)), "cpu")
    fc = FlopCounterMode(display=False)
    try:
        with fc:
            out = run(inputs)
    except Exception:
        return run(inputs), False
    ops = fc.get_flop_counts().get("Global", {})
    total = sum(ops.values())
    conv = sum(v for k, v in ops.items() if "conv" in str(k))
    return out, total <= F64_MAX_FLOPS.get(dev, F64_MAX_FLOPS["cpu"]) and \
        conv <= F64_MAX_CONV_FLOPS.get(dev, F64_MAX_CONV_FLOPS["cpu"])


def _hash(x, start=0):
    """A pseudo-random int64 tensor (values below 2^31) of x's shape: a pure function of x's values and
    positions, the same on every device (integer arithmetic only; products stay below 2^62). `start`: the
    position of x's first element in the tensor it is a flat chunk of (derive)."""
    import torch
    m = (1 << 31) - 1
    v = torch.nan_to_num(x.double().abs(), nan=0.5, posinf=3.0, neginf=5.0).clamp_max(1 << 20)
    h = torch.floor(v * (1 << 20)).to(torch.int64) % m
    idx = torch.arange(start, start + x.numel(), device=x.device, dtype=torch.int64).reshape(x.shape) % m
    for mul in (1103515245, 69069, 1664525):
        h = (h * mul + idx * 12345 + 0x5BD1E995) % m
        h = h ^ (h >> 13)
    return h


def _exact(t, start=0):
    import torch
    h = _hash(t, start)
    small = (h % 7 - 3).to(torch.float64)
    if t.dtype != torch.bfloat16:
        big = (257 + 2 * ((h >> 9) % 896)).to(torch.float64) * torch.where((h >> 20) % 2 == 1, -1.0, 1.0)
        small = torch.where((h >> 3) % RATE == 0, big, small)
    return small


def _special(t, x, start=0):
    import torch
    h = _hash(t, start)
    tiny = torch.finfo(t.dtype).tiny / 4  # a denormal in every float format
    # no NaN: IEEE maxNum (CUDA's fmaxf, tl.maximum by default) returns the number, so ReLU, HardTanh and
    # HardSigmoid as KernelBench's and everyone's answers write them turn NaN into 0 where torch keeps it; a
    # person calls those kernels correct. Infinities separate: a tanh made of exp(2x) gives NaN at inf
    kinds = torch.tensor([-0.0, tiny, -tiny, float("inf"), float("-inf")], dtype=torch.float64,
                         device=t.device)
    return torch.where((h >> 3) % RATE == 0, kinds[(h >> 9) % len(kinds)], x.double())


def _keep_zeros(t, x):
    """x (derived from the task's input t, the same shape) with t's zeros: a task's triangular inputs are its
    contract, and a correct answer that skips the zero blocks of a triangular matmul failed sets that filled them
    (redteam inputs r15_ok_triu_matmul_skip_zero_blocks)."""
    import torch
    zero = t == 0
    if bool(zero.any()):
        x = torch.where(zero, torch.zeros((), dtype=x.dtype, device=x.device), x)
    return x


def _keep_symmetry(t, x):
    """x with the symmetry of the task's input t: a correct answer that multiplies by B^T for a symmetric B failed
    sets that broke it (redteam inputs r15_ok_symmetric_matmul_bt)."""
    import torch
    if t.dim() >= 2 and t.shape[-1] == t.shape[-2] > 1 and torch.equal(t, t.mT):
        x = x.triu() + x.triu(1).mT
    return x


def set_floor(name, inputs):
    """The least atol of a check on set `name`: for an offset set, OFFSET_ULPS roundings of its largest input (a
    correct float32 kernel that sums 4,193 channels in order, where torch sums in pairs, was off by 1.5e-4 at the
    strict 1e-4: redteam inputs r15_ok_channel_layernorm_loop); 0 for the others."""
    import torch
    if name not in OFFSETS:
        return 0.0
    top = [float(t[torch.isfinite(t)].abs().max()) * torch.finfo(t.dtype).eps for t in inputs
           if isinstance(t, torch.Tensor) and t.is_floating_point() and bool(torch.isfinite(t).any())]
    return OFFSET_ULPS * max(top, default=0.0)


def derive(inputs, name, seed=None):
    """The inputs of set `name`, a pure function of the task's inputs (themselves a function of the check's
    secret seed; `seed` is accepted so a set may draw from it, none does yet). "task" (or None): unchanged."""
    import torch
    base, _ = params_set(name)
    if name in (None, "task") or (base is not None and base != PARAMS_SIGNED):
        return inputs
    if base == PARAMS_SIGNED:
        name = "signed"
    dim, only = masked_dim(name)
    if name not in SETS and dim is None:
        raise ValueError(f"unknown input set {name!r} (known: task, {', '.join(SETS)}, masked@-2.."
                         f"masked@-{MASKED_DIMS}, masked#k and masked#k@-d for input k alone)")
    out = []
    key = _inputs_key(inputs) if name in FIXEDS else None
    for k, t in enumerate(inputs):
        if name in FIXEDS:
            out.append(_fixed(t, key, k, name == FIXED_ROWS) if isinstance(t, torch.Tensor) else
                       _fixed_number(t, key, k))
        elif only is not None and k != only:
            out.append(t)  # masked#k: the other inputs as the task made them
        elif isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel():
            out.append(_derive_tensor(t, name, dim))
        else:
            out.append(t)
    return out


def _flip_pattern(flat, shape, other, g):
    """flat (a pattern: a mask, one value or two) with FIXED_SHARE of its positions set to other(value), at least
    one; the first position of each row (the last dimension) held where rows have two or more."""
    import torch
    n = flat.numel()
    u = torch.rand(n, generator=g, dtype=torch.float64)
    flip = u < FIXED_SHARE
    held = torch.zeros(n, dtype=torch.bool)
    if n >= 2:
        row = shape[-1] if len(shape) and shape[-1] >= 2 else n
        held[::row] = True
    flip &= ~held
    if not bool(flip.any()) and not bool(held.all()):
        flip[int(torch.where(held, 2.0, u).argmin())] = True
    if not bool(flip.any()):
        flip[0] = True
    return torch.where(flip, other(flat), flat)


def _inputs_key(inputs):
    """A 62-bit number from the task's inputs (their dtypes, shapes and first elements): what the fixed set draws
    from. The check's seed is sealed from the candidate, which makes the same inputs; the inputs the task draws
    change with the seed, and with them the draws."""
    import torch
    key = 0
    for t in inputs:  # torch's own integer arithmetic (_hash): the candidate makes these under the runtime wall
        part = sum(ord(ch) for ch in f"{t.dtype}{tuple(t.shape)}") if isinstance(t, torch.Tensor) else 1
        if isinstance(t, torch.Tensor) and not t.is_complex() and t.device.type != "meta" and t.numel():
            part += int(_hash(t.detach().reshape(-1)[:4096].to("cpu", torch.float64)).sum())
        key = (key * 1000003 + part) % (1 << 61)
    return key


def _draw_seed(key, k):
    """The seed of the fixed set's draws for input k (key: _inputs_key of all of the task's inputs)."""
    return (key + 7919 * (k + 1)) % (1 << 62)


def _fixed_number(v, key, k):
    """The fixed set's input k when the task passes a Python float (a slope, a scale): v times a factor in [1/2, 2]
    drawn from key, so its sign is kept; a float built into an answer passed every check (redteam inputs
    r38_scalar_slope_fixed). Integers (sizes, dims), bools, 0 and anything else as they are."""
    import math
    import random
    if type(v) is not float or v == 0 or not math.isfinite(v):
        return v
    r = random.Random(_draw_seed(key, k)).random()
    return v * 2.0 ** (2.0 * r - 1.0) if abs(r - 0.5) > 0.05 else v * 1.5


def _whole_rows(new, shape, lo, hi, g):
    """new (a flipped pattern) with one row (the last dimension) whole at lo and another whole at hi, the two drawn
    with g: a row masked whole, whichever of the two values masks (0 in a keep mask, -inf in an additive one, True in
    a masked_fill's). A mean over a row's kept positions divided by their count without a clamp gave NaN where the
    reference gives 0, and passed `fixed`, which holds each row's first position (redteam inputs
    r37_mean_pool_no_clamp); rows 0 and 1 always, a clamp for those two alone passed (r39_mean_pool_clamp_first_rows).
    Unchanged where the pattern has fewer than two rows of two."""
    import torch
    if len(shape) < 2 or shape[-1] < 2 or new.numel() // shape[-1] < 2:
        return new
    rows = new.reshape(-1, shape[-1]).clone()
    drawn = torch.randperm(rows.shape[0], generator=g)
    a, b = int(drawn[0]), int(drawn[1])
    rows[a], rows[b] = lo, hi
    return rows.reshape(-1)


def _fixed(t, key, k, whole_rows=False):
    """The fixed set's input k (a tensor t of the task's inputs; key: _inputs_key of all of them): the values the
    task's generator holds fixed drawn anew (see the module's docstring), else t itself. whole_rows (the set
    fixed_rows): two drawn rows of a pattern whole at its two values (_whole_rows)."""
    import math
    import torch
    n = t.numel()
    if not n or n > FIXED_MAX_ELEMENTS or t.is_complex() or t.device.type == "meta":
        return t
    g = torch.Generator().manual_seed(_draw_seed(key, k))
    flat = t.detach().reshape(-1).cpu()
    vals = torch.unique(flat)
    mask = t.dtype == torch.bool or (not t.is_floating_point() and bool(((vals == 0) | (vals == 1)).all()))
    if vals.numel() == 2 and n >= 2 and (mask or (t.is_floating_point() and not bool(torch.isnan(vals).any()))):
        a, b = vals[0], vals[1]  # a pattern of two values (a float one, a mask): a share of its positions swapped
        new = _flip_pattern(flat, t.shape, lambda f: torch.where(f == a, b, a), g)
        if whole_rows:
            new = _whole_rows(new, t.shape, a, b, g)
    elif t.is_floating_point():
        if vals.numel() == 1 and not bool(torch.isnan(vals).any()):  # one value: per element, of its sign
            c = float(vals[0])
            mag = torch.exp(math.log(0.05) + torch.rand(n, generator=g, dtype=torch.float64) * math.log(40.0))
            # the value's sign kept (0 takes either): a temperature, a variance, a clamp's bounds drawn below 0 were
            # outside the operator's domain, and correct answers failed (redteam inputs r38_ok_temp_max_first,
            # r38_ok_clamp_hi_then_lo; r38_mean_pool_var_nomask passed where the reference's sqrt was NaN)
            sign = torch.where(torch.rand(n, generator=g) < 0.5, -1.0, 1.0).to(torch.float64) if c == 0 else \
                torch.full((n,), math.copysign(1.0, c), dtype=torch.float64)
            new = mag * (1.0 if math.isinf(c) else max(abs(c), 1.0)) * sign
            if math.isinf(c):  # a bound of inf (a cap never reached): finite at all but a quarter of the positions
                new = torch.where(torch.rand(n, generator=g) < FIXED_SHARE, c, new)  # (r38_cap_inf_ignored)
        else:
            return t
    elif mask:  # a mask of one value: flipped where drawn (as a whole where it is one element)
        other = (~vals[0]) if t.dtype == torch.bool else (1 - vals[0])
        new = _flip_pattern(flat, t.shape, lambda f: torch.full_like(f, int(other)), g) if n >= 2 else \
            torch.full_like(flat, int(other))
        if whole_rows:
            new = _whole_rows(new, t.shape, min(vals[0], other), max(vals[0], other), g)
    elif vals.numel() == 1:  # one integer value v (not 0 or 1): each element in [0, v] (or [v, 0])
        # a count or a length is a bound: past it, a correct answer that divides by lengths[b] failed where
        # the reference's mean stops at the sequence (redteam inputs r38_ok_len_mean_div_len)
        c = int(vals[0])
        lo, hi = min(0, c), max(0, c)
        new = (lo + torch.randint(0, hi - lo + 1, (n,), generator=g)).to(flat.dtype)
        if torch.equal(new, flat):
            new[0] = lo if c != lo else hi
    elif n >= 2 and int(vals[0]) >= 0 and vals.numel() == n and not torch.equal(
            flat.to(torch.int64), torch.arange(n)):  # distinct indices (not positions in order): with repeats
        top = int(vals[-1])
        new = torch.randint(0, top + 1, (n,), generator=g)
        new[1] = new[0]
        rows = flat.reshape(-1, t.shape[-1]) if t.dim() else flat.reshape(1, -1)
        if rows.shape[-1] > 1 and bool((rows[:, 1:] > rows[:, :-1]).all()):  # sorted where the task's were
            new = torch.sort(new.reshape(rows.shape), dim=-1).values.reshape(-1)
        new = new.to(flat.dtype)
    else:
        return t
    out = new.to(t.dtype).reshape(t.shape).to(t.device)
    if not t.is_contiguous():
        out = torch.empty_like(t).copy_(out)
    return _keep_symmetry(t, out)


CHUNK = 1 << 24  # elements derived at a time: the float64 and int64 temporaries of a whole 6.4 GB input held the
# judge at 32 GB and more for one check of KernelBench's 19_ReLU, and no correct answer to it could be verified beside
# a candidate on an 80 GB card (seen on the H100)


def _finite_range(t):
    """(min, max) of t's finite elements as 0-d tensors, or None where it has none; chunk by chunk."""
    import torch
    lo = hi = None
    flat = t.reshape(-1)
    for off in range(0, flat.numel(), CHUNK):
        c = flat[off:off + CHUNK]
        fin = c if bool(torch.isfinite(c).all()) else c[torch.isfinite(c)]
        if fin.numel():
            a, b = torch.aminmax(fin)
            lo = a if lo is None else torch.minimum(lo, a)
            hi = b if hi is None else torch.maximum(hi, b)
    return None if lo is None else (lo, hi)


def _derive_tensor(t, name, dim):
    """derive's set `name` of one floating input t: made CHUNK elements at a time into one tensor of t's dtype, so
    that what it holds besides t and the result is a few chunks (the same values as deriving t whole)."""
    import torch
    rng = _finite_range(t)
    shift = rng[1] if rng is not None and bool(rng[0] >= 0) and bool(rng[1] > 0) else None

    def signed(c):  # the set's base: a non-negative input spread over both signs
        return c * 2 - shift if shift is not None else c
    top = None
    if name in OFFSETS:  # the largest finite magnitude of the signed input
        flat = t.reshape(-1)
        for off in range(0, flat.numel(), CHUNK):
            x = signed(flat[off:off + CHUNK])
            x = x[torch.isfinite(x)]
            if x.numel():
                m = x.abs().max()
                top = m if top is None else torch.maximum(top, m)
        top = 0.0 if top is None else top
    out = torch.empty_like(t, memory_format=torch.contiguous_format)
    src, dst = t.reshape(-1), out.view(-1)
    for off in range(0, src.numel(), CHUNK):
        c = src[off:off + CHUNK]
        x = signed(c)
        if name == "wide":
            x = x * WIDE
        elif name == "narrow":
            x = x * NARROW
        elif name == "exact":
            x = _exact(c, off)
        elif name == "special":
            x = _special(c, x, off)
        elif name in OFFSETS:
            x = x - OFFSETS[name] * top
        dst[off:off + CHUNK] = _keep_zeros(c, x).to(t.dtype)
        del x
    if dim is not None and out.dim() >= -dim and out.shape[dim] > 1:  # a masked set
        v = out.movedim(dim, -1)
        v[..., :max(1, v.shape[-1] - 2)] = float("-inf")  # all but the last two: a whole block of any size
        for off in range(0, src.numel(), CHUNK):  # the task's zeros stay zeros
            c = src[off:off + CHUNK]
            dst[off:off + CHUNK] = _keep_zeros(c, dst[off:off + CHUNK])
    if not t.is_contiguous():  # a strided input (a transposed view, say) stays strided the same way
        out = torch.empty_like(t).copy_(out)
    return _keep_symmetry(t, out)


EPSILON = re.compile(r"\beps\b|epsilon|Norm\w*\s*\(|\b(layer|group|instance|batch|rms)_norm\b|\bnormalize\b|"
                     r"cosine_similarity|pairwise_distance")


def has_epsilon(code):
    """Whether a task's reference code has an epsilon, so that the narrow set is weighed whatever wide shows: an
    `eps` or `epsilon`, one of torch's normalization layers or functions, normalize, cosine_similarity."""
    return bool(EPSILON.search(code or ""))


MASKED = re.compile(r"masked(?:#(\d+))?(?:@-(\d+))?")


def file_has_epsilon(path):
    """has_epsilon of a task module's file (False where it cannot be read)."""
    try:
        with open(path) as f:
            return has_epsilon(f.read())
    except (OSError, TypeError):
        return False


def masked_dim(name):
    """(dimension, input) a masked set masks: (-1, None) for `masked`, (-d, None) for `masked@-d`, (-1, k) for
    `masked#k`, (-d, k) for `masked#k@-d` (input k alone); (None, None) for another set."""
    m = MASKED.fullmatch(name) if isinstance(name, str) else None
    if m is None:
        return None, None
    d = int(m.group(2) or 1)
    if not 1 <= d <= MASKED_DIMS or (m.group(2) is not None and d == 1):
        return None, None
    return -d, (int(m.group(1)) if m.group(1) is not None else None)


def masked_name(run, inputs):
    """The masked set for these inputs: for each dimension from the last, every float input masked along it
    (`masked`, `masked@-2`, ...), then each alone (`masked#k`, `masked#k@-2`, ...: softmax(s) @ v is NaN with v
    masked too, finite with s alone: r17_softmax_v_online_unguarded); the first whose reference output is finite
    everywhere, else the first with every input masked that masked_gate passes (log_softmax is -inf where its input
    is: r17_logsoftmax_online_unguarded), else `masked` (choose drops it, saying why)."""
    import torch
    fl = [k for k, t in enumerate(inputs) if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel()]
    rank = max((inputs[k].dim() for k in fl), default=0)
    names = [("masked" if d == 1 else f"masked@-{d}") if k is None else
             (f"masked#{k}" if d == 1 else f"masked#{k}@-{d}")
             for d in range(1, min(rank, MASKED_DIMS) + 1) for k in [None] + (fl if len(fl) > 1 else [])]
    relaxed = None  # each variant's reference output is judged as it is made and let go: one at a time on the device
    for name in names:
        d = derive(inputs, name)
        if not any(bool(torch.isneginf(x).sum() > torch.isneginf(y).sum()) for x, y in zip(d, inputs)
                   if isinstance(x, torch.Tensor) and x.is_floating_point()):
            continue  # a variant that masks nothing (an input of lower rank) is none
        with torch.no_grad():
            o = run(d)
        if finite(o):
            return name
        if relaxed is None and "#" not in name and masked_gate(d, o) is None and own_infinities(run, d, o):
            # an input masked alone must leave the output finite (a square matmul's -inf columns sit where its
            # masked operand's do, made by a sum all the same)
            relaxed = name
        del d, o
    if relaxed is not None:
        return relaxed
    return "masked"


def own_infinities(run, d, o):
    """Whether each -inf of the reference's output o is its own input's alone: with the first, a middle and the last
    -inf of the matching input made 0 in turn, the output there is finite and every other -inf of o stays -inf. A
    scan's -inf sits where its input's does too, made by a sum all the same (a reverse cumsum over a masked prefix, a
    cumsum over a masked row): a correct kernel that subtracts partial sums, multiplies by a triangle of ones or
    compensates its carry makes -inf - -inf = NaN there (redteam inputs r18_cumsum_reverse_total_minus_prefix,
    r18_cumsum_tri_dot, r18_ok_cumsum_kahan)."""
    import torch
    for j, t in enumerate(o):
        inf = torch.isinf(t) if t.is_floating_point() else None
        if inf is None or not bool(inf.any()):
            continue
        k = next(k for k, x in enumerate(d) if isinstance(x, torch.Tensor) and x.shape == t.shape and
                 torch.equal((x == float("-inf")).to(inf.device), inf))
        where = torch.nonzero(inf.reshape(-1)).reshape(-1)
        for p in {int(where[0]), int(where[len(where) // 2]), int(where[-1])}:
            x = d[k].clone().reshape(-1)
            x[p] = 0.0
            trial = list(d)
            trial[k] = x.reshape(d[k].shape)
            with torch.no_grad():
                o2 = run(trial)
            u = o2[j].reshape(-1)
            rest = inf.reshape(-1).clone()
            rest[p] = False
            if not bool(torch.isfinite(u[p])) or not bool(torch.isneginf(u[rest]).all()):
                return False
    return True


def masked_gate(d, o):
    """Why a masked set's reference output (o, on inputs d) tells nothing or could fail a correct kernel (None
    when neither): NaN anywhere; nothing finite; an infinity other than -inf exactly where an input of the
    output's shape is -inf. An infinity passed through elementwise counts (log_softmax is -inf where its input is:
    the comparison matches it position by position); one a sum or product made does not (a batched matmul of two
    masked operands is +inf where they are -inf: a correct kernel that pads its tiles with zeros makes inf * 0 =
    NaN, as spread_gate says for the special set)."""
    import torch
    fl = [t for t in o if t.is_floating_point() and t.numel()]
    if any(bool(torch.isnan(t).any()) for t in fl):
        return "the reference's output on it is NaN somewhere"
    if fl and not any(bool(torch.isfinite(t).any()) for t in fl):
        return "the reference's output on it is not finite anywhere"
    for t in fl:
        inf = torch.isinf(t)
        if bool(inf.any()) and not (bool((t[inf] < 0).all()) and any(
                isinstance(x, torch.Tensor) and x.shape == t.shape and x.is_floating_point() and
                torch.equal((x == float("-inf")).to(inf.device), inf) for x in d)):
            return ("the reference's output on it is infinite other than exactly where an input is -inf (a sum or "
                    "product of infinities)")
    return None


def changed(a, b):
    import torch
    return any((isinstance(x, torch.Tensor) and not (x.shape == y.shape and torch.equal(x, y)))
               or (type(x) is float and x != y) for x, y in zip(a, b))


def identity_of(inputs, outs):
    """Index of an input that some output equals exactly, NaN where it has NaN (the reference returned it
    unchanged), or None."""
    import torch
    for o in outs:
        for k, t in enumerate(inputs):
            if isinstance(t, torch.Tensor) and t.shape == o.shape and t.dtype == o.dtype and (
                    torch.equal(t, o) or (t.is_floating_point() and torch.equal(torch.isnan(t), torch.isnan(o))
                                          and torch.equal(torch.nan_to_num(t), torch.nan_to_num(o)))):
                return k
    return None


def spread_gate(inputs, outs):
    """Why the special set is dropped for a reference in which an infinity reaches more than one output (a sum
    or a product: a matmul, a linear layer, a softmax row), None where each output depends on one input
    element. There a correct kernel that pads its tiles with zeros computes inf * 0 = NaN where the
    reference's unpadded sum gives inf (the demo's matmul-bias-relu was FAIL_MISMATCH on one seed, PASS on
    another): not a wrong answer, and the verdict would depend on where the secret seed puts the infinities."""
    import torch
    n_in = sum(int(torch.isinf(t).sum()) for t in inputs if isinstance(t, torch.Tensor) and t.is_floating_point())
    n_out = sum(int((~torch.isfinite(t)).sum()) for t in outs if t.is_floating_point())
    if n_out > n_in:
        return (f"an infinity reaches several outputs ({n_out} not finite from {n_in} infinite inputs: a sum or "
                "product, where a kernel's zero padding makes inf * 0 = NaN)")
    return None


def special_gate(outs, zero_tol):
    """Why the reference's outputs on the special set tell nothing (None when they do): it must pass some
    special value through (NaN or inf somewhere in its output), be finite at most positions (at most one in
    4 not: a matmul spreads one NaN over a row) and, where finite, not all within the tolerance of zero."""
    import torch
    fl = [t for t in outs if t.is_floating_point() and t.numel()]
    bad = sum(int((~torch.isfinite(t)).sum()) for t in fl)
    total = sum(t.numel() for t in fl)
    if not bad:
        return "the reference's output on it is finite everywhere: it does not pass NaN or inf through"
    if bad * 4 > total:
        return f"the reference's output on it is NaN or inf at {bad} of {total} positions: no longer informative"
    if all(bool((t[torch.isfinite(t)].double().abs() <= zero_tol).all()) for t in fl):
        return "the reference's output on it is within the tolerance of zero wherever finite"
    return None


def special64_gate(o, o64):
    """Why the special set's reference cannot be trusted at its special values (None when it can): its output is
    NaN or infinite where its float64 run is not, or infinite of another sign. torch's vectorised CPU GELU is NaN
    at +inf where its scalar path and float64 give inf, and a correct erf GELU failed on it (redteam inputs
    r18_ok_gelu_erf)."""
    import torch
    for a, b in zip(o, o64):
        if not a.is_floating_point() or a.shape != b.shape:
            continue
        a, b = a.double().cpu(), b.double().cpu()
        if not torch.equal(torch.isnan(a), torch.isnan(b)) or not torch.equal(torch.isposinf(a), torch.isposinf(b)) \
                or not torch.equal(torch.isneginf(a), torch.isneginf(b)):
            return "the reference's output on it is NaN or infinite where its float64 run is not (torch's own kernel)"
    return None


def exact_gate(d, o, run64):
    """Why the exact set's zero tolerance cannot hold (None when it can): the reference's output on the
    integer inputs d must be integer, the float64 reference's exactly (so it is the exact result, rounded
    nowhere), and the float64 reference on the inputs' magnitudes must stay below 2^ACCUMULATOR_BITS (for a
    sum of products that bounds every partial sum, in any order: a correct kernel that accumulates in fp32
    computes it exactly too)."""
    import torch
    o64 = run64(d)
    if len(o64) != len(o) or any(a.shape != b.shape for a, b in zip(o, o64)):
        return "the reference's float64 outputs differ in number or shape from its own"
    for a, b in zip(o, o64):
        if not a.is_floating_point():
            if not torch.equal(a.cpu(), b.cpu()):
                return "the reference's integer outputs on it differ from its float64 run's (ties broken otherwise)"
            continue
        if a.dtype == torch.float64:
            return "the reference's output is float64: nothing to compare it with exactly"
        if not bool((a.double() == a.double().round()).all()):
            return "the reference's output on it is not integer"
        if not torch.equal(a.double(), b.double()):
            return "the reference's output on it is not the exact (float64) result"
    mags = run64([t.abs() if isinstance(t, torch.Tensor) and t.is_floating_point() else t for t in d])
    top = max((float(t.double().abs().max()) for t in mags if t.is_floating_point() and t.numel()), default=0.0)
    if not top < 2.0 ** ACCUMULATOR_BITS:
        return (f"the reference on the inputs' magnitudes reaches {top:.3g} >= 2^{ACCUMULATOR_BITS}: a correct "
                "fp32 accumulation in another order could round")
    return None


def offset_gate(o, o64, atol, rtol):
    """Why the offset set's checks could fail a correct kernel (None when they cannot): the reference's float32
    output there must be its float64 output within a quarter of the tolerance, else the op is ill conditioned at
    that offset (a sum that cancels) and a correct kernel that rounds in another order would differ."""
    if o64 is None:
        return "the reference is not run in float64 here: its conditioning at the offset is unknown"
    if not same(o, o64, atol / 4, rtol / 4):
        return "the reference's float32 output on it is not its float64 output within a quarter of the tolerance"
    return None


def indexes(o):
    """Whether the reference gives integer outputs (argmax's indices): exact's ties tell a first index from a
    last one (redteam inputs r14_argmax_last_tie), on inputs no float rounding touches."""
    import torch
    return any(not t.is_floating_point() and t.dtype != torch.bool for t in o)


def rounds(o, o64):
    """Whether the reference rounds (its outputs are not the float64 reference's): a sum or product of
    several values; False for an elementwise op such as ReLU, exact on any input."""
    return len(o) != len(o64) or any(
        a.shape != b.shape or (a.is_floating_point() and not torch_equal64(a, b)) for a, b in zip(o, o64))


def torch_equal64(a, b):
    import torch
    return torch.equal(torch.nan_to_num(a.double()), torch.nan_to_num(b.double()))


def floats(inputs):
    import torch
    return [k for k, t in enumerate(inputs) if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel()]


def output_gate(name, run, d, o, zero_tol):
    """Why set `name`'s reference output o (on its inputs d) is left out, from o alone (None: kept so far): special
    passes NaN or inf through sparsely, a masked set's -inf are its inputs' own, any other is finite and not within
    the tolerance of zero everywhere."""
    import torch
    if name == "special":
        return special_gate(o, zero_tol) or spread_gate(d, o)
    if masked_dim(name)[0] is not None:
        return masked_gate(d, o) or (None if own_infinities(run, d, o) else
                                     "the reference's output on it is -inf where a sum of -inf made it")
    if not finite(o):
        return "the reference's output on it is not finite"
    if all(bool((t.double().abs() <= zero_tol).all()) for t in o if t.numel()):
        return "the reference's output on it is within the tolerance of zero"
    return None


def gate_at(name, run, d, o, atol, rtol, run64=None):
    """Why set `name`, kept at the anchor shape (choose), is left out at another shape (None: checked there too),
    from the reference's output o on its inputs d there: choose's gates at that shape. run64 (None: not run there) is
    needed by exact, and by offset to know its conditioning; a params set only needs its output finite."""
    import torch
    if params_set(name)[0] is not None:
        return None if finite(o) else PARAMS_NOT_FINITE
    why = output_gate(name, run, d, o, atol / max(1e-12, 1.0 - rtol))
    if why is not None or (name not in OFFSETS and name not in ("exact", "special")):
        return why
    if run64 is None:
        return None if name == "special" else "the reference is not run in float64 at this shape"
    try:
        with torch.no_grad():
            if name == "exact":
                return exact_gate(d, o, run64)
            o64 = run64(d)
            return special64_gate(o, o64) if name == "special" else \
                offset_gate(o, o64, max(atol, set_floor(name, d)), rtol)
    except Exception as e:
        return f"the reference does not run in float64: {type(e).__name__}: {e}"[:200]


def choose(run, inputs_of, seeds, atol, rtol, run64=None, epsilon=False, guard=None):
    """Which derived sets to check a task on, and the weaknesses of its own inputs, from runs of the
    reference at two seeds. run(inputs) -> list of output tensors; inputs_of(seed) -> the task's inputs;
    run64(inputs) -> the reference's outputs computed in float64 (None: no `exact` set).

    A set is kept when it changes some input, the reference's output on it is finite, not within the
    tolerance of zero everywhere, and differs between the seeds; `wide` only when its output is not the
    signed one scaled (256^p, p = 0..2: nothing new for a linear or homogeneous op); `narrow` only where wide's
    is and its own is not (2^-10p: an epsilon shows); `special` when its
    output passes NaN/inf through and is otherwise informative (special_gate) instead of finite; `exact`
    only for a reference that rounds on the task's own inputs (a reduction, not an elementwise op) and
    computes the exact result on the integers (exact_gate). Weaknesses on the
    task's inputs (hygiene notes, not fatal): the output is one of the inputs unchanged at both seeds
    (REF_IDENTITY_ON_INPUTS), or does not move when one input is swapped for another seed's
    (REF_INSENSITIVE_INPUT, `input` names it; only for tasks with several float inputs). Each note says
    which kept set separates it. guard (context.SetGuard) is told which set runs and names those left out.
    Returns (kept names, notes, per-set reasons for the dropped)."""
    import torch
    from . import hygiene
    zero_tol = atol / max(1e-12, 1.0 - rtol)
    seeds = list(seeds)[:2]
    xs = [inputs_of(sd) for sd in seeds]
    two = len(xs) == 2
    info = {name: {"ok": True, "fps": [], "ident": [], "insens": set(), "why": None} for name in ("task",) + SETS}
    fl = floats(xs[0])
    f64 = run64 is not None  # whether the float64 reference may be run (exact, offset's conditioning)
    if run64 is None:
        info["exact"].update(ok=False, why="the reference is not run in float64 here")
    elif sum(xs[0][k].numel() * 8 for k in fl) > EXACT_MAX_BYTES:
        f64 = False
        info["exact"].update(ok=False, why=f"the inputs in float64 would take more than {EXACT_MAX_BYTES >> 30} GiB")
    masked = masked_name(run, xs[0])  # the dimension the masked set masks, the same at both seeds
    scale_free = epsilon  # narrow is weighed for an epsilon, or where wide's output is signed's scaled (first seed)
    for i, x in enumerate(xs):
        o_prev = None  # the output wide is compared with: the signed set's, or the task's where signed is dropped
        fixed_d = None  # the fixed set's inputs, which fixed_rows must differ from
        for name in ("task",) + SETS:
            st = info[name]
            if not st["ok"]:
                continue
            if name == "narrow" and not scale_free:
                st["ok"], st["why"] = False, ("weighed only where the reference's code has an epsilon or the wide "
                                              "set's output is the signed one scaled: no scale for an epsilon to "
                                              "break")
                continue
            if guard is not None:  # by the name it is kept under (masked@-2 ...)
                if guard.skipped(masked if name == "masked" else name):
                    st["ok"], st["why"] = False, guard.skipped(masked if name == "masked" else name)
                    continue
                guard.enter(masked if name == "masked" else name)
            if name == "offset16" and info["offset"]["ok"]:
                st["ok"], st["why"] = False, "the offset set is kept (offset16 is its smaller offset's fallback)"
                continue
            d = derive(x, masked if name == "masked" else name, seeds[i])
            if name != "task" and not changed(d, x):
                st["ok"], st["why"] = False, "it leaves the task's inputs as they are"
                continue
            if name == FIXED:
                fixed_d = d
            elif name == FIXED_ROWS and info[FIXED]["ok"] and not changed(d, fixed_d):
                st["ok"], st["why"] = False, "it masks no row whole: its inputs are the fixed set's"
                continue
            try:
                with torch.no_grad():
                    o, cheap = counted(run, d) if name == "task" and i == 0 and info["exact"]["ok"] else (run(d), True)
            except Exception as e:
                if name not in FIXEDS:
                    raise
                if guard is not None:
                    guard.check(e)
                st["ok"], st["why"] = False, f"the reference raises on it: {type(e).__name__}: {e}"[:200]
                continue
            if not cheap:  # float64 can be a hundred times slower (convolutions)
                f64 = False
                info["exact"].update(ok=False, why="the reference's float32 call counts too many FLOPs (or "
                                                   "convolution FLOPs): its float64 run is not made")
            why = None if name == "task" else output_gate(name, run, d, o, zero_tol)
            if name in FIXEDS and why is None:
                with torch.no_grad():
                    if not same(o, run(d), atol, rtol):
                        why = ("two runs of the reference on it differ beyond the tolerance (a scatter's winner at a "
                               "repeated index)")
            try:
                with torch.no_grad():
                    if name == "task" and i == 0 and info["exact"]["ok"] and not rounds(o, run64(d)) and \
                            not indexes(o):
                        info["exact"].update(ok=False, why="the reference rounds nothing on the task's own inputs "
                                                           "(an elementwise op): no sum to downgrade")
                    if name == "exact" and why is None:
                        why = exact_gate(d, o, run64)
                    if name == "special" and why is None and f64:
                        why = special64_gate(o, run64(d))
                    if name in OFFSETS and why is None:
                        why = offset_gate(o, run64(d) if f64 else None, max(atol, set_floor(name, d)), rtol)
            except Exception as e:  # a reference that does not run in float64
                if guard is not None:
                    guard.check(e)
                f64 = False
                info["exact"].update(ok=False, why=f"the reference does not run in float64: "
                                                   f"{type(e).__name__}: {e}"[:200])
                if name in OFFSETS:
                    why = "the reference does not run in float64: its conditioning at the offset is unknown"
                if name == "exact":
                    continue
            if why is not None:
                st["ok"], st["why"] = False, why
                continue
            if name in SCALES and o_prev is not None and any(
                    same(o, [t.double() * SCALES[name] ** p for t in o_prev], atol, rtol) for p in (0, 1, 2)):
                st["ok"], st["why"] = False, "the reference's output on it is the signed (or task's) output, scaled"
                scale_free = scale_free or (name == "wide" and i == 0)
                continue
            if name in ("task", "signed"):
                o_prev = o
            st["fps"].append([s["fp"] for s in hygiene.stats(o, atol, rtol)])
            st["ident"].append(identity_of(d, o))
            if i == 0 and two and len(fl) > 1:
                other = derive(xs[1], masked if name == "masked" else name, seeds[1])
                for k in fl:
                    swapped = list(d)
                    swapped[k] = other[k]
                    with torch.no_grad():
                        if same(o, run(swapped), atol, rtol):
                            st["insens"].add(k)
            if name not in ("task", "signed"):
                del o
        del o_prev
    for name in SETS:
        st = info[name]
        if st["ok"] and two and len(st["fps"]) == 2 and st["fps"][0] == st["fps"][1]:
            st["ok"], st["why"] = False, "the reference's output on it is the same for both seeds"
    def shown(n):
        return masked if n == "masked" else n
    kept = [shown(n) for n in SETS if info[n]["ok"]]
    notes = []
    t = info["task"]
    ident = t["ident"][0] if t["ident"] and all(k is not None for k in t["ident"]) else None
    if ident is not None:
        fix = [shown(n) for n in SETS if info[n]["ok"] and not all(k is not None for k in info[n]["ident"])]
        lo = float(xs[0][ident].min()) if xs[0][ident].numel() else 0.0
        notes.append({"code": "REF_IDENTITY_ON_INPUTS", "input": ident, "separated_by": fix,
                      "message": f"the reference returns input {ident} unchanged on the task's own inputs"
                                 + (" (all >= 0)" if lo >= 0 else "") + ": a kernel that copies it would pass"
                                 + (f"; the derived set `{fix[0]}` separates" if fix else
                                    "; no derived input set separates")})
    for k in sorted(t["insens"]):
        fix = [shown(n) for n in SETS if info[n]["ok"] and k not in info[n]["insens"]]
        notes.append({"code": "REF_INSENSITIVE_INPUT", "input": k, "separated_by": fix,
                      "message": f"the reference's output does not change when input {k} is replaced on the "
                                 "task's own inputs: a kernel that ignores it would pass"
                                 + (f"; the derived set `{fix[0]}` separates" if fix else
                                    "; no derived input set separates")})
    dropped = {n: info[n]["why"] for n in SETS if not info[n]["ok"]}
    return kept, notes, dropped
