"""The worker's protocol lines are strict JSON: a NaN or inf in a verdict (a max error over uninitialised
outputs) must not make the line unparsable for the engine, which would lose the verdict."""
import io
import json
import sys
import unittest

from sieve_worker import worker


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


if __name__ == "__main__":
    unittest.main()
