"""The worker's protocol lines are strict JSON: a NaN or inf in a verdict (a max error over uninitialised
outputs) must not make the line unparsable for the engine, which would lose the verdict. Stage 0 ahead of
the task (op "screen") answers without the task: a verdict for what it rejects, "screened" for the rest."""
import io
import json
import os
import sys
import unittest

from sieve_worker import worker
from sieve_worker.static import static
from test_rules import ANSWER  # same folder: the answer template stage 0 is tested with


class StrictLines(unittest.TestCase):
    def emit(self, obj, key=None):
        w = worker.Worker.__new__(worker.Worker)
        w.channel_key, w.channel_seq = key, 0
        out, sys.stdout = sys.stdout, io.StringIO()
        try:
            w.emit(obj)
            return sys.stdout.getvalue()
        finally:
            sys.stdout = out

    def test_nonfinite_values_become_names(self):
        line = self.emit({"op": "verdict", "job": 1, "checks": [{"max_abs": float("nan"), "max_rel": float("inf"),
                                                               "other": [float("-inf"), 1.5]}]})
        msg = json.loads(line, parse_constant=lambda c: self.fail(f"non-JSON constant {c} in {line}"))
        self.assertEqual(msg["checks"][0]["max_abs"], "nan")
        self.assertEqual(msg["checks"][0]["max_rel"], "inf")
        self.assertEqual(msg["checks"][0]["other"], ["-inf", 1.5])

    def test_finite_lines_are_unchanged_and_tagged(self):
        line = self.emit({"op": "verdict", "job": 2, "max_abs": 0.25}, key=b"k" * 32)
        tag, seq, body = line.rstrip("\n").split(" ", 2)
        self.assertEqual(seq, "0")
        self.assertEqual(json.loads(body), {"op": "verdict", "job": 2, "max_abs": 0.25})
        self.assertEqual(len(tag), 64)



ANSWERS = os.path.join(os.path.dirname(__file__), "..", "data", "verifier", "answers")
# the copy-kernel answer of the rules' tests, with torch doing the work before the copy
WRAPPER = ANSWER.format(body="        x = torch.relu(x)\n")


class ScreenAheadOfTask(unittest.TestCase):
    """The worker knows no task at all here: a screen must need none."""

    def screen_all(self, **req):
        """Every line the worker answers one screen request with."""
        w = worker.Worker.__new__(worker.Worker)
        w.channel_key, w.channel_seq, w.device, w.tasks, w.screened = None, 0, "cpu", {}, {}
        out, sys.stdout = sys.stdout, io.StringIO()
        try:
            w.screen({"op": "screen", "job": 7, "task_key": "never-sent", "sample_id": 70, **req})
            return [json.loads(line) for line in sys.stdout.getvalue().splitlines()]
        finally:
            sys.stdout = out

    def screen(self, **req):
        lines = self.screen_all(**req)
        self.assertEqual(len(lines), 1, lines)
        return lines[0]

    def test_a_wrapper_is_refused_without_its_task(self):
        msg = self.screen(backend="triton", code=WRAPPER)
        self.assertEqual((msg["op"], msg["job"], msg["sample_id"], msg["status"], msg["stage"]),
                         ("verdict", 7, 70, "FAIL_STATIC", "static"))
        self.assertIn("TORCH_OP_IN_FORWARD", msg["reasons"])
        self.assertIn("relu", msg["message"])

    def test_a_real_kernel_is_screened_and_waits(self):
        with open(os.path.join(ANSWERS, "linear_relu.py")) as f:
            msg = self.screen(backend="triton", code=f.read())
        self.assertEqual(msg, {"op": "screened", "job": 7, "sample_id": 70})

    def test_the_policy_decides_as_in_verify(self):
        partial = ANSWER.format(body="        x = torch.matmul(x, x)\n")
        self.assertEqual(self.screen(backend="triton", code=partial)["status"], "FAIL_STATIC")
        self.assertEqual(self.screen(backend="triton", code=partial, policy="kernelbench")["op"], "screened")

    def test_unsupported_backend_and_bad_policy(self):
        msg = self.screen(backend="nki", code="")
        self.assertEqual((msg["status"], msg["reasons"]), ("UNVERIFIABLE", ["BACKEND_UNSUPPORTED"]))
        # a bad request is named, and the job is still answered: the engine never waits on a screen
        err, answer = self.screen_all(backend="triton", code=WRAPPER, policy="lenient")
        self.assertEqual((err["op"], err["job"]), ("error", 7))
        self.assertIn("unknown policy", err["message"])
        self.assertEqual(answer, {"op": "screened", "job": 7, "sample_id": 70})

    def test_a_stage0_that_raises_still_answers(self):
        orig = static.check
        static.check = lambda *a: (_ for _ in ()).throw(RecursionError("deep"))
        try:
            self.assertEqual(self.screen(backend="triton", code=WRAPPER)["op"], "screened")
        finally:
            static.check = orig


if __name__ == "__main__":
    unittest.main()
