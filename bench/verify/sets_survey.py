"""Which derived shapes and input sets a version of the worker chooses for each task of a folder (issue 31).

    PYTHONPATH=gpu/worker python bench/verify/sets_survey.py survey KernelBench/level1 out.jsonl
    python bench/verify/sets_survey.py compare old.jsonl new.jsonl

survey: per task, the shapes at full size (meta device) and the sets kept at its (first) derived shape scaled down to 2^16
input elements on the CPU (the anchor's stand-in: the set choice needs real runs), as JSON lines. Run it once
per worker version (a checkout of each) and compare."""
import collections
import json
import signal
import sys


def survey(folder, out_path):
    import glob
    import warnings
    warnings.filterwarnings("ignore")
    import torch
    from sieve_worker.tasks import taskref
    torch.set_num_threads(1)

    def late(*_):
        raise TimeoutError("over 60 s")
    signal.signal(signal.SIGALRM, late)  # a task over its minute is recorded, not the end of the survey
    with open(out_path, "w") as out:
        for path in sorted(glob.glob(folder + "/*.py")):
            with open(path) as f:
                code = f.read()
            rec = {"task": path.rsplit("/", 1)[-1]}
            signal.alarm(60)
            try:
                mod = taskref.load_module(path, "survey_" + str(abs(hash(path))))
                sh = taskref.task_shapes(mod, code, {"ref_device": "cuda"}, 0)
                rec["shapes"] = [[s["origin"], s["shape"]] for s in sh]
                anchor = next((s for s in sh if s["origin"] == "derived"), sh[-1])  # where verify's anchor usually is
                small = taskref.scale_down(mod, anchor["shape"], 1 << 16, 0, taskref.size_constants(code, tuples=True))
                kept, notes, dropped = taskref.choose_sets(mod, small, [11, 12], "kernelbench", torch.device("cpu"),
                                                           1e-4, 1e-4)
                rec.update(kept=kept, notes=[n["code"] for n in notes], dropped=dropped)
            except BaseException as e:  # the survey's own scaling can break a task (a group count): recorded
                rec["error"] = f"{type(e).__name__}: {e}"[:200]
            signal.alarm(0)
            out.write(json.dumps(rec) + "\n")


def compare(old_path, new_path):
    old = {r["task"]: r for r in map(json.loads, open(old_path))}
    new = {r["task"]: r for r in map(json.loads, open(new_path))}
    kept = lambda d: sum(len(r.get("kept", [])) for r in d.values())
    added = collections.Counter(s for t in new for s in set(new[t].get("kept", [])) - set(old.get(t, {}).get("kept", [])))
    lost = collections.Counter(s for t in new for s in set(old.get(t, {}).get("kept", [])) - set(new[t].get("kept", [])))
    print(f"tasks {len(new)}; survey errors {sum('error' in r for r in old.values())} -> "
          f"{sum('error' in r for r in new.values())}; kept sets {kept(old)} -> {kept(new)}; added {dict(added)}; "
          f"lost {dict(lost)}; tasks whose shapes changed {sum(old.get(t, {}).get('shapes') != new[t].get('shapes') for t in new)}; "
          f"shapes {sum(len(r.get('shapes', [])) for r in old.values())} -> {sum(len(r.get('shapes', [])) for r in new.values())}; "
          f"checks per sample (5 seeds; derived_full, derived_mixed and each set at 1; signed again at the task's "
          f"shape) {checks(old):.2f} -> {checks(new):.2f}")


def checks(d):
    """Checks a sample of each task makes, averaged over the surveyed tasks."""
    one = ("derived_full", "derived_mixed")
    per = [sum(1 if o in one else 5 for o, _ in r.get("shapes", [])) + len(r.get("kept", []))
           + ("signed" in r.get("kept", [])) for r in d.values() if "error" not in r]
    return sum(per) / max(1, len(per))


if __name__ == "__main__":
    {"survey": survey, "compare": compare}[sys.argv[1]](*sys.argv[2:4])
