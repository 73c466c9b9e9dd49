"""Derived input sets (inputsets): which sets a task is checked on, and the weaknesses of its own inputs
that task hygiene names. Runs on the CPU.

    PYTHONPATH=gpu/worker python -m unittest discover -s tests/worker -p 'test_inputsets.py'
"""
import unittest

import torch
import torch.nn.functional as F

from sieve_worker.tasks import inputsets


def rand(*shape):
    return lambda sd: [torch.rand(*shape, generator=torch.Generator().manual_seed(sd))]


def choose(fn, inputs_of):
    return inputsets.choose(lambda xs: [fn(*xs)], inputs_of, [11, 12], 1e-4, 1e-4)


def choose64(fn, inputs_of, atol=1e-4, rtol=1e-4):
    """choose with the reference also run in float64 (as taskref.choose_sets does): the exact set is weighed."""
    run64 = lambda xs: [fn(*[x.double() if x.is_floating_point() else x for x in xs])]
    return inputsets.choose(lambda xs: [fn(*xs)], inputs_of, [11, 12], atol, rtol, run64)


def randn(*shape, off=0):
    return lambda sd: [torch.randn(*shape, generator=torch.Generator().manual_seed(sd + off))]


def mm_inputs(m, k, n):
    return lambda sd: randn(m, k)(sd) + randn(k, n, off=100)(sd)


class DeriveTest(unittest.TestCase):
    def test_rand_inputs_become_signed_and_wide_and_nothing_else_changes(self):
        x = torch.rand(64, 32)
        idx = torch.arange(5)
        s, i = inputsets.derive([x, idx, 3], "signed", 0)[:2]
        self.assertLess(float(s.min()), -0.5)
        self.assertTrue(torch.equal(s, x * 2 - x.max()))
        self.assertIs(i, idx)  # integer/index inputs are never transformed
        w = inputsets.derive([x], "wide", 0)[0]
        self.assertTrue(torch.equal(w, s * 256))
        self.assertEqual(w.dtype, x.dtype)

    def test_the_same_inputs_give_the_same_set_in_every_process(self):
        x = torch.rand(7, 9, dtype=torch.float16)
        self.assertTrue(torch.equal(inputsets.derive([x.clone()], "wide", 3)[0], inputsets.derive([x], "wide", 3)[0]))

    def test_exact_inputs_are_integers_that_bf16_cannot_hold_and_fp16_can(self):
        x = torch.randn(128, 128)
        e = inputsets.derive([x], "exact", 0)[0]
        self.assertEqual(e.dtype, x.dtype)
        self.assertTrue(torch.equal(e, e.round()))
        big = e.abs() > 3
        self.assertTrue(0.005 < float(big.float().mean()) < 0.03, float(big.float().mean()))  # about 1 in 64
        self.assertTrue(bool((e[big].abs() >= 257).all()) and bool((e[big].abs() <= 2047).all()))
        self.assertTrue(bool((e[big] % 2 != 0).all()))  # odd: more significant bits than bf16's 8
        self.assertTrue(torch.equal(e.half().float(), e))  # exact in fp16 (and TF32: the same 11 bits)
        self.assertFalse(torch.equal(e.bfloat16().float(), e))
        self.assertTrue(torch.equal(inputsets.derive([x.clone()], "exact", 5)[0], e))  # a function of x alone
        self.assertFalse(torch.equal(inputsets.derive([torch.randn(128, 128)], "exact", 0)[0], e))
        # bf16 inputs get only -3..3, which bf16 holds
        b = inputsets.derive([x.bfloat16()], "exact", 0)[0]
        self.assertEqual(b.dtype, torch.bfloat16)
        self.assertLessEqual(float(b.abs().max()), 3)

    def test_special_inputs_hold_each_special_value_and_signed_values_elsewhere(self):
        x = torch.rand(64, 64)
        sp = inputsets.derive([x], "special", 0)[0]
        signed = inputsets.derive([x], "signed", 0)[0]
        nan, inf = torch.isnan(sp), torch.isinf(sp)
        self.assertFalse(bool(nan.any()))  # no NaN: IEEE maxNum ReLUs (fmaxf, tl.maximum) are correct answers
        self.assertTrue(bool((sp == float("inf")).any()) and bool((sp == float("-inf")).any()))
        self.assertTrue(bool(((sp == 0) & torch.signbit(sp)).any()))  # -0.0
        tiny = torch.finfo(torch.float32).tiny
        self.assertTrue(bool(((sp.abs() > 0) & (sp.abs() < tiny)).any()))  # denormals
        special = nan | inf | (sp.abs() < tiny)
        self.assertTrue(0.005 < float(special.float().mean()) < 0.03)
        self.assertTrue(torch.equal(sp[~special], signed[~special]))
        h = inputsets.derive([x.half()], "special", 0)[0]
        self.assertEqual(h.dtype, torch.float16)
        self.assertTrue(bool(((h.abs() > 0) & (h.abs() < torch.finfo(torch.float16).tiny)).any()))

    def test_the_exact_set_is_checked_with_zero_tolerance(self):
        from sieve_worker.tasks import taskref
        summary = {"atol": 1e-2, "rtol": 1e-3, "input_sets": ["task", "signed", "wide", "special", "exact"],
                   "set_atols": [None, None, None, None, 0.5]}
        self.assertEqual(taskref.set_atol(summary, 4), (0.0, 0.0))  # whatever set_atols says
        for si in range(4):
            self.assertEqual(taskref.set_atol(summary, si), (1e-2, 1e-3))

    def test_an_unknown_set_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "unknown input set 'ints'"):
            inputsets.derive([torch.rand(3)], "ints", 0)


class ChooseTest(unittest.TestCase):
    def test_kernelbench_activations_on_rand_are_the_identity_and_a_set_separates(self):
        for name, fn in [("relu", torch.relu), ("leaky_relu", lambda x: F.leaky_relu(x, 0.01)),
                         ("elu", lambda x: F.elu(x, 1.0)), ("hardtanh", lambda x: F.hardtanh(x, -1.0, 1.0))]:
            kept, notes, _ = choose(fn, rand(16, 64))
            codes = {n["code"]: n for n in notes}
            self.assertIn("REF_IDENTITY_ON_INPUTS", codes, name)
            self.assertTrue(codes["REF_IDENTITY_ON_INPUTS"]["separated_by"], name)
            self.assertIn("separates", codes["REF_IDENTITY_ON_INPUTS"]["message"])
            self.assertTrue(kept, name)
        # hardtanh is the identity on [-1, 1) too: the wide set separates it, and the masked one (its -inf
        # become -1; special is dropped: its output is finite everywhere, hardtanh(inf) is 1)
        kept, notes, _ = choose(lambda x: F.hardtanh(x, -1.0, 1.0), rand(16, 64))
        self.assertEqual(notes[0]["separated_by"], ["wide", "masked"])

    def test_a_linear_op_keeps_signed_but_not_wide(self):
        kept, notes, dropped = choose(lambda a, b: a @ b, lambda sd: rand(16, 32)(sd) + rand(32, 8)(sd + 100))
        self.assertEqual(kept, ["signed"])
        self.assertIn("scaled", dropped["wide"])
        self.assertEqual(notes, [])

    def test_softmax_keeps_wide_where_overflow_shows(self):
        kept, _, _ = choose(lambda x: torch.softmax(x, -1), rand(16, 64))
        self.assertIn("wide", kept)

    def test_signed_inputs_keep_only_special_for_relu(self):
        kept, notes, dropped = choose(torch.relu, lambda sd: [torch.randn(16, 64, generator=torch.Generator().manual_seed(sd))])
        self.assertEqual((kept, notes), (["special", "masked"], []))
        self.assertIn("as they are", dropped["signed"])

    def test_a_max_reduction_keeps_offset(self):
        # a max that pads its tiles with 0 instead of -inf passed every other set: no column was all negative
        # (redteam inputs r14_max_dim_pad_zero); the reference is exact there
        kept, _, dropped = choose64(lambda x: x.max(dim=1).values, randn(8, 40, 24))
        self.assertIn("offset", kept)
        x = inputsets.derive(randn(8, 40, 24)(1), "offset", 1)[0]
        self.assertTrue(bool((x < 0).all()))
        self.assertIn("offset16", dropped)  # only where offset is ill conditioned

    def test_layernorm_keeps_an_offset_that_separates_a_one_pass_variance(self):
        # a one-pass variance (E[x^2] - E[x]^2) passed LayerNorm's randn rows (r14_layernorm_one_pass); the offset
        # set's atol is at least OFFSET_ULPS roundings of its largest input (a correct kernel summing 4,193 channels
        # in order was off by 1.5e-4 at the strict 1e-4: r15_ok_channel_layernorm_loop), and still separates it
        ln = lambda x: F.layer_norm(x, (512,))
        kept, _, dropped = choose64(ln, randn(16, 512))
        name = [n for n in kept if n in inputsets.OFFSETS][0]
        x = inputsets.derive(randn(16, 512)(1), name, 1)[0]
        floor = inputsets.set_floor(name, [x])
        self.assertGreater(floor, 1e-4)
        one_pass = (x - x.mean(1, keepdim=True)) / torch.sqrt((x * x).mean(1, keepdim=True) - x.mean(1, keepdim=True) ** 2
                                                             + 1e-5)
        self.assertGreater(float((one_pass - ln(x)).abs().max()), 10 * floor)  # the set separates it
        # where the larger offset is ill conditioned, the smaller one is tried in its place
        with unittest.mock.patch.object(inputsets, "offset_gate",
                                        lambda o, o64, a, r: "ill" if float(o[0].abs().max()) > 200 else None):
            kept, _, dropped = choose64(lambda x: x * 1.0, randn(16, 64))
        self.assertEqual([n for n in kept if n in inputsets.OFFSETS], ["offset16"])
        self.assertEqual(dropped["offset"], "ill")
        # without the float64 reference the conditioning is unknown: neither is kept
        kept, _, dropped = choose(ln, randn(16, 512))
        self.assertNotIn("offset", kept)
        self.assertIn("float64", dropped["offset"])

    def test_a_softmax_keeps_masked(self):
        # an online softmax with no guard for a running max of -inf made rows NaN (r14_softmax_online_neginf_chunk,
        # r15_softmax_online_block128_unguarded: a block of 128 never all -inf where half a row was)
        kept, _, _ = choose64(lambda x: torch.softmax(x, dim=1), randn(8, 131))
        self.assertIn("masked", kept)
        x = inputsets.derive(randn(8, 131)(1), "masked", 1)[0]
        self.assertTrue(bool(torch.isinf(x[:, :129]).all()) and bool(torch.isfinite(x[:, 129:]).all()))

    def test_a_softmax_over_the_channels_masks_the_channels(self):
        # masking the last dimension makes whole channel columns -inf (the reference is NaN there); the set masks
        # the reduced dimension instead, where an online softmax without its -inf guard is NaN
        # (r15_softmax_dim1_online_unguarded)
        kept, _, _ = choose64(lambda x: torch.softmax(x, dim=1), randn(2, 40, 6))
        self.assertIn("masked@-2", kept)
        self.assertNotIn("masked", kept)
        x = inputsets.derive(randn(2, 40, 6)(1), "masked@-2", 1)[0]
        self.assertTrue(bool(torch.isinf(x[:, :38]).all()) and bool(torch.isfinite(x[:, 38:]).all()))
        unguarded = torch.softmax(x[:, :32], dim=1)  # the first chunk of 32 channels alone: NaN
        self.assertTrue(bool(torch.isnan(unguarded).all()))
        # a sum, -inf whichever dimension is masked, keeps none, and says why
        kept, _, dropped = choose64(lambda x: x.sum(dim=(1, 2)), randn(2, 40, 6))
        self.assertFalse([n for n in kept if n.startswith("masked")])
        self.assertIn("not finite", dropped["masked"])
        with self.assertRaisesRegex(ValueError, "unknown input set 'masked@-9'"):
            inputsets.derive([torch.rand(3)], "masked@-9", 0)

    def test_a_normalization_keeps_narrow_where_its_epsilon_shows(self):
        # LayerNorm is the same at every scale but the smallest, where eps is no longer small beside the variance:
        # 1 / (std + eps) for 1 / sqrt(var + eps) passed every other set (r15_layernorm_eps_outside_sqrt)
        ln = lambda x: F.layer_norm(x, (x.shape[-1],), eps=1e-5)
        kept, _, dropped = choose64(ln, randn(16, 64))
        self.assertIn("narrow", kept)
        self.assertIn("scaled", dropped["wide"])
        x = inputsets.derive(randn(16, 64)(1), "narrow", 1)[0]
        self.assertTrue(torch.equal(x, randn(16, 64)(1)[0] * 2.0 ** -10))
        wrong = (x - x.mean(-1, keepdim=True)) / (x.std(-1, unbiased=False, keepdim=True) + 1e-5)
        self.assertGreater(float((wrong - ln(x)).abs().max()), 1.0)
        # an op with no scale of its own, or one that scales with its inputs, learns nothing from it
        for fn, inputs in ((torch.relu, randn(16, 64)), (lambda a, b: a @ b, mm_inputs(16, 32, 8)),
                           (lambda x: torch.softmax(x, -1), randn(16, 64)), (torch.tanh, randn(16, 64))):
            kept, _, dropped = choose64(fn, inputs)
            self.assertNotIn("narrow", kept)
            self.assertTrue(dropped["narrow"], fn)

    def test_masked_passes_an_infinity_through_but_not_a_sum_of_them(self):
        # log_softmax is -inf where its input is: kept, so an online log-softmax without its -inf guard fails
        # (r17_logsoftmax_online_unguarded); a matmul with one operand masked makes columns of -inf by summing,
        # where a correct kernel's zero padding gives NaN: not kept
        kept, _, _ = choose64(lambda x: torch.log_softmax(x, -1), randn(8, 40))
        self.assertIn("masked", kept)
        kept, _, dropped = choose64(lambda a, b: a @ b, lambda sd: rand(16, 32)(sd) + rand(32, 8)(sd + 100))
        self.assertFalse([n for n in kept if n.startswith("masked")], kept)
        # square: the -inf columns sit where the masked operand's are, and a sum made them all the same
        kept, _, dropped = choose64(lambda a, b: a @ b, lambda sd: rand(32, 32)(sd) + rand(32, 32)(sd + 100))
        self.assertFalse([n for n in kept if n.startswith("masked")], kept)
        # softmax(s) @ v is NaN with v masked too: s alone is masked (r17_softmax_v_online_unguarded)
        kept, _, _ = choose64(lambda s_, v: torch.softmax(s_, -1) @ v, lambda sd: randn(8, 40)(sd) + randn(40, 16)(sd + 7))
        self.assertIn("masked#0", kept)
        x, v = inputsets.derive(randn(8, 40)(1) + randn(40, 16)(8), "masked#0", 1)
        self.assertTrue(bool(torch.isinf(x[:, :38]).all()) and bool(torch.isfinite(v).all()))

    def test_a_scan_s_infinities_are_sums_and_masked_is_dropped(self):
        # a reverse cumsum over a masked prefix is -inf exactly where its input is, made by a sum all the same: a
        # correct kernel that subtracts partial sums gives NaN there (r18_cumsum_reverse_total_minus_prefix)
        for fn in (lambda x: x.flip(-1).cumsum(-1).flip(-1), lambda x: x.cumsum(0)):
            kept, _, dropped = choose64(fn, randn(8, 40))
            self.assertFalse([n for n in kept if n.startswith("masked")], kept)
            self.assertIn("sum", dropped["masked"])

    def test_special_is_dropped_where_torch_s_own_kernel_is_not_its_float64_run(self):
        # torch's vectorised CPU GELU is NaN at +inf; its float64 run is inf (r18_ok_gelu_erf)
        x = torch.tensor([float("inf")] * 16)
        if bool(torch.isnan(F.gelu(x)).any()):
            kept, _, dropped = choose64(F.gelu, randn(16, 64))
            self.assertNotIn("special", kept)
            self.assertIn("float64", dropped["special"])
        self.assertIsNotNone(inputsets.special64_gate([torch.tensor([float("nan"), 1.0])],
                                                      [torch.tensor([float("inf"), 1.0], dtype=torch.float64)]))
        self.assertIsNone(inputsets.special64_gate([torch.tensor([float("inf"), 1.0])],
                                                   [torch.tensor([float("inf"), 1.0], dtype=torch.float64)]))

    def test_narrow_is_weighed_where_the_code_has_an_epsilon(self):
        # a Linear's bias keeps wide (its output is no scaled signed one), so narrow was never weighed for
        # Linear -> LayerNorm, whose eps outside the sqrt passed (r17_linear_layernorm_eps_outside_sqrt)
        torch.manual_seed(0)
        lin = torch.nn.Linear(64, 32)
        fn = lambda x: F.layer_norm(lin(x), (32,), eps=1e-5)
        with torch.no_grad():
            kept, _, dropped = choose64(fn, randn(16, 64))
            self.assertNotIn("narrow", kept)
            self.assertIn("epsilon", dropped["narrow"])
            kept, _, _ = inputsets.choose(lambda xs: [fn(*xs)], randn(16, 64), [11, 12], 1e-4, 1e-4, epsilon=True)
        self.assertIn("narrow", kept)
        self.assertTrue(inputsets.has_epsilon("self.ln = nn.LayerNorm(n)"))
        self.assertTrue(inputsets.has_epsilon("return x / torch.sqrt(v + self.eps)"))
        self.assertFalse(inputsets.has_epsilon("return torch.relu(x) + torch.norm(y)"))

    def test_sets_keep_the_task_inputs_zeros_and_symmetry(self):
        # a triangular or symmetric input is the task's contract (r15_ok_triu_matmul_skip_zero_blocks,
        # r15_ok_symmetric_matmul_bt)
        a = torch.randn(6, 6).triu()
        b = torch.randn(6, 6)
        b = b + b.T
        for name in inputsets.SETS:
            da, db = inputsets.derive([a, b], name, 1)
            self.assertTrue(bool((da.tril(-1) == 0).all()), name)
            self.assertTrue(torch.equal(db, db.T), name)

    def test_an_index_output_keeps_exact_for_its_ties(self):
        # argmax's indices round nothing, but exact's small integers tie: a kernel that takes the last maximal
        # index passed randn inputs (r14_argmax_last_tie)
        kept, _, _ = choose64(lambda x: torch.argmax(x, dim=1), randn(8, 64))
        self.assertIn("exact", kept)
        kept, _, dropped = choose64(torch.relu, randn(8, 64))
        self.assertNotIn("exact", kept)

    def test_a_set_whose_reference_overflows_is_dropped(self):
        kept, _, dropped = choose(lambda x: torch.exp(x * 100), rand(8, 8))
        self.assertNotIn("wide", kept)
        self.assertIn("not finite", dropped["wide"])

    def test_an_input_the_output_ignores_on_the_task_inputs_is_named(self):
        # maximum(a, b - 2) is a on rand inputs (b - 2 < 0 <= a): input 1 does not matter there
        kept, notes, _ = choose(lambda a, b: torch.maximum(a, b - 2), lambda sd: rand(16, 16)(sd) + rand(16, 16)(sd + 50))
        insens = [n for n in notes if n["code"] == "REF_INSENSITIVE_INPUT"]
        self.assertEqual([n["input"] for n in insens], [1])
        # wide, and a masked a alone (maximum(-inf, b - 2) is b - 2)
        self.assertEqual(insens[0]["separated_by"], ["wide", "masked#0"])


class FixedTest(unittest.TestCase):
    """The fixed set (redteam inputs r36_*): what the task's generator holds fixed is drawn anew; what it draws stays."""

    def derive(self, *inputs):
        return inputsets.derive(list(inputs), "fixed", {"sealed": True})  # the candidate's seed is sealed

    def test_one_value_is_drawn_per_element_of_its_sign(self):
        x = torch.randn(4, 8)
        for c in (1.0, 0.0, -2.0):
            _, g = self.derive(x, torch.full((64,), c))
            self.assertGreater(torch.unique(g).numel(), 32)
            if c == 0:  # either sign
                self.assertTrue(bool((g < 0).any()) and bool((g > 0).any()))
            else:  # its own (a temperature, a variance stays positive: r38_ok_temp_max_first)
                self.assertTrue(bool((g * c > 0).all()))
        _, cap = self.derive(x, torch.full((64,), float("inf")))  # a cap never reached: mostly finite
        self.assertTrue(bool((cap > 0).all()) and 0 < int(torch.isinf(cap).sum()) < 32)
        self.assertTrue(torch.equal(self.derive(x, torch.ones(3))[0], x))  # drawn data as it is
        self.assertEqual(self.derive(x, 3, torch.ones(2))[1], 3)  # a Python int as it is (a size)
        slope = self.derive(x, 0.2)[1]  # a Python float: scaled in [1/2, 2], its sign kept
        self.assertTrue(0.1 <= slope <= 0.4 and slope != 0.2)
        _, n = self.derive(x, torch.full((8,), 5, dtype=torch.int64))  # a length: in [0, 5]
        self.assertTrue(bool((n >= 0).all()) and bool((n <= 5).all()) and not bool((n == 5).all()))

    def test_a_pattern_is_flipped_with_each_rows_first_held(self):
        causal = torch.full((8, 8), float("-inf")).triu(1)
        _, m = self.derive(torch.randn(8, 8), causal)
        self.assertFalse(torch.equal(m, causal))
        self.assertTrue(bool((m[:, 0] == causal[:, 0]).all()))  # no row masked whole
        self.assertEqual(set(torch.unique(m).tolist()), {0.0, float("-inf")})
        _, ones = self.derive(torch.randn(4, 16), torch.ones(4, 16, dtype=torch.int64))
        self.assertTrue(bool((ones[:, 0] == 1).all()) and bool((ones == 0).any()))
        _, flag = self.derive(torch.randn(4), torch.tensor([True]))
        self.assertEqual(flag.tolist(), [False])

    def test_fixed_rows_masks_a_row_whole_at_either_value(self):
        x = torch.randn(4, 16)
        ones = torch.ones(4, 16, dtype=torch.int64)
        _, fixed = self.derive(x, ones)
        _, rows = inputsets.derive([x, ones], "fixed_rows", {"sealed": True})
        whole0 = [i for i in range(4) if rows[i].tolist() == [0] * 16]  # masked whole (a keep mask)
        whole1 = [i for i in range(4) if rows[i].tolist() == [1] * 16 and fixed[i].tolist() != [1] * 16]
        self.assertEqual(len(whole0), 1)
        rest = [i for i in range(4) if rows[i].tolist() not in ([0] * 16, [1] * 16)]
        self.assertTrue(all(torch.equal(rows[i], fixed[i]) for i in rest))  # the rest is the fixed set's
        self.assertLessEqual(len(whole1), 1)
        causal = torch.full((8, 8), float("-inf")).triu(1)
        _, m = inputsets.derive([torch.randn(8, 8), causal], "fixed_rows", {"sealed": True})
        self.assertEqual(sum(bool(torch.isinf(m[i]).all()) for i in range(8)), 1)
        self.assertGreaterEqual(sum(bool((m[i] == 0).all()) for i in range(8)), 1)
        drawn = set()  # the rows are drawn, not always the first two (r39_mean_pool_clamp_first_rows)
        for _ in range(12):
            x8 = torch.randn(8, 16)
            _, r8 = inputsets.derive([x8, torch.ones(8, 16, dtype=torch.int64)], "fixed_rows", {"sealed": True})
            drawn |= {i for i in range(8) if r8[i].tolist() == [0] * 16}
        self.assertGreater(len(drawn), 2)
        _, v = inputsets.derive([x, torch.ones(16, dtype=torch.bool)], "fixed_rows", {"sealed": True})
        self.assertTrue(torch.equal(v, self.derive(x, torch.ones(16, dtype=torch.bool))[1]))  # no rows: as fixed

    def test_distinct_indices_get_repeats_and_positions_stay(self):
        x = torch.randn(16, 4)
        _, idx = self.derive(x, torch.randperm(16)[:8])
        self.assertLess(torch.unique(idx).numel(), 8)
        self.assertTrue(bool((idx >= 0).all()) and bool((idx < 16).all()))
        pos = torch.arange(16)
        self.assertTrue(torch.equal(self.derive(x, pos)[1], pos))
        _, c = self.derive(x, torch.full((5,), 3, dtype=torch.int32))
        self.assertTrue(bool((c >= 0).all()) and bool((c <= 6).all()) and not bool((c == 3).all()))

    def test_the_draws_follow_the_task_inputs(self):
        g = torch.Generator().manual_seed(0)
        a, b = torch.randn(4, 8, generator=g), torch.randn(4, 8, generator=g)
        ones = torch.ones(32)
        self.assertTrue(torch.equal(self.derive(a, ones)[1], self.derive(a.clone(), ones)[1]))  # candidate = reference
        self.assertFalse(torch.equal(self.derive(a, ones)[1], self.derive(b, ones)[1]))  # another seed, other draws

    def test_choose_keeps_fixed_where_it_tells_and_not_where_a_scatter_races(self):
        def pool(h, m):
            return [(h * m[..., None]).sum(1) / m.sum(1, keepdim=True).clamp(min=1e-9)]
        kept, _, _ = inputsets.choose(lambda xs: pool(*xs), lambda sd: [torch.randn(
            4, 16, 8, generator=torch.Generator().manual_seed(sd)), torch.ones(4, 16, dtype=torch.int64)],
            [1, 2], 1e-4, 1e-4)
        self.assertIn("fixed", kept)
        kept, _, dropped = inputsets.choose(lambda xs: [xs[0] * 2], lambda sd: [torch.randn(
            8, generator=torch.Generator().manual_seed(sd))], [1, 2], 1e-4, 1e-4)
        self.assertIn("as they are", dropped["fixed"])

        def scatter(x, idx):  # a scatter's winner at a repeated index is not deterministic (a GPU's is not)
            return [x[idx] + (torch.rand(idx.numel()) if torch.unique(idx).numel() < idx.numel() else 0)]
        kept, _, dropped = inputsets.choose(lambda xs: scatter(*xs), lambda sd: [torch.randn(
            16, generator=torch.Generator().manual_seed(sd)), torch.randperm(16, generator=torch.Generator().manual_seed(
                sd))[:8]], [1, 2], 1e-4, 1e-4)
        self.assertNotIn("fixed", kept)
        self.assertIn("two runs", dropped["fixed"])


class ChunkTest(unittest.TestCase):
    """derive makes a large input's set CHUNK elements at a time (a 6.4 GB input's special set held some 90 GB
    whole): chunk by chunk it is the same tensor, bit for bit, as made whole."""

    def test_every_set_is_the_same_in_chunks(self):
        torch.manual_seed(3)
        x = torch.rand(40, 130)
        x[::3, ::5] = 0
        x[1, 2], x[2, 3] = float("inf"), float("nan")
        a = torch.randn(24, 24)
        cases = [[x], [torch.randn(8, 40, 24)], [a + a.T], [torch.randn(40, 64).t()], [torch.rand(64, 96).bfloat16()]]
        names = list(inputsets.SETS) + ["masked@-2"]
        whole = [[inputsets.derive(c, n, 1) for n in names] for c in cases]
        old = inputsets.CHUNK
        try:
            inputsets.CHUNK = 37
            for c, outs in zip(cases, whole):
                for n, o in zip(names, outs):
                    got = inputsets.derive(c, n, 1)
                    for u, v in zip(o, got):
                        self.assertEqual((u.dtype, u.shape, u.stride()), (v.dtype, v.shape, v.stride()), n)
                        self.assertTrue(torch.equal(u.view(torch.int16 if u.element_size() == 2 else torch.int32),
                                                    v.view(torch.int16 if v.element_size() == 2 else torch.int32)), n)
        finally:
            inputsets.CHUNK = old


class ExactTest(unittest.TestCase):
    def test_a_matmul_keeps_exact(self):
        kept, _, dropped = choose64(lambda a, b: a @ b, mm_inputs(16, 64, 16))
        self.assertIn("exact", kept, dropped)

    def test_a_row_sum_keeps_exact(self):
        kept, _, dropped = choose64(lambda x: x.sum(-1), randn(16, 256))
        self.assertIn("exact", kept, dropped)

    def test_an_elementwise_op_does_not(self):
        _, _, dropped = choose64(torch.relu, randn(16, 64))
        self.assertIn("rounds nothing", dropped["exact"])

    def test_a_result_that_is_not_integer_does_not(self):
        _, _, dropped = choose64(lambda x: torch.softmax(x, -1), randn(16, 64))
        self.assertIn("not integer", dropped["exact"])

    def test_sums_beyond_2_24_do_not(self):
        # magnitudes summing past 2^24: a correct fp32 kernel adding in another order could round
        _, _, dropped = choose64(lambda a, b: (a @ b) * 4096, mm_inputs(4, 64, 4))
        self.assertIn("2^24", dropped["exact"])

    def test_without_a_float64_reference_it_is_not_weighed(self):
        kept, _, dropped = choose(lambda a, b: a @ b, mm_inputs(16, 64, 16))
        self.assertNotIn("exact", kept)
        self.assertIn("float64", dropped["exact"])

    def test_inputs_too_large_for_float64_copies_drop_it(self):
        old = inputsets.EXACT_MAX_BYTES
        inputsets.EXACT_MAX_BYTES = 16 * 64 * 8 - 1
        try:
            _, _, dropped = choose64(lambda x: x.sum(-1), randn(16, 64))
        finally:
            inputsets.EXACT_MAX_BYTES = old
        self.assertIn("GiB", dropped["exact"])

    def test_a_reference_failing_in_float64_drops_only_exact(self):
        def fn(x):
            if x.dtype == torch.float64:
                raise RuntimeError("float only")
            return x.sum(-1)
        kept, _, dropped = choose64(fn, randn(16, 64))
        self.assertNotIn("exact", kept)
        self.assertIn("does not run in float64", dropped["exact"])

    def test_bf16_operands_differ_from_the_reference_on_exact_inputs_but_not_on_tf32_ones(self):
        a, b = inputsets.derive(mm_inputs(16, 64, 16)(11), "exact", 11)
        ref = a @ b
        self.assertTrue(torch.equal(ref.double(), a.double() @ b.double()))
        self.assertFalse(torch.equal(a.bfloat16().float() @ b.bfloat16().float(), ref))
        self.assertTrue(torch.equal(a.half().float() @ b.half().float(), ref))  # TF32/fp16 operands: exact


class SpecialTest(unittest.TestCase):
    def test_relu_keeps_special(self):
        kept, _, _ = choose(torch.relu, randn(16, 64))
        self.assertIn("special", kept)

    def test_a_matmul_that_spreads_nan_over_rows_drops_it(self):
        _, _, dropped = choose(lambda a, b: a @ b, mm_inputs(16, 64, 16))
        self.assertIn("no longer informative", dropped["special"])

    def test_a_reference_that_absorbs_nan_drops_it(self):
        _, _, dropped = choose(lambda x: torch.nan_to_num(x, 0.0, 1.0, -1.0), randn(16, 64))
        self.assertIn("does not pass NaN or inf through", dropped["special"])

    def test_the_comparison_matches_nan_with_nan_and_inf_with_inf(self):
        from sieve_worker.data import compare
        x = inputsets.derive([torch.rand(64, 64)], "special", 0)[0]
        x[::7, 3] = float("nan")  # the set holds none; the comparison's rule for NaN is tested all the same
        ref = [("float32", torch.relu(x).numpy())]
        self.assertTrue(compare.compare(ref, [("float32", torch.relu(x).numpy())], 0.0, 0.0)["ok"])
        dropped = compare.compare(ref, [("float32", torch.relu(torch.where(torch.isnan(x), 0.0, x)).numpy())], 1e-2, 1e-2)
        self.assertFalse(dropped["ok"])
        self.assertEqual(dropped["nonfinite_mismatches"], int(torch.isnan(x).sum()))
        flipped = compare.compare(ref, [("float32", torch.relu(-x).numpy())], 1e-2, 1e-2)
        self.assertGreater(flipped["nonfinite_mismatches"], 0)  # +inf where -inf became 0

    def test_a_linear_layer_drops_it_where_padding_would_make_nan(self):
        # inf reaches every output of its row; a tiled kernel padding with zeros computes inf * 0 = NaN there
        w = torch.randn(32, 8, generator=torch.Generator().manual_seed(3))
        _, _, dropped = choose(lambda x: x @ w, randn(64, 32))
        self.assertIn("reaches several outputs", dropped["special"])

    def test_the_identity_is_still_the_identity_with_nan(self):
        # a reference that returns its input is not separated by special values (NaN equals NaN there)
        _, notes, _ = choose(lambda x: x.clone(), rand(16, 64))
        ident = [n for n in notes if n["code"] == "REF_IDENTITY_ON_INPUTS"]
        self.assertEqual(len(ident), 1)
        self.assertNotIn("special", ident[0]["separated_by"])



class SetToleranceTest(unittest.TestCase):
    """A derived set's atol is widened to NOISE_FACTOR times the reference's own float rounding there
    (outputs.rounding_noise): signed inputs make a long dot product cancel, and a correct kernel that adds
    in another order then differs from torch by more than the task's atol (6_Matmul_with_large_K on the
    H200: 30 values off by up to 8.3e-4 at atol 1e-4); a precision downgrade still fails."""

    def setUp(self):
        g = torch.Generator().manual_seed(5)
        k = 1 << 16
        self.a = (torch.rand(1, k, generator=g) * 2 - 1) * 4
        self.b = (torch.rand(k, 256, generator=g) * 2 - 1) * 4

        class MatMul(torch.nn.Module):
            def forward(self, a, b):
                return a @ b
        self.model = MatMul()
        self.ref = self.model(self.a, self.b)

    @staticmethod
    def off(x, ref, atol, rtol=1e-4):
        return int(((x - ref).abs() > atol + rtol * ref.abs()).sum())

    def test_another_summation_order_passes_and_a_downgrade_does_not(self):
        from sieve_worker.tasks import outputs, taskref
        noise = outputs.rounding_noise(self.model, [self.a, self.b], [self.ref])
        self.assertGreater(noise, 0)
        summary = {"atol": 1e-4, "rtol": 1e-4, "set_atols": [None, outputs.NOISE_FACTOR * noise]}
        self.assertEqual(taskref.set_atol(summary, 0), (1e-4, 1e-4))  # the task's own inputs: as the task says
        atol = taskref.set_atol(summary, 1)[0]
        # a correct kernel: the same dot products, added in blocks of 4096 one after another
        chunks = torch.zeros_like(self.ref)
        for i in range(0, self.a.shape[1], 4096):
            chunks += self.a[:, i:i + 4096] @ self.b[i:i + 4096]
        self.assertGreater(self.off(chunks, self.ref, 1e-4), 0)  # rejected at the task's atol: a false rejection
        self.assertEqual(self.off(chunks, self.ref, atol), 0)
        # inputs rounded to bfloat16 (what a TF32 or half-precision kernel does to them): still a mismatch
        low = self.a.bfloat16().float() @ self.b.bfloat16().float()
        self.assertGreater(self.off(low, self.ref, atol), 0)

    def test_the_float64_run_only_where_it_is_cheap_and_small(self):
        # a float64 copy of a 6.4 GB elementwise task's inputs and outputs held ~80 GB more on the H200
        from unittest import mock

        from sieve_worker.tasks import inputsets, outputs
        self.assertGreater(outputs.set_noise(self.model, [self.a, self.b], [self.ref], True), 0)
        self.assertIsNone(outputs.set_noise(self.model, [self.a, self.b], [self.ref], False))
        with mock.patch.object(outputs, "NOISE_MAX_BYTES", self.b.numel() * 4):
            self.assertIsNone(outputs.set_noise(self.model, [self.a, self.b], [self.ref], True))
        # cheap is the work torch counts, the same on a loaded machine as on an idle one
        call = lambda xs: self.model(*xs)
        flops = 2 * self.a.shape[0] * self.a.shape[1] * self.b.shape[1]
        self.assertTrue(inputsets.counted(call, [self.a, self.b])[1])
        with mock.patch.dict(inputsets.F64_MAX_FLOPS, {"cpu": flops - 1}):
            out, cheap = inputsets.counted(call, [self.a, self.b])
        self.assertFalse(cheap)
        self.assertTrue(torch.equal(out, self.model(self.a, self.b)))
        conv = torch.nn.Conv2d(4, 8, 3)
        x = torch.randn(1, 4, 16, 16)
        self.assertTrue(inputsets.counted(lambda xs: conv(*xs), [x])[1])
        with mock.patch.dict(inputsets.F64_MAX_CONV_FLOPS, {"cpu": 1000}):
            self.assertFalse(inputsets.counted(lambda xs: conv(*xs), [x])[1])

    def test_no_widening_where_the_model_has_no_float64_form(self):
        from sieve_worker.tasks import outputs, taskref

        class Fp32Only(torch.nn.Module):
            def forward(self, x):
                if x.dtype != torch.float32:
                    raise TypeError("float32 only")
                return x * 2
        x = torch.rand(8)
        self.assertIsNone(outputs.rounding_noise(Fp32Only(), [x], [x * 2]))
        self.assertEqual(taskref.set_atol({"atol": 1e-4, "rtol": 1e-4, "set_atols": [None]}, 0)[0], 1e-4)


if __name__ == "__main__":
    unittest.main()
