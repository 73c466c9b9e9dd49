"""Task hygiene: is a task's reference fit to judge answers with?

One place for the checks, used by the reference pass of `verify` (taskref.compute_references) and by the
hygiene-only pass of `sieve-cli tasks check` (check.check_task, worker op `check_task`). Each output is
reduced to a few numbers as soon as it exists (on the device it was computed on), so hygiene at a task's
real shipped shapes never holds more than one call's outputs.

Codes (fatal: the task cannot judge answers, its samples get UNVERIFIABLE):
  REF_NONFINITE          the reference output holds NaN or inf
  REF_BELOW_TOL          at every judged shape every value is within atol + rtol*|ref| of zero: an
                         all-zero answer passes (KernelBench issue #165: softmax, Frobenius norm)
  REF_CONSTANT           the output is the same for every seed: it does not depend on the inputs (a 0-d
                         output such as a loss is NOT constant because it is one number)
  REF_NONDETERMINISTIC   two runs on the same inputs differ beyond the tolerance
  REF_TOO_LARGE, REF_FAILED (from the reference pass), TASK_IMPORT_MISSING (a module the reference
                         imports is not installed), TASK_NEEDS_DOWNLOAD (from_pretrained and the like)
Notes (not fatal):
  REF_BELOW_TOL_AT_SHAPE  an all-zero answer passes the check at that shape (but not at all shapes)
  REF_MOSTLY_BELOW_TOL    at least 99% of the values are within the tolerance of zero
  REF_UNJUDGED_AT_SCALE   the CPU checked a shrunk shape; below-tolerance (or the reference itself) was
                          not judged at the shipped shape
  REF_SHAPE_DROPPED       a listed or derived shape the reference fails on (dropped, as verify does)
  REF_IDENTITY_ON_INPUTS  on the task's own inputs the reference returns one of them unchanged (a copy
                          kernel passes them: ReLU on torch.rand); says which derived input set separates
  REF_INSENSITIVE_INPUT   on the task's own inputs the output does not move when one input (`input`) is
                          swapped for another seed's; says which derived input set separates
  TASK_REACHES_OUTSIDE    the module reaches the network, other processes, files or the environment (the
                          line and what): the task servers run it sandboxed, but a reference needs none of it
"""
import ast
import importlib.util

FATAL = ("REF_NONFINITE", "REF_BELOW_TOL", "REF_CONSTANT", "REF_NONDETERMINISTIC", "REF_TOO_LARGE", "REF_FAILED",
         "TASK_IMPORT_MISSING", "TASK_NEEDS_DOWNLOAD")
DOWNLOAD_CALLS = ("from_pretrained", "hf_hub_download", "snapshot_download", "load_state_dict_from_url",
                  "download_url_to_file")
CHUNK = 1 << 26  # elements reduced at a time: a float64 copy of a whole 6 GB output would not fit


def fmt_shape(shape):
    return "{" + ", ".join(f"{k}={v}" for k, v in (shape or {}).items()) + "}" if shape else "{}"


def stats(outs, atol, rtol):
    """Summary of one call's outputs (torch tensors on any device, or numpy arrays): per output
    (numel, max finite |x|, count within tol of zero, nonfinite count, fingerprint). The fingerprint (sums
    of x and of x weighted by position, in float64) stands in for the values when seeds are compared."""
    import torch
    zero_tol = atol / max(1e-12, 1.0 - rtol)  # |0 - r| <= atol + rtol*|r|  <=>  |r| <= atol / (1 - rtol)
    res = []
    for t in outs:
        if not isinstance(t, torch.Tensor):
            t = torch.from_numpy(t)
        t = t.detach()
        flat = t.reshape(-1)
        n = flat.numel()
        maxabs, within, nonfinite, fp0, fp1 = 0.0, 0, 0, 0.0, 0.0
        for start in range(0, n, CHUNK):
            c = flat[start:start + CHUNK]
            if c.dtype == torch.bool:
                c = c.to(torch.uint8)
            if c.is_floating_point() or c.is_complex():
                c = c.abs() if c.is_complex() else c
                fin = torch.isfinite(c)
                nonfinite += int((~fin).sum())
                c = torch.where(fin, c, torch.zeros((), dtype=c.dtype, device=c.device))
            d = c.double()
            a = d.abs()
            if a.numel():
                maxabs = max(maxabs, float(a.max()))
            within += int((a <= zero_tol).sum())
            w = torch.arange(start, start + d.numel(), device=d.device, dtype=torch.float64).remainder_(9973).add_(1)
            fp0 += float(d.sum())
            fp1 += float((d * w).sum())
        res.append({"numel": n, "maxabs": maxabs, "within": within, "nonfinite": nonfinite,
                    "fp": (round(fp0, 9), round(fp1, 9)), "shape": list(t.shape), "dtype": str(t.dtype)})
    return res


def differ(a, b, atol, rtol):
    """Whether two runs on the same inputs (torch tensors or numpy arrays) differ beyond the tolerance."""
    import torch
    for x, y in zip(a, b):
        x = x if isinstance(x, torch.Tensor) else torch.from_numpy(x)
        y = y if isinstance(y, torch.Tensor) else torch.from_numpy(y)
        if x.shape != y.shape:
            return True
        fx, fy = x.reshape(-1), y.reshape(-1)
        for s in range(0, fx.numel(), CHUNK):
            cx, cy = fx[s:s + CHUNK].double(), fy[s:s + CHUNK].double()
            fin = torch.isfinite(cx) & torch.isfinite(cy)
            if bool(((cx - cy).abs() > atol + rtol * cy.abs())[fin].any()):
                return True
            if not torch.equal(torch.isnan(cx), torch.isnan(cy)):
                return True
    return False


class Judge:
    """Collects what the reference pass saw per shape and seed, then rules (result())."""

    def __init__(self, atol, rtol):
        self.atol, self.rtol = atol, rtol
        self.shapes = {}  # index -> {"shape", "origin", "scaled_from", "seeds": {seed: stats}}
        self.notes = []
        self.fatal = []

    def shape(self, si, shape, origin, scaled_from=None):
        self.shapes[si] = {"shape": shape, "origin": origin, "scaled_from": scaled_from, "seeds": {}}

    def add(self, si, seed, outs):
        self.shapes[si]["seeds"][seed] = stats(outs, self.atol, self.rtol)

    def nondeterministic(self, si):
        self.fatal.append({"code": "REF_NONDETERMINISTIC",
                           "message": f"two runs of the reference on shape {fmt_shape(self.shapes[si]['shape'])} "
                                      "with the same inputs differ beyond the tolerance"})

    def failed(self, si, exc):
        """The reference failed on shape si: returns the hygiene entry (the caller drops the shape, or, on the
        module's own shape, rules the task broken). A shrunk shape failing is not the task's fault."""
        sh = self.shapes.get(si, {})
        missing = missing_module(exc)
        if missing:
            e = {"code": "TASK_IMPORT_MISSING", "module": missing,
                 "message": f"the reference imports '{missing}', which the verifier's Python does not have"}
        elif isinstance(exc, MemoryError):
            e = {"code": "REF_TOO_LARGE", "message": f"the reference does not fit: {exc}"}
        elif sh.get("scaled_from"):
            e = {"code": "REF_UNJUDGED_AT_SCALE",
                 "message": f"the reference fails at the shrunk shape {fmt_shape(sh['shape'])} "
                            f"({type(exc).__name__}: {str(exc)[:200]}); it was not run at its shipped shape "
                            f"{fmt_shape(sh['scaled_from'])} (a literal size elsewhere in the task?)"}
        else:
            e = {"code": "REF_FAILED", "message": f"the reference fails on shape {fmt_shape(sh.get('shape'))}: "
                                                  f"{type(exc).__name__}: {str(exc)[:300]}"}
        return e

    def result(self):
        """(hygiene entries, ok, per-shape summaries). ok is False when a fatal code is present."""
        hygiene = list(self.fatal)
        judged = {si: s for si, s in self.shapes.items() if s["seeds"]}
        summaries = []
        nonfinite = False
        below_all = bool(judged)
        constant_all = bool(judged)
        for si, s in sorted(judged.items()):
            per_seed = list(s["seeds"].values())
            numel = sum(o["numel"] for o in per_seed[0])
            maxabs = max((o["maxabs"] for st in per_seed for o in st), default=0.0)
            within = min(sum(o["within"] for o in st) for st in per_seed)
            if any(o["nonfinite"] for st in per_seed for o in st):
                nonfinite = True
            below = numel > 0 and all(sum(o["within"] for o in st) == sum(o["numel"] for o in st) for st in per_seed)
            varies = len(per_seed) < 2 or any([o["fp"] for o in st] != [o["fp"] for o in per_seed[0]]
                                              for st in per_seed[1:])
            if not below:
                below_all = False
            if varies and len(per_seed) > 1:  # a shape checked at one seed (derived_full, derived_mixed) tells nothing
                constant_all = False
            summaries.append({"shape": s["shape"], "origin": s["origin"], "scaled_from": s["scaled_from"],
                              "max_abs": maxabs, "elements": numel, "share_within_tol": within / numel if numel else 1.0,
                              "below_tol": below, "varies_with_seed": varies,
                              "outputs": [{"shape": o["shape"], "dtype": o["dtype"]} for o in per_seed[0]]})
            if below:
                hygiene.append({"code": "REF_BELOW_TOL_AT_SHAPE",
                                "message": f"at shape {fmt_shape(s['shape'])} every reference value is within the "
                                           f"tolerance of zero (max |ref| {maxabs:.3g}): the check there cannot tell "
                                           "an all-zero answer from a right one"})
            elif numel and within / numel >= 0.99:
                hygiene.append({"code": "REF_MOSTLY_BELOW_TOL",
                                "message": f"at shape {fmt_shape(s['shape'])} {100 * within / numel:.2f}% of the "
                                           "reference values are within the tolerance of zero"})
        if nonfinite:
            hygiene.append({"code": "REF_NONFINITE", "message": "the reference output holds NaN or inf"})
        if below_all:
            top = max(x["max_abs"] for x in summaries)
            hygiene = [h for h in hygiene if h["code"] != "REF_BELOW_TOL_AT_SHAPE"]
            hygiene.append({"code": "REF_BELOW_TOL",
                            "message": f"the largest reference value {top:.3g} is within the tolerance (atol "
                                       f"{self.atol:g}, rtol {self.rtol:g}) at every checked shape: an all-zero "
                                       "answer would pass"})
        if constant_all and any(len(s["seeds"]) > 1 for s in judged.values()):
            hygiene.append({"code": "REF_CONSTANT", "message": "the reference output is the same for every seed: "
                                                               "it does not depend on the inputs"})
        scaled = [x for x in summaries if x["scaled_from"]]
        if scaled and not below_all:
            x = scaled[0]
            hygiene.append({"code": "REF_UNJUDGED_AT_SCALE",
                            "message": f"checked at the shrunk shape {fmt_shape(x['shape'])}; below-tolerance was "
                                       f"not judged at the shipped shape {fmt_shape(x['scaled_from'])} (run "
                                       "'sieve-cli tasks check' on a GPU)"})
        hygiene += self.notes
        ok = not any(h["code"] in FATAL for h in hygiene)
        return hygiene, ok, summaries


def missing_module(exc):
    e, seen = exc, 0
    while e is not None and seen < 10:
        if isinstance(e, ModuleNotFoundError) and getattr(e, "name", None):
            return e.name.split(".")[0]
        e, seen = e.__cause__ or e.__context__, seen + 1
    return None


# what a reference never needs: a task module that reaches for these is suspect (reach_findings)
REACH_MODULES = {"socket": "the network", "ssl": "the network", "http": "the network", "urllib": "the network",
                 "requests": "the network", "ftplib": "the network", "smtplib": "the network",
                 "telnetlib": "the network", "asyncio": "the network", "subprocess": "processes",
                 "multiprocessing": "processes", "pty": "processes", "signal": "processes",
                 "ctypes": "native code", "cffi": "native code", "shutil": "files", "tempfile": "files",
                 "pickle": "files", "glob": "files", "pathlib": "files"}
REACH_CALLS = {"system": "processes", "popen": "processes", "fork": "processes", "forkpty": "processes",
               "kill": "processes", "killpg": "processes", "spawnl": "processes", "spawnv": "processes",
               "execv": "processes", "execve": "processes", "execl": "processes", "execvp": "processes",
               "posix_spawn": "processes", "open": "files", "remove": "files", "unlink": "files",
               "rename": "files", "rmdir": "files", "mkdir": "files", "makedirs": "files", "chmod": "files",
               "listdir": "files", "scandir": "files", "walk": "files", "getenv": "the environment",
               "putenv": "the environment", "unsetenv": "the environment", "connect": "the network",
               "create_connection": "the network", "urlopen": "the network", "__import__": "modules by name",
               "import_module": "modules by name", "exec": "code by text", "eval": "code by text",
               "compile": "code by text"}

BUILTIN_ONLY = ("open", "exec", "eval", "compile", "__import__")


def reach_findings(code):
    """Notes (not fatal) for a task module that reaches outside a reference's job: imports of the network,
    process, native-code and file modules, calls of os.system/open/getenv and the like, os.environ: the
    line and what, so that `tasks check` (and the operator) see them before verify runs the module."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    out = []

    def note(line, what, how):
        out.append({"code": "TASK_REACHES_OUTSIDE", "line": line, "reaches": what,
                    "message": f"line {line}: the reference reaches {what} ({how}); task servers run it "
                               "sandboxed (no network, no keys, writes only in their scratch)"})
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if node.level == 0 else []
            for n in names:
                top = n.split(".")[0]
                if top in REACH_MODULES:
                    note(node.lineno, REACH_MODULES[top], f"import {n}")
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            # eval/compile/open as methods are torch's (model.eval(), torch.compile): only the builtins count
            if name in REACH_CALLS and (isinstance(f, ast.Name) or name not in BUILTIN_ONLY):
                note(node.lineno, REACH_CALLS[name], f"{name}()")
        elif isinstance(node, ast.Attribute) and node.attr in ("environ", "environb"):
            note(node.lineno, "the environment", f"os.{node.attr}")
    out.sort(key=lambda f: f["line"])
    return out


def static_findings(code):
    """What the reference needs that the verifier's environment lacks, found without running it: modules
    that are not installed (every import statement, also inside functions) and model downloads."""
    try:
        tree = ast.parse(code)
    except SyntaxError as e:
        return [{"code": "REF_FAILED", "message": f"the reference does not parse: line {e.lineno}: {e.msg}"}]
    out, seen = [], set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for n in names:
            top = n.split(".")[0]
            if top in seen:
                continue
            seen.add(top)
            try:
                found = importlib.util.find_spec(top) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                out.append({"code": "TASK_IMPORT_MISSING", "module": top, "line": node.lineno,
                            "message": f"line {node.lineno}: the reference imports '{top}', which the verifier's "
                                       "Python does not have"})
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            if name in DOWNLOAD_CALLS and name not in seen:
                seen.add(name)
                out.append({"code": "TASK_NEEDS_DOWNLOAD", "call": name, "line": node.lineno,
                            "message": f"line {node.lineno}: the reference calls {name}(), a download the "
                                       "verifier does not make (its processes have no network)"})
    return out
