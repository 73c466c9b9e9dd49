"""Raw CUDA answers (a .cu of extern "C" kernels with a /* sieve:launch ... */ manifest): verified natively by
`sieve-cli cuda-verify` (gpu/cuda/nativeverify.h), with no Python in the candidate's path.

The worker forks a trusted child that materialises the task's inputs and expected outputs as .npy files
(once per task, shared on disk by every sample of it and by workers of other GPUs), narrows itself
(network namespace, rlimits, scrubbed environment, scratch folder) and execs sieve-cli on a job file.
"""
import hashlib
import json
import os
import resource
import shutil

from ..sandbox import sandbox
from ..tasks import paramsets, refstore, taskref

KEEP_ENV = ("PATH", "LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "SIEVE_CUDA_ARCH", "SIEVE_CUDA_DRIVER",
            "SIEVE_NVRTC", "SIEVE_NVRTC_CACHE", "LD_LIBRARY_PATH")


NPY_DTYPES = {"<f4": "fp32", "<f2": "fp16", "<f8": "f64", "<i4": "i32", "<i8": "i64", "|u1": "u8", "|b1": "u8"}


def is_raw_cuda(code):
    return "sieve:launch" in code and "ModelNew" not in code


def _save(path, t):
    """(dtype name, .npy file) of a tensor; bf16 keeps its bits as <u2."""
    import numpy as np
    import torch
    name = str(t.dtype).replace("torch.", "")
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        np.save(path, t.view(torch.int16).numpy().view(np.uint16))
    else:
        np.save(path, t.numpy())
    return {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "float64": "f64", "int32": "i32",
            "int64": "i64", "uint8": "u8", "bool": "u8"}.get(name, name)


def materialise(ctx):
    """Inputs and expected outputs of every shape and seed, in cache_dir/native/<task>/; returns the cases."""
    root = os.path.join(ctx["cache_dir"], "native",
                        hashlib.sha256(f"{ctx['task_key']}\0{ctx['sig']}".encode()).hexdigest()[:24])
    index = os.path.join(root, "cases.json")
    if os.path.exists(index):
        with open(index) as f:
            return json.load(f)
    import numpy as np
    import torch
    task = taskref.load_module(ctx["task_path"], "sieve_native_task")
    code_hash = ctx["code_hash"]
    tmp = f"{root}.{os.getpid()}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    cases = []
    sets, counts = ctx.get("input_sets") or [], ctx.get("shape_seeds") or []
    for si, shape in enumerate(ctx["shapes"]):
        taskref.apply_shape(task, shape)
        name = sets[si] if si < len(sets) else "task"
        if paramsets.params_set(name)[0] is not None:
            continue  # a raw kernel takes the task's inputs alone: no parameter of the reference's reaches it
        for seed in ctx["seeds"][:counts[si] if si < len(counts) else None]:
            inputs = [t for t in taskref.set_inputs(task, seed, ctx.get("device", "cpu"), name)
                      if isinstance(t, torch.Tensor)]
            case = {"shape_index": si, "shape": shape, "seed": seed, "inputs": [], "input_dtypes": [],
                    "expected": [], "expected_dtypes": []}
            if name != "task":  # a derived input set: named in the checks, with its own tolerance (set_atol)
                case["input_set"] = name
                tol = taskref.set_atol(ctx, si)
                if tol != (ctx["atol"], ctx["rtol"]):
                    case["atol"], case["rtol"] = tol
            for k, t in enumerate(inputs):
                p = os.path.join(root, f"in_{si}_{seed}_{k}.npy")
                case["input_dtypes"].append(_save(os.path.join(tmp, os.path.basename(p)), t))
                case["inputs"].append(p)
            ref = refstore.load_ref(refstore.cache_path(ctx.get("ref_dir", ctx["cache_dir"]), ctx["task_key"], code_hash,
                                                      shape, seed, name))
            for k, (dtype, arr) in enumerate(ref):
                p = os.path.join(root, f"exp_{si}_{seed}_{k}.npy")
                np.save(os.path.join(tmp, os.path.basename(p)), np.ascontiguousarray(arr))
                # the file's own dtype (bf16 references are kept as float32 values and compared as such)
                case["expected_dtypes"].append(NPY_DTYPES.get(arr.dtype.str, "fp32"))
                case["expected"].append(p)
            cases.append(case)
    with open(os.path.join(tmp, "cases.json"), "w") as f:
        json.dump(cases, f)
    try:
        os.rename(tmp, root)
    except OSError:  # another worker won the race: its files are the same
        shutil.rmtree(tmp, ignore_errors=True)
    return cases


def exec_verify(ctx):
    """In the forked child: materialise, narrow the process, become sieve-cli cuda-verify. Never returns."""
    cases = materialise(ctx)
    scratch = ctx["scratch"]
    job = {"code": ctx["code"], "name": "answer.cu", "device": ctx["device_index"], "gpu": ctx["gpu"],
           "atol": ctx["atol"], "rtol": ctx["rtol"], "cases": cases, "launch_timeout": ctx["launch_timeout"],
           "timing_runs": ctx["timing_runs"], "lock_path": ctx["lock_path"], "scratch": scratch,
           "cache_dir": os.path.join(ctx["cache_dir"], "nvrtc"), "launcher": ctx["cli"]}
    path = os.path.join(scratch, "job.json")
    with open(path, "w") as f:
        json.dump(job, f)
    sandbox.set_pdeathsig()
    sandbox.unshare_network()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 30, 1 << 30))
    resource.setrlimit(resource.RLIMIT_CPU, (ctx["cpu_seconds"], ctx["cpu_seconds"] + 5))
    env = {k: os.environ[k] for k in KEEP_ENV if k in os.environ}
    env.update({"HOME": scratch, "TMPDIR": scratch})
    os.chdir(scratch)
    os.execve(ctx["cli"], [ctx["cli"], "cuda-verify", path], env)
