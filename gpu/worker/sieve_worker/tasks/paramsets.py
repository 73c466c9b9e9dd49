"""The params sets: the reference built with its constructor's constants varied, not its inputs (inputsets' sets vary
those). A wrong answer that keeps a constructor's constant instead of the state it is given (a LayerNorm's affine
taken as 1 and 0, a PReLU's slope snapped to 0.25, a stored permutation hard-coded) is right wherever the state is the
constructor's, as in every check of the task's own.

  params, params_flip, params_signed, params_abs, params_near, params_flip_nz, params_far, params_toward@k
          the reference built with its constructor's constants drawn from the check's weight seed instead
          (vary_parameters): every floating parameter and persistent buffer that a twin built under another seed
          has alike, element by element (constant_tensors), and a norm layer's running statistics. Each element
          is drawn near its value or at a log-uniform magnitude of either sign, the first element of a tensor
          above it with its own sign; params_flip negates the draws (its first element inside (-1, 0) times the
          value, a few elements 0); params_far draws beyond that band (2-32 and 1e-6-0.05 times); a stored
          permutation, a kept-index list or a one-valued mask is drawn anew (constant_discrete); params_abs takes
          params' magnitudes, of the tensors whose signs make the reference non-finite alone (params_abs#a,b:
          abs_set). params, params_flip, params_near and params_far run on the task's own inputs, params_signed
          (params' draws) on the signed set's wherever it is kept, params_abs where params and params_flip are not
          finite. The answer gets the values by name (load_state_dict), or by the child's route (route_unloaded).
          Each is kept where the reference's output on it is finite and not the task's own within the tolerance at
          one seed of two (params_gate, taskref.choose_sets).
"""


import math

from .outputs import finite, same

# the sets that vary the model's constructor-made constants (vary_parameters), not its inputs
PARAMS = "params"  # drawn per element, on the task's inputs
PARAMS_FLIP = "params_flip"  # the same draws negated
PARAMS_SIGNED = "params_signed"  # params' draws on the signed inputs, wherever the signed set is kept
PARAMS_ABS = "params_abs"  # params' magnitudes, all positive: where params and params_flip are not finite (a sqrt)
PARAMS_NEAR = "params_near"  # every element near its value, the first too: a probability's or a slope's own band
PARAMS_FLIP_NZ = "params_flip_nz"  # params_flip without its zeros, where those make it not finite (a divisor)
# params_toward@k: params' draws brought 2^-k of the way from the constructor's value, the largest that is finite where
# params and params_flip are not (an atanh of a parameter at 0: redteam inputs r28_atanh_series)
PARAMS_TOWARD = "params_toward"
TOWARD_AT, TOWARD_STEPS = "@", 5
# params_far: every element beyond the others' band, half above (2-32 b), half below (1e-6-0.05 b), of either sign: a
# clamp of gains to [-2, 2] or a flush of small gains to 0 (redteam inputs r28_affine_gain_clamp2,
# r28_affine_tiny_gain_flush) without thinning the bands params draws from (r25_affine_band_snap)
PARAMS_FAR = "params_far"
# params_int: the integer and bool tensors alone varied, far from 0 (vary_discrete's `wide`), the floats at the
# constructor's values: a zero point's sign or size shows only where the quantizer saturates, which params_flip's -1
# at a drawn scale may not reach (redteam inputs r33_fq_zp_one_clamp, r34_fq_int8_zp_clamp)
PARAMS_INT = "params_int"
PARAM_SETS = (PARAMS, PARAMS_FLIP, PARAMS_SIGNED, PARAMS_ABS, PARAMS_NEAR, PARAMS_FLIP_NZ, PARAMS_FAR, PARAMS_TOWARD,
              PARAMS_INT)
# params_abs#a,b (params_signed#a,b): the set's draws with only tensors a and b positive, the ones whose signs turn
# the reference non-finite (abs_set, taskref.choose_sets); the others keep their signs (redteam inputs
# r26_sqrt_gain_bias_relu, r27_prelu_sqrt_gain_rand_slope_const)
ABS_ONLY = "#"
# params%a,b (params_flip%a,b, ...): the set with constant_discrete's tensors a and b held at the constructor's values
# (params%: all of them), where the set itself is not finite (stored offsets drawn anew make the reference raise: the
# mask beside them and the floats still vary: redteam inputs r31_level_keep_ignored)
HOLD = "%"
ABS_BASES = (PARAMS_ABS, PARAMS_SIGNED)


def params_set(name):
    """(base, names made positive) of a params set's name: (PARAMS_ABS, None) for params_abs (all of them),
    (PARAMS_ABS, {a, b}) for params_abs#a,b (params_signed#a,b alike), (name, None) for the others; (None, None)
    for a set of inputs."""
    if not isinstance(name, str):
        return None, None
    name = name.partition(HOLD)[0]
    base, sep, rest = name.partition(ABS_ONLY)
    base, at, k = base.partition(TOWARD_AT)
    if base not in PARAM_SETS or (sep and base not in ABS_BASES) or (at or base == PARAMS_TOWARD) and not (
            base == PARAMS_TOWARD and k.isdigit() and 1 <= int(k) <= TOWARD_STEPS):
        return None, None
    return base, (set(rest.split(",")) - {""} if sep else None)


def held(name):
    """The integer and bool tensors a params set's name holds at the constructor's values: None (none), True (all:
    `params%`) or their names (`params%a,b`)."""
    if not isinstance(name, str) or HOLD not in name:
        return None
    rest = name.rpartition(HOLD)[2]
    return set(rest.split(",")) if rest else True


def hold(name, names=None):
    """The set `name` with the integer and bool tensors `names` held (None: all of them; none: the plain set)."""
    base = name.partition(HOLD)[0]
    if names is not None and not names:
        return base
    return base + HOLD + (",".join(sorted(names)) if names else "")


def toward_scale(name):
    """How far params_toward@k brings params' draws from the constructor's values: 2^-k (1 for any other set)."""
    base, _, k = name.partition(TOWARD_AT)
    return 2.0 ** -int(k) if base == PARAMS_TOWARD and k.isdigit() else 1.0


def abs_only(names, base=PARAMS_ABS):
    """The set of `base`'s draws that makes `names` alone positive."""
    return base + ABS_ONLY + ",".join(sorted(names))


MAG_LO, MAG_HI = 0.05, 2.0  # the params draws' log-uniform magnitudes, times max(|v|, 1)
FAR_LOW, FAR_HIGH = (1e-6, 0.05), (2.0, 32.0)  # params_far's: below and above that band
ABS_TRIES = 48  # abs_set gives back at most this many tensors' signs one by one (two reference runs each), the rest
# together


def abs_set(names, finite, base=PARAMS_ABS):
    """The sets of `base`'s draws that make positive only the tensors of `names` whose signs must go for the
    reference to stay finite: from all of them positive, each one's signs given back in turn while finite(the set)
    still holds (a sqrt's gain stays positive, the bias beside it signed: redteam inputs r26_sqrt_gain_bias_relu);
    past ABS_TRIES tensors, the rest's signs together (r27_affine_stack_last_shift_clamp). Tried in the order given
    and in reverse: where either of two tensors keeps the reference finite (sqrt(max(gain, floor))), each order
    leaves another one positive, and both sets are returned (r27_gain_floor_abs). params_abs (plain) where every
    tensor must be positive."""
    out = []
    for order in (list(names), list(names)[::-1]):
        positive = list(order)
        for n in order[:ABS_TRIES]:
            rest = [k for k in positive if k != n]
            if rest and finite(abs_only(rest, base)):
                positive = rest
        rest = [k for k in positive if k not in order[ABS_TRIES:]]
        if rest and len(rest) < len(positive) and finite(abs_only(rest, base)):
            positive = rest
        name = PARAMS_ABS if base == PARAMS_ABS and len(positive) == len(names) else abs_only(positive, base)
        if name not in out:
            out.append(name)
    return out


def constant_tensors(model, twin=None):
    """(name, tensor, mask) of `model`'s state that its constructor made rather than drew, in model.state_dict()'s
    names; mask: the elements made (None: all of them). With `twin` (the same class built under another weight
    seed): every floating parameter and persistent floating buffer, element by element where the twin's has the
    same value (an Embedding's padding row in a drawn table: redteam inputs r24_embedding_pad_row_zero), except a
    buffer of 0s and 1s alone (a causal mask, the operator's structure); without one, those whose elements are all
    one value. A norm layer's running statistics always. A parameter is what a checkpoint changes, so each is
    varied, a torch.eye one too (r23_identity_mix_ignored), and so is a stored mean or scale
    (r23_input_norm_buffers_ignored, r24_imagenet_norm_hardcoded). So is one the constructor draws all of one sign
    (torch.rand + 0.5): every check would hold it to that sign, a checkpoint's need not (r28_scale_pool_reorder). Integer
    and bool buffers: constant_discrete."""
    import torch
    from torch.nn.modules.batchnorm import _NormBase
    twins = {**dict(twin.named_parameters()), **dict(twin.named_buffers())} if twin is not None else {}
    stats = {f"{p}.{b}" if p else b for p, m in model.named_modules() if isinstance(m, _NormBase)
             for b in ("running_mean", "running_var")}
    persistent = model.state_dict(keep_vars=True)
    out = []
    for kind, items in (("param", model.named_parameters()), ("buffer", model.named_buffers())):
        for name, t in items:
            if (not isinstance(t, torch.Tensor) or not t.is_floating_point() or not t.numel()
                    or t.device.type == "meta" or name not in persistent):
                continue
            with torch.no_grad():
                v = t.detach()
                if name in stats:
                    out.append((name, t, None))
                    continue
                if kind == "buffer" and _structure(v):
                    continue  # a mask or a sign pattern of the operator's: built in by any answer
                other = twins.get(name)
                if other is not None and other.shape == t.shape:
                    mask = v == other.detach().to(v.device)
                    if bool(mask.all()):
                        out.append((name, t, None))
                    elif bool(mask.any()):
                        out.append((name, t, mask))
                    elif v.numel() > 1 and (bool((v >= 0).all()) or bool((v <= 0).all())):
                        out.append((name, t, None))  # drawn of one sign (torch.rand): a checkpoint's has either
                elif bool((v.reshape(-1) == v.reshape(-1)[0]).all()):
                    out.append((name, t, None))
    return out


def constant_discrete(model, twin=None):
    """(name, tensor, kind) of `model`'s persistent integer and bool buffers and parameters (a frozen nn.Parameter:
    redteam inputs r30_perm_param_hardcoded) that its constructor made (the twin's alike) and a checkpoint may hold
    otherwise: "perm", an integer tensor of any shape whose values are a permutation of 0..n-1 (n >= 2) other than
    0..n-1 in order (a channel order: r28_perm_hardcoded; a scan order kept (H, W): r30_token_order_hardcoded);
    "index", an integer tensor of distinct values >= 0 that is not (the channels a pruning kept:
    r30_select_even_hardcoded; per group, (G, K): r31_group_kept_2d_hardcoded), drawn anew as as many distinct
    values up to its largest, sorted along its last dimension where it was; "const", an integer tensor of one value
    other than 0 and 1 (a quantizer's zero points, int4 zeros of 8: r31_int4_zero_eight), each element drawn in
    [0, 2v] (or [2v, 0]; wider in some sets: vary_discrete); an integer 0 or 1 of one
    element (a zero point: r31_fq_symmetric_zp) is a "mask" (drawn wider: vary_discrete); "mask", a bool tensor of
    one value, or an integer one of 0s or of 1s alone (a pruning mask that keeps every channel:
    r28_bool_mask_ignored; as uint8: r30_u8_keep_ignored). Any other is the operator's structure, as a float
    buffer of 0s and +-c is (_structure): positions 0..n-1 in order (BERT's position_ids: r30_ok_position_builtin),
    a mask of both values (a causal mask, a 2:4 pattern), an integer map with repeats (a group map, Swin's
    relative_position_index), a table of values with negatives (an int4 codebook: r30_int4_lut_hardcoded), a
    counter (a norm's num_batches_tracked)."""
    import torch
    twins = {**dict(twin.named_parameters()), **dict(twin.named_buffers())} if twin is not None else {}
    persistent = model.state_dict(keep_vars=True)
    out = []
    for name, t in list(model.named_parameters()) + list(model.named_buffers()):
        if (not isinstance(t, torch.Tensor) or t.is_floating_point() or t.is_complex() or not t.numel()
                or t.device.type == "meta" or name not in persistent):
            continue
        v = t.detach().cpu()
        other = twins.get(name)
        if twin is not None and (other is None or other.shape != t.shape or other.dtype != t.dtype
                                 or not torch.equal(v, other.detach().cpu())):
            continue  # drawn: each weight seed has its own
        flat = v.reshape(-1)
        one = bool((flat == flat[0]).all())
        if name.rsplit(".", 1)[-1] == "num_batches_tracked":
            continue
        if v.dtype == torch.bool:
            if one:
                out.append((name, t, "mask"))
        elif one and int(flat[0]) in (0, 1):
            out.append((name, t, "mask"))
        elif one:
            out.append((name, t, "const"))
        else:
            order = torch.arange(flat.numel(), dtype=torch.int64)
            f64 = flat.to(torch.int64)
            if torch.equal(f64, order):
                continue
            if torch.equal(torch.sort(f64).values, order):
                out.append((name, t, "perm"))
            elif int(f64.min()) >= 0 and torch.unique(f64).numel() == f64.numel():
                out.append((name, t, "index"))
    return out


def vary_discrete(t, kind, g, share, hold_first=False, beyond=False, wide=False):
    """constant_discrete's tensor t varied in place from generator g: a perm by another permutation of its values,
    a mask with `share` of its elements flipped (at least one; at least one kept where it has two, but for a share
    of 1: every one, a mask that keeps nothing, r30_keep_empty_as_all). With hold_first its first element stays
    where it has three (a perm) or two (a mask): a fast path keyed on it (the constructor's reversal while perm[0] is
    n - 1, no masking while keep[0] holds) is then taken with the rest changed (redteam inputs
    r29_perm_first_fastpath, r29_keep_first_only). With `beyond` an index takes one value past its largest (a
    channel the constructor's list stops short of: r31_select_tail_guard; where it is out of range the reference
    raises and the set holds the index: HOLD). With either, a "const" of an unsigned dtype takes values in the other
    half of its range (a uint8 zero point read as int8: r33_u8_zp_as_int8); a signed one stays on its own side of 0
    (a quantizer's upper bound stays above its lower one: r34_ok_qbounds_clamp_order). hold_first takes a signed
    scalar 0 or 1 (a zero point, a sign: more than a flag) to -1 (a zero point clamped at 0 fails where the floats are
    in their band: r32_fq_zero_point_nonneg, r33_fq_zp_one_clamp). `wide` (params_int, the floats at the
    constructor's values) takes a signed scalar 0 or 1 far below 0 and a signed "const" v far from 0 on its own side,
    magnitudes in [max(2|v|, 128), max(4|v|, 255)] within the dtype: a zero point's sign or size shows only where the
    quantizer saturates, which -1 at the constructor's scale may not reach (r34_fq_int8_zp_clamp), and a zero point
    narrowed to int8 is right until 127 (r33_fq_zp_int8_trunc, r34_fq_zp3_int8); an unsigned scalar to the upper
    half of [0, 255]; the rest as hold_first without keeping a first element. A mask of more elements only flips
    between 0 and 1 (an int8 pruning flag: r33_ok_pruned_int8_where). Returns the new values, flat."""
    import torch
    flat = t.detach().reshape(-1).cpu()
    n = flat.numel()
    lo = 1 if hold_first and n >= (3 if kind == "perm" else 2) else 0
    new = flat.clone()
    far = wide and flat.dtype.is_signed and (kind == "const" or (kind == "mask" and n == 1))
    if far:  # params_int: far from 0, where a quantizer saturates (r34_fq_int8_zp_clamp, r34_fq_zp3_int8)
        top = torch.iinfo(flat.dtype).max
        c = abs(int(flat[0]))
        m_lo, m_hi = min(max(2 * c, 128), top), min(max(4 * c, 255), top)
        m_lo = min(m_lo, m_hi)
        new = (m_lo + torch.randint(0, m_hi - m_lo + 1, (n,), generator=g)).to(flat.dtype)
        if kind == "mask" or int(flat[0]) < 0:
            new = -new
    elif kind == "mask" and n == 1 and hold_first and flat.dtype.is_signed:  # a scalar zero point or sign
        new[0] = -1
    elif kind == "mask" and n == 1 and wide and flat.dtype != torch.bool:  # unsigned: the upper half of [0, 255]
        new[0] = 128 + int(torch.randint(0, 128, (1,), generator=g))
    elif kind == "perm":
        new[lo:] = flat[lo:][torch.randperm(n - lo, generator=g)]
        if torch.equal(new, flat):
            new[lo:] = flat[lo:].roll(1)
    elif kind == "const":
        c = int(flat[0])
        lo_v, hi_v = min(0, 2 * c), max(0, 2 * c)
        if (hold_first or beyond or wide) and not flat.dtype.is_signed:  # the other half of an unsigned range
            top = torch.iinfo(flat.dtype).max
            lo_v, hi_v = (top // 2 + 1, top) if c <= top // 2 else (0, top // 2)
        new = (lo_v + torch.randint(0, hi_v - lo_v + 1, (n,), generator=g)).to(flat.dtype)
        if torch.equal(new, flat):
            new[0] = lo_v if c != lo_v else hi_v
    elif kind == "index":
        top = int(flat.max()) + 1
        pick = torch.randperm(top, generator=g)[:n]
        if beyond:
            pick = torch.cat([pick[:n - 1], torch.tensor([top])])[torch.randperm(n, generator=g)]
        rows = flat.reshape(-1, t.shape[-1])  # an index has two elements or more: a dimension
        if bool((rows[:, 1:] > rows[:, :-1]).all()):
            pick = torch.sort(pick.reshape(rows.shape), dim=-1).values.reshape(-1)
        if torch.equal(pick, flat.to(torch.int64)):  # the last value swapped for one it lacks (fewer than top)
            free = [x for x in range(top) if x not in set(pick.tolist())]
            pick = pick.clone()
            pick[-1] = free[0]
            if bool((rows[:, 1:] > rows[:, :-1]).all()):
                pick = torch.sort(pick.reshape(rows.shape), dim=-1).values.reshape(-1)
        new = pick.to(flat.dtype)
    else:
        u = torch.rand(n, generator=g, dtype=torch.float64)
        flip = u < share
        flip[lo + int(u[lo:].argmin())] = True
        flip[:lo] = False
        if share < 1 and n - lo > 1 and bool(flip[lo:].all()):
            flip[lo + int(u[lo:].argmax())] = False
        new = torch.where(flip, (flat == 0) if flat.dtype == torch.bool else 1 - flat, flat).to(flat.dtype)
    set_flat(t, new)
    return new


def set_flat(t, flat):
    import torch
    with torch.no_grad():
        t.copy_(flat.reshape(t.shape).to(t.device, t.dtype))


def related(before, flat):
    """How a perm's values before (flat) follow from another's (`before`, flat) at construction: "same" or "inverse"
    (a flow layer's perm and inv_perm = argsort(perm): redteam inputs r30_ok_perm_inverse_derived), else None."""
    import torch
    if before.numel() != flat.numel():
        return None
    if torch.equal(before.to(torch.int64), flat.to(torch.int64)):
        return "same"
    if torch.equal(torch.argsort(before.to(torch.int64)), flat.to(torch.int64)):
        return "inverse"
    return None


def _structure(v):
    """Whether a buffer is the operator's structure rather than a stored value: at least two distinct values, all
    of them 0, c or -c (a causal mask of 0s and 1s, a Hadamard matrix of +-1: redteam inputs r25_ok_hadamard_generated).
    A stored mean or scale (one value, or several others) is not."""
    import torch
    flat = v.reshape(-1)
    nz = flat[flat != 0]
    if not nz.numel():
        return False
    c = nz[0].abs()
    return bool((nz.abs() == c).all()) and not bool((flat == flat[0]).all())


def vary_parameters(model, weight_seed, input_set=PARAMS, twin=None):
    """The params sets' model: the tensors constant_tensors names (the elements it masks) replaced in place by
    values drawn from weight_seed, on the CPU generator, so the reference, the judge and the candidate's child draw
    the same on any device. For each element v (b = max(|v|, 1)): a quarter near its value (v times U(0.8, 1.2);
    U(-0.2, 0.2) for 0), the rest b times a log-uniform magnitude in [MAG_LO, MAG_HI], of either sign; the first
    element of each tensor b times U(1.25, 2) with its own sign (0 counts as positive). PARAMS_FAR draws every
    element b times a log-uniform magnitude in FAR_LOW or FAR_HIGH (half each), of either sign: beyond that band,
    which a wider range would thin (a clamp to [-2, 2], a flush of gains under 0.05 to 0: redteam inputs
    r28_affine_gain_clamp2, r28_affine_tiny_gain_flush). PARAMS_FLIP negates every draw but the first element's, which gets b times a log-uniform magnitude in
    [0.05, 0.8] of the other sign, and makes the second and one in sixteen of the others exactly 0 (a divisor's
    PARAMS stays finite); PARAMS_NEAR draws every element near its value but the first, b times [0.05, 0.8] of its
    own sign (r28_affine_first_band_skip); PARAMS_FLIP_NZ is PARAMS_FLIP without its zeros; PARAMS_ABS takes the
    magnitudes of PARAMS' draws (params_abs#a,b: of tensors a and b alone); PARAMS_SIGNED draws as PARAMS. So,
    whatever the seed, a single PReLU slope is above 1 in one set and inside (-1, 0) in the other (max(x, a*x) is PReLU only for a <= 1:
    redteam inputs r23_prelu_max_trick; a slope snapped to 0.25: r25_prelu_scalar_snap), and a tensor of several
    elements mixes signs, sizes and zeros: a trick chosen on its first element, right for one sign or size
    band, or one that snaps values near the constructor's back to them, fails (r24_prelu_trick_first_slope,
    r24_ln_near_one_skip, r25_affine_band_snap, r25_affine_zero_weight_as_one). A running variance stays positive
    (|v| times U(0.5, 2)); a set whose reference is not finite is dropped (params_gate). The integer and bool buffers
    of constant_discrete are varied too (vary_discrete; but in PARAMS_NEAR and params_toward): PARAMS and the sets of
    its draws flip a quarter of a mask, PARAMS_FLIP (and PARAMS_FLIP_NZ) half, PARAMS_FAR all of it, each set with its
    own permutation; PARAMS_FLIP's keep their first element (vary_discrete's hold_first); PARAMS_INT varies them
    alone, far (vary_discrete's wide), the floats at the constructor's values. A perm that is another's
    inverse at construction follows it (related); one equal to another follows it in PARAMS alone (two layers'
    shuffles built alike: r31_twin_shuffle_one_table). Returns {name: its value
    before} of what was varied."""
    import torch
    holding = held(input_set)
    input_set = input_set.partition(HOLD)[0]
    scale = toward_scale(input_set)
    input_set, positive = params_set(input_set)
    negated = input_set in (PARAMS_FLIP, PARAMS_FLIP_NZ)
    varied = {}
    for i, (name, t, mask) in enumerate([] if input_set == PARAMS_INT else constant_tensors(model, twin)):
        with torch.no_grad():
            g = torch.Generator().manual_seed((int(weight_seed) * 1_000_003 + i) % (1 << 63))
            u = torch.rand(t.shape, generator=g, dtype=torch.float64)
            kind = torch.rand(t.shape, generator=g, dtype=torch.float64)
            flip = torch.rand(t.shape, generator=g, dtype=torch.float64) < 0.5
            v = t.detach().to("cpu", torch.float64)
            before = t.detach().clone()
            if name.rsplit(".", 1)[-1] == "running_var":
                new = v.abs().clamp_min(1e-3) * (0.5 + 1.5 * u)
            else:
                b = v.abs().clamp_min(1.0)
                mag = b * torch.exp(math.log(MAG_LO) + u * math.log(MAG_HI / MAG_LO))  # log-uniform in [lo, hi] b
                near = torch.where(v != 0, v * (0.8 + 0.4 * u), 0.4 * u - 0.2)
                new = near if input_set == PARAMS_NEAR else torch.where(kind < 0.25, near, torch.where(flip, -mag, mag))
                if input_set == PARAMS_FAR:
                    (a, c), (d, e) = FAR_LOW, FAR_HIGH
                    far = torch.where(kind < 0.5, torch.exp(math.log(a) + u * math.log(c / a)),
                                      torch.exp(math.log(d) + u * math.log(e / d)))
                    new = torch.where(flip, -b * far, b * far)
                if input_set == PARAMS_FLIP:  # exact zeros in one set alone: a divisor's set stays finite in the other
                    new = torch.where((kind >= 0.25) & (kind < 0.3125), torch.zeros_like(v), new)
                new = new.reshape(-1)
                if input_set == PARAMS_FLIP and new.numel() > 1:
                    new[1] = 0.0  # one zero whatever the seed (a pruned weight taken as 1: r25_affine_zero_weight_as_one)
                own = -1.0 if float(v.reshape(-1)[0]) < 0 else 1.0
                b0, u0 = float(b.reshape(-1)[0]), float(u.reshape(-1)[0])
                if negated:
                    new = -new
                    new[0] = -own * b0 * math.exp(math.log(0.05) + u0 * math.log(0.8 / 0.05))
                elif input_set == PARAMS_NEAR:  # of its own sign and smaller (a slope in (0, 1) taken for 0.25)
                    new[0] = own * b0 * math.exp(math.log(0.05) + u0 * math.log(0.8 / 0.05))
                elif input_set != PARAMS_FAR:
                    new[0] = own * b0 * (1.25 + 0.75 * u0)
                if (input_set == PARAMS_ABS and positive is None) or (positive is not None and name in positive):
                    new = new.abs()
                new = new.reshape(t.shape) if scale == 1.0 else v + scale * (new.reshape(t.shape) - v)
            if mask is not None:
                new = torch.where(mask.to("cpu"), new, v)
            t.copy_(new.to(t.device, t.dtype))
        varied[name] = before
    if input_set in (PARAMS_NEAR, PARAMS_TOWARD) or holding is True:
        return varied  # a permutation or a mask has no values near its own
    stream = {PARAMS_FLIP: 1, PARAMS_FLIP_NZ: 1, PARAMS_FAR: 2, PARAMS_INT: 3}.get(input_set, 0)
    done = []  # (kind, values before, new values), flat: a perm that is another's or its inverse follows it
    for j, (name, t, kind) in enumerate(constant_discrete(model, twin)):
        if holding and name in holding:
            continue
        g = torch.Generator().manual_seed((int(weight_seed) * 1_000_033 + 3 * j + stream + 0x5EED) % (1 << 63))
        varied[name] = t.detach().clone()
        flat = varied[name].reshape(-1).cpu()
        how = next(((r, new) for k, b, new in done if k == kind == "perm" for r in [related(b, flat)]
                    if r == "inverse" or (r == "same" and stream == 0)), None)
        if how is not None:
            new = how[1] if how[0] == "same" else torch.argsort(how[1].to(torch.int64))
            set_flat(t, new)
        else:
            new = vary_discrete(t, kind, g, {0: 0.25, 1: 0.5, 2: 1.0, 3: 0.5}[stream], hold_first=stream == 1,
                                beyond=stream == 2, wide=stream == 3)
        done.append((kind, flat, new))
    return varied


def params_gate(o, o_task, atol, rtol):
    """Why the params set is dropped (None: kept): its output not finite, or the task's own within the tolerance
    (the constant parameters do not reach the output)."""
    if not finite(o):
        return PARAMS_NOT_FINITE
    if same(o, [t.double() for t in o_task], atol, rtol):
        return PARAMS_UNCHANGED
    return None


PARAMS_UNCHANGED = "the reference's output does not change when its constant parameters are varied"
PARAMS_NOT_FINITE = "the reference's output with its constant parameters varied is not finite"


def choose(gate, kept, dropped, discrete):
    """Which params sets a task is checked on, added to `kept` (the reasons for the others to `dropped`), from
    gate(name) -> (why it is dropped or None, the floating tensors it varied), which runs the reference with the
    set's state at two seeds (taskref.choose_sets); `discrete` holds the integer and bool tensors the gates saw
    varied. params_signed where the signed set is kept; params_abs, params_flip_nz and params_toward@k where params
    and params_flip are not finite (their signs or zeros: abs_set); a set not finite with its integer tensors
    varied holds them one by one (hold)."""
    for name in PARAM_SETS:
        if name == PARAMS_SIGNED and "signed" not in kept:
            dropped[name] = "the signed set is not kept"
            continue
        if name == PARAMS_ABS and (PARAMS in kept or PARAMS_FLIP in kept or not any(
                dropped.get(n) == PARAMS_NOT_FINITE for n in (PARAMS, PARAMS_FLIP))):
            dropped[name] = "params or params_flip is kept, or neither was dropped as not finite"
            continue
        if name == PARAMS_INT and not discrete:
            dropped[name] = "the reference has no integer or bool constant"
            continue
        if name == PARAMS_FLIP_NZ and dropped.get(PARAMS_FLIP) != PARAMS_NOT_FINITE:
            dropped[name] = "params_flip was not dropped as not finite"
            continue
        if name == PARAMS_TOWARD:  # the largest step toward params' draws that stays finite
            if not all(dropped.get(n) == PARAMS_NOT_FINITE for n in (PARAMS, PARAMS_FLIP)):
                dropped[name] = "params or params_flip was not dropped as not finite"
                continue
            for k in range(1, TOWARD_STEPS + 1):
                why = gate(f"{name}{TOWARD_AT}{k}")[0]
                if why != PARAMS_NOT_FINITE:
                    break
            if why is None:
                kept.append(f"{name}{TOWARD_AT}{k}")
            else:
                dropped[name] = why
            continue
        why, names = gate(name)
        finite = lambda n: gate(n)[0] is None  # noqa: E731
        if why is None and name == PARAMS_ABS:  # positive only what must be: the others keep their signs
            kept += abs_set(names, finite)
        elif name == PARAMS_SIGNED and why == PARAMS_NOT_FINITE and finite(abs_only(
                names, name)):  # the signed inputs with the signs that make it finite gone (a sqrt's gain)
            kept += abs_set(names, finite, name)
        elif why is None:
            kept.append(name)
        elif why == PARAMS_NOT_FINITE and discrete:
            # stored offsets redrawn made it raise: from all of them held, each given back while it stays finite
            holding = list(discrete)
            for d in list(discrete)[:ABS_TRIES]:
                rest = [x for x in holding if x != d]
                if gate(hold(name, rest))[0] is None:
                    holding = rest
            if len(holding) < len(discrete) or gate(hold(name, holding))[0] is None:
                kept.append(hold(name, holding))
            else:
                dropped[name] = why
        else:
            dropped[name] = why
