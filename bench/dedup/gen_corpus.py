#!/usr/bin/env python3
"""Generates a corpus of kernel-like files (Triton and CUDA) with planted near-duplicate families.

Each file comes from a random program spec (template + random op chain + shape of the wrapper) rendered
with random identifiers, block sizes, epsilons, comments and docstrings. A fraction of specs are planted
as families: every member is a fresh rendering of the same spec (cosmetic differences only) and, with
some probability, one small structural edit (an op changed, a statement added or dropped). With
--restructure-probability P a member is also, with probability P, restructured: temporaries of the op
chain that are used once are written into their use, and the loads and chain statements come in another
order that keeps their dependences (the same program). Output: JSONL rows {"id", "group", "family",
"edit", "restructured", "code"}; family is -1 for files that were not planted.

Usage: gen_corpus.py OUT.jsonl N [--seed S] [--planted-share F] [--restructure-probability P]
"""
import argparse
import json
import random

UNARY = ["tl.exp", "tl.log", "tl.sqrt", "tl.abs", "tl.sigmoid", "tl.rsqrt", "tl.cos", "tl.sin", "tl.erf",
         "tl.floor", "tl.ceil", "libdevice.tanh", "tl.exp2", "tl.log2", "libdevice.pow2", "tl.sqrt_rn",
         "libdevice.erfinv", "libdevice.log1p", "libdevice.expm1", "libdevice.round", "tl.fdiv1", "-",
         "libdevice.atan", "libdevice.sinh", "libdevice.cosh", "libdevice.asin", "libdevice.acos", "tl.neg"]
BINARY = ["tl.maximum", "tl.minimum", "+", "-", "*", "/", "tl.where_gt", "tl.fma_like", "tl.where_lt", "%",
          "libdevice.pow", "libdevice.atan2", "tl.clamp0", "libdevice.hypot", "libdevice.fmod", "tl.mix"]
REDUCE = ["tl.sum", "tl.max", "tl.min", "tl.argmax", "tl.cumsum"]
CUDA_UNARY = ["expf", "logf", "sqrtf", "fabsf", "tanhf", "rsqrtf", "erff", "sinf", "cosf", "floorf", "__expf",
              "__logf", "ceilf", "exp2f", "log1pf", "expm1f", "sinhf", "coshf", "asinf", "acosf", "atanf",
              "cbrtf", "truncf", "roundf", "__sinf", "__cosf", "erfcf", "-"]
CUDA_BINARY = ["fmaxf", "fminf", "+", "-", "*", "/", "powf", "atan2f", "hypotf", "fmodf", "copysignf",
               "fdimf", "__fdividef", "remainderf", "tl.where_gt", "tl.fma_like"]
WORDS = ["x", "y", "z", "inp", "out", "res", "acc", "tmp", "val", "buf", "src", "dst", "a", "b", "c", "w", "bias",
         "scale", "shift", "gate", "data", "vec", "mat", "tile", "blk", "row", "col", "idx", "offs", "mask",
         "alpha", "beta", "gamma", "delta", "h", "k", "q", "v", "t", "u", "s", "m", "n", "p", "r"]
COMMENTS = ["load the tile", "accumulate in fp32", "apply the activation", "mask the tail", "write back",
            "fused epilogue", "one program per row", "grid-stride loop", "reduce along the row", "TODO: tune",
            "numerically stable", "broadcast over rows", "cast to output dtype", "bounds check"]


def ident(rng, used):
    while True:
        name = rng.choice(WORDS) + rng.choice(["", "_", "_ptr", "_val", "2", "_t", "_buf", "_out", "_in"]) + \
            (str(rng.randint(0, 99)) if rng.random() < 0.3 else "")
        if name not in used and not name[0].isdigit():
            used.add(name)
            return name


def random_spec(rng):
    template = rng.choice(["tri_elem", "tri_row", "tri_matmul", "cu_elem", "cu_reduce"])
    n_in = rng.randint(1, 3)
    chain = []
    for i in range(rng.randint(6, 24)):
        chain.append(random_op(rng, template, i + n_in))
    return {"template": template, "n_in": n_in, "chain": chain, "reduce": rng.choice(REDUCE),
            "wrapper": rng.randint(0, 3), "loop": rng.random() < 0.4}


def random_op(rng, template, nvars):
    cuda = template.startswith("cu_")
    if rng.random() < 0.45:
        return ("u", rng.choice(CUDA_UNARY if cuda else UNARY), rng.randrange(nvars))
    return ("b", rng.choice(CUDA_BINARY if cuda else BINARY), rng.randrange(nvars), rng.randrange(nvars))


def edit_spec(rng, spec):
    """One small structural change; returns the edit's name."""
    chain = spec["chain"]
    kind = rng.choice(["change", "append", "drop"])
    if kind == "change" or len(chain) < 3:
        i = rng.randrange(len(chain))
        chain[i] = random_op(rng, spec["template"], i + spec["n_in"])
        return "change"
    if kind == "append":
        chain.append(random_op(rng, spec["template"], len(chain) + spec["n_in"]))
        return "append"
    chain.pop()
    return "drop"


def maybe_comment(rng, indent, lines, cuda):
    if rng.random() < 0.25:
        lines.append(indent + ("// " if cuda else "# ") + rng.choice(COMMENTS))


def expr(op, names, cuda):
    if op[0] == "u":
        if op[1] == "-":
            return "-%s" % names[op[2]]
        if op[1] == "tl.neg":
            return "0 - %s" % names[op[2]]
        if op[1] == "tl.fdiv1":
            return "1.0 / (1.0 + %s)" % names[op[2]]
        return "%s(%s)" % (op[1], names[op[2]])
    f, a, b = op[1], names[op[2]], names[op[3]]
    if f in "+-*/%":
        return "%s %s %s" % (a, f, b)
    if f == "tl.where_gt":
        return ("%s > 0 ? %s : %s" if cuda else "tl.where(%s > 0, %s, %s)") % (a, a, b)
    if f == "tl.where_lt":
        return "tl.where(%s < %s, %s, 0.0)" % (a, b, b)
    if f == "tl.fma_like":
        return "%s * %s + %s" % (a, b, a)
    if f == "tl.clamp0":
        return "tl.minimum(tl.maximum(%s, 0.0), %s)" % (a, b)
    if f == "tl.mix":
        return "%s * 0.5 + %s * 0.5" % (a, b)
    return "%s(%s, %s)" % (f, a, b)


def chain_lines(rng, spec, names, cuda, indent):
    """The op chain as (statement lines, result expression per op); restructured when spec asks."""
    ops = spec["chain"]
    first = len(names)
    # Uses as written: some templates name an argument twice (tl.where(a > 0, a, b)).
    uses = [0] * (first + len(ops))
    marks = ["\x00%d\x00" % k for k in range(first + len(ops))]
    for op in ops:
        text = expr(op, marks, cuda)
        for a in set(op[2:]):
            uses[a] += text.count(marks[a])
    inline = set()
    if spec.get("restructure"):  # an op used once, and not the result, is written into its use
        inline = {first + i for i in range(len(ops) - 1) if uses[first + i] == 1}
    exprs, stmts = list(names), []
    for i, op in enumerate(ops):
        e = expr(op, exprs, cuda)
        if first + i in inline:
            exprs.append("(%s)" % e)
            continue
        v = ident(rng, spec["_used"])
        exprs.append(v)
        deps = {a for a in op[2:]}
        stmts.append((first + i, deps, ("%sfloat %s = %s;" if cuda else "%s%s = %s") % (indent, v, e)))
    if spec.get("restructure"):  # another order that keeps every statement after what it reads
        stmts = topological_shuffle(rng, stmts, inline, ops, first)
    return [line for _, _, line in stmts], exprs


def topological_shuffle(rng, stmts, inline, ops, first):
    # A statement depends on the statements whose values it reads, through inlined ops too.
    def reads(i):
        out = set()
        for a in ops[i - first][2:]:
            out |= reads(a) if a in inline else ({a} if a >= first else set())
        return out
    pending = {i: reads(i) for i, _, _ in stmts}
    by_id = {i: (i, d, line) for i, d, line in stmts}
    done, out = set(), []
    while pending:
        ready = sorted(i for i, r in pending.items() if r <= done)
        pick = rng.choice(ready)
        out.append(by_id[pick])
        done.add(pick)
        del pending[pick]
    return out


def render_triton(rng, spec):
    used = set()
    kern = ident(rng, used) + rng.choice(["_kernel", "_kern", "", "_fwd"])
    ins = [ident(rng, used) for _ in range(spec["n_in"])]
    outp, n, block = ident(rng, used), rng.choice(["n", "N", "numel", "n_elements", "size"]), \
        rng.choice(["BLOCK", "BLOCK_SIZE", "BLOCK_N", "TILE", "BS"])
    used.update([n, block])
    lines = []
    if rng.random() < 0.5:
        lines.append('"""%s."""' % rng.choice(COMMENTS).capitalize())
    lines += ["import torch", "import triton", "import triton.language as tl"]
    if any(op[1].startswith("libdevice") for op in spec["chain"]):
        lines.append("from triton.language.extra import libdevice")
    lines += ["", "", "@triton.jit"]
    params = [p + "_ptr" for p in ins] + [outp + "_ptr", n]
    if spec["template"] == "tri_matmul":
        params += ["K", "stride_k"]
    lines.append("def %s(%s, %s: tl.constexpr):" % (kern, ", ".join(params), block))
    if rng.random() < 0.3:
        lines.append('    """%s."""' % rng.choice(COMMENTS).capitalize())
    pid, offs, mask = ident(rng, used), ident(rng, used), ident(rng, used)
    lines.append("    %s = tl.program_id(0)" % pid)
    if spec["template"] == "tri_row":
        lines.append("    %s = tl.arange(0, %s)" % (offs, block))
        lines.append("    %s = %s < %s" % (mask, offs, n))
        base = "%s * %s + %s" % (pid, n, offs)
    else:
        lines.append("    %s = %s * %s + tl.arange(0, %s)" % (offs, pid, block, block))
        lines.append("    %s = %s < %s" % (mask, offs, n))
        base = offs
    names, loads = [], []
    for p in ins:
        v = ident(rng, used)
        if not spec.get("restructure"):  # the random draws in their old order: old corpora stay the same
            maybe_comment(rng, "    ", lines, False)
        loads.append("    %s = tl.load(%s_ptr + %s, mask=%s, other=%s).to(tl.float32)" %
                     (v, p, base, mask, rng.choice(["0.0", "0.", "0"])))
        names.append(v)
        if not spec.get("restructure"):
            lines.append(loads[-1])
    if spec.get("restructure"):
        rng.shuffle(loads)  # independent loads in another order
        for line in loads:
            maybe_comment(rng, "    ", lines, False)
            lines.append(line)
    indent = "    "
    if spec["template"] == "tri_matmul":
        acc, kk = ident(rng, used), ident(rng, used)
        lines.append("    %s = tl.zeros((%s,), dtype=tl.float32)" % (acc, block))
        lines.append("    for %s in range(0, K, %d):" % (kk, rng.choice([16, 32, 64])))
        lines.append("        %s += tl.load(%s_ptr + %s * stride_k + %s, mask=%s, other=0.0)" % (acc, ins[0], kk, base, mask))
        names.append(acc)
    elif spec["loop"]:
        it = ident(rng, used)
        lines.append("    for %s in range(0, %d):" % (it, rng.choice([2, 4, 8])))
        indent = "        "
    if spec.get("restructure"):
        spec["_used"] = used
        chain, names = chain_lines(rng, spec, names, False, indent)
        for line in chain:
            maybe_comment(rng, indent, lines, False)
            lines.append(line)
    else:
        for op in spec["chain"]:
            v = ident(rng, used)
            maybe_comment(rng, indent, lines, False)
            lines.append("%s%s = %s" % (indent, v, expr(op, names, False)))
            names.append(v)
    last = names[-1]
    if spec["template"] == "tri_row":
        r = ident(rng, used)
        lines.append("    %s = %s(%s, axis=0)" % (r, spec["reduce"], last))
        last = "%s / %s" % (last, r)
    lines.append("    tl.store(%s_ptr + %s, %s, mask=%s)" % (outp, base, last, mask))
    lines += ["", ""]
    x = [ident(rng, used) for _ in ins]
    fn = ident(rng, used)
    lines.append("def %s(%s):" % (fn, ", ".join(x)))
    y, nn = ident(rng, used), ident(rng, used)
    lines.append("    %s = torch.empty_like(%s)" % (y, x[0]))
    lines.append("    %s = %s.numel()" % (nn, x[0]))
    bs = rng.choice([128, 256, 512, 1024, 2048, 4096])
    if spec["wrapper"] == 0:
        lines.append("    grid = (triton.cdiv(%s, %d),)" % (nn, bs))
        lines.append("    %s[grid](%s, %s, %s, %s=%d)" % (kern, ", ".join(x), y, nn, block, bs))
    elif spec["wrapper"] == 1:
        lines.append("    grid = lambda meta: (triton.cdiv(%s, meta['%s']),)" % (nn, block))
        lines.append("    %s[grid](%s, %s, %s, %s=%d)" % (kern, ", ".join(x), y, nn, block, bs))
    else:
        lines.append("    %s[(triton.cdiv(%s, %d),)](%s, %s, %s, %s=%d, num_warps=%d)" %
                     (kern, nn, bs, ", ".join(x), y, nn, block, bs, rng.choice([2, 4, 8])))
    lines.append("    return %s" % y)
    return "\n".join(lines) + "\n"


def render_cuda(rng, spec):
    used = set()
    kern = ident(rng, used) + rng.choice(["_kernel", "Kernel", "_cuda", ""])
    ins = [ident(rng, used) for _ in range(spec["n_in"])]
    outp, n, i = ident(rng, used), ident(rng, used), ident(rng, used)
    lines = []
    if rng.random() < 0.5:
        lines.append("// " + rng.choice(COMMENTS))
    lines += ["#include <cuda_runtime.h>", "#include <torch/extension.h>", ""]
    if rng.random() < 0.3:
        lines.append("/* %s */" % rng.choice(COMMENTS))
    params = ", ".join("const float* __restrict__ %s" % p for p in ins)
    lines.append("__global__ void %s(%s, float* %s, int %s) {" % (kern, params, outp, n))
    lines.append("    int %s = blockIdx.x * blockDim.x + threadIdx.x;" % i)
    indent = "    "
    if spec["template"] == "cu_reduce":
        sh = ident(rng, used)
        lines.append("    __shared__ float %s[%d];" % (sh, rng.choice([256, 512, 1024])))
    lines.append("    if (%s < %s) {" % (i, n))
    indent = "        "
    names = []
    if spec.get("restructure"):
        loads = []
        for p in ins:
            v = ident(rng, used)
            loads.append("%sfloat %s = %s[%s];" % (indent, v, p, i))
            names.append(v)
        rng.shuffle(loads)
        for line in loads:
            maybe_comment(rng, indent, lines, True)
            lines.append(line)
        spec["_used"] = used
        chain, names = chain_lines(rng, spec, names, True, indent)
        for line in chain:
            maybe_comment(rng, indent, lines, True)
            lines.append(line)
    else:
        for p in ins:
            v = ident(rng, used)
            maybe_comment(rng, indent, lines, True)
            lines.append("%sfloat %s = %s[%s];" % (indent, v, p, i))
            names.append(v)
        for op in spec["chain"]:
            v = ident(rng, used)
            maybe_comment(rng, indent, lines, True)
            lines.append("%sfloat %s = %s;" % (indent, v, expr(op, names, True)))
            names.append(v)
    if spec["template"] == "cu_reduce":
        lines.append("%s%s[threadIdx.x] = %s;" % (indent, sh, names[-1]))
        lines.append("%s__syncthreads();" % indent)
        s = ident(rng, used)
        lines.append("%sfor (int %s = blockDim.x / 2; %s > 0; %s >>= 1) {" % (indent, s, s, s))
        lines.append("%s    if (threadIdx.x < %s) %s[threadIdx.x] += %s[threadIdx.x + %s];" % (indent, s, sh, sh, s))
        lines.append("%s    __syncthreads();" % indent)
        lines.append("%s}" % indent)
        lines.append("%sif (threadIdx.x == 0) atomicAdd(%s, %s[0]);" % (indent, outp, sh))
    else:
        lines.append("%s%s[%s] = %s;" % (indent, outp, i, names[-1]))
    lines.append("    }")
    lines.append("}")
    lines.append("")
    tens = [ident(rng, used) for _ in ins]
    host = ident(rng, used)
    lines.append("torch::Tensor %s(%s) {" % (host, ", ".join("torch::Tensor " + t for t in tens)))
    o, cnt, th = ident(rng, used), ident(rng, used), ident(rng, used)
    lines.append("    auto %s = torch::empty_like(%s);" % (o, tens[0]))
    lines.append("    int %s = %s.numel();" % (cnt, tens[0]))
    lines.append("    const int %s = %d;" % (th, rng.choice([128, 256, 512, 1024])))
    args = ", ".join("%s.data_ptr<float>()" % t for t in tens)
    lines.append("    %s<<<(%s + %s - 1) / %s, %s>>>(%s, %s.data_ptr<float>(), %s);" % (kern, cnt, th, th, th, args, o, cnt))
    if spec["wrapper"] % 2:
        lines.append("    C10_CUDA_KERNEL_LAUNCH_CHECK();")
    lines.append("    return %s;" % o)
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(rng, spec):
    return render_cuda(rng, spec) if spec["template"].startswith("cu_") else render_triton(rng, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--planted-share", type=float, default=0.2, help="share of files in planted families")
    ap.add_argument("--edit-probability", type=float, default=0.6)
    ap.add_argument("--restructure-probability", type=float, default=0.0,
                    help="share of planted members also restructured (inlined temporaries, another order)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    written = 0
    family = 0
    with open(a.out, "w") as f:
        while written < a.n:
            spec = random_spec(rng)
            if rng.random() < a.planted_share / 4:  # families average about 4 members
                size = min(a.n - written, rng.randint(2, 6))
                for _ in range(size):
                    s = {**spec, "chain": list(spec["chain"])}
                    edit = edit_spec(rng, s) if rng.random() < a.edit_probability else "none"
                    # Drawn only when asked for, so that corpora made without it stay the same.
                    s["restructure"] = a.restructure_probability > 0 and rng.random() < a.restructure_probability
                    f.write(json.dumps({"id": written, "group": 0, "family": family, "edit": edit,
                                        "restructured": s["restructure"], "code": render(rng, s)}) + "\n")
                    written += 1
                family += 1
            else:
                f.write(json.dumps({"id": written, "group": 0, "family": -1, "edit": "none",
                                    "restructured": False, "code": render(rng, spec)}) + "\n")
                written += 1


if __name__ == "__main__":
    main()
