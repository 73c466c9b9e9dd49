"""The worker's data path: the shared output buffer, the control stream's bounds, the metadata check,
chunked comparison (0-d outputs included), the probe's poison test and memory admission.

    PYTHONPATH=gpu/worker python -m unittest discover -s tests/worker -p 'test_transport*.py'
"""
import errno
import os
import unittest

import numpy as np
import torch

from sieve_worker.data import compare, transport
from sieve_worker.candidate import launch
from sieve_worker import worker


class BufferTest(unittest.TestCase):
    def test_roundtrip_views_strides_0d_bf16(self):
        outs = [torch.arange(12, dtype=torch.float32).reshape(3, 4).t(),  # non-contiguous
                torch.tensor([1.5, -2.0]).reshape(2, 1).expand(2, 5),  # stride 0
                torch.tensor(3.25),  # 0-d
                torch.tensor([1.0, 2.5, -7.0], dtype=torch.bfloat16),
                torch.tensor([True, False])]
        metas = [(str(t.dtype).replace("torch.", ""), list(t.shape)) for t in outs]
        buf = transport.Buffer(transport.layout(metas)[1])
        r, w = os.pipe()
        wr = transport.Writer(buf.fd, buf.size, w)
        desc = wr.write(outs, torch)
        self.assertIsNone(transport.check_metas(desc, metas, "cpu"))
        for (dt, a), t in zip(buf.arrays(metas), outs):
            want = t.float().numpy() if t.dtype == torch.bfloat16 else t.numpy()
            got = compare.as_values(dt, a).astype(want.dtype) if dt == "bfloat16" else a
            self.assertEqual(tuple(a.shape), tuple(t.shape))
            np.testing.assert_array_equal(got, want)
        os.close(r)
        os.close(w)
        buf.close()

    def test_sealed_size(self):
        buf = transport.Buffer(4096)
        with self.assertRaises(OSError) as cm:
            os.ftruncate(buf.fd, 16)  # a child that shrinks it would turn the worker's read into SIGBUS
        self.assertEqual(cm.exception.errno, errno.EPERM)
        buf.close()

    def test_too_large_outputs_not_written(self):
        buf = transport.Buffer(64)
        wr = transport.Writer(buf.fd, buf.size, os.open(os.devnull, os.O_WRONLY))
        desc = wr.write([torch.ones(1000)], torch)
        self.assertEqual(desc[0]["shape"], [1000])
        self.assertIsNotNone(transport.check_metas(desc, [("float32", [4])], "cpu"))


class StreamTest(unittest.TestCase):
    def test_split_lines(self):
        rd = transport.LineReader()
        self.assertEqual(rd.feed(b'{"t": "sta'), [])
        self.assertEqual(rd.feed(b'ge", "stage": "correct"}\n{"t": "ready"}\n'),
                         [{"t": "stage", "stage": "correct"}, {"t": "ready"}])
        self.assertFalse(rd.leftover())

    def test_garbage_oversized_not_objects(self):
        for data in (b"\xff" * 64 + b"\n", b"[1, 2]\n", b'{"x": 1}\n', b"A" * (transport.MAX_LINE + 10),
                     b'{"t": "note", "m": "' + b"A" * (transport.MAX_LINE + 10) + b'"}\n'):
            with self.assertRaises(transport.StreamInvalid, msg=data[:20]):
                transport.LineReader().feed(data)

    def test_total_bound(self):
        rd = transport.LineReader()
        with self.assertRaises(transport.StreamInvalid):
            for _ in range(transport.MAX_STREAM // 900):
                rd.feed(b'{"t": "note", "message": "' + b"A" * 970 + b'"}\n')

    def test_metas(self):
        exp = [("float32", [3, 4])]
        ok = [{"dtype": "float32", "shape": [3, 4], "device": "cuda:0"}]
        self.assertIsNone(transport.check_metas(ok, exp, "cuda:0"))
        self.assertIn("dtype", transport.check_metas([{**ok[0], "dtype": "float16"}], exp, "cuda:0"))
        self.assertIn("shape", transport.check_metas([{**ok[0], "shape": [12]}], exp, "cuda:0"))
        self.assertIn("on cpu", transport.check_metas([{**ok[0], "device": "cpu"}], exp, "cuda:0"))
        self.assertIn("2 outputs", transport.check_metas(ok * 2, exp, "cuda:0"))
        for bad in ("x", [1], [{"dtype": 1, "shape": [3, 4]}], [{"dtype": "float32", "shape": ["3"]}]):
            with self.assertRaises(transport.StreamInvalid):
                transport.check_metas(bad, exp, "cpu")


class CompareTest(unittest.TestCase):
    def test_0d(self):
        r = [("float32", np.array(2.0, np.float32))]
        self.assertTrue(compare.compare(r, [("float32", np.array(2.0001, np.float32))], 1e-4, 1e-4)["ok"])
        res = compare.compare(r, [("float32", np.array(2.5, np.float32))], 1e-4, 1e-4)
        self.assertFalse(res["ok"])
        self.assertEqual(res["mismatches"], 1)

    def test_chunked_same_as_whole(self):
        rng = np.random.default_rng(1)
        a = rng.standard_normal(100_003).astype(np.float32)
        b = a.copy()
        b[rng.integers(0, a.size, 77)] += 1.0
        b[5] = np.nan
        whole = compare.compare([("float32", a)], [("float32", b)], 1e-4, 1e-4)
        saved, compare.CHUNK = compare.CHUNK, 1000
        try:
            part = compare.compare([("float32", a)], [("float32", b)], 1e-4, 1e-4)
        finally:
            compare.CHUNK = saved
        self.assertEqual(whole, part)
        self.assertEqual(part["nonfinite_mismatches"], 1)

    def test_poison(self):
        v = launch.poison_secret()
        x = np.random.default_rng(2).standard_normal(1000).astype(np.float32)
        p = np.full(1000, v, np.float32)
        self.assertTrue(compare.is_poison("float32", p, v)[0])
        self.assertTrue(compare.is_poison("float32", np.full((), v, np.float32), v)[0])
        self.assertFalse(compare.is_poison("float32", x + p, v)[0])  # torch result + kernel buffer
        self.assertFalse(compare.is_poison("float32", x * p, v)[0])  # torch result * kernel buffer
        self.assertFalse(compare.is_poison("float32", np.full((), 2.0, np.float32), v)[0])  # a loss by torch
        self.assertFalse(compare.is_poison("float32", np.full(10, np.nan, np.float32), v)[0])  # allocator poison
        self.assertTrue(compare.is_poison("float16", np.full(8, v, np.float16), v)[0])
        # a constant other than the (secret) poison shows nothing of the kernels: zeros, a value the forward chose
        # (redteam/wall2 h_probe_constant_protected_flag, h_probe_timing_tell)
        self.assertFalse(compare.is_poison("float32", np.zeros(10, np.float32), v)[0])
        self.assertFalse(compare.is_poison("float32", np.full(10, 7.0, np.float32), v)[0])
        # nor a small one that int8's or bool's poison would be (1..100, 1), whatever the secret
        for s in range(1, 101):
            self.assertFalse(compare.is_poison("float32", np.full(10, float(s), np.float32), s - 1.0 + 1000.0)[0])
        # the poison cast from a kernel's buffer of another dtype is still the poison
        self.assertTrue(compare.is_poison("float32", np.full(10, int(v), np.float32), v)[0])


class AdmissionTest(unittest.TestCase):
    def test_big_job_waits_for_room(self):
        w = worker.Worker("cpu", 16)
        w.host_budget = 6 << 30
        metas = [[[["float32", [1 << 28]]]]]  # a 1 GiB output
        w.tasks["big"] = {"ready": {"ok": True}, "summary": {"metas": metas, "footprint": [
            {"in": 1 << 30, "out": 1 << 30, "params": 0}]}}
        w.tasks["small"] = {"ready": {"ok": True}, "summary": {"metas": [[[["float32", [16]]]]], "footprint": [
            {"in": 64, "out": 64, "params": 0}]}}
        small = worker.Job({"task_key": "small", "backend": "triton"})
        self.assertTrue(w.admit(small))
        w.running[1] = small
        w.promised_host += small.host_bytes
        big = worker.Job({"task_key": "big", "backend": "triton"})
        self.assertFalse(w.admit(big))  # 1 GiB buffer + 4 GiB of calls + base does not fit beside it...
        w.running.clear()
        w.promised_host = 0
        self.assertTrue(w.admit(big))  # ...but alone it always runs
        self.assertGreater(big.host_bytes, 5 << 30)


class SessionTest(unittest.TestCase):
    def test_stale_sessions_removed_live_kept(self):
        import platform
        import tempfile
        root = tempfile.mkdtemp()
        host = platform.node() or "host"
        dead = dead_pid()
        live = os.path.join(root, f"session-{host}-{os.getpid()}-aa")
        gone = os.path.join(root, f"session-{host}-{dead}-bb")
        other = os.path.join(root, f"session-otherhost-{dead}-cc")
        for d in (live, gone, other):
            os.makedirs(d)
        worker.remove_stale_sessions(root)
        self.assertTrue(os.path.isdir(live))
        self.assertFalse(os.path.exists(gone))
        self.assertTrue(os.path.isdir(other))  # another host's worker may be alive


class CandidateCacheTest(unittest.TestCase):
    def test_one_cache_per_answer_code(self):
        import stat
        import tempfile
        import time
        w = worker.Worker("cpu", 2)
        w.cache_dir = tempfile.mkdtemp()
        os.makedirs(os.path.join(w.cache_dir, "candidates"))
        a, a2, b = (launch.candidate_caches(w.cache_dir, c) for c in ("code A", "code A", "code B"))
        self.assertEqual(a, a2)  # a re-verified answer finds its kernels and extensions
        for var in ("TRITON_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "TORCH_EXTENSIONS_DIR"):
            self.assertNotEqual(a[var], b[var])
            self.assertNotEqual(os.path.dirname(a[var]), os.path.dirname(b[var]))
            self.assertEqual(stat.S_IMODE(os.stat(a[var]).st_mode), 0o1777)
        old = os.path.dirname(b["TRITON_CACHE_DIR"])
        os.utime(old, (time.time() - 20 * 86400,) * 2)
        launch.remove_unused_caches(os.path.join(w.cache_dir, "candidates"), launch.CANDIDATE_CACHE_DAYS)
        self.assertFalse(os.path.exists(old))
        self.assertTrue(os.path.isdir(a["TRITON_CACHE_DIR"]))


class EvictionTest(unittest.TestCase):
    def test_idle_tasks_evicted_busy_kept(self):
        import tempfile
        from sieve_worker.tasks import refstore
        w = worker.Worker("cpu", 2)
        w.session_dir = tempfile.mkdtemp()
        for key in ("idle", "busy", "new", "screened"):
            s = {"shapes": [{"N": 4}], "secret_seeds": [11, 12], "code_hash": "h" + key, "seeds": [0, 1]}
            w.tasks[key] = {"ready": {"ok": True}, "req": {"task_key": key}, "summary": s, "sig": "x"}
            for p in w.task_ref_paths(w.tasks[key]):
                refstore.save_ref(p, [("float32", np.ones(1000, np.float32))])
        w.queue.append(worker.Job({"task_key": "busy"}))
        w.screened[41] = "screened"  # passed stage 0; the engine holds it until a place is free
        freed = w.evict_refs("new")
        self.assertGreater(freed, 8000)
        self.assertTrue(w.tasks["idle"].get("evicted"))
        self.assertFalse(w.tasks["busy"].get("evicted"))
        self.assertFalse(w.tasks["screened"].get("evicted"))
        self.assertFalse(w.tasks["new"].get("evicted"))
        self.assertFalse(any(refstore.ref_exists(p) for p in w.task_ref_paths(w.tasks["idle"])))
        self.assertTrue(all(refstore.ref_exists(p) for p in w.task_ref_paths(w.tasks["busy"])))


class FakeServer:
    """A task server that answers when the test says so (the pool's bookkeeping without processes)."""

    def __init__(self, sent):
        self.sent, self.busy, self.pid, self.answer, self.replies = sent, False, None, None, []
        self.r, self.w = os.pipe()

    def send(self, req, fds=()):  # fds: the lock files a request takes (Worker.send_to)
        self.sent.append((self, req))

    def fileno(self):
        return self.r

    def poll(self):
        return self.answer if isinstance(self.answer, dict) and "need_gpu" in self.answer else {"res": self.answer}

    def reply(self, obj):
        self.replies.append(obj)

    def stop(self):
        pass


class ReferenceQueueTest(unittest.TestCase):
    OK = {"ok": True, "shapes": [{}], "dropped_shapes": [], "hygiene": []}

    def worker(self, parallel):
        import tempfile
        w = worker.Worker("cpu", 2)
        w.ref_parallel = parallel
        w.cache_dir = w.session_dir = tempfile.mkdtemp()
        os.makedirs(os.path.join(w.cache_dir, "refs"))
        sent = []
        w.new_server = lambda: FakeServer(sent)
        return w, sent

    def answer(self, w, srv, res):
        srv.answer = res
        w.read_asked(w.trusted[srv.fileno()])

    def test_one_task_server_on_the_cpu(self):
        w, sent = self.worker(1)
        emitted = []
        w.emit = emitted.append
        for key in ("a", "b", "c"):
            w.start_reference(key, "sig", {"task_key": key}, "/nonexistent.py")
        self.assertEqual(len(sent), 1)
        self.assertEqual(w.pending_refs, {"a", "b", "c"})
        self.answer(w, sent[0][0], self.OK)
        self.assertEqual(len(sent), 2)
        self.assertIs(sent[1][0], sent[0][0])  # the same server takes the next task
        ready = lambda: [m["task_key"] for m in emitted if m["op"] == "task_ready"]
        started = lambda: [m["task_key"] for m in emitted if m["op"] == "task_started"]
        self.assertEqual(ready(), ["a"])
        self.assertEqual(started(), ["a", "b"])  # "c" waits for the server: the engine does not time it yet
        self.answer(w, sent[1][0], self.OK)
        self.answer(w, sent[2][0], self.OK)
        self.assertEqual(ready(), ["a", "b", "c"])
        self.assertEqual(started(), ["a", "b", "c"])
        self.assertEqual(w.pending_refs, set())
        self.assertEqual(len(w.ref_servers), 1)

    def test_several_task_servers_on_a_gpu_timings_first(self):
        """A reference timing has verdicts waiting for it (parked) or a sample about to need it; the
        references queued behind it are of tasks further on. On KernelBench's level 1 (large references one at
        a time) timings behind every reference held correct samples back for minutes."""
        w, sent = self.worker(3)  # what a GPU worker with 12 or more cores gets
        w.emit = lambda m: None
        timed = []
        w.ask({"op": "timing"}, 60, lambda res, t: timed.append(res))
        for key in "abcde":
            w.start_reference(key, "sig", {"task_key": key}, "/nonexistent.py")
        self.assertEqual([r["op"] for _, r in sent], ["timing", "references", "references"])
        self.assertEqual(len(w.ref_servers), 3)
        w.ask({"op": "check"}, 60, lambda res, t: None)  # a task check waits behind the references
        w.ask({"op": "timing"}, 60, lambda res, t: timed.append(res), gpu=5)
        self.answer(w, sent[0][0], {"timings": []})  # the timing's server takes the second timing, not task c
        self.assertEqual(timed, [{"timings": []}])
        self.assertEqual(sent[3][1]["op"], "timing")
        self.assertEqual(w.promised_gpu, 5)  # held while it runs
        for i in (1, 2, 3):  # a, b and the second timing done: c, d, e
            self.answer(w, sent[i][0], self.OK if i < 3 else {"timings": []})
        self.assertEqual([r.get("task_key") for _, r in sent][4:7], ["c", "d", "e"])
        self.assertEqual(w.promised_gpu, 0)
        for i in (4, 5, 6):
            self.answer(w, sent[i][0], self.OK)
        self.assertEqual(sent[-1][1]["op"], "check")  # after every reference

class ReferenceDiskTest(unittest.TestCase):
    def test_references_side_by_side_share_the_disk_instead_of_each_taking_it(self):
        """Four references starting at once each measured the same free space and each kept half of it:
        twice the disk between them. Now each gets a part of what is not promised yet, and what one was
        promised returns with its answer."""
        q = ReferenceQueueTest()
        w, sent = q.worker(4)
        w.emit = lambda m: None
        w.ref_disk_free = lambda: 800  # the share of the free space (REF_DISK_SHARE of it)
        for key in "abcde":
            w.start_reference(key, "sig", {"task_key": key}, "/nonexistent.py")
        grants = [r["ref_disk_bytes"] for _, r in sent]
        self.assertEqual(len(grants), 4)  # the fifth waits for a server
        self.assertLessEqual(sum(grants), 800)
        self.assertEqual(grants, [200, 200, 200, 200])
        self.assertEqual(w.disk_promised, 800)
        w.ref_disk_free = lambda: 700  # task a wrote 100 of its 200 (counted twice until it ends)
        q.answer(w, sent[0][0], q.OK)  # a done: its server takes e with what a left
        self.assertEqual(sent[4][1]["task_key"], "e")
        self.assertEqual(sent[4][1]["ref_disk_bytes"], 100)
        for srv, _ in sent[1:]:
            q.answer(w, srv, q.OK)
        self.assertEqual(w.disk_promised, 0)

    def test_an_explicit_disk_budget_is_left_as_it_is(self):
        q = ReferenceQueueTest()
        w, sent = q.worker(2)
        w.emit = lambda m: None
        w.start_reference("a", "sig", {"task_key": "a", "ref_disk_bytes": 5, "_disk_explicit": True}, "/x.py")
        self.assertEqual(sent[0][1]["ref_disk_bytes"], 5)
        self.assertEqual(w.disk_promised, 0)


class ReferenceRoomTest(unittest.TestCase):
    def test_a_large_reference_waits_for_its_device_memory(self):
        w, sent = ReferenceQueueTest().worker(2)
        w.emit = lambda m: None
        w.gpu_budget, w.promised_gpu, w.host_budget = 100, 70, 1 << 40  # candidates running hold 70
        w.start_reference("big", "sig", {"task_key": "big"}, "/nonexistent.py")
        srv = sent[0][0]
        srv.answer = {"need_gpu": 50}
        w.read_asked(w.trusted[srv.fileno()])
        self.assertEqual(srv.replies, [])  # 70 + 50 > 100: it waits
        self.assertEqual(w.room_wanted(), 50)
        w.tasks["t"] = {"ready": {"ok": True}, "req": {"task_key": "t"}, "summary": {"metas": [[]]}, "sig": "x"}
        w.running = {1: worker.Job({"task_key": "t"})}
        w.footprint = lambda task, req: {"host": 1, "base": 1, "gpu": 10, "timing_extra": 0, "judge": 0}
        job = worker.Job({"task_key": "t"})
        self.assertTrue(w.admit(job))  # its code builds holding its context's share only...
        self.assertEqual((job.gpu_bytes, job.gpu_full), (1, 10))
        w.hold(job)
        calls = []
        w.next_call = calls.append
        w.ready_to_call(job)  # ...and its calls' memory (70 + 1 + 9 fits) is asked for behind the reference's
        self.assertEqual((calls, job.need, w.room_wanted()), ([], 9, 59))
        w.promised_gpu -= 30  # a candidate finished: the reference first, then the job (40 + 1 + 50 + 9)
        w.grant_room()
        self.assertEqual(srv.replies, [{"granted": 50}])
        self.assertEqual(calls, [job])
        self.assertEqual(w.promised_gpu, 100)
        ReferenceQueueTest().answer(w, srv, ReferenceQueueTest.OK)
        self.assertEqual(w.promised_gpu, 50)  # released with the answer
        self.assertEqual(w.room_wanted(), 0)
        w.unhold(job)
        self.assertEqual((w.promised_gpu, w.promised_bases), (40, 0))

    def test_the_judge_and_timing_are_held_once_not_per_job(self):
        """The judge compares one call at a time and one child times at a time (the GPU's lock, its input
        sets made under it): their memory is held once, for the largest job that needs it, while jobs that
        need it hold their grants."""
        w = worker.Worker("cuda:0", 4)
        w.gpu_budget, w.host_budget = 100, 1 << 40
        w.next_call = lambda job: None
        jobs = []
        for judge_bytes, timing in ((20, 5), (30, 7), (10, 9)):
            j = worker.Job({"task_key": "t"})
            j.gpu_bytes, j.gpu_full, j.judge_bytes, j.timing_extra = 1, 11, judge_bytes, timing
            w.running[len(jobs)] = j
            w.hold(j)
            jobs.append(j)
        self.assertEqual(w.shared_gpu(), 0)  # none holds its grant yet
        for j in jobs:
            w.ready_to_call(j)
        self.assertTrue(all(j.granted for j in jobs))  # 33 + 30 + 9 <= 100, where per job it was 33 + 60 + 21
        self.assertEqual(w.shared_gpu(), 30 + 9)
        w.unhold(jobs[1])
        del w.running[1]
        self.assertEqual(w.shared_gpu(), 20 + 9)

    def test_a_job_too_large_for_the_budget_is_not_held_back_by_jobs_that_build(self):
        """Jobs whose code is still building hold only their contexts' share, and ask for their calls' room
        after the one waiting now: if they counted as holders, a job larger than the budget would wait for
        them, and they for it."""
        w = worker.Worker("cuda:0", 4)
        w.gpu_budget, w.host_budget = 100, 1 << 40
        calls = []
        w.next_call = calls.append
        big, building = worker.Job({"task_key": "t"}), worker.Job({"task_key": "t"})
        for i, (j, full) in enumerate(((big, 150), (building, 10))):
            j.gpu_bytes, j.gpu_full = 1, full
            w.running[i] = j
            w.hold(j)
        w.ready_to_call(big)
        self.assertEqual(calls, [big])
        w.ready_to_call(building)
        self.assertEqual(calls, [big])  # 151 + 10 > 100 beside a job that holds its grant: it waits
        w.unhold(big)
        del w.running[0]
        w.grant_room()
        self.assertEqual(calls, [big, building])

    def test_larger_than_the_budget_runs_when_nothing_else_is_promised(self):
        w, sent = ReferenceQueueTest().worker(1)
        w.emit = lambda m: None
        w.gpu_budget, w.promised_gpu = 100, 0
        w.start_reference("huge", "sig", {"task_key": "huge"}, "/nonexistent.py")
        srv = sent[0][0]
        srv.answer = {"need_gpu": 500}
        w.read_asked(w.trusted[srv.fileno()])
        self.assertEqual(srv.replies, [{"granted": 500}])


class RetryAloneTest(unittest.TestCase):
    def test_a_retry_after_a_full_device_runs_alone(self):
        w = worker.Worker("cpu", 4)
        w.host_budget = 1 << 40
        s = {"metas": [[[["float32", [4]]]]], "footprint": [{"in": 16, "out": 16, "params": 0}]}
        w.tasks["t"] = {"ready": {"ok": True}, "req": {"task_key": "t"}, "summary": s}
        job = worker.Job({"task_key": "t"})
        job.alone = True
        w.running = {}
        self.assertTrue(w.admit(job))
        other = worker.Job({"task_key": "t"})  # another job running beside it, not alone itself
        other.alone = False
        w.running = {99: other}
        self.assertFalse(w.admit(job))
        job.alone = False
        self.assertTrue(w.admit(job))


class TimingTest(unittest.TestCase):
    def test_measure_keeps_the_picked_call_with_its_input_set(self):
        import time
        from sieve_worker.candidate import timing

        class Event:
            def __init__(self, enable_timing=False):
                self.t = None

            def synchronize(self):
                pass
        tools = timing.Tools(lambda: None, Event, lambda e: setattr(e, "t", time.perf_counter()),
                             lambda a, b: (b.t - a.t) * 1e3, time.perf_counter, torch.device("cpu"), 1 << 16)
        flush = timing.flush_buffer(tools)
        sets = [[torch.full((4,), float(k))] for k in range(3)]
        seen = []

        def call(fn, args):
            return timing.call(tools, fn, args, flush, poison_bytes=64)

        res = timing.measure(tools, lambda x: x * 2, sets, call=call,
                             keep=lambda k, idx, out: seen.append((k, idx, float(out[0]))))
        self.assertGreaterEqual(res["runs"], timing.MIN_RUNS)
        self.assertEqual(len(seen), timing.WARMUP + res["runs"])
        for k, idx, v in seen:
            self.assertEqual(v, 2.0 * idx)  # each kept output belongs to the input set it names
        self.assertEqual(sorted({k for k, _, _ in seen}), list(range(len(seen))))


TASK = """import torch
{top}
class Model(torch.nn.Module):
    def forward(self, x):
        return x * 2
def get_inputs():
    return [torch.randn(8)]
def get_init_inputs():
    return []
"""


class ReferenceServerTest(unittest.TestCase):
    """References of several tasks come from one trusted server process (one device context), which task
    code cannot leave in a state the next task sees; a server that dies is replaced, and only its task
    fails."""

    def run_tasks(self, w, tops):
        done = {}
        w.emit = lambda m: done.__setitem__(m["task_key"], m) if m["op"] == "task_ready" else None
        pids = []
        for i, top in enumerate(tops):
            path = os.path.join(w.cache_dir, "tasks", f"task{i}.py")  # what a task server may read
            code = TASK.format(top=top)
            with open(path, "w") as f:
                f.write(code)
            w.start_reference(f"t{i}", "sig", {"task_key": f"t{i}", "reference_code": code, "ref_device": "cpu"},
                              path)
            while f"t{i}" not in done:
                for key, _ in w.sel.select(60):
                    w.read_asked(key.data)
            pids.append([s.pid for s in w.ref_servers])
        return done, pids

    def test_tasks_share_a_server_and_not_their_state(self):
        import tempfile
        w = worker.Worker("cpu", 2)
        w.cache_dir = w.session_dir = tempfile.mkdtemp()
        os.makedirs(os.path.join(w.cache_dir, "refs"))
        os.makedirs(os.path.join(w.cache_dir, "tasks"))
        # as hello makes them: the task servers (sandboxed, another uid) own the session's folder and have
        # their scratch folders in a scratch root they may traverse
        from sieve_worker.sandbox import taskbox
        taskbox.own_tree(w.session_dir, taskbox.TASK_SERVER_UID)
        w.scratch_root = tempfile.mkdtemp()
        os.chmod(w.scratch_root, 0o755)
        try:
            done, pids = self.run_tasks(w, ["torch.set_default_dtype(torch.float64)", "", "import os; os._exit(3)",
                                            ""])
        finally:
            for srv in w.ref_servers:
                srv.stop()
        self.assertTrue(done["t0"]["ok"], done["t0"])
        self.assertEqual(w.tasks["t0"]["summary"]["metas"][0][0][0][0], "float64")
        self.assertTrue(done["t1"]["ok"], done["t1"])
        # the default dtype task 0 set is not task 1's: its outputs are float32 again
        self.assertEqual(w.tasks["t1"]["summary"]["metas"][0][0][0][0], "float32")
        self.assertEqual(pids[0], pids[1])  # one process for both
        self.assertFalse(done["t2"]["ok"])
        # a server that dies under a request is replaced and asked again; only dying every time fails the task
        self.assertIn("died under this request on each of 3 attempts", done["t2"]["hygiene"][0]["message"])
        self.assertTrue(done["t3"]["ok"], done["t3"])  # a fresh server after the one that died
        self.assertEqual(len(pids[3]), 1)
        self.assertNotEqual(pids[3], pids[0])
        self.assertEqual(w.ref_waiting, [])


def dead_pid():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


if __name__ == "__main__":
    unittest.main()
