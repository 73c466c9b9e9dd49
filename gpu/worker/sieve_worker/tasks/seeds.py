"""The checks' seeds: the secret seed of each check (the task server draws it), the seed its models are built under (a
one-way function of it, sent to the candidate in clear), and torch seeded with it, where a candidate's runtime wall
sets a sealed seed itself (docs/VERIFIER.md, "The check's seed, sealed")."""
import hashlib
import os


def secret_seed():
    """An input seed the sample cannot derive: drawn from the OS per worker session, task and seed label."""
    return int.from_bytes(os.urandom(8), "little") >> 2


def weight_seed(seed):
    """The seed a check's models are built under: a one-way function of the check's secret seed, which
    makes its inputs (make_inputs). Both models are built under it, as KernelBench seeds both, so an answer
    whose parameters are made in the reference's order gets the reference's weights even where its names
    differ; its code (__init__, load_state_dict and hooks) never runs with torch seeded by the inputs' seed,
    and cannot work that seed back from this one (redteam/wall2 h_seed_lsd_override)."""
    d = hashlib.sha256(b"sieve-weights\0" + int(seed).to_bytes(16, "little", signed=True)).digest()
    return int.from_bytes(d[:8], "little") >> 2


# the runtime wall's seed (seed.cpp w_seed), in a candidate: a sealed seed (wall.seal_seed) reaches torch through it
_SEED = ()


def bind_seed(seed):
    """The wall's seed function, the only way a sealed seed reaches torch (wall.Wall.start, before the wall snapshots
    this module's names)."""
    global _SEED
    _SEED = (seed,)


def seed_torch(seed):
    """torch's generators seeded with a check's seed: an int (the reference, the judge), or a sealed one (a dict,
    wall.seal_seed: a candidate's), which the wall opens and sets itself."""
    import torch
    if type(seed) is not dict:
        torch.manual_seed(seed)
    elif not _SEED:
        raise RuntimeError("a sealed seed and no runtime wall to set it")
    else:
        _SEED[0](seed["n"], seed["w"])
