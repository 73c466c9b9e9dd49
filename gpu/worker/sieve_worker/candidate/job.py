"""One verify request's job: what the worker records of its candidate's life (the process, the calls still to
make, the checks, failures, timings and the memory it holds), and where its time went (phases).
"""
import time

from ..data import transport


class Job:
    def __init__(self, req):
        self.req = req
        self.job = req.get("job")
        self.started = time.monotonic()
        self.pid = None
        self.fd = None
        self.ctl = None
        self.reader = transport.LineReader()
        self.buffer = None  # transport.Buffer: the call's outputs, written by the child
        self.plan = []  # calls still to make: (si, seed label, probe?)
        self.call = None  # the call the child is making now
        self.stage = "compile"
        self.deadline = None
        self.host_bytes = self.gpu_bytes = 0  # what admission promised this job (held now)
        self.gpu_full = 0  # its device memory for the calls, granted when its code is built (grant_room)
        self.need = 0  # while it waits for that grant: the bytes beyond what it holds
        self.judge_bytes = self.timing_extra = 0  # its share of the judge's and the timing stage's memory
        self.granted = False
        self.deadline_left = None  # its stage's time left, kept while it waits for a grant or the judge
        self.judging = None  # the continuation of a check the judge is making now
        self.settle_later = None  # (exit status, log) of a child that ended while its check was judged
        self.checks = []
        self.failure = None  # (status, stage, [reasons], message)
        self.violations = []
        self.error = None
        self.done = None
        self.probe = None
        self.timings = None
        self.bytes_moved = None
        self.notes = []
        self.launches = 0
        self.cancelled = False
        self.timed_out = False
        self.scratch = None
        self.log_path = None
        self.share = None
        self.expected = 0
        self.expected_keys = set()
        self.seen = set()
        self.exit_status = None
        self.timed_checked = False
        self.digests = {}  # seed label -> digests of shape 0's outputs at it: a check's, then a timed call's
        self.recheck = None  # a check failed near the tolerance, made once more: key, verdict, digest ("second")
        self.last_digest = None  # the digest of the last stored-path check that failed (messages.check)
        self.run_flags = []  # what the run showed of the sample, not a fault (NONDETERMINISTIC): the verdict's flags
        self.probe_failure = None
        self.want_timing = False
        self.timing_labels = []
        self.poison = None
        self.logfd = None
        self.infra = None  # the child could not start CUDA before running anything of the sample
        self.infra_code = "DEVICE_UNAVAILABLE"  # or SANDBOX_UNAVAILABLE: its sandbox was not set up (launch.reap)
        self.retries = 0
        self.outside_kills = []  # evidence of each earlier attempt killed from outside (killed_from_outside)
        self.sched0 = None  # (monotonic, probes.sched_times) at the stage's start: stage_clock
        self.load = None  # at a stage's deadline: rules.stage_load's finding
        self.load_faults = []  # evidence of each earlier attempt that ran out of time under load
        self.alone = False  # admitted only when nothing else runs (a retry after the device was full)
        self.native = False  # a raw CUDA answer: the child is `sieve-cli cuda-verify`, its stdout one JSON
        self.raw = b""
        self.marks = {}  # first time (monotonic, worker's clock) of each event of the child's life: phases()
        self.spent = {"checks": 0.0, "probe": 0.0, "compare": 0.0}  # summed over calls
        self.call_sent = None
        self.judged = set()  # shapes whose checks the judge made
        self.buffer_id = None  # what the judge knows the job's buffer by (judge.buffer_id)
        self.wall = False  # the runtime wall runs in the child (wall.py): one report per forward, then a seal
        self.wall_serial = 0  # the last window report's serial
        self.wall_pending = 0  # window reports since the last checked output
        self.seed_key = None  # the wall's key for sealed seeds (its first line, before ready: wall.seal_seed)
        self.call_seed = None  # the seed of the call the child is making, as it was sent (sealed or not)
        self.timing_seeds = []  # the timing's seeds as they were sent, one per timing label
        self.wall_sealed = False
        self.wall_seconds = 0.0  # the wall's own cost (its transitions), summed over the windows

    def mark(self, name):
        self.marks.setdefault(name, time.monotonic())

    def phases(self):
        """Where the job's time went, in seconds, from the worker's own clock (the candidate reports none of
        it): waiting for admission and references, starting the sandboxed process, its CUDA context and task,
        compile (module import and the first call, where Triton compiles), the other checks and the probe
        (round trips of the calls), the worker's comparing, the GPU-share measurement, waiting for and
        holding the timing lock, the process's exit, and waiting for the task's reference timing."""
        m = self.marks
        if "spawn" not in m:
            return None

        def span(a, b):
            return round(m[b] - m[a], 4) if a in m and b in m else None
        first = self.spent.get("first_call", 0.0)
        out = {"wait": round(m["spawn"] - self.started, 4), "start": span("spawn", "sandbox"),
               "context": span("sandbox", "compile"), "compile": span("compile", "ready"),
               "first_call": round(first, 4), "checks": round(self.spent["checks"], 4),
               "probe": round(self.spent["probe"], 4), "compare": round(self.spent["compare"], 4),
               "share": span("proof", "queue") if "queue" in m else span("proof", "done"),
               "queue": span("queue", "timing"), "timing": span("timing", "done"), "exit": span("done", "exit"),
               "ref_timing_wait": span("parked", "unparked"), "wall": round(self.wall_seconds, 4) if self.wall else None,
               "total": round(m.get("unparked", m.get("exit", time.monotonic())) - self.started, 4)}
        return {k: v for k, v in out.items() if v is not None}
