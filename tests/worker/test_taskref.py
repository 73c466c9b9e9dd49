"""The shapes a task is checked at (taskref.task_shapes): the module's own at its real size, and a derived one
that exercises masks and tails, small for tasks whose own shape moves gigabytes, and one the reference
still runs at. Needs torch (the meta device); runs on the CPU.

    PYTHONPATH=gpu/worker python -m unittest discover -s tests/worker -p 'test_taskref.py'
"""
import contextlib
import fcntl
import os
import tempfile
import unittest

from sieve_worker.tasks import taskref

RELU = """import torch
import torch.nn as nn
class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)
batch_size = 4096
dim = 393216
def get_inputs():
    return [torch.rand(batch_size, dim)]
def get_init_inputs():
    return []
"""

# KernelBench level 2's pattern: a bias shape made from out_channels when the module is imported, and two
# sizes set in one statement
CONV_BIAS = """import torch
import torch.nn as nn
class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))
    def forward(self, x):
        return torch.relu(self.conv(x)) + self.bias
batch_size = 128
in_channels = 64
out_channels = 128
height = width = 128
kernel_size = 3
bias_shape = (out_channels, 1, 1)
def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]
def get_init_inputs():
    return [in_channels, out_channels, kernel_size, bias_shape]
"""

HINGE = """import torch
import torch.nn as nn
class Model(nn.Module):
    def forward(self, p, t):
        return torch.mean(torch.clamp(1 - p * t, min=0))
batch_size = 32768
input_shape = (32768,)
def get_inputs():
    return [torch.rand(batch_size, *input_shape), torch.randint(0, 2, (batch_size,)).float() * 2 - 1]
def get_init_inputs():
    return []
"""

SMALL = RELU.replace("batch_size = 4096", "batch_size = 16").replace("dim = 393216", "dim = 1024")


def shapes(code, req=None):
    d = tempfile.mkdtemp()
    path = os.path.join(d, "task.py")
    with open(path, "w") as f:
        f.write(code)
    mod = taskref.load_module(path, "sieve_test_task_" + str(abs(hash(code))))
    return mod, taskref.task_shapes(mod, code, {"ref_device": "cuda", **(req or {})}, 0)


def moved(mod, shape):
    taskref.apply_shape(mod, shape)
    return sum(taskref.meta_footprint(mod, mod.Model, 0, "kernelbench"))


class DerivedShapeTest(unittest.TestCase):
    def test_a_large_task_is_checked_small_off_every_block_size(self):
        mod, sh = shapes(RELU)
        self.assertEqual((mod.batch_size, mod.dim), (4096, 393216))  # the sizes it tried are undone
        self.assertEqual(sh[0], {"shape": {"batch_size": 4096, "dim": 393216}, "origin": "module"})
        d = sh[1]["shape"]
        self.assertEqual(sh[1]["origin"], "derived")
        self.assertLessEqual(moved(mod, d), taskref.DERIVED_MAX_BYTES)
        self.assertTrue(all(v % 16 for v in d.values()), d)  # tails in every block of 16, 32, ... 1024
        # and one seed at a nearby full size: a path an answer takes only for large inputs is checked too
        full = sh[2]
        self.assertEqual((full["origin"], full["seeds"]), ("derived_full", 1))
        self.assertGreater(moved(mod, full["shape"]), moved(mod, sh[0]["shape"]) // 2)
        self.assertTrue(all(v % 16 for v in full["shape"].values()), full)

    def test_a_size_the_module_fixed_at_import_stays_where_it_must(self):
        mod, sh = shapes(CONV_BIAS)
        self.assertIn("height", sh[0]["shape"])  # `height = width = 128` is two sizes
        d = sh[1]["shape"]
        self.assertLessEqual(moved(mod, d), taskref.DERIVED_MAX_BYTES)  # and the reference runs there
        self.assertEqual(d["out_channels"], 128)  # the bias was made (128, 1, 1) at import
        self.assertLess(d["height"], 128)

    def test_an_int_and_the_tuple_entry_it_equals_move_together(self):
        mod, sh = shapes(HINGE)
        d = sh[1]["shape"]
        self.assertEqual(list(d["input_shape"]), [d["batch_size"]])
        self.assertLess(d["batch_size"], 32768)
        self.assertIsNotNone(moved(mod, d))

    def test_applying_the_task_shape_after_a_derived_one_restores_every_size(self):
        """A child checks shapes in a secret order on one module: a tuple the derived shape shrank stayed
        shrunk at the task's own shape (32768 x 1999 inputs instead of 32768 x 32768)."""
        mod, sh = shapes(HINGE)
        for s in sh[1:] + sh[:1]:
            taskref.apply_shape(mod, s["shape"])
        self.assertEqual((mod.batch_size, mod.input_shape), (32768, (32768,)))
        self.assertEqual(taskref.input_elements(mod, sh[0]["shape"], 0), 32768 * 32768 + 32768)

    def test_a_small_task_keeps_the_nearby_shape(self):
        _, sh = shapes(SMALL)
        # odd and above: 1000 was a multiple of 8 (a mask off by a block of 8 passed), and a block that fits
        # the rows exactly (BLOCK = 1024, no loop) passed every size at or below the task's
        # and at one seed one size aligned, the others not: the rows' length an odd multiple of 32, where a vector
        # path runs with a tail in its block and a fast path chosen on the length alone has a tail in the rows
        # (r15_softmax_vec4_fastpath_tail, r14_bias_add_even_n_grid)
        self.assertEqual(sh[1:], [{"shape": {"batch_size": 17, "dim": 1049}, "origin": "derived"},
                                  {"shape": {"batch_size": 17, "dim": 1056}, "origin": "derived_mixed", "seeds": 1}])

    def test_the_mixed_shape_moves_the_innermost_size_alone(self):
        # a conv's batch, channels, height and width are all 31 in its small shape: only the width moves
        _, sh = shapes(CONV_BIAS)
        small = [s for s in sh if s["origin"] == "derived"][0]["shape"]
        mixed = [s for s in sh if s["origin"] == "derived_mixed"][0]
        self.assertEqual(mixed, {"shape": {**small, "width": 32}, "origin": "derived_mixed", "seeds": 1})
        self.assertEqual([taskref.mid_aligned(v) for v in (1, 32, 33, 64, 128, 999, 1000, 1024)],
                         [32, 32, 96, 96, 160, 1056, 1056, 1056])

    def test_an_innermost_size_the_task_wrote_odd_stays(self):
        # LayerNorm(1001) hard-coded in an answer was FAIL_RUNTIME at 1056 (redteam/data data_layernorm_pass)
        _, sh = shapes(SMALL.replace("dim = 1024", "dim = 1001"))
        self.assertEqual([s["origin"] for s in sh], ["module", "derived"])

    def test_a_shape_checked_at_one_seed_does_not_hide_a_constant_reference(self):
        # derived_mixed and derived_full are checked at one seed: no sign of whether the output moves with it
        # (the fixture hygiene_constant was FAIL_MISMATCH instead of REF_CONSTANT once derived_mixed came)
        import torch

        from sieve_worker.tasks import hygiene
        j = hygiene.Judge(1e-4, 1e-4)
        for si, origin, seeds in ((0, "module", (1, 2, 3)), (1, "derived", (1, 2, 3)), (2, "derived_mixed", (1,))):
            j.shape(si, {"N": 8 + si}, origin)
            for sd in seeds:
                j.add(si, sd, [torch.full((8 + si,), 3.0) + (sd if origin == "derived_mixed" else 0)])
        found, ok, _ = j.result()
        self.assertIn("REF_CONSTANT", [h["code"] for h in found])
        self.assertFalse(ok)
        j = hygiene.Judge(1e-4, 1e-4)
        j.shape(0, {"N": 8}, "derived_mixed")
        j.add(0, 1, [torch.full((8,), 3.0)])
        self.assertNotIn("REF_CONSTANT", [h["code"] for h in j.result()[0]])  # one seed alone says nothing

    def test_sizes_alike_in_two_places_move_apart_and_small_sizes_move_too(self):
        # a kernel that swapped two dimensions' strides passed where dim1 = dim2 stayed equal (redteam inputs
        # r14_sum_dim_swapped_stride); a program of 8 rows indexed from the wrong block passed at 8 rows
        # (r14_softmax_rowblock_offset); a size inside a tuple stayed (r14_cosine_loss_floor_loop)
        code = SMALL.replace("batch_size = 16", "batch_size = 8").replace("dim = 1024", "dim = 256\nwidth = 256")
        code = code.replace("torch.rand(batch_size, dim)", "torch.rand(batch_size, dim, width)")
        _, sh = shapes(code)
        self.assertEqual(sh[1]["shape"], {"batch_size": 13, "dim": 263, "width": 265})
        self.assertEqual(taskref.spread({"n": 64, "shape": [64, 3], "m": 64}, taskref.nearby_unaligned),
                         {"n": 63, "shape": [61, 3], "m": 59})
        self.assertEqual([taskref.above_unaligned(v) for v in (2, 3, 4, 6, 8, 9)], [2, 3, 7, 9, 13, 9])

    def test_a_task_that_lists_shapes_gets_a_derived_tail_shape_too(self):
        _, sh = shapes(SMALL, {"shapes": [{"batch_size": 32, "dim": 2048}]})
        self.assertEqual([s["origin"] for s in sh], ["module", "task", "derived", "derived_mixed"])
        self.assertEqual(sh[2]["shape"], {"batch_size": 17, "dim": 1049})
        self.assertTrue(all(v % 2 for v in sh[2]["shape"].values()), sh[2])
        self.assertEqual(sh[3]["shape"], {"batch_size": 17, "dim": 1056})


# issue 31: module constants M = 1 (not a size constant: size_constants keeps ints > 1) and N = 128, one
# listed shape {"M": 4, "N": 1000}
MN = """import torch
import torch.nn as nn
class Model(nn.Module):
    def forward(self, a, b):
        return a + b
M = 1
N = 128
def get_inputs():
    return [torch.rand(M, N), torch.rand(M, N)]
def get_init_inputs():
    return []
"""


class ShapeStateTest(unittest.TestCase):
    def test_every_shape_names_a_variable_only_a_listed_shape_sets(self):
        _, sh = shapes(MN, {"shapes": [{"M": 4, "N": 1000}]})
        self.assertEqual(sh[0]["shape"], {"M": 1, "N": 128})
        self.assertTrue(all("M" in s["shape"] and "N" in s["shape"] for s in sh), sh)

    def test_a_shape_applied_after_another_starts_from_the_module_state(self):
        """The reference server applied the listed shape (M = 4) before the module's own {"N": 128} and
        kept M = 4; a fresh candidate child had M = 1: a correct add was FAIL_MISMATCH on output shapes."""
        mod, _ = shapes(MN)
        taskref.apply_shape(mod, {"M": 4, "N": 1000})
        taskref.apply_shape(mod, {"N": 128})
        self.assertEqual((mod.M, mod.N), (1, 128))
        self.assertEqual(list(taskref.make_inputs(mod, 0)[0].shape), [1, 128])
        taskref.apply_shape(mod, {"Q": 3})  # a variable the module lacks goes again with the next shape
        taskref.apply_shape(mod, {})
        self.assertFalse(hasattr(mod, "Q"))



class BigLockOrderTest(unittest.TestCase):
    def test_room_is_asked_with_the_big_lock_held(self):
        # the H200 stalled on a cycle: a retried reference granted the whole device waited for the big lock,
        # whose holder waited for room behind it. Every reference now holds the lock before it asks for room
        path = os.path.join(tempfile.mkdtemp(), "big.lock")
        seen = []

        def room(nbytes):
            probe = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
                seen.append("free")
            except BlockingIOError:
                seen.append("held")
            finally:
                os.close(probe)
            return nbytes
        with contextlib.ExitStack() as held:
            self.assertEqual(taskref.room_under_lock(room, path, held, False, 7), (7, True))
            self.assertEqual(taskref.room_under_lock(room, path, held, True, 5), (5, True))  # taken once
        self.assertEqual(seen, ["held", "held"])
        with contextlib.ExitStack() as held:  # released with the request: the next one takes it again
            taskref.room_under_lock(room, path, held, False, 1)
        self.assertEqual(seen[-1], "held")
        self.assertEqual(taskref.room_under_lock(room, None, contextlib.ExitStack(), False, 3), (3, False))


# r30_channel_select's pattern: a kept-channel index list as an int64 buffer; params_far draws it out of range, which
# raises on the CPU and is a device-side assert on a GPU (sticky: the task server's context is lost)
KEPT_CHANNELS = """import torch
import torch.nn as nn
class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.register_buffer("kept", torch.arange(0, channels, 2, dtype=torch.int64))
        self.weight = nn.Parameter(torch.ones((channels + 1) // 2))
    def forward(self, x):
        return x[:, self.kept, :] * self.weight.view(1, -1, 1)
batch_size = 4
channels = 16
length = 64
def get_inputs():
    return [torch.randn(batch_size, channels, length)]
def get_init_inputs():
    return [channels]
"""


class ContextLostTest(unittest.TestCase):
    """A sticky device error in a task server (tasks/context.py): the server says so with its answer and exits,
    and a references request that lost it on a derived set is asked again without that set. On the H100 one
    params set drawn out of range made every later task of that server UNVERIFIABLE REF_FAILED."""

    def references(self, skip):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "t.py")
        with open(path, "w") as f:
            f.write(KEPT_CHANNELS)
        req = {"reference_code": KEPT_CHANNELS, "task_key": "k", "ref_device": "cpu", "cpu_max_elements": 1 << 16,
               "skip_sets": skip}
        return taskref.compute_references(req, path, d)["input_set_choice"]

    def test_a_set_asked_again_without_is_held_as_if_it_raised(self):
        plain, again = self.references([]), self.references(["params_far"])
        self.assertIn("params_far%kept", plain["kept"])  # the CPU: raised, so the index list is held
        self.assertEqual(again["kept"], plain["kept"])  # the GPU's retry ends where the CPU does
        self.assertEqual(again["lost_context_on"], ["params_far"])
        self.assertNotIn("lost_context_on", plain)
        other = next(si for si in plain["other_shapes"] if si != plain["shape_index"])
        lost = self.references(["special", f"{other} params"])  # an input set; a set at a shape not the anchor's
        self.assertIn("lost the device context", lost["dropped"]["special"])
        self.assertNotIn("special", lost["kept"])
        self.assertNotIn("params", lost["other_shapes"][other])
        self.assertIn("params", lost["kept"])
        self.assertIn("lost the device context", lost["left_at_other_shapes"][f"{other} params"])

    def test_the_worker_asks_again_without_the_set_then_without_sets(self):
        from sieve_worker import rules
        from sieve_worker.tasks.serving import TaskServing
        again = TaskServing.again_without_set
        req = {"op": "references", "task_key": "k"}
        lost = lambda name: {"context_lost": {"set": name, "message": "m"}}  # noqa: E731
        self.assertIsNone(again(None, req, {"ok": True}))
        self.assertIsNone(again(None, dict(req, op="timing"), lost("params")))
        self.assertEqual(again(None, req, lost("params_far"))["skip_sets"], ["params_far"])
        self.assertEqual(again(None, dict(req, skip_sets=["a"]), lost("b"))["skip_sets"], ["a", "b"])
        self.assertIs(again(None, dict(req, skip_sets=["a"]), lost("a"))["input_sets"], False)  # lost again
        self.assertIs(again(None, req, lost(None))["input_sets"], False)  # outside a named set
        self.assertIs(again(None, req, lost("task"))["input_sets"], False)
        full = dict(req, skip_sets=[str(i) for i in range(rules.MAX_CONTEXT_SKIPS)])
        self.assertIs(again(None, full, lost("x"))["input_sets"], False)

    def test_the_worker_starts_a_fresh_server_and_asks_again(self):
        from sieve_worker.sandbox.admission import Asked
        from sieve_worker.tasks.serving import TaskServing

        class Server:
            name, busy, last_exit, stopped = "task server 0", True, None, 0

            def __init__(self, answer):
                self.answer = answer

            def poll(self):
                return self.answer

            def fileno(self):
                return 7

            def stop(self):
                self.stopped += 1

        class Worker(TaskServing):
            def __init__(self):
                self.trusted, self.promised_gpu, self.room_waiting, self.asked = {7: None}, 0, [], []
                self.sel = type("Sel", (), {"unregister": lambda s, fd: None})()

            def grant_room(self):
                pass

            def next_request(self, srv):
                pass

            def ask(self, req, timeout, on_done, gpu=0):
                self.asked.append(req)

        def read(req, answer):
            w, srv, done = Worker(), Server(answer), []
            ask = Asked(srv, 0, lambda res, timed_out: done.append(res), 0)
            ask.req, ask.timeout = req, 60
            w.read_asked(ask)
            return w.asked, done, srv.stopped
        lost = "AcceleratorError: CUDA error: device-side assert triggered"
        refs = {"op": "references", "task_key": "k"}
        asked, done, stopped = read(refs, {"res": {"ok": False, "context_lost": {"set": "params_far", "message": "m"}},
                                           "context_lost": lost})
        self.assertEqual((asked[0]["skip_sets"], done, stopped), (["params_far"], [], 1))
        asked, done, stopped = read(refs, {"res": {"ok": False, "context_lost": {"set": "x", "message": "m"}}})
        self.assertEqual((asked[0]["skip_sets"], done, stopped), (["x"], [], 0))  # the server itself still works
        asked, done, stopped = read({"op": "timing"}, {"error": lost, "context_lost": lost})  # as a death: again
        self.assertIn("the device context was lost", asked[0]["_server_deaths"][0])
        self.assertEqual((done, stopped > 0), ([], True))
        asked, done, stopped = read(refs, {"res": {"ok": True}, "context_lost": lost})  # answered before it was lost
        self.assertEqual((asked, done, stopped), ([], [{"ok": True}], 1))

    def test_a_server_whose_context_is_lost_answers_then_exits(self):
        import json
        import socket
        import threading
        from sieve_worker.tasks import trusted

        class Handler:
            def __init__(self):
                self.broken = None

            def __call__(self, req, fds):
                self.broken = req.get("break")
                return {"n": req["n"]}

            def lost(self):
                return self.broken
        a, b = socket.socketpair()
        t = threading.Thread(target=trusted.serve, args=(b, Handler()))
        t.start()
        f = a.makefile("rwb")
        for req in ({"n": 1}, {"n": 2, "break": "AcceleratorError: device-side assert triggered"}):
            f.write((json.dumps(req) + "\n").encode())
            f.flush()
            answer = json.loads(f.readline())
            self.assertEqual(answer["res"], {"n": req["n"]})
        self.assertEqual(answer["context_lost"], "AcceleratorError: device-side assert triggered")
        t.join(5)
        self.assertFalse(t.is_alive())  # it serves no more
        a.close()
        b.close()


if __name__ == "__main__":
    unittest.main()


class RunModeTest(unittest.TestCase):
    """Models run as KernelBench runs them (tasks/runmode.py): as constructed (training mode unless the constructor
    says otherwise), dropout, RReLU and recurrent layers in eval mode."""

    def test_batchnorm_uses_the_batch_and_dropout_is_off(self):
        import torch
        import torch.nn as nn
        from sieve_worker.tasks.runmode import as_kernelbench_runs

        class Task(nn.Module):
            def __init__(self):
                super().__init__()
                self.bn, self.drop, self.act = nn.BatchNorm1d(4), nn.Dropout(0.5), nn.RReLU()

            def forward(self, x):
                return self.act(self.drop(self.bn(x)))
        torch.manual_seed(0)
        x = torch.randn(64, 4) * 3 + 2
        model = as_kernelbench_runs(Task())
        self.assertEqual((model.training, model.bn.training, model.drop.training, model.act.training),
                         (True, True, False, False))
        with torch.no_grad():
            out, again = model(x), model(x)
        self.assertTrue(torch.equal(out, again))  # deterministic
        mean, var = x.mean(0), x.var(0, unbiased=False)
        expect = nn.functional.leaky_relu((x - mean) / torch.sqrt(var + 1e-5), (1 / 8 + 1 / 3) / 2)
        self.assertTrue(torch.allclose(out, expect, atol=1e-5))  # the batch's statistics, not the running ones

    def test_a_task_that_sets_eval_mode_keeps_it(self):
        import torch.nn as nn
        from sieve_worker.tasks.runmode import as_kernelbench_runs

        class Task(nn.Module):
            def __init__(self):
                super().__init__()
                self.bn = nn.BatchNorm1d(4)
                self.eval()
        self.assertFalse(as_kernelbench_runs(Task()).bn.training)

    def test_recurrent_layers_drop_nothing_between_them(self):
        import torch
        import torch.nn as nn
        from sieve_worker.tasks.runmode import as_kernelbench_runs
        torch.manual_seed(0)
        model = as_kernelbench_runs(nn.GRU(8, 8, num_layers=3, dropout=0.5, batch_first=True))
        x = torch.randn(2, 5, 8)
        with torch.no_grad():
            self.assertTrue(torch.equal(model(x)[0], model(x)[0]))
