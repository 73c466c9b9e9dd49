"""Sizes of derived shapes (taskref.task_shapes, Deriver): where a task's sizes move so that masks and tails are
exercised, and the shape the derived input sets are checked at. Pure functions of sizes, no torch."""


def nearby_unaligned(v):
    """An odd size near an even v, so that no block size (8, 16, ..., 1024) divides it (1024 -> 999,
    4096 -> 3999, 64 -> 63, 16 -> 15, 393216 -> 383853): masks and tails get exercised, which a power of two,
    a multiple of one such as KernelBench's 393216 = 3 * 2**17, or 1000 (a multiple of 8) would not. Odd
    sizes and sizes up to 8 stay."""
    if v <= 8 or v % 2:
        return v
    v -= max(1, v // 42)
    return v - 1 if v % 2 == 0 else v


def above_unaligned(v):
    """An odd size a little above an even v (1024 -> 1049, 128 -> 131; 8 -> 13, 4 -> 7): a fixed block that covers
    the task's rows exactly fails there, as does a mask off by a block or a program of 8 rows indexed from the wrong
    block (redteam inputs r14_softmax_rowblock_offset, right at 8 and 9 rows). Odd sizes and sizes below 4 stay."""
    if v < 4 or v % 2:
        return v
    if v <= 8:
        return v + v // 2 + (1 if (v + v // 2) % 2 == 0 else 0)
    v += max(1, v // 42)
    return v + 1 if v % 2 == 0 else v


def mid_aligned(v, block=32):
    """An odd multiple of 32 at or above v (64 -> 96, 128 -> 160, 1000 -> 1056, 999 -> 1056, up to 32 -> 32): a
    vector path of 4, 8, 16 or 32 elements runs there, with a tail in any block of 64 or more (a softmax that walks
    whole blocks of 128 once N % 4 == 0 dropped the last 104 columns of 1000: redteam inputs
    r15_softmax_vec4_fastpath_tail)."""
    k = -(-v // block)
    return block * (k if k % 2 else k + 1)


def derive_shape(consts, tuples=None, move=None):
    """A second shape near the module's with no size a multiple of 16 (nearby_unaligned). A size that also
    appears inside an int tuple the inputs read (`input_shape = (32768,)`) is kept: the two must stay equal
    (KernelBench's hinge loss)."""
    keep = {e for t in (tuples or {}).values() if isinstance(t, (tuple, list)) for e in t}
    derived = {k: v if v in keep else (move or nearby_unaligned)(v) for k, v in consts.items()}
    return derived if derived != consts else None


def spread(shape, move):
    """shape (ints and lists of ints) with every size moved, one that appears in several places to a different value
    in each (by move, then 2 further, ...): a kernel that swapped the strides of dim1 = dim2 = 256 passed where they
    stayed equal (redteam inputs r14_sum_dim_swapped_stride); tuple entries move too (r14_cosine_loss_floor_loop)."""
    seen = {}

    def one(v):
        if not isinstance(v, int) or isinstance(v, bool) or move(v) == v:
            return v
        k = seen[v] = seen.get(v, -1) + 1
        m = move(v)
        apart = m + 2 * k if m > v else m - 2 * k
        return apart if apart > 1 else m
    return {k: [one(e) for e in v] if isinstance(v, list) else one(v) for k, v in shape.items()}


DERIVED_MAX_BYTES = 64 << 20  # a small derived shape moves at most this per call (inputs, outputs, parameters)


ANCHOR_TAIL_FACTOR = 4  # a derived shape anchors the input sets where it moves at most this many times the smallest


def set_anchor(sizes, full, origins):
    """The shape derived input sets are checked at, among those checked at every seed (`full`, indices; sizes[i]:
    bytes or elements in and out of a call): a derived (tail) one where it moves at most ANCHOR_TAIL_FACTOR times
    the smallest, else the smallest (a tail kernel that dropped LeakyReLU's slope saw only torch.rand at the task's
    aligned shape: redteam inputs r14_leaky_tail_kernel_relu)."""
    small = min(full, key=lambda i: sizes[i])
    tails = [i for i in full if origins[i] == "derived" and sizes[i] <= ANCHOR_TAIL_FACTOR * max(1, sizes[small])]
    return min(tails, key=lambda i: sizes[i]) if tails else small
