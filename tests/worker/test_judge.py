"""The judge's comparison (judge.compare_flat, torch) gives the figures of the worker's own (compare.compare,
numpy) on the same outputs: NaN and inf placement, bf16/fp16/fp64/int/bool/complex, sizes around the chunk.
Needs torch (the verifier's venv); runs on the CPU."""
import os
import time
import unittest

import numpy as np
import torch

from sieve_worker.data import compare, judge


def figures(res):
    return (res["max_abs"], res["max_rel"], res["mismatches"], res["nonfinite_mismatches"])


class JudgeCompare(unittest.TestCase):
    def check(self, r, c, atol=1e-4, rtol=1e-4):
        name = str(r.dtype).replace("torch.", "")
        as_np = (lambda t: t.view(torch.int16).numpy().view(np.uint16)) if r.dtype == torch.bfloat16 else \
            (lambda t: t.numpy())
        want = compare.compare([(name, as_np(r))], [(name, as_np(c))], atol, rtol)
        got = judge.compare_flat(r.reshape(-1), c.reshape(-1), atol, rtol)
        self.assertEqual(figures(want)[2:], got[2:], name)
        self.assertAlmostEqual(figures(want)[0], got[0], places=6)
        self.assertAlmostEqual(figures(want)[1], got[1], delta=1e-6 * max(1.0, got[1]))
        return got

    def test_floats_with_nonfinite(self):
        g = torch.Generator().manual_seed(0)
        for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.float64):
            r = torch.randn(10007, generator=g).to(dtype)
            c = (r.double() + 1e-3 * torch.randn(10007, generator=g, dtype=torch.float64)).to(dtype)
            r[5], c[5] = float("nan"), float("nan")  # same NaN: a match
            r[6], c[7] = float("inf"), float("nan")  # each a non-finite mismatch
            c[100] = 7
            got = self.check(r, c, 1e-2, 1e-2)
            self.assertGreater(got[2], 0)
            self.assertEqual(got[3], 2)

    def test_equal_is_clean(self):
        r = torch.linspace(-3, 3, 5000)
        self.assertEqual(self.check(r, r.clone()), (0.0, 0.0, 0, 0))

    def test_ints_bools_complex_and_empty(self):
        r = torch.arange(-50, 50)
        c = r.clone()
        c[3] += 1
        self.assertEqual(self.check(r, c)[2], 1)
        b = torch.tensor([True, False, True])
        self.assertEqual(self.check(b, torch.tensor([True, True, True]))[2], 1)
        z = torch.randn(300, dtype=torch.complex64)
        self.check(z, z * (1 + 1e-3))
        self.assertEqual(self.check(torch.empty(0), torch.empty(0)), (0.0, 0.0, 0, 0))

    def test_across_chunks(self):
        old = judge.CHUNK
        judge.CHUNK = 1000
        try:
            r = torch.randn(4321)
            c = r.clone()
            c[999], c[1000], c[4320] = 9, float("nan"), -9
            got = self.check(r, c)
            self.assertEqual((got[2], got[3]), (2, 1))
        finally:
            judge.CHUNK = old


class JudgeRoom(unittest.TestCase):
    def test_a_full_device_is_waited_for_then_given_up_on(self):
        """A compare that finds the device full (others briefly over their promises) is tried again after a
        pause instead of failing the job, which would restart it from nothing; a device that stays full is
        the harness's failure after OOM_TRIES."""
        from unittest import mock
        j = judge.Judge("cpu")
        calls = []

        def flaky(req, fd, fail_until):
            calls.append(1)
            if len(calls) < fail_until:
                raise torch.cuda.OutOfMemoryError("CUDA out of memory")
            return {"ok": True}
        with mock.patch.object(judge.time, "sleep") as slept:
            j.compare = lambda req, fd: flaky(req, fd, 3)
            self.assertEqual(j.compare_when_room({}, 0), {"ok": True})
            self.assertEqual((len(calls), slept.call_count), (3, 2))
            calls.clear()
            j.compare = lambda req, fd: flaky(req, fd, 99)
            with self.assertRaises(torch.cuda.OutOfMemoryError):
                j.compare_when_room({}, 0)
            self.assertEqual(len(calls), judge.OOM_TRIES)


def answer(client, req, fd, timeout=60):
    """(check dict, error) of one request, read as the worker's loop reads it."""
    import select
    got = []
    client.submit(req, fd, lambda res, err: got.append((res, err)))
    deadline = time.monotonic() + timeout
    while not got and time.monotonic() < deadline:
        if select.select([client.fileno()], [], [], 1)[0]:
            client.read()
    return got[0] if got else (None, "no answer")


class JudgeProcess(unittest.TestCase):
    def test_a_judge_whose_context_is_lost_is_replaced(self):
        """A sticky device error (tasks/context.py) in the judge: its compare ends in the harness's error, and a
        fresh judge takes the next request instead of failing every later one."""
        class Server:
            sock, stops = object(), 0

            def poll(self):
                return {"error": "AcceleratorError: CUDA error: an illegal memory access",
                        "context_lost": "AcceleratorError: CUDA error: an illegal memory access"}

            def fileno(self):
                return 9

            def stop(self):
                self.stops += 1
        client, got, stopped = judge.Client("cpu", 60), [], []
        client.server, client.on_stop = Server(), stopped.append
        client.current = (lambda res, error: got.append((res, error)), time.monotonic() + 60)
        client.read()
        self.assertEqual((client.server.stops, stopped), (1, [9]))
        self.assertIsNone(got[0][0])
        self.assertIn("could not compare", got[0][1])
        self.assertEqual(judge.handler("cpu").lost(), None)  # the CPU has no sticky errors

    def test_holds_no_inherited_fd(self):
        """The judge lives long: it must not keep other jobs' buffers or pipes open (a memfd of GBs, a pipe
        end whose job would never see EOF)."""
        import os
        r, w = os.pipe()
        client = judge.Client("cpu", 30)
        try:
            client.start()
            buf = os.memfd_create("probe")
            got = answer(client, {}, buf)  # a request it cannot use: answered with an error, so it is running
            self.assertIsNone(got[0])
            self.assertIn("could not compare", got[1])
            os.close(buf)
            held = {os.readlink(f"/proc/{client.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{client.pid}/fd")}
            mine = {os.readlink(f"/proc/self/fd/{fd}") for fd in (r, w)}
            self.assertFalse(held & mine, held)
        finally:
            client.stop()
            os.close(r)
            os.close(w)


def reuse_after_collect(req, fds):
    """A handler (runs in the server): opens files until one gets fd number req["n"], lets the garbage
    collector run, and says whether that file is still open."""
    import gc
    opened = []
    while not opened or opened[-1] < req["n"]:
        opened.append(os.open(os.devnull, os.O_RDONLY))
    gc.collect()
    try:
        os.fstat(req["n"])
        return {"open": req["n"] in opened}
    except OSError:
        return {"open": False}


class Garbage:
    pass


class TrustedServerTest(unittest.TestCase):
    def test_the_parents_garbage_never_closes_a_servers_fd(self):
        """Garbage of the worker's that holds an fd (a finished job's buffer in a reference cycle) must not
        close, when it is collected in a server, the fd that took its number there."""
        import gc
        from sieve_worker.tasks import trusted
        gc.disable()
        try:
            g = Garbage()
            g.me, g.f = g, open(os.devnull)
            n = g.f.fileno()
            del g
            srv = trusted.Server("probe", lambda: reuse_after_collect)
            try:
                out = srv.call({"n": n}, timeout=30)
            finally:
                srv.stop()
        finally:
            gc.enable()
            gc.collect()
        self.assertEqual(out, {"res": {"open": True}})

    def test_a_request_asks_the_worker_for_room_and_waits(self):
        """Within a request a handler may ask for device memory (trusted.ask_room): the question reaches the
        worker's side as a line of its own, and the request goes on with what the worker granted."""
        import time
        from sieve_worker.tasks import trusted
        srv = trusted.Server("room", RoomAsker)
        try:
            srv.send({"want": 1234})
            deadline, got = time.monotonic() + 30, None
            while got is None and time.monotonic() < deadline:
                got = srv.poll()
                time.sleep(0.01)
            self.assertEqual(got, {"need_gpu": 1234})
            srv.reply({"granted": 1000})
            srv.sock.settimeout(30)
            self.assertEqual(srv.read_line(), {"res": {"granted": 1000}})
        finally:
            srv.stop()


class RoomAsker:
    def __init__(self):
        self.room = None

    def __call__(self, req, fds):
        return {"granted": self.room(req["want"])}


TASK_RELU = """import torch
import torch.nn as nn
N = 1 << 20
class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)
def get_inputs():
    return [torch.randn(N)]
def get_init_inputs():
    return []
"""


@unittest.skipUnless(torch.cuda.is_available(), "needs a CUDA device")
class HygieneRoomTest(unittest.TestCase):
    def test_a_large_task_check_asks_for_its_device_memory_first(self):
        """`tasks check` on the GPU asks the worker's admission for a large shape's memory before it
        allocates (as references do), so checks of 6 GB tasks do not run side by side past the device."""
        import tempfile
        from sieve_worker.tasks import check, taskref
        asked = []
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "relu.py")
            with open(path, "w") as f:
                f.write(TASK_RELU)
            old, taskref.BIG_REF_BYTES = taskref.BIG_REF_BYTES, 1 << 20
            try:
                res = check.check_task({"reference_code": TASK_RELU, "task_key": "relu", "shapes": [{"N": 1 << 19}]},
                                       path, "cuda:0", room=lambda n: asked.append(n) or n)
            finally:
                taskref.BIG_REF_BYTES = old
        self.assertTrue(res["ok"], res)
        # the module's shape (4 MB in, 4 MB out) asks for twice one call; the smaller listed one fits in it
        self.assertEqual(asked, [2 * (4 << 20) * 2])


if __name__ == "__main__":
    unittest.main()
