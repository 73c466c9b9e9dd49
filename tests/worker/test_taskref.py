"""The shapes a task is checked at (taskref.task_shapes): the module's own at its real size, and a derived one
that exercises masks and tails, small for tasks whose own shape moves gigabytes, and one the reference
still runs at. Needs torch (the meta device); runs on the CPU.

    PYTHONPATH=gpu/worker python -m unittest discover -s tests/worker -p 'test_taskref.py'
"""
import os
import tempfile
import unittest

from sieve_worker import taskref

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


def shapes(code):
    d = tempfile.mkdtemp()
    path = os.path.join(d, "task.py")
    with open(path, "w") as f:
        f.write(code)
    mod = taskref.load_module(path, "sieve_test_task_" + str(abs(hash(code))))
    return mod, taskref.task_shapes(mod, code, {"ref_device": "cuda"}, 0)


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
        self.assertEqual(sh[1:], [{"shape": {"batch_size": 15, "dim": 1000}, "origin": "derived"}])


if __name__ == "__main__":
    unittest.main()
