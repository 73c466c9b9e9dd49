"""The longer campaigns of issue 34 (run by kill.sh; not a ctest): N kills of each process of the verification
tree during one verify, each kill after the run made progress since the last (a new verdict, as an OOM killer
hitting a busy host now and then would), victims chosen at random; then a plain re-run; every sample's verdict
compared with a clean run's. Then the memory hogs: M samples that each fill 16 GiB with their own kernel, verified
at once (--parallel M) while MemAvailable is sampled every 0.2 s. Prints one line of figures per campaign."""
import argparse
import random
import sys
import time

import campaign as C


def kills(cli, role, n, copies):
    rows = C.kill_corpus_rows(copies)
    clean = cli.corpus(f"clean-{role}.sieve", rows)
    t0 = time.monotonic()
    rc, _, _, err = cli.verify(clean)
    clean_s = time.monotonic() - t0
    if rc != 0:
        raise RuntimeError(err)
    db = cli.corpus(f"killed-{role}.sieve", rows)
    mark = {"verdicts": 0}

    def moved_on(v):
        if v.verdicts > mark["verdicts"]:
            mark["verdicts"] = v.verdicts
            return True
        return False

    t0 = time.monotonic()
    res = C.kill_campaign(cli, db, role, n, settle=random.uniform(0.2, 1.0), between=moved_on)
    took = time.monotonic() - t0
    want, got = C.verdicts(clean), C.verdicts(db)
    diff = C.differences(want, got)
    print(f"kill {role}: {res['kills']} kills, {len(want)} samples, clean run {clean_s:.0f} s, killed run + re-run "
          f"{took:.0f} s, first exit {res['first_rc']}, re-run exit {res['rerun_rc']}, "
          f"verdicts differing from the clean run: {len(diff)} {diff if diff else ''}", flush=True)
    return not diff


def hogs(cli, m):
    rows = [{"task_id": "softmax", "reference_code": C.fixture("tasks/softmax.py"), "dtype": "fp32",
             "shapes": [{"BATCH": 3, "DIM": 100}]}]
    rows += [{"sample_id": f"hog{i}", "task_id": "softmax", "code": C.memory_hog(16)} for i in range(m)]
    db = cli.corpus("hogs.sieve", rows)
    before = C.mem_available()
    watch = C.MemWatch(0.2)
    t0 = time.monotonic()
    rc, summary, out, err = cli.verify(db, extra=("--skip-static", "--parallel", str(m), "--timeout", "300"))
    took = time.monotonic() - t0
    low = watch.stop()
    got = C.verdicts(db)
    if rc not in (0, 3) or not summary:
        raise RuntimeError(f"verify: exit {rc}\n{err[-3000:]}")
    con = C.sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    ms = [r[0] for r in con.execute("SELECT duration_ms FROM verdicts")]
    con.close()
    ok = all(v == ("FAIL_RUNTIME", ("MEMORY_LIMIT",)) for v in got.values())
    print(f"memory hogs: {m} at once, 16 GiB each: {sorted(set(got.values()))}, verdicts after "
          f"{min(ms) / 1000:.0f}-{max(ms) / 1000:.0f} s, run {took:.0f} s; MemAvailable {before / 2**30:.1f} GiB "
          f"before, lowest {low / 2**30:.1f} GiB ({watch.samples} samples every 0.2 s), exit {rc}", flush=True)
    return ok and low >= 4 << 30


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--kills", type=int, default=8)
    ap.add_argument("--copies", type=int, default=4, help="samples of each kind in the kill corpus")
    ap.add_argument("--roles", default=",".join(C.ROLES))
    ap.add_argument("--hogs", type=int, default=4)
    a = ap.parse_args()
    cli = C.Cli(a.cli)
    ok = True
    for role in [r for r in a.roles.split(",") if r]:
        ok = kills(cli, role, a.kills, a.copies) and ok
    if a.hogs:
        ok = hogs(cli, a.hogs) and ok
    print(f"scratch: {cli.tmp}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
