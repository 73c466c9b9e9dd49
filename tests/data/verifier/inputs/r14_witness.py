"""Witnesses for the r14_ fixtures: each wrong answer against its task's reference on one input the verifier
never builds (and each correct one on the same input), on the CPU under the Triton interpreter.

    TRITON_INTERPRET=1 python tests/data/verifier/inputs/r14_witness.py

Prints, per answer, the max abs difference and NaN/inf mismatches against the reference; a wrong answer
must show a difference beyond atol = rtol = 1e-4 (fp32), a correct one none. Not part of the verifier."""
import importlib.util
import os
import sys

os.environ.setdefault("TRITON_INTERPRET", "1")
import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def load(rel, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, rel))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def run(task, answer, inputs, init=()):
    t = load("tasks/" + task, "t_" + task[:-3])
    a = load("answers/" + answer, "a_" + answer[:-3])
    ref = t.Model(*init)
    new = a.ModelNew(*init)
    new.load_state_dict(ref.state_dict())
    with torch.no_grad():
        r = ref(*[x.clone() for x in inputs])
        c = new(*[x.clone() for x in inputs])
    rf, cf = r.double(), c.double()
    fin = torch.isfinite(rf) & torch.isfinite(cf)
    nf = int((~(torch.isfinite(rf) == torch.isfinite(cf)) | (~torch.isfinite(rf) & (rf != cf) & ~(rf.isnan() & cf.isnan()))).sum())
    d = (rf - cf).abs()[fin]
    bad = int((d > 1e-4 + 1e-4 * rf.abs()[fin]).sum()) + nf
    print(f"{answer:40} {task:26} shape {list(r.shape)}: max abs {float(d.max()) if d.numel() else 0:.3g}, "
          f"nonfinite mismatches {nf}, outside tol {bad} -> {'WRONG' if bad else 'right'}")
    return bad


def main():
    torch.manual_seed(0)
    cases = []
    # all-negative columns (the max is < 0), a tail on the reduced dim (D1 = 67)
    x = -torch.rand(2, 67, 40) - 0.5
    cases += [("r14_49_max_dim.py", "r14_max_dim_pad_zero.py", [x], [1]),
              ("r14_49_max_dim.py", "r14_ok_max_dim_strided.py", [x], [1])]
    # dim1 != dim2
    x = torch.randn(3, 40, 24)
    cases += [("r14_47_sum_dim.py", "r14_sum_dim_swapped_stride.py", [x], [1])]
    # ties: integers, ReLU'd activations, fp16 data
    x = torch.randint(-2, 3, (2, 33, 20)).float()
    cases += [("r14_51_argmax_dim.py", "r14_argmax_last_tie.py", [x], [1]),
              ("r14_51_argmax_dim.py", "r14_ok_argmax_first.py", [x], [1])]
    # rows with a large mean (offset activations): 300 + randn
    x = 300 + torch.randn(4, 512)
    cases += [("r14_layernorm_rows.py", "r14_layernorm_one_pass.py", [x], [512]),
              ("r14_layernorm_rows.py", "r14_ok_layernorm_chunked.py", [x], [512])]
    # a row length that is no multiple of 128
    cases += [("r14_97_cosine_loss.py", "r14_cosine_loss_floor_loop.py",
               [torch.randn(8, 300), torch.randn(8, 300)], [])]
    # M unaligned (33), N aligned (64)
    cases += [("r14_bias_add.py", "r14_bias_add_even_n_grid.py", [torch.randn(33, 64), torch.randn(64)], [])]
    # more than 8 rows
    x = torch.randn(20, 64)
    cases += [("row_softmax.py", "r14_softmax_rowblock_offset.py", [x], [])]
    # a masked prefix: the first 40 logits of each row are -inf (left padding)
    x = torch.randn(4, 128)
    x[:, :40] = float("-inf")
    cases += [("row_softmax.py", "r14_softmax_online_neginf_chunk.py", [x], []),
              ("row_softmax.py", "r14_ok_softmax_online_guarded.py", [x], [])]
    # negatives in the tail block (17 x 1049: 433 elements after the last full block of 1024)
    x = torch.randn(17, 1049)
    cases += [("r14_leaky_relu_small.py", "r14_leaky_tail_kernel_relu.py", [x], [])]
    # NaN and -0.0 through HardTanh
    x = torch.tensor([[float("nan"), -0.0, 0.0, -3.0, 3.0, 0.5, float("-inf"), float("inf")]])
    cases += [("32_HardTanh.py", "r14_ok_hardtanh_where_nan.py", [x], [])]
    # a Linear at fp32's own tolerance (the fixture judges it at 0.01, where bf16 operands pass)
    x = torch.randn(8, 128)
    cases += [("r14_linear_nobias.py", "r14_linear_nobias_bf16_operands.py", [x], [128, 64])]
    for task, answer, inputs, init in cases:
        run(task, answer, inputs, init)


if __name__ == "__main__":
    main()
