"""The candidate's messages (a mixin of worker.Worker, whose state it reads and writes): the calls sent to
the child with their secret seeds, each line the child writes on its result stream (stage, outputs, the
runtime wall's reports, errors, timings), its outputs checked against the reference here or by the judge,
and the proof probe's poison. A stream the candidate corrupts fails the candidate, never the worker.
"""
import hashlib
import json
import os
import time

from .. import log, rules
from . import launch, wall
from ..data import compare, judge, transport
from ..tasks import seeds, taskref


def transport_write(fd, data):
    """Writes to a child's control pipe (blocking: commands are short)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def drain(fd):
    """What a non-blocking pipe holds now: (bytes, whether the other end is closed)."""
    chunks = []
    while True:
        try:
            data = os.read(fd, 1 << 20)
        except BlockingIOError:
            return b"".join(chunks), False
        except OSError:
            data = b""
        if not data:
            return b"".join(chunks), True
        chunks.append(data)


def shown(task, si, label):
    """A check's seed as messages show it: "3", or "3 (inputs: signed)" for a derived input set."""
    name = taskref.input_set_of(task["summary"], si)
    return f"{label}" if name == "task" else f"{label} (inputs: {name})"


NONDETERMINISTIC = "NONDETERMINISTIC"  # a flag: a timed call's output differs from its check's on the same inputs
DIGEST_MAX_BYTES = 64 << 20  # outputs larger than this are not digested (a nondeterministic reduction's are small)


def remember(job, label, outputs):
    """A digest of shape 0's outputs ((dtype, array) pairs) at seed `label` (a check's, then its timed call's):
    on_timed_output compares the two, so an answer whose result changes from call to call on the same inputs and
    state is flagged NONDETERMINISTIC (float atomics: bench/RESULTS.md, 100_HingeLoss/triton_atomic_mean, PASS in
    one run and FAIL_MISMATCH in the next)."""
    d = digest(outputs)
    if d is not None:
        job.digests.setdefault(label, []).append(d)


def digest(outputs):
    """A hash of one call's outputs ((dtype, array) pairs), None past DIGEST_MAX_BYTES."""
    if sum(a.nbytes for _, a in outputs) > DIGEST_MAX_BYTES:
        return None
    h = hashlib.blake2b(digest_size=16)
    for dt, a in outputs:
        h.update(dt.encode() + a.tobytes())
    return h.digest()


class CandidateMessages:
    """worker.Worker's side of a running candidate. It uses the worker's tasks, device, builds and judge, and
    calls its fail, fail_with, finish, settle, stage_clock, ready_to_call, reference and expected_metas."""

    def invalid(self, job, why):
        """A malformed or oversized control stream, or a note that contradicts itself: the candidate's
        failure (its process writes that channel), never the harness's."""
        self.fail(job, "FAIL_SANDBOX", job.stage, ["RESULT_STREAM_INVALID"],
                  f"the candidate's result channel carried {why}"[:400])

    def send_command(self, job, cmd):
        try:
            transport_write(job.ctl, (json.dumps(cmd) + "\n").encode())
        except OSError:
            pass  # the child is gone: its exit tells

    def next_call(self, job):
        """Sends the next call of the plan (with its secret seed), or the end (with the timing seeds)."""
        task = self.tasks[job.req["task_key"]]
        s = task["summary"]
        if job.failure is not None:
            return
        if not job.plan and job.probe_failure:
            return self.fail(job, "FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"], job.probe_failure)
        if job.plan:
            si, label, probe = job.plan.pop()
            job.call = (si, label, probe)
            # the seed itself only when the child asks for it ("built"), after the answer's constructor and
            # load_state_dict: the models' seed (one-way from it, shown by the weights anyway) comes first
            job.call_seed = None
            cmd = {"do": "call", "si": si,
                   "weights": seeds.weight_seed(s["secret_seeds"][s["seeds"].index(label)])}
            if taskref.input_set_of(s, si) != "task":
                cmd["set"] = taskref.input_set_of(s, si)  # the child derives the set's inputs (inputsets)
            if probe:
                cmd["poison"] = job.poison
            job.call_sent = time.monotonic()
            return self.send_command(job, cmd)
        job.call = None
        cmd = {"do": "end", "share_seed": self.sent_seed(job, seeds.secret_seed())}
        # CUDA answers' proof (their kernels' GPU share) comes after this command; conclude checks it
        proved = job.probe == "ok" or job.req.get("backend") == "cuda"
        if job.want_timing and job.seen == job.expected_keys and proved:
            job.timing_labels = s["seeds"][:3]
            secrets = [s["secret_seeds"][s["seeds"].index(x)] for x in job.timing_labels]
            job.timing_seeds = [self.sent_seed(job, x) for x in secrets]
            cmd["timing"] = {"seeds": job.timing_seeds, "weights": [seeds.weight_seed(x) for x in secrets]}
        self.send_command(job, cmd)

    def on_built(self, job, msg):
        """Without a runtime wall, the child built the call's models (the answer's code ran in the free phase) and
        asks for the call's seed; with one, only the wall's own line says so (on_wall)."""
        if job.wall or job.call is None or job.call_seed is not None or msg.get("si") != job.call[0]:
            return self.invalid(job, "a request for a seed nobody was due")
        self.send_seed(job)

    def send_seed(self, job):
        """The call's seed, sealed for the child's wall (sent_seed), once per call."""
        s = self.tasks[job.req["task_key"]]["summary"]
        job.call_seed = self.sent_seed(job, s["secret_seeds"][s["seeds"].index(job.call[1])])
        self.send_command(job, {"do": "seed", "seed": job.call_seed})

    @staticmethod
    def sent_seed(job, secret):
        """A secret seed as the child gets it: sealed for its runtime wall, which told its key (wall.seal_seed), so
        no Python object of the candidate's holds it; as it is where no wall runs."""
        return wall.seal_seed(job.seed_key, secret) if job.seed_key is not None else secret

    def on_message(self, job, msg):
        t = msg["t"]
        if t == "stage":
            stage = msg.get("stage")
            if stage not in ("compile", "correct", "proof", "queue", "timing"):
                return self.invalid(job, f"an unknown stage {str(stage)[:40]!r}")
            job.stage = stage
            job.mark(stage)
            key = {"proof": "correct"}.get(job.stage, job.stage)
            job.deadline = time.monotonic() + float(job.timeouts.get(key, 3600 if key == "queue" else 120))
            self.stage_clock(job)
        elif t == "violation":
            job.violations.append({"code": str(msg.get("code"))[:40], "detail": str(msg.get("detail"))[:1000]})
            v = job.violations[-1]
            self.fail(job, "FAIL_SANDBOX", job.stage, [v["code"]], f"the sample tried something the sandbox forbids: "
                      f"{v['detail']}")
        elif t == "ready":
            if "ready" in job.marks:
                return self.invalid(job, "a second ready")
            job.mark("ready")
            self.ready_to_call(job)
        elif t == "wall":
            self.on_wall(job, msg)
        elif t == "built":
            self.on_built(job, msg)
        elif t == "output":
            if job.wall and job.wall_pending != 1:
                return self.fail(job, "FAIL_SANDBOX", job.stage, ["WALL_TAMPERED"],
                                 f"{job.wall_pending} runtime wall reports for one call (exactly one is written "
                                 "when its forward ends)")
            job.wall_pending = 0
            if job.call_sent is not None and job.call is not None:
                which = "first_call" if "first_call" not in job.spent else ("probe" if job.call[2] else "checks")
                job.spent[which] = job.spent.get(which, 0.0) + time.monotonic() - job.call_sent
                job.call_sent = None
            self.on_output(job, msg)
            if job.failure is None and job.infra is None and job.judging is None:
                self.next_call(job)
        elif t == "build":
            self.builds.on_message(job, msg)
        elif t == "timed_output":
            self.on_timed_output(job, msg)
        elif t == "share":
            self.on_share(job, msg)
        elif t == "error":
            if job.recheck is not None and "second" not in job.recheck and job.failure is None:
                # the failed check's call made again raised: the first call's verdict stands
                job.notes.append(f"a check made again near the tolerance raised: {str(msg.get('message', ''))[:300]}")
                return self.fail_with(job, job.recheck["verdict"])
            job.error = {"stage": str(msg.get("stage", job.stage)), "code": str(msg.get("code", "RUNTIME_ERROR")),
                         "message": str(msg.get("message", ""))[:2000],
                         "traceback": str(msg.get("traceback", ""))[-8000:]}
            if job.error["stage"] not in ("compile", "correct", "proof", "queue", "timing"):
                job.error["stage"] = job.stage
        elif t == "infra":
            if msg.get("over") is True and job.retries >= 1:
                # out of device memory beyond its admission on a retry too: its own use, not the device's load
                job.error = {"stage": job.stage, "code": "RUNTIME_ERROR", "traceback": "",
                             "message": f"{msg.get('message', '')} (again on retry {job.retries})"[:2000]}
                return
            job.infra = str(msg.get("message", ""))[:500]
            # the device was full within its admission: the retry runs with nothing beside it; beyond its
            # admission beside others (admission may have underestimated them): once more as it was
            job.alone = msg.get("oom") is True and msg.get("over") is not True
        elif t == "timings":
            tm = msg.get("timings")
            if not isinstance(tm, list) or not all(isinstance(x, dict) and isinstance(x.get("median_ms"), (int, float))
                                                   for x in tm):
                return self.invalid(job, "timings that are not a list of measurements")
            job.timings = [{k: x.get(k) for k in ("shape_index", "which", "median_ms", "mean_ms", "std_ms", "runs")}
                           for x in tm[:4]]
            for x in job.timings:
                x["which"] = "candidate"
        elif t == "done":
            job.mark("done")
            job.done = {"launches": int(msg.get("launches") or 0) if str(msg.get("launches", 0)).isdigit() else 0,
                        "kernels": [str(k)[:200] for k in (msg.get("kernels") or [])[:64]]}
        elif t == "note":
            job.notes.append(str(msg.get("message", ""))[:500])
        elif t == "state_dict":
            if msg.get("missing") or msg.get("unexpected"):
                job.notes.append(f"state_dict copy: missing {str(msg.get('missing'))[:300]}, "
                                 f"unexpected {str(msg.get('unexpected'))[:300]}")
        elif t == "sandbox":
            job.mark("sandbox")
            job.notes.append(f"sandbox: {str(msg.get('applied'))[:1000]}")
        elif t == "profile" and msg.get("error"):
            job.notes.append(f"profiler: {str(msg['error'])[:300]}")
        elif t != "profile":
            self.invalid(job, f"a message of unknown type {t[:40]!r}")

    def on_wall(self, job, msg):
        """A runtime wall report (wall.py): written by the wall's C++ when a forward window closes, and once
        at the end (the seal); a missing, extra, out-of-order or tampered one fails the job."""
        if not job.wall or job.wall_sealed:
            return self.fail(job, "FAIL_SANDBOX", job.stage, ["WALL_TAMPERED"], "a runtime wall report nobody "
                             "expected (forged by the answer, or after the seal)")
        if msg.get("kind") == "built":
            # the free phase is over (written at the transition): the call's seed now, once per call
            if job.call is None:
                return  # the child's start, before any call
            if job.call_seed is not None:
                return self.fail(job, "FAIL_SANDBOX", job.stage, ["WALL_TAMPERED"],
                                 "the end of the answer's free phase told twice for one call (one forged by the "
                                 "answer)")
            return self.send_seed(job)
        if msg.get("kind") == "key":
            # the wall's first line, written when it starts, before any of the answer loads: one, before ready
            key = wall.key_of(msg)
            if key is None or job.seed_key is not None or "ready" in job.marks or job.wall_serial:
                return self.fail(job, "FAIL_SANDBOX", job.stage, ["WALL_TAMPERED"],
                                 "a second or late runtime wall key (forged by the answer)")
            job.seed_key = key
            return
        cost = msg.get("cost_us")
        if isinstance(cost, (int, float)) and cost >= 0:
            job.wall_seconds += cost / 1e6
        expected = job.wall_serial + 1 if msg.get("kind") == "window" else job.wall_serial
        bad = wall.check_report(msg, expected)
        if bad is not None and bad[0] == "HARNESS":
            if job.probe_failure:
                # the probe already showed the output is not the kernels' (decided after the checks, which a
                # retry would throw away with it): a harness refusal after it does not buy the sample a new draw
                return self.fail(job, "FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"], job.probe_failure)
            # torch or triton reached a refusal (the child's refusal error after it is not the sample's): the job
            # ends now as the harness's fault. Where torch caught the refusal and went on (NVML's device count
            # behind torch.manual_seed, on the H200) its child would wait for a next call that never comes
            job.infra, job.infra_code = bad[2][:500], bad[1]
            return launch.kill(job)
        if bad is not None:
            return self.fail(job, bad[0], job.stage if bad[0] == "FAIL_SANDBOX" else "correct", [bad[1]], bad[2])
        if msg["kind"] == "seal":
            job.wall_sealed = True
        else:
            job.wall_serial = expected
            job.wall_pending += 1

    def on_share(self, job, msg):
        share = msg.get("share")
        job.share = float(share) if isinstance(share, (int, float)) else None
        if job.req.get("backend") == "cuda":
            # the kernels its own extension defines (exact names, wall.kernel_names) must take GPU time
            if job.share == 0:
                job.probe = "sham"
                return self.fail(job, "FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"],
                                 "the sample's CUDA kernels took no GPU time in the forward")
            if not job.wall:
                # no runtime wall, so no ablation probe (launch.py): the launch count and GPU share must do
                job.probe = "ok"
                job.notes.append("proof: CUDA extension kernels counted in the profiler (no ablation probe)")

    def read_outputs(self, job, task, si, label, msg):
        """Validates a note's metadata against the reference: (the expected metas, the check's entry), or
        (None, entry) after failing the job. check() then reads the outputs from the shared buffer."""
        entry = {"shape_index": si, "shape": task["summary"]["shapes"][si], "seed": label}
        if taskref.input_set_of(task["summary"], si) != "task":
            entry["input_set"] = taskref.input_set_of(task["summary"], si)
            tol = taskref.set_atol(task["summary"], si)
            if tol != (task["summary"]["atol"], task["summary"]["rtol"]):
                entry["atol"], entry["rtol"] = tol  # the set's own (taskref.set_atol: zero for `exact`)
        meta = msg.get("meta")
        if meta is None:
            types = [str(x)[:60] for x in (msg.get("types") or [])[:16]] if isinstance(msg.get("types"), list) else []
            entry.update({"ok": False, "note": f"outputs of type {types} are not plain tensors"})
            job.checks.append(entry)
            self.fail(job, "FAIL_SHAM", "correct", ["OUTPUT_NOT_FROM_KERNEL"],
                      f"forward returned {types} instead of plain tensors (a lazy output)")
            return None, entry
        expected = self.expected_metas(task, si, label)
        why = transport.check_metas(meta, expected, self.device)
        if why is not None:
            entry.update({"ok": False, "max_abs": None, "max_rel": None, "mismatches": 0, "nonfinite_mismatches": 0,
                          "note": why})
            job.checks.append(entry)
            self.fail(job, "FAIL_MISMATCH", "correct", ["MISMATCH"], f"shape {si} seed {shown(task, si, label)}: {why}")
            return None, entry
        return expected, entry

    def on_output(self, job, msg):
        task = self.tasks[job.req["task_key"]]
        if job.call is None:
            return self.invalid(job, "outputs nobody asked for")
        si, label, probe = job.call
        atol, rtol = taskref.set_atol(task["summary"], si)
        if msg.get("si") != si or msg.get("seed") != job.call_seed:
            return self.invalid(job, f"outputs for a call other than the one asked for")
        launches = msg.get("launches", 0)
        launches = launches if type(launches) is int and launches >= 0 else 0
        job.launches += launches
        if probe:
            return self.on_probe(job, task, si, label, msg)
        again = job.recheck is not None and job.recheck["key"] == (si, label) and "second" not in job.recheck
        if (si, label) in job.seen and not again:
            return self.invalid(job, f"a second result for shape {si} seed {label}")
        job.seen.add((si, label))
        metas, entry = self.read_outputs(job, task, si, label, msg)
        if metas is None:
            return

        def checked(res):
            if again:
                return self.rechecked(job, task, res)
            entry.update(res)
            job.checks.append(entry)
            v = rules.checked_call(si, shown(task, si, label), res, atol, rtol, msg.get("mutated"), launches)
            if v is not None:
                if (v.reasons == ["MISMATCH"] and job.recheck is None and job.last_digest is not None
                        and rules.near_tolerance(res, atol, rtol)):
                    # near the tolerance: the same call once more before the verdict (rules.RECHECK_NEAR)
                    job.recheck = {"key": (si, label), "verdict": v, "digest": job.last_digest}
                    job.plan.append((si, label, False))
                    return
                return self.fail_with(job, v)
            if msg.get("overlap") is False:
                job.notes.append(f"shape {si} seed {label}: an output's memory was not passed to any of the "
                                 "sample's kernels")
        self.check(job, task, si, label, checked)

    def rechecked(self, job, task, res):
        """The failed check near the tolerance made again on the same inputs: its verdict stands; outputs unlike
        the first call's flag NONDETERMINISTIC (rules.RECHECK_NEAR)."""
        si, label = job.recheck["key"]
        job.recheck["second"] = True
        if job.last_digest is not None and job.last_digest != job.recheck["digest"]:
            if NONDETERMINISTIC not in job.run_flags:
                job.run_flags.append(NONDETERMINISTIC)
            job.notes.append(f"shape {si} seed {shown(task, si, label)} failed near the tolerance and was made once "
                             f"more on the same inputs and state: its outputs differ between the two calls (float "
                             f"atomics, a race), {'and matched' if res['ok'] else 'and failed'} the second time; the "
                             "verdict is the first call's, and near the tolerance it may not repeat")
        else:
            job.notes.append(f"shape {si} seed {shown(task, si, label)} failed near the tolerance and was made once "
                             "more on the same inputs and state: the same outputs bit for bit")
        return self.fail_with(job, job.recheck["verdict"])

    def check(self, job, task, si, label, then):
        """Compares one call's outputs (in the job's buffer, their metadata checked) with the reference and
        hands the check dict to then(res): here against the stored reference, or, for a recompute shape, by
        the judge on the device, answered later in the loop (job.judging holds the job's next step
        meanwhile, and its stage's clock stops: the worker's comparing is not the sample's time). A judge
        that fails is the harness's fault: the job is retried (job.infra), never failed."""
        s = task["summary"]
        metas = self.expected_metas(task, si, label)
        t0 = time.monotonic()
        if not (s.get("recompute") or [False] * (si + 1))[si]:
            cand = job.buffer.arrays(metas)
            if si == 0 and label in (job.timing_labels or s["seeds"][:3]):
                remember(job, label, cand)
            res = compare.compare(self.reference(task, si, label), cand, *taskref.set_atol(s, si))
            job.last_digest = digest(cand) if not res["ok"] else None  # for a check made again (on_output)
            del cand
            job.spent["compare"] += time.monotonic() - t0
            if job.deadline is not None:
                job.deadline += time.monotonic() - t0
            return then(res)
        job.last_digest = None  # outputs the judge compares are not read here: no check of them is made again
        req = {"task_path": task["path"], "code_hash": s["code_hash"], "shape": s["shapes"][si],
               "secret": s["secret_seeds"][s["seeds"].index(label)], "input_set": taskref.input_set_of(s, si),
               "style": task["req"].get("init_inputs_style", "kernelbench"), "metas": metas}
        req["atol"], req["rtol"] = taskref.set_atol(s, si)
        if si not in job.judged:
            job.judged.add(si)
            job.notes.append(f"shape {si}: compared on the device by the judge (its references are too large to "
                             "keep: recomputed for each check)")
        if job.buffer_id is None:
            job.buffer_id = judge.buffer_id(job.buffer.fd)
        if job.deadline is not None:
            job.deadline_left = max(0.0, job.deadline - t0)
        job.deadline = None

        def answered(res, error):
            job.judging = None
            job.spent["compare"] += time.monotonic() - t0
            if job.deadline_left is not None and job.settle_later is None:
                job.deadline = time.monotonic() + job.deadline_left
            job.deadline_left = None
            if error is not None:
                log(f"job {job.job}: {error}")
                if job.failure is None and job.infra is None:
                    job.infra = str(error)[:500]
                    launch.kill(job)
            elif job.failure is None and job.infra is None and not job.cancelled:
                then(res)
                if job.failure is None and job.infra is None and job.call is not None and job.settle_later is None:
                    self.next_call(job)
            if job.settle_later is not None:  # the child ended while its check was made: decided now
                st, logall = job.settle_later
                job.settle_later = None
                self.settle(job, st, logall)
        job.judging = answered
        self.judge.submit(req, job.buffer.fd, answered)

    def on_probe(self, job, task, si, label, msg):
        """The probe's call: its launches only wrote the secret poison into their output arguments, so an
        output the kernels produced is that poison; one that is anything else was computed without them."""
        if "error" in msg:
            # The probe is a call like the checks: only what the launches write differs. A forward that
            # fails on it looked at its kernels' results to decide what to do (a canary), which is no proof
            # that its outputs came from them.
            job.probe = "sham"
            return self.probe_failed(job, "with its launches made to write a secret poison value, the forward "
                                          f"fails ({str(msg['error'])[:300]}): it inspects what its kernels "
                                          "computed instead of returning it")
        if msg.get("meta") is None:
            return self.read_outputs(job, task, si, label, msg)
        why = transport.check_metas(msg["meta"], self.expected_metas(task, si, label), self.device)
        if why is not None:
            # the checks got the reference's structure: one that changes when the launches only write poison
            # means the forward looks at what its kernels did and answers something else
            job.probe = "sham"
            return self.probe_failed(job, "with its launches made to write a secret poison value, the forward's "
                                          f"outputs change: "
                             f"{why}")
        for i, (dt, a) in enumerate(job.buffer.arrays(self.expected_metas(task, si, label))):
            ok, what = compare.is_poison(dt, a, job.poison)
            if not ok:
                job.probe = "sham"
                return self.probe_failed(job, f"output {i} is not what the sample's kernels wrote: with its launches "
                                              "made to "
                                 f"write a secret poison value, the output {what}")
        job.probe = "ok"

    def probe_failed(self, job, message):
        """A failed probe is decided after the checks (which come in a secret order around it): a check that
        fails names the more precise fault (a mismatch, mutated inputs)."""
        job.probe_failure = message

    def on_timed_output(self, job, msg):
        """One timed call, chosen by the child at random, is compared like a check."""
        task = self.tasks[job.req["task_key"]]
        s = task["summary"]
        labels = getattr(job, "timing_labels", None) or []
        sent = msg.get("seed")
        label = next((x for x, sd in zip(labels, job.timing_seeds) if sd == sent), None)
        if label is None or msg.get("si") != 0 or job.timed_checked:
            return self.invalid(job, "a timed output for a call that was not timed")
        job.timed_checked = True
        if self.read_outputs(job, task, 0, label, msg)[0] is None:
            return

        def checked(res):
            seen = job.digests.get(label) or []
            if len(seen) == 2 and seen[0] != seen[1] and NONDETERMINISTIC not in job.run_flags:
                job.run_flags.append(NONDETERMINISTIC)
                job.notes.append(f"a timed call's output (shape 0 seed {label}) is not bit for bit its check's on the "
                                 "same inputs and state: the sample's result changes from call to call (float "
                                 "atomics, a race), and its verdict near the tolerance may not repeat")
            if not res["ok"]:
                return self.fail_with(job, rules.mismatch(0, label, res, *taskref.set_atol(s, 0),
                                                             what="a timed call, "))
            job.notes.append(f"a timed call's output (seed {label}) matches the reference")
        self.check(job, task, 0, label, checked)

    def read_child(self, job):
        if job.native:
            data, eof = drain(job.fd)
            job.raw += data
            if len(job.raw) > 64 << 20:
                self.fail(job, "CRASH", job.stage, ["SIGNAL"], "native verification wrote too much")
                return self.finish(job)
            if eof:
                self.finish(job)
            return
        while True:
            try:
                data = os.read(job.fd, 1 << 20)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                if job.reader.leftover() and job.failure is None:
                    self.invalid(job, "an unterminated message")
                self.finish(job)
                return
            if job.failure is not None or job.infra is not None:
                continue  # the verdict is decided (or the job retried); whatever else comes is not read
            try:
                for msg in job.reader.feed(data):
                    self.on_message(job, msg)
                    if job.failure is not None or job.infra is not None:
                        break
            except transport.StreamInvalid as e:
                self.invalid(job, str(e))
            except Exception as e:  # the stream comes from untrusted code: never let it take the worker down
                import traceback
                log(traceback.format_exc())
                self.invalid(job, f"a message the worker could not use ({type(e).__name__}: {e})")
