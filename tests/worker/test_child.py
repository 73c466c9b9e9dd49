"""The candidate child's rule for CUDA out-of-memory (child.Child.device_full): within what the worker
admitted, the device was full of others' memory (the harness's fault: an `infra` note, the job retried
alone); beyond it, the sample's own fault. And what a candidate inherits from the zygote: none of the
worker's modules. Needs torch; no GPU (the device is faked)."""
import os
import subprocess
import sys
import unittest

import torch

from sieve_worker import child


class DeviceFull(unittest.TestCase):
    def make(self, held, promise):
        c = object.__new__(child.Child)
        c.interpreted, c.device, c.ctx = False, "cuda:0", {"gpu_promise": promise}
        c.oom_type = torch.cuda.OutOfMemoryError
        c.reserved = lambda device=None: held
        c.sent = []
        c.send = c.sent.append
        return c

    def test_within_the_promise_is_the_harness(self):
        c = self.make(held=3 << 30, promise=4 << 30)
        self.assertTrue(c.device_full(torch.cuda.OutOfMemoryError("CUDA out of memory")))
        self.assertEqual(c.sent[0]["t"], "infra")
        self.assertIs(c.sent[0]["oom"], True)

    def test_beyond_the_promise_is_the_sample(self):
        c = self.make(held=9 << 30, promise=4 << 30)
        self.assertFalse(c.device_full(torch.cuda.OutOfMemoryError("CUDA out of memory")))
        self.assertEqual(c.sent, [])

    def test_other_errors_and_the_interpreter(self):
        c = self.make(held=0, promise=4 << 30)
        self.assertFalse(c.device_full(RuntimeError("boom")))
        c.interpreted = True
        self.assertFalse(c.device_full(torch.cuda.OutOfMemoryError("CUDA out of memory")))
        self.assertEqual(c.sent, [])


if __name__ == "__main__":
    unittest.main()


class ZygoteModules(unittest.TestCase):
    def test_the_zygotes_gpu_preparation_imports_no_worker_module(self):
        """On a GPU the zygote probes landlock variants in throw-away forks before it forks candidates; the
        helper it used lived in probes.py, a worker module every candidate then found in sys.modules (on the
        H200: rt_gc_worker_scan). Run here without a GPU: the probe fails, its imports are the same."""
        code = ("import sys\n"
                "from sieve_worker import child, sandbox, zygote\n"
                "sandbox.probe_landlock('cuda:0')\n"
                "print(sorted(m for m in sys.modules if m in zygote.WORKER_MODULES))\n")
        env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "..", "gpu", "worker"))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(out.stdout.strip().splitlines()[-1:], ["[]"], out.stderr[-2000:])
