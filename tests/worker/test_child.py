"""The candidate child's rule for CUDA out-of-memory (child.Child.device_full): within what the worker
admitted, the device was full of others' memory (the harness's fault: an `infra` note, the job retried
alone); beyond it, the sample's own fault. Needs torch; no GPU (the device is faked)."""
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
