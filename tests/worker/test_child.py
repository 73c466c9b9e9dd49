"""The candidate child's rule for CUDA out-of-memory (child.Child.device_full): within what the worker
admitted, the device was full of others' memory (the harness's fault: an `infra` note, the job retried
alone); beyond it, the sample's own fault. And what a candidate inherits from the zygote: none of the
worker's modules. A candidate whose sandbox was not set up is retried (a real worker on the CPU). Needs
torch; no GPU (the device is faked)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import torch

from sieve_worker import WORKER_DIR
from sieve_worker.candidate import child


class DeviceFull(unittest.TestCase):
    def make(self, held, promise, alone=True):
        c = object.__new__(child.Child)
        c.interpreted, c.device, c.ctx = False, "cuda:0", {"gpu_promise": promise, "alone": alone}
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

    def test_beyond_the_promise_alone_is_the_sample(self):
        c = self.make(held=9 << 30, promise=4 << 30)
        self.assertFalse(c.device_full(torch.cuda.OutOfMemoryError("CUDA out of memory")))
        self.assertEqual(c.sent, [])

    def test_beyond_the_promise_beside_others_is_retried_alone(self):
        # admission may have underestimated the others (100_HingeLoss's correct answer on the H200)
        c = self.make(held=9 << 30, promise=4 << 30, alone=False)
        self.assertTrue(c.device_full(torch.cuda.OutOfMemoryError("CUDA out of memory")))
        self.assertIn("beside other jobs", c.sent[0]["message"])

    def test_other_errors_and_the_interpreter(self):
        c = self.make(held=0, promise=4 << 30)
        self.assertFalse(c.device_full(RuntimeError("boom")))
        c.interpreted = True
        self.assertFalse(c.device_full(torch.cuda.OutOfMemoryError("CUDA out of memory")))
        self.assertEqual(c.sent, [])


class RouteUnloaded(unittest.TestCase):
    """child.Child.route_unloaded: where the reference's tensors that load_state_dict cannot give by name go."""
    def route(self, ref, own, before=None):
        c = object.__new__(child.Child)
        c.torch = torch
        ref_m, own_m = torch.nn.Module(), torch.nn.Module()
        for m, d in ((ref_m, ref), (own_m, own)):
            for k, v in d.items():
                if v.is_floating_point():
                    m.register_parameter(k, torch.nn.Parameter(v))
                else:
                    m.register_buffer(k, v)
        return c.route_unloaded(own_m, ref_m, list(ref), list(own), before or {})

    def test_integer_to_integer_and_a_mask_to_its_bytes(self):
        perm = torch.arange(3, -1, -1)
        self.assertEqual(self.route({"perm": perm}, {"scale": torch.ones(4), "order": perm.int()}), {"perm": "order"})
        keep = torch.ones(4, dtype=torch.bool)
        self.assertEqual(self.route({"keep": keep}, {"keep_u8": torch.ones(4, dtype=torch.uint8)}), {"keep": "keep_u8"})
        # bytes of other values are not the mask seen another way; a float is never an integer's
        self.assertEqual(self.route({"keep": keep}, {"codes": torch.arange(4, dtype=torch.uint8)}), {})
        self.assertEqual(self.route({"perm": perm}, {"w": torch.randn(4)}), {})
        # an integer tensor of its own, other values: not the reference's stored one (floats still go in order)
        self.assertEqual(self.route({"zero_point": torch.tensor([0])}, {"count": torch.tensor([16])}), {})

    def test_the_same_shape_by_value_then_by_last_name_then_in_order(self):
        g, b = torch.ones(4), torch.zeros(4)
        self.assertEqual(self.route({"gamma": g, "beta": b}, {"b": b.clone(), "g": g.clone()}),
                         {"gamma": "g", "beta": "b"})
        self.assertEqual(self.route({"w": torch.randn(4)}, {"a": torch.randn(4)}), {"w": "a"})

    def test_another_shape_only_with_the_same_values(self):
        g = torch.ones(4)
        self.assertEqual(self.route({"weight": g}, {"weight3d": g.view(1, 4, 1).clone()}), {"weight": "weight3d"})
        # as many elements, other values: not the reference's tensor seen another way, so nothing routed there
        self.assertEqual(self.route({"weight": g}, {"table": torch.randn(2, 2)}), {})

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "verifier")
# A worker whose zygote drops its first `drop` spawn requests (-1: all): the candidate never starts, so its
# status pipe ends with no pid and no sandbox report, as when the intermediate or the sandbox's set-up fails.
DROPPING_WORKER = """
import sys
from sieve_worker.candidate import launch
from sieve_worker import __main__
real, seen = launch.Zygote.spawn, [0]
def spawn(self, ctx, fds, status_w):
    seen[0] += 1
    if DROP < 0 or seen[0] <= DROP:
        return
    return real(self, ctx, fds, status_w)
launch.Zygote.spawn = spawn
sys.argv = ["sieve_worker", "--device", "cpu", "--parallel", "1"]
sys.exit(__main__.main())
"""



class SandboxNotSetUp(unittest.TestCase):
    """Nothing of the sample ran: the harness's failure, retried, and never the sample's verdict."""

    def verify(self, drop):
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "PYTHONPATH": WORKER_DIR}
            proc = subprocess.Popen([sys.executable, "-c", DROPPING_WORKER.replace("DROP", str(drop))],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, env=env)

            def send(msg):
                proc.stdin.write(json.dumps(msg) + "\n")
                proc.stdin.flush()

            def recv(op):
                for line in proc.stdout:
                    msg = json.loads(line)
                    if msg.get("op") == op:
                        return msg
                self.fail(f"the worker ended before {op}: {proc.stderr.read()[-2000:]}")

            try:
                send({"op": "hello", "cache_dir": os.path.join(tmp, "cache"), "scratch_root": os.path.join(tmp, "s")})
                recv("hello")
                with open(os.path.join(DATA, "tasks", "vector_add.py")) as f:
                    send({"op": "task", "task_key": "t", "reference_code": f.read(), "dtype": "fp32", "shapes": [],
                          "seeds": [0, 1], "init_inputs_style": "kernelbench"})
                recv("task_ready")
                with open(os.path.join(DATA, "answers", "vector_add.py")) as f:
                    send({"op": "verify", "job": 1, "task_key": "t", "sample_id": 1, "backend": "triton",
                          "code": f.read(), "timeouts": {"compile": 120, "correct": 120, "timing": 120},
                          "limits": {"memory_mb": 4096, "processes": 64}})
                v = recv("verdict")
            finally:
                proc.stdin.close()
                proc.wait(timeout=60)
                log = proc.stderr.read()
                proc.stdout.close()
                proc.stderr.close()
            return v, log

    def test_a_failed_set_up_is_retried(self):
        v, log = self.verify(drop=1)
        self.assertEqual(v["status"], "PASS", v)
        self.assertIn("the candidate's sandbox could not be set up", log)
        self.assertIn("retry 1", log)

    def test_one_that_never_comes_up_is_unverifiable(self):
        v, log = self.verify(drop=-1)
        self.assertEqual((v["status"], v["reasons"]), ("UNVERIFIABLE", ["SANDBOX_UNAVAILABLE"]), v)
        self.assertIn("could not set up the candidate's sandbox", v["message"])
        self.assertIn("in 4 attempts", v["message"])
        self.assertIn("retry 3", log)


if __name__ == "__main__":
    unittest.main()


class ZygoteModules(unittest.TestCase):
    def test_the_zygotes_gpu_preparation_imports_no_worker_module(self):
        """On a GPU the zygote probes landlock variants in throw-away forks before it forks candidates; the
        helper it used lived in probes.py, a worker module every candidate then found in sys.modules (on the
        H200: rt_gc_worker_scan). Run here without a GPU: the probe fails, its imports are the same."""
        code = ("import sys\n"
                "from sieve_worker.candidate import child\n"
                "from sieve_worker.sandbox import sandbox, zygote\n"
                "sandbox.probe_landlock('cuda:0')\n"
                "print(sorted(m for m in sys.modules if m in zygote.WORKER_MODULES))\n")
        env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "..", "gpu", "worker"))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(out.stdout.strip().splitlines()[-1:], ["[]"], out.stderr[-2000:])
