"""Verdicts that do not depend on the machine's load (issue 31 point 3), at the worker: a real worker on the CPU
whose candidate runs out of its stage's time because harness-side hogs (busy loops at a higher priority, as a
busy worker's builds and task servers would be) keep it from a CPU. That is retried alone as the harness's fault:
the sample that timed out only under load passes alone; one loaded on every attempt is left to the next run
(harness_fault LOAD_TIMEOUT, which the engine keeps PENDING); a sample that is slow by itself (it sleeps: it never
waits for a CPU) is TIMEOUT at once, with its scheduler figures as the evidence."""
import os
import sys
import time
import unittest

from test_sandbox_kills import Worker

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "campaigns"))
import campaign  # noqa: E402  (the busy answer, softmax launched SLOW_REPEAT times a call; Hogs)


class StageOutOfTimeUnderLoad(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.w = Worker()
        cls.w.task("softmax.py", "t-load")
        cls.w.ready("t-load")
        # the limit: three times the longest stage of the busy answer alone, at the machine's own load now
        cls.send(cls, 100, campaign.slow_softmax(campaign.SLOW_REPEAT), 120)
        v = cls.verdict(cls, 100)
        assert v["status"] == "PASS", v
        ph = v["phases"]
        longest = max(ph["start"] + ph.get("context", 0) + ph["compile"], ph["first_call"] + ph["checks"] + ph["probe"])
        cls.limit = max(4.0, round(3 * longest, 1))
        print(f"busy answer alone: {ph}; stage limit {cls.limit} s", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        cls.w.close()

    def send(self, job, code, limit):
        """Worker.verify with stage limits of `limit` s (its own are 120 s), so that the test is quick."""
        self.w.send({"op": "verify", "job": job, "task_key": "t-load", "sample_id": job, "backend": "triton",
                     "code": code, "timing": False, "skip_static": True,
                     "timeouts": {"compile": limit, "correct": limit}, "limits": {"memory_mb": 4096, "processes": 64}})

    def verdict(self, job, timeout=300):
        """The verdict of job (a classmethod's cls works as self)."""
        while True:
            msg = self.w.recv(timeout)
            if msg.get("op") == "verdict" and msg.get("job") == job:
                return msg
            self.assertNotEqual(msg.get("op"), "error", msg)

    def retries_logged(self):
        return self.w.stderr().count("ran out of time under load")

    def test_a_sample_out_of_time_only_under_load_passes_alone(self):
        before = self.retries_logged()
        hogs = campaign.Hogs()
        try:
            self.send(1, campaign.slow_softmax(campaign.SLOW_REPEAT), self.limit)
            t0 = time.monotonic()
            while self.retries_logged() == before and time.monotonic() - t0 < 120:
                time.sleep(0.05)
        finally:
            hogs.stop()  # the hogs were the harness's: its retry runs on an unloaded machine
        v = self.verdict(1)
        print(f"loaded then alone: {v['status']} {v['message']}", file=sys.stderr)
        self.assertEqual(v["status"], "PASS", f"{v['reasons']} {v['message']}\n" + self.w.stderr())
        self.assertGreater(self.retries_logged(), before, "the loaded attempt was not retried:\n" + self.w.stderr())

    def test_a_sample_loaded_on_every_attempt_is_left_pending(self):
        hogs = campaign.Hogs()
        try:
            self.send(2, campaign.slow_softmax(campaign.SLOW_REPEAT), self.limit)
            v = self.verdict(2)
        finally:
            hogs.stop()
        fault = v.get("harness_fault")
        print(f"loaded on every attempt: {fault}", file=sys.stderr)
        self.assertIsNotNone(fault, v)
        self.assertEqual(fault["code"], "LOAD_TIMEOUT")
        self.assertEqual(len(fault["attempts"]), 2, fault)
        self.assertIn("waiting for one", fault["attempts"][1])

    def test_a_sample_slow_by_itself_is_a_timeout_at_once(self):
        before = self.retries_logged()
        self.send(3, campaign.fixture("answers/softmax_slow.py"), 3)  # sleeps 1.5 s a call: never waits for a CPU
        v = self.verdict(3)
        self.assertEqual((v["status"], v["reasons"]), ("TIMEOUT", ["STAGE_TIMEOUT"]), v)
        self.assertIn("on a CPU", v["message"])
        self.assertNotIn("harness_fault", v)
        self.assertEqual(self.retries_logged(), before, "a sleeper was retried as loaded")


if __name__ == "__main__":
    sys.exit(unittest.main())
