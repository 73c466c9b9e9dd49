"""A call's outputs as the harness compares them (flatten_outputs), and the reference's own float rounding on them:
its float64 run, where it is cheap (float64_run, rounding_noise, set_noise), from which a derived set's atol is widened
(taskref.set_atol) and the exact, special and offset sets are gated (inputsets)."""


def flatten_outputs(out):
    import torch
    if isinstance(out, (tuple, list)):
        res = []
        # a tuple's or list's own iterator: a subclass's __iter__ (the answer's, or C callables of its) would run
        # in the harness's phase, with the call's inputs and outputs alive
        for o in (tuple.__iter__(out) if isinstance(out, tuple) else list.__iter__(out)):
            res += flatten_outputs(o)
        return res
    if isinstance(out, torch.Tensor):
        return [out]
    raise TypeError(f"output of type {type(out).__name__} is not a tensor")


NOISE_FACTOR = 8.0  # a derived set's atol: at least this many times the reference's own float rounding there
NOISE_MAX_BYTES = 1 << 30  # the float64 run is made only for a set whose float32 call is cheap (inputsets.counted)
# and whose inputs and outputs (float32) take less than this: a float64 copy of a
# 6.4 GB elementwise task's inputs, outputs and their difference held ~80 GB more on the H200 (2026-12-04)


def float64_run(model):
    """A function that runs a float64 copy of model (its parameters and float inputs in float64) on inputs:
    the reference rounded nowhere, for the exact set (choose_sets) and a set's own atol (rounding_noise)."""
    import copy

    import torch
    m64 = copy.deepcopy(model).double()

    def run(inputs):
        xs = [t.double() if isinstance(t, torch.Tensor) and t.is_floating_point() else t for t in inputs]
        with torch.no_grad():
            return flatten_outputs(m64(*xs))
    return run


def rounding_noise(model, inputs, outs):
    """The largest difference between the reference's outputs and the same model run in float64 on the same
    inputs: its own rounding at these inputs. A signed set makes a long sum cancel (6_Matmul_with_large_K:
    outputs near zero from terms of size 1), where a correct kernel that adds in another order differs
    from torch by many times the task's atol; a TF32 or half-precision answer still differs by far more.
    None where the model does not run in float64."""
    import torch
    if not any(t.is_floating_point() for t in outs):
        return None
    try:
        o64 = float64_run(model)(inputs)
    except torch.cuda.OutOfMemoryError:
        raise
    except Exception:
        return None
    if len(o64) != len(outs):
        return None
    worst = 0.0
    for a, b in zip(outs, o64):
        if a.is_floating_point() and a.shape == b.shape and a.numel():
            d = (a.double() - b).abs()
            d = d[torch.isfinite(d)]
            if d.numel():
                worst = max(worst, float(d.max()))
    return worst


def set_noise(model, inputs, outs, cheap):
    """rounding_noise where it is cheap: float64 can be a hundred times slower (convolutions have no fast
    float64 kernels) and holds twice the memory and more, so it is measured only where the float32 call's counted
    work is within inputsets' bounds (`cheap`: inputsets.counted) and its inputs and outputs under
    NOISE_MAX_BYTES; elsewhere None (the task's atol stands)."""
    return rounding_noise(model, inputs, outs) if f64_cheap(inputs, outs, cheap) else None


def f64_cheap(inputs, outs, cheap):
    """Whether the reference's float64 run is made for a call: its float32 call `cheap` (inputsets.counted), its
    inputs and outputs under NOISE_MAX_BYTES."""
    import torch
    return cheap and sum(t.numel() * t.element_size() for t in list(inputs) + list(outs)
                         if isinstance(t, torch.Tensor)) < NOISE_MAX_BYTES


def finite(o):
    """Whether every floating tensor of the outputs o is finite everywhere."""
    import torch
    return all(bool(torch.isfinite(t).all()) for t in o if t.is_floating_point())


def same(a, b, atol, rtol):
    """Whether two calls' outputs agree within the tolerance (a wrong answer could not tell them apart)."""
    from .hygiene import differ
    return len(a) == len(b) and not differ(a, b, atol, rtol)
