"""A reference's outputs on disk, in the worker session's own folder: one .npy per output (memory-mapped when read)
and a JSON note of their dtypes and shapes. The reference pass writes them; the worker, the judge and the native
path read them (through taskref, which names them too)."""
import hashlib
import json
import os

import numpy as np


def to_numpy(t):
    """(dtype name, array). bf16 travels as float32; the dtype name keeps what it was. 0-d stays 0-d."""
    import torch
    name = str(t.dtype).replace("torch.", "")
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return name, t.numpy()


def cache_path(cache_dir, task_key, code_hash, shape, seed, input_set=None):
    """References live in the worker session's own folder (cache_dir is that folder: its seeds are secret
    and its own, so nothing is shared across sessions); one .npy per output, memory-mapped when read. A
    derived input set (inputsets) has its own files."""
    key = [task_key, code_hash, shape, seed] + ([input_set] if input_set not in (None, "task") else [])
    h = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return os.path.join(cache_dir, "refs", h)


def save_ref(path, outs):
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    for i, (_, a) in enumerate(outs):
        tmp = f"{path}.o{i}.tmp{os.getpid()}.npy"
        np.save(tmp, a if a.flags.c_contiguous else a.copy(order="C"))  # ascontiguousarray makes 0-d 1-d
        os.replace(tmp, f"{path}.o{i}.npy")
    tmp = f"{path}.json.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump({"dtypes": [d for d, _ in outs], "shapes": [list(a.shape) for _, a in outs]}, f)
    os.replace(tmp, path + ".json")


def ref_meta(path):
    with open(path + ".json") as f:
        m = json.load(f)
    return list(zip(m["dtypes"], [list(x) for x in m["shapes"]]))


def load_ref(path):
    """[(dtype name, array memory-mapped from its file)]: a reference of GBs costs page cache, not heap."""
    return [(d, np.load(f"{path}.o{i}.npy", mmap_mode="r")) for i, (d, _) in enumerate(ref_meta(path))]


def remove_ref(path):
    """Deletes a reference's files; returns the bytes freed."""
    freed = 0
    try:
        n = len(ref_meta(path))
    except (OSError, ValueError, KeyError):
        n = 0
    for f in [f"{path}.o{i}.npy" for i in range(n)] + [path + ".json"]:
        try:
            freed += os.path.getsize(f)
            os.remove(f)
        except OSError:
            pass
    return freed


def ref_exists(path):
    return os.path.exists(path + ".json")
