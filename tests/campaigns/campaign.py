"""Operator campaigns against a real `sieve-cli verify --cpu` (issue 34 point 6): kill -9 of each process of the
verification tree while it works, memory hogs, hostile task modules. Shared by the ctests (test_campaigns.py,
one behaviour each, small) and the longer scheduled script (kill.sh), which repeats them.

The process tree of a verify (docs/VERIFIER.md, "Processes"), found from /proc by parent and command line:
  sieve-cli verify (cli) -> python -m sieve_worker (worker) -> python -m sieve_worker.tasks.trusted (task server)
                                                            -> python -m sieve_worker.sandbox.zygote (zygote)
                                                                 -> intermediate -> candidate
The fixtures are the verifier's own (tests/data/verifier); a corpus is made with `sieve-cli import --format sieve`.
"""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "data", "verifier")
SLOW_REPEAT = 8  # launches per forward of the slow answers: a candidate that lives a few seconds
ROLES = ("cli", "worker", "zygote", "task_server", "candidate")


def fixture(path):
    with open(os.path.join(DATA, path)) as f:
        return f.read()


def slow_softmax(repeat):
    """answers/softmax.py (a right softmax) whose forward launches its kernel `repeat` times (the same result
    each time): on the interpreter a candidate that lives long enough to be killed, and that stage 0 passes
    (answers/softmax_slow.py sleeps, which stage 0 forbids)."""
    code = fixture("answers/softmax.py")
    launch = "        softmax_kernel[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))\n"
    assert launch in code
    return code.replace(launch, f"        for _ in range({int(repeat)}):\n    " + launch)


def memory_hog(gib):
    """answers/memory_hog_4g.py (a forward that fills a buffer with its own kernel, then computes a right
    softmax) with a buffer of `gib` GiB."""
    code = fixture("answers/memory_hog_4g.py")
    assert "n = 1 << 30" in code  # 2**30 float32 elements: 4 GiB
    return code.replace("n = 1 << 30", f"n = {int(gib)} << 28")


def slow_reference(seconds):
    """tasks/softmax_slow_ref.py with its sleep per reference call set to `seconds`."""
    code = fixture("tasks/softmax_slow_ref.py")
    assert "time.sleep(0.5)" in code
    return code.replace("time.sleep(0.5)", f"time.sleep({seconds})")


def kill_corpus_rows(copies=2):
    """The small corpus the kill campaigns verify: a task whose references take a while (a task server to
    kill), one with the module's own shapes, slow right answers (candidates to kill), a fast one, a wrong one
    and one stage 0 rejects, so that more than one verdict kind has to come out as in a clean run."""
    rows = [{"task_id": "slow_ref", "reference_code": slow_reference(0.25), "dtype": "fp32"},
            {"task_id": "softmax", "reference_code": fixture("tasks/softmax.py"), "dtype": "fp32",
             "shapes": [{"BATCH": 3, "DIM": 100}]}]
    for i in range(copies):
        rows.append({"sample_id": f"slow_ref_pass#{i}", "task_id": "slow_ref", "code": fixture("answers/softmax.py")})
        rows.append({"sample_id": f"slow_pass#{i}", "task_id": "softmax", "code": slow_softmax(SLOW_REPEAT)})
    rows.append({"sample_id": "fast_pass", "task_id": "softmax", "code": fixture("answers/softmax.py")})
    rows.append({"sample_id": "nonfinite", "task_id": "softmax", "code": fixture("answers/nan_output.py")})
    rows.append({"sample_id": "static", "task_id": "softmax", "code": fixture("answers/no_kernel.py")})
    return rows


class Cli:
    """sieve-cli with a temporary home for its corpora, caches and TMPDIR."""

    def __init__(self, cli, tmp=None, env=None):
        self.cli = cli
        self.tmp = tmp or tempfile.mkdtemp(prefix="sieve-campaign-")
        os.chmod(self.tmp, 0o755)
        self.env = dict(os.environ, TMPDIR=self.tmp, **(env or {}))

    def path(self, name):
        return os.path.join(self.tmp, name)

    def read(self, name):
        try:
            with open(self.path(name)) as f:
                return f.read()
        except OSError:
            return ""

    def run(self, *args, timeout=600, env=None):
        return subprocess.run([self.cli, *args], capture_output=True, text=True, timeout=timeout,
                              env=dict(self.env, **(env or {})))

    def corpus(self, name, rows):
        """A new corpus `name` holding rows (sieve format); returns its path."""
        db = self.path(name)
        src = self.path(name + ".jsonl")
        with open(src, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
        for args in (("init", db), ("import", db, "--format", "sieve", src)):
            r = self.run(*args)
            if r.returncode != 0:
                raise RuntimeError(f"sieve-cli {' '.join(args)}: {r.returncode}\n{r.stdout}\n{r.stderr}")
        return db

    def verify_args(self, db, extra=()):
        parallel = [] if "--parallel" in extra else ["--parallel", "2"]
        return ["verify", db, "--cpu", "--json", "--quiet", *parallel, "--cache-dir", self.path("cache"), *extra]

    def verify(self, db, extra=(), timeout=600, env=None):
        """A plain verify to its end: (exit code, summary dict or None, stdout, stderr)."""
        r = self.run(*self.verify_args(db, extra), timeout=timeout, env=env)
        return r.returncode, summary_of(r.stdout), r.stdout, r.stderr


def summary_of(stdout):
    for line in reversed(stdout.splitlines()):
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and "summary" in obj:
            return obj["summary"]
    return None


def verdicts(db):
    """{sample name: (status, reasons)} of each sample's newest verdict (PENDING: none)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        out = {}
        for name, status, sid in con.execute("SELECT name, status, id FROM samples"):
            row = con.execute("SELECT reasons FROM verdicts WHERE sample_id = ? ORDER BY id DESC LIMIT 1",
                              (sid,)).fetchone()
            out[name] = (status, tuple(sorted((row[0] or "").split(","))) if row else ())
        return out
    finally:
        con.close()


def differences(want, got):
    """{sample: (want, got)} where two runs' verdicts (verdicts()) differ. FAIL_MISMATCH's reasons name the
    kind of the first failing check, and checks run in a secret random order: a sample with NaN in some outputs
    and wrong values in others is MISMATCH in one clean run and NONFINITE_MISMATCH in the next. Its status is
    compared, not its reasons."""
    out = {}
    for k in set(want) | set(got):
        a, b = want.get(k), got.get(k)
        if a == b or (a and b and a[0] == b[0] == "FAIL_MISMATCH"):
            continue
        out[k] = (a, b)
    return out


# ---- the process tree ----------------------------------------------------------------------------------
def _stat(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            s = f.read()
    except OSError:
        return None
    rest = s[s.rfind(")") + 2:].split()
    return rest[0], int(rest[1])  # state, parent


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def children_map():
    kids = {}
    for n in os.listdir("/proc"):
        if n.isdigit():
            st = _stat(int(n))
            if st and st[0] not in "ZX":
                kids.setdefault(st[1], []).append(int(n))
    return kids


def descendants(root):
    kids, out, todo = children_map(), [], [root]
    while todo:
        p = todo.pop()
        for c in kids.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def find(cli_pid, role):
    """The pids of `role` (ROLES) below the sieve-cli process cli_pid, oldest first."""
    if role == "cli":
        return [cli_pid] if _stat(cli_pid) else []
    kids = children_map()
    workers = [p for p in kids.get(cli_pid, []) if "-m sieve_worker " in cmdline(p) + " "]
    if role == "worker":
        return workers
    below = [c for w in workers for c in kids.get(w, [])]
    if role == "task_server":
        return [p for p in below if "sieve_worker.tasks.trusted" in cmdline(p)]
    zygotes = [p for p in below if "sieve_worker.sandbox.zygote" in cmdline(p)]
    if role == "zygote":
        return zygotes
    if role == "candidate":  # zygote -> intermediate -> candidate
        return [c for z in zygotes for i in kids.get(z, []) for c in kids.get(i, [])]
    raise ValueError(role)


class Verify:
    """A `sieve-cli verify` running in the background whose verdict lines are counted as they come."""

    def __init__(self, cli, db, extra=(), env=None):
        self.err = open(cli.path("verify.err"), "a")
        self.proc = subprocess.Popen([cli.cli, *cli.verify_args(db, extra)], stdout=subprocess.PIPE, stderr=self.err,
                                     text=True, env=dict(cli.env, **(env or {})), start_new_session=True)
        self.lines, self.verdicts = [], 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line)
            if '"status"' in line and '"summary"' not in line:
                self.verdicts += 1

    def find(self, role):
        return find(self.proc.pid, role)

    def alive(self):
        return self.proc.poll() is None

    def wait(self, timeout=600):
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            rc = self.proc.wait()
        self.reader.join(10)
        self.proc.stdout.close()
        self.err.close()
        return rc, summary_of("".join(self.lines))


def kill_role(v, role, wait=120, settle=0.0):
    """SIGKILL the newest process of `role` below the verify `v` as soon as there is one (after it lived
    `settle` seconds). Returns its pid, or None when none appeared within `wait` s or the run ended."""
    t0, seen = time.monotonic(), {}
    while time.monotonic() - t0 < wait and v.alive():
        pids = v.find(role)
        now = time.monotonic()
        for p in pids:
            seen.setdefault(p, now)
        ripe = [p for p in pids if now - seen[p] >= settle]
        if ripe:
            try:
                os.kill(ripe[-1], signal.SIGKILL)
                return ripe[-1]
            except ProcessLookupError:
                pass
        time.sleep(0.02)
    return None


def kill_campaign(cli, db, role, kills, settle=0.5, between=None, wait=120):
    """A verify of db whose `role` process is killed `kills` times: each kill waits for a process of that role
    that lived `settle` s, and (when `between` is a callable of the Verify) for it to say the run moved on
    since the last kill. Then the verify runs to its end, and a plain verify after it (the re-run that picks up
    whatever was left pending). Returns a dict of figures."""
    v = Verify(cli, db)
    done = []
    for k in range(kills):
        if k and between is not None:
            t0 = time.monotonic()
            while v.alive() and not between(v) and time.monotonic() - t0 < wait:
                time.sleep(0.05)
        pid = kill_role(v, role, wait=wait, settle=settle)
        if pid is None:
            break
        done.append((pid, v.verdicts))
        if role == "cli":  # the run is gone: resume it for the next kill
            v.wait(60)
            v = Verify(cli, db)
    rc, summary = v.wait()
    out = {"role": role, "kills": len(done), "first_rc": rc, "first_summary": summary}
    rc2, s2, _, err2 = cli.verify(db)
    out.update(rerun_rc=rc2, rerun_summary=s2, rerun_err=err2[-2000:])
    return out


# ---- load ---------------------------------------------------------------------------------------------
class Hogs:
    """Eight busy loops per core, each in a session of its own (with autogroup one session is one share) whose
    priority is raised to nice -5: the candidate gets a small part of a CPU, and waits for one the rest of its
    stage. (At nice -19 it would hardly run at all, and the scheduler counts a wait only when the waiting
    thread runs again.)"""

    def __init__(self, nice=-5):
        n = 8 * (os.cpu_count() or 2)
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                      for _ in range(n)]
        for p in self.procs:
            try:
                with open(f"/proc/{p.pid}/autogroup", "w") as f:
                    f.write(str(nice))
            except OSError:
                os.setpriority(os.PRIO_PROCESS, p.pid, nice) if os.geteuid() == 0 else None

    def stop(self):
        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()
        self.procs = []


# ---- memory ---------------------------------------------------------------------------------------------
def mem_available():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0


class MemWatch:
    """Samples MemAvailable every `every` s (as `free` would) until stopped: the minimum and when it was."""

    def __init__(self, every=0.2):
        self.every, self.min, self.samples, self.stop_ = every, None, 0, False
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        while not self.stop_:
            m = mem_available()
            self.min = m if self.min is None else min(self.min, m)
            self.samples += 1
            time.sleep(self.every)

    def stop(self):
        self.stop_ = True
        self.t.join(5)
        return self.min
