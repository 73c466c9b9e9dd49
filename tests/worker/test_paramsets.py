"""The params sets (paramsets): a model's constructor-made constants (a norm's weight 1 and bias 0, PReLU's 0.25, a
stored permutation, a pruning mask) and its norm layers' running statistics drawn from the weight seed, as a
checkpoint's could be. Runs on the CPU.

    PYTHONPATH=gpu/worker python -m unittest discover -s tests/worker -p 'test_paramsets.py'
"""
import unittest

import torch

from sieve_worker.tasks import inputsets, paramsets


def rand(*shape):
    return lambda sd: [torch.rand(*shape, generator=torch.Generator().manual_seed(sd))]


class ParamsTest(unittest.TestCase):
    """The params set: a model's constant parameters (a norm's weight 1 and bias 0, PReLU's 0.25) and its norm
    layers' running statistics drawn from the weight seed; random ones stay."""

    def model(self):
        torch.manual_seed(0)
        return torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.LayerNorm(8), torch.nn.BatchNorm1d(8),
                                   torch.nn.PReLU(8))

    def test_constant_parameters_and_running_statistics_vary_and_the_rest_do_not(self):
        m, again, other = self.model(), self.model(), self.model()
        before = {k: v.clone() for k, v in m.state_dict().items()}
        varied = paramsets.vary_parameters(m, 7)
        self.assertEqual(sorted(varied), sorted(["1.weight", "1.bias", "2.weight", "2.bias", "2.running_mean",
                                                 "2.running_var", "3.weight"]))
        after = m.state_dict()
        for k in ("0.weight", "0.bias", "2.num_batches_tracked"):
            self.assertTrue(torch.equal(after[k], before[k]), k)
        for k in varied:
            self.assertFalse(torch.equal(after[k], before[k]), k)
            self.assertGreater(float(after[k].std()), 0, k)  # no longer one value
        self.assertTrue(bool((after["2.running_var"] > 0).all()))  # a variance stays positive
        slope = after["3.weight"]
        self.assertGreater(float(slope[0]), 1)  # the first element: its own sign, a magnitude at most 1 goes above 1
        self.assertTrue(bool((slope < 0).any()) and bool((slope > 0).any()))  # the rest mix signs
        ln_w = after["1.weight"]
        self.assertTrue(bool(((ln_w - 1).abs() < 0.25).any()) and bool((ln_w.abs() > 1.25).any()))  # near and far
        paramsets.vary_parameters(again, 7)
        paramsets.vary_parameters(other, 8)
        self.assertTrue(all(torch.equal(after[k], again.state_dict()[k]) for k in varied))  # the seed decides
        self.assertFalse(torch.equal(after["1.weight"], other.state_dict()["1.weight"]))

    def test_params_flip_negates_the_draws_but_not_a_variance(self):
        m, flipped = self.model(), self.model()
        paramsets.vary_parameters(m, 7)
        paramsets.vary_parameters(flipped, 7, paramsets.PARAMS_FLIP)
        a, b = m.state_dict(), flipped.state_dict()
        for k in ("3.weight", "1.weight", "1.bias"):
            kept = b[k][1:] != 0  # the rest negated, a few made exactly 0
            self.assertTrue(torch.equal(b[k][1:][kept], -a[k][1:][kept]), k)
        self.assertGreater(float(a["3.weight"][0]), 1)  # PReLU's first slope above 1 there, inside (-1, 0) here
        self.assertTrue(-1 < float(b["3.weight"][0]) < 0)
        self.assertFalse(bool((a["1.weight"] == 0).any()))  # params itself has no zero (a divisor stays finite)
        self.assertTrue(torch.equal(b["2.running_var"], a["2.running_var"]))
        self.assertTrue(bool((b["2.running_var"] > 0).all()))

    def test_masks_and_sign_patterns_are_structure_stored_values_are_not(self):
        h = torch.tensor([[1.0, 1.0], [1.0, -1.0]])
        self.assertTrue(paramsets._structure(torch.tril(torch.ones(4, 4))))
        self.assertTrue(paramsets._structure(torch.kron(h, h)))
        for stored in (torch.zeros(3), torch.ones(3), torch.tensor([0.485, 0.456, 0.406]), torch.tensor([2.0, 0.0, 1.0])):
            self.assertFalse(paramsets._structure(stored), stored)

    def test_params_abs_is_params_magnitudes(self):
        m, a = self.model(), self.model()
        paramsets.vary_parameters(m, 7)
        paramsets.vary_parameters(a, 7, paramsets.PARAMS_ABS)
        for k in ("1.weight", "1.bias", "3.weight"):
            self.assertTrue(torch.equal(a.state_dict()[k], m.state_dict()[k].abs()), k)

    def test_params_abs_of_named_tensors_keeps_the_others_signs(self):
        m, a = self.model(), self.model()
        paramsets.vary_parameters(m, 7)
        paramsets.vary_parameters(a, 7, paramsets.abs_only(["1.weight"]))
        self.assertTrue(torch.equal(a.state_dict()["1.weight"], m.state_dict()["1.weight"].abs()))
        for k in ("1.bias", "3.weight"):
            self.assertTrue(torch.equal(a.state_dict()[k], m.state_dict()[k]), k)
        self.assertEqual(paramsets.params_set("params_abs#1.weight,3.weight"),
                         (paramsets.PARAMS_ABS, {"1.weight", "3.weight"}))
        self.assertEqual(paramsets.params_set("params_flip#1.weight"), (None, None))  # only params_abs names tensors
        self.assertEqual(inputsets.derive([torch.ones(2)], "params_abs#1.weight")[0].tolist(), [1.0, 1.0])

    def test_abs_set_gives_back_every_sign_the_reference_survives(self):
        need = {"gain"}  # the reference is finite while the gain is positive, whatever the others' signs
        finite = lambda name: need <= paramsets.params_set(name)[1]
        self.assertEqual(paramsets.abs_set(["gain", "bias", "scale"], finite), ["params_abs#gain"])
        self.assertEqual(paramsets.abs_set(["gain"], finite), [paramsets.PARAMS_ABS])  # all of them: the plain set
        need = {"gain", "scale"}
        self.assertEqual(paramsets.abs_set(["bias", "gain", "scale"], finite), ["params_abs#gain,scale"])
        self.assertEqual(paramsets.abs_set(["bias", "gain"], lambda n: "gain" in paramsets.params_set(n)[1],
                                           paramsets.PARAMS_SIGNED), ["params_signed#gain"])
        # finite while either is positive (sqrt(max(gain, floor))): each order leaves another, both sets are kept
        either = lambda name: bool({"gain", "floor"} & paramsets.params_set(name)[1])
        self.assertEqual(paramsets.abs_set(["gain", "floor"], either), ["params_abs#floor", "params_abs#gain"])
        # past ABS_TRIES tensors one by one, the rest's signs are given back together
        names = [f"t{i}" for i in range(paramsets.ABS_TRIES + 3)]
        self.assertEqual(paramsets.abs_set(names, lambda n: "t0" in paramsets.params_set(n)[1])[0], "params_abs#t0")

    def test_params_near_and_flip_without_zeros(self):
        m, near, flip, nz = self.model(), self.model(), self.model(), self.model()
        v = {k: t.clone() for k, t in m.state_dict().items()}
        paramsets.vary_parameters(near, 7, paramsets.PARAMS_NEAR)
        paramsets.vary_parameters(flip, 7, paramsets.PARAMS_FLIP)
        paramsets.vary_parameters(nz, 7, paramsets.PARAMS_FLIP_NZ)
        a, b, c = near.state_dict(), flip.state_dict(), nz.state_dict()
        w = v["3.weight"]  # PReLU's 0.25: every element in its own band, the first of its sign in [0.05, 0.8]
        self.assertTrue(bool(((a["3.weight"][1:] >= 0.8 * w[1:]) & (a["3.weight"][1:] <= 1.2 * w[1:])).all()))
        self.assertTrue(0.05 <= float(a["3.weight"][0]) <= 0.8)
        self.assertFalse(bool((c["1.weight"] == 0).any()))  # no zero: a divisor stays finite
        kept = b["1.weight"] != 0
        self.assertTrue(torch.equal(c["1.weight"][kept], b["1.weight"][kept]))  # otherwise params_flip's draws

    def test_params_toward_brings_the_draws_part_of_the_way(self):
        m, t = self.model(), self.model()
        v = {k: x.clone() for k, x in m.state_dict().items()}
        paramsets.vary_parameters(m, 7)
        paramsets.vary_parameters(t, 7, "params_toward@3")
        for k in ("1.weight", "1.bias", "3.weight"):
            want = v[k].double() + (m.state_dict()[k].double() - v[k].double()) / 8
            self.assertTrue(torch.allclose(t.state_dict()[k].double(), want, atol=1e-6), k)
        self.assertEqual(paramsets.params_set("params_toward"), (None, None))  # only with its step
        self.assertEqual(paramsets.params_set("params_toward@6"), (None, None))

    def test_a_parameter_drawn_of_one_sign_is_varied_a_signed_one_is_not(self):
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(4, 4)  # drawn of both signs: a checkpoint's is like it
                self.scale = torch.nn.Parameter(torch.rand(4) + 0.5)  # drawn positive: every check would see it so

        def make(seed):
            torch.manual_seed(seed)
            return M()
        names = [n for n, _, _ in paramsets.constant_tensors(make(1), make(2))]
        self.assertIn("scale", names)
        self.assertNotIn("lin.weight", names)

    def test_a_twin_tells_constructed_elements_of_a_drawn_table(self):
        def make(seed):
            torch.manual_seed(seed)
            return torch.nn.Embedding(10, 4, padding_idx=0)
        m = make(1)
        rest = m.weight[1:].clone()
        before = paramsets.vary_parameters(m, 7, twin=make(2))
        self.assertEqual(list(before), ["weight"])
        self.assertTrue(torch.equal(before["weight"][0], torch.zeros(4)))  # the value before is returned
        self.assertFalse(bool((m.weight[0] == 0).any()))  # the padding row varied
        self.assertTrue(torch.equal(m.weight[1:], rest))  # the drawn rows kept

    def test_a_twin_tells_constructed_parameters_from_drawn_ones(self):
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(4, 4)
                self.mix = torch.nn.Parameter(torch.eye(4))  # not one value, yet the constructor's
                self.register_buffer("std", torch.ones(4))  # one value: varied
                self.register_buffer("mask", torch.tril(torch.ones(4, 4)))  # the operator's constant: kept
                self.register_buffer("tmp", torch.zeros(4), persistent=False)  # in no checkpoint: kept

        def make(seed):
            torch.manual_seed(seed)
            return M()
        m = make(1)
        mask = m.mask.clone()
        varied = paramsets.vary_parameters(m, 7, twin=make(2))
        self.assertEqual(sorted(varied), ["mix", "std"])
        self.assertTrue(torch.equal(m.mask, mask))
        self.assertEqual(list(paramsets.vary_parameters(make(1), 7)), ["std"])  # no twin: one-value tensors alone

    def test_the_set_s_inputs_are_the_task_s(self):
        x = rand(4, 8)(3)
        for name in (paramsets.PARAMS, paramsets.PARAMS_FLIP):
            self.assertIs(inputsets.derive(x, name, 3), x)
        signed = inputsets.derive(x, "signed", 3)[0]
        self.assertTrue(torch.equal(inputsets.derive(x, paramsets.PARAMS_SIGNED, 3)[0], signed))  # signed's inputs

    def test_the_gate_keeps_it_only_where_the_output_moves_and_stays_finite(self):
        o = [torch.ones(4)]
        self.assertIsNone(paramsets.params_gate([torch.full((4,), 2.0)], o, 1e-4, 1e-4))
        self.assertIn("does not change", paramsets.params_gate([torch.ones(4)], o, 1e-4, 1e-4))
        self.assertIn("not finite", paramsets.params_gate([torch.tensor([1.0, float("nan"), 1, 1])], o, 1e-4, 1e-4))


    def test_params_far_draws_beyond_the_band_of_either_sign(self):
        m, far = self.model(), self.model()
        paramsets.vary_parameters(far, 7, paramsets.PARAMS_FAR)
        for k in ("1.weight", "1.bias", "3.weight"):
            b = m.state_dict()[k].abs().clamp_min(1.0)
            r = far.state_dict()[k].abs() / b
            low = (r >= paramsets.FAR_LOW[0] * 0.999) & (r <= paramsets.FAR_LOW[1] * 1.001)
            high = (r >= paramsets.FAR_HIGH[0] * 0.999) & (r <= paramsets.FAR_HIGH[1] * 1.001)
            self.assertTrue(bool((low | high).all()), k)  # nothing inside the others' band
        w = torch.cat([far.state_dict()[k] for k in ("1.weight", "1.bias", "3.weight")])
        r = w.abs()
        self.assertTrue(bool((r > 2).any()) and bool((r < 0.05).any()))  # a clamp to 2 and a flush under 0.05 show
        self.assertTrue(bool((w < 0).any()) and bool((w > 0).any()))


class DiscreteTest(unittest.TestCase):
    """Integer and bool buffers: a stored permutation or a one-valued mask is a checkpoint's to change (redteam inputs
    r28_perm_hardcoded, r28_bool_mask_ignored); a map with repeats, a mask of both values and a counter are the
    operator's structure."""

    class M(torch.nn.Module):
        def __init__(self, n=16):
            super().__init__()
            self.register_buffer("perm", torch.arange(n - 1, -1, -1))  # the reversal: made, a permutation
            self.register_buffer("drawn", torch.randperm(n))  # drawn: each seed has its own already
            self.register_buffer("keep", torch.ones(n, dtype=torch.bool))  # one value: a mask that keeps all
            self.register_buffer("causal", torch.tril(torch.ones(4, 4, dtype=torch.bool)))  # both values: structure
            self.register_buffer("groups", torch.arange(n) // 4)  # repeats: a group map, structure
            self.register_buffer("tmp", torch.arange(n - 1, -1, -1), persistent=False)  # in no checkpoint
            self.bn = torch.nn.BatchNorm1d(4)  # num_batches_tracked: a counter

    def make(self, seed):
        torch.manual_seed(seed)
        return self.M()

    def test_only_made_permutations_and_one_valued_masks_are_varied(self):
        found = [(n, k) for n, _, k in paramsets.constant_discrete(self.make(1), self.make(2))]
        self.assertEqual(found, [("perm", "perm"), ("keep", "mask")])
        # without a twin a drawn permutation is not told from a made one
        self.assertIn(("drawn", "perm"), [(n, k) for n, _, k in paramsets.constant_discrete(self.make(1))])
        self.assertEqual(paramsets.constant_discrete(self.make(1), self.make(1))[0][0], "perm")

    def test_each_set_draws_another_permutation_and_flips_part_of_a_mask(self):
        seen = {}
        for name in (paramsets.PARAMS, paramsets.PARAMS_FLIP, paramsets.PARAMS_FAR, paramsets.PARAMS_SIGNED):
            m = self.make(1)
            groups, causal = m.groups.clone(), m.causal.clone()
            before = paramsets.vary_parameters(m, 7, name, twin=self.make(2))
            self.assertTrue(torch.equal(before["perm"], torch.arange(15, -1, -1)))
            self.assertTrue(torch.equal(torch.sort(m.perm).values, torch.arange(16)), name)  # still a permutation
            self.assertFalse(torch.equal(m.perm, before["perm"]), name)
            flipped = int((~m.keep).sum())
            if name == paramsets.PARAMS_FAR:
                self.assertEqual(flipped, 16)  # every channel pruned
            else:
                self.assertTrue(0 < flipped < 16, name)  # some channels pruned, not all
            self.assertTrue(torch.equal(m.groups, groups) and torch.equal(m.causal, causal), name)
            self.assertTrue(torch.equal(m.tmp, torch.arange(15, -1, -1)))
            seen[name] = (m.perm.clone(), m.keep.clone())
        self.assertFalse(torch.equal(seen[paramsets.PARAMS][0], seen[paramsets.PARAMS_FLIP][0]))
        # params' draws on the signed inputs: the same state as params
        self.assertTrue(torch.equal(seen[paramsets.PARAMS][0], seen[paramsets.PARAMS_SIGNED][0]))
        again = self.make(1)
        paramsets.vary_parameters(again, 7, twin=self.make(2))
        self.assertTrue(torch.equal(again.perm, seen[paramsets.PARAMS][0]))  # the seed decides
        for name in (paramsets.PARAMS_NEAR, "params_toward@2"):
            m = self.make(1)
            before = paramsets.vary_parameters(m, 7, name, twin=self.make(2))
            self.assertNotIn("perm", before)
            self.assertTrue(torch.equal(m.perm, torch.arange(15, -1, -1)) and bool(m.keep.all()), name)

    def test_params_flip_keeps_the_first_element_and_changes_the_rest(self):
        m = self.make(1)
        paramsets.vary_parameters(m, 7, paramsets.PARAMS_FLIP, twin=self.make(2))
        self.assertEqual(int(m.perm[0]), 15)  # a fast path keyed on perm[0] is taken, with the rest changed
        self.assertFalse(torch.equal(m.perm, torch.arange(15, -1, -1)))
        self.assertTrue(bool(m.keep[0]) and not bool(m.keep.all()))
        for n in (2, 3):  # too short to hold: still changed
            t = torch.arange(n - 1, -1, -1)
            paramsets.vary_discrete(t, "perm", torch.Generator().manual_seed(1), 0.5, hold_first=True)
            self.assertFalse(torch.equal(t, torch.arange(n - 1, -1, -1)), n)

    def test_other_forms_a_checkpoint_holds(self):
        class N(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("order", torch.arange(12).view(3, 4).t().contiguous())  # a scan order, 2-D
                self.register_buffer("inv", torch.argsort(self.order.reshape(-1)))  # its inverse: follows it
                self.register_buffer("keep_u8", torch.ones(8, dtype=torch.uint8))  # a mask as bytes
                self.pidx = torch.nn.Parameter(torch.arange(5, -1, -1), requires_grad=False)  # a frozen parameter
                self.register_buffer("position_ids", torch.arange(6))  # positions in order: structure
                self.register_buffer("codes", torch.arange(-8, 8, dtype=torch.int8))  # a table: structure
                self.register_buffer("kept", torch.arange(0, 16, 2))  # the channels a pruning kept

        def make(seed):
            torch.manual_seed(seed)
            return N()
        found = {n: k for n, _, k in paramsets.constant_discrete(make(1), make(2))}
        self.assertEqual(found, {"pidx": "perm", "order": "perm", "inv": "perm", "keep_u8": "mask", "kept": "index"})
        for name in (paramsets.PARAMS, paramsets.PARAMS_FLIP, paramsets.PARAMS_FAR):
            m = make(1)
            paramsets.vary_parameters(m, 7, name, twin=make(2))
            self.assertFalse(torch.equal(m.order, torch.arange(12).view(3, 4).t()), name)
            self.assertTrue(torch.equal(m.inv, torch.argsort(m.order.reshape(-1))), name)  # still its inverse
            self.assertTrue(bool((m.keep_u8 <= 1).all()) and bool((m.keep_u8 == 0).any()), name)
            self.assertTrue(torch.equal(m.position_ids, torch.arange(6)), name)
            self.assertFalse(torch.equal(m.kept, torch.arange(0, 16, 2)), name)  # 8 distinct sorted channels of 0..14
            self.assertEqual(torch.unique(m.kept).numel(), 8)
            top = 15 if name == paramsets.PARAMS_FAR else 14  # params_far: one past the largest
            self.assertTrue(bool((m.kept[1:] > m.kept[:-1]).all()) and int(m.kept.max()) <= top, name)
        m = make(1)
        paramsets.vary_parameters(m, 7, paramsets.PARAMS_FAR, twin=make(2))
        self.assertTrue(bool((m.keep_u8 == 0).all()))  # params_far: a mask that keeps nothing

    def test_an_index_list_drawn_as_itself_still_changes(self):
        for seed in range(40):
            t = torch.tensor([0, 1, 3])  # 3 of 0..3: four choices, one of them its own
            paramsets.vary_discrete(t, "index", torch.Generator().manual_seed(seed), 0.25)
            self.assertFalse(torch.equal(t, torch.tensor([0, 1, 3])), seed)
            self.assertEqual(torch.unique(t).numel(), 3)

    def test_constants_index_tables_twins_and_held_tensors(self):
        class Q(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("zero_point", torch.tensor([0], dtype=torch.int32))  # 0 or 1 alone: a mask
                self.register_buffer("zeros", torch.full((6,), 8, dtype=torch.int8))  # one value: a constant
                self.register_buffer("kept", torch.tensor([[0, 2, 4], [6, 8, 10]]))  # per group: an index table
                self.register_buffer("p1", torch.tensor([1, 0, 3, 2]))
                self.register_buffer("p2", torch.tensor([1, 0, 3, 2]))  # built as p1: follows it in params alone

        def make(seed):
            torch.manual_seed(seed)
            return Q()
        found = {n: k for n, _, k in paramsets.constant_discrete(make(1), make(2))}
        self.assertEqual(found, {"zero_point": "mask", "zeros": "const", "kept": "index", "p1": "perm", "p2": "perm"})
        m = make(1)
        paramsets.vary_parameters(m, 7, twin=make(2))
        self.assertEqual(int(m.zero_point[0]), 1)
        self.assertTrue(bool((m.zeros >= 0).all()) and bool((m.zeros <= 16).all()) and not bool((m.zeros == 8).all()))
        self.assertTrue(bool((m.kept[:, 1:] > m.kept[:, :-1]).all()) and torch.unique(m.kept).numel() == 6)
        self.assertTrue(torch.equal(m.p1, m.p2))
        f = make(1)
        paramsets.vary_parameters(f, 7, paramsets.PARAMS_FLIP, twin=make(2))
        self.assertFalse(torch.equal(f.p1, f.p2))  # params_flip draws each on its own
        self.assertEqual(int(f.zero_point[0]), -1)  # signed: below 0 (r32_fq_zero_point_nonneg)
        self.assertTrue(bool((f.zeros >= 0).all()) and bool((f.zeros <= 16).all()))  # its own side: a bound stays one
        far = make(1)
        paramsets.vary_parameters(far, 7, paramsets.PARAMS_FAR, twin=make(2))
        self.assertEqual(int(far.kept.max()), 11)  # one past the largest
        self.assertEqual(int(far.zero_point[0]), 1)  # a mask flipped
        self.assertTrue(bool((far.zeros >= 0).all()) and bool((far.zeros <= 16).all()))
        h = make(1)
        name = paramsets.hold(paramsets.PARAMS, ["kept", "zeros"])
        self.assertEqual(name, "params%kept,zeros")
        self.assertEqual(paramsets.params_set(name), (paramsets.PARAMS, None))
        before = paramsets.vary_parameters(h, 7, name, twin=make(2))
        self.assertNotIn("kept", before)
        self.assertTrue(torch.equal(h.kept, torch.tensor([[0, 2, 4], [6, 8, 10]])) and bool((h.zeros == 8).all()))
        self.assertEqual(int(h.zero_point[0]), 1)  # the others still vary
        self.assertEqual(paramsets.hold("params_flip%a", []), "params_flip")
        self.assertEqual(set(paramsets.vary_parameters(make(1), 7, "params%", twin=make(2))), set())

    def test_a_one_element_mask_is_flipped(self):
        t = torch.ones(1, dtype=torch.bool)
        paramsets.vary_discrete(t, "mask", torch.Generator().manual_seed(3), 0.25)
        self.assertFalse(bool(t[0]))

    def test_scalars_and_constants_leave_their_side_masks_stay_zero_or_one(self):
        def varied(t, **kw):
            return paramsets.vary_discrete(t, "const" if bool((t.reshape(-1)[0] > 1)) else "mask",
                                           torch.Generator().manual_seed(5), 0.5, **kw)
        self.assertEqual(int(varied(torch.tensor([1], dtype=torch.int32), hold_first=True)[0]), -1)  # a sign, a zp
        self.assertEqual(int(varied(torch.tensor([0], dtype=torch.int8), wide=True)[0]), -127)  # params_int: far
        self.assertTrue(-255 <= int(varied(torch.tensor([0], dtype=torch.int64), wide=True)[0]) <= -128)
        self.assertTrue(128 <= int(varied(torch.tensor([0], dtype=torch.uint8), wide=True)[0]) <= 255)
        u8 = varied(torch.full((4,), 8, dtype=torch.uint8), hold_first=True)  # a uint8 zero point read as int8
        self.assertTrue(bool((u8 >= 128).all()))
        for kw in ({"hold_first": True}, {"beyond": True}):  # an int8 pruning flag: 0 or 1 (r33_ok_pruned_int8_where)
            flags = varied(torch.zeros(6, dtype=torch.int8), **kw)
            self.assertTrue(bool(((flags == 0) | (flags == 1)).all()) and bool(flags.any()))

    def test_params_int_varies_the_integers_alone(self):
        class FQ(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("scale", torch.tensor([0.25]))
                self.register_buffer("zero_point", torch.tensor([1], dtype=torch.int32))

        def make(seed):
            torch.manual_seed(seed)
            return FQ()
        m = make(1)
        varied = paramsets.vary_parameters(m, 7, paramsets.PARAMS_INT, twin=make(2))
        self.assertEqual(list(varied), ["zero_point"])  # the scale stays the constructor's (r33_fq_zp_one_clamp)
        self.assertEqual(float(m.scale[0]), 0.25)
        self.assertTrue(-255 <= int(m.zero_point[0]) <= -128)  # far below 0: the quantizer saturates
        c = torch.full((3,), 3, dtype=torch.int32)  # a zero point of 3: beyond int8 (r34_fq_zp3_int8)
        paramsets.vary_discrete(c, "const", torch.Generator().manual_seed(1), 0.5, wide=True)
        self.assertTrue(bool((c >= 128).all()) and bool((c <= 255).all()))  # its own side: a bound stays a bound
        c8 = torch.full((3,), 3, dtype=torch.int8)  # within the dtype
        paramsets.vary_discrete(c8, "const", torch.Generator().manual_seed(1), 0.5, wide=True)
        self.assertTrue(bool((c8 == 127).all()))
        kept, dropped = [], {}
        paramsets.choose(lambda name: (None, []), kept, dropped, {})
        self.assertNotIn(paramsets.PARAMS_INT, kept)  # no integer or bool tensor: not tried
        self.assertIn(paramsets.PARAMS_INT, dropped)


if __name__ == "__main__":
    unittest.main()
