"""A task server's device context, and what a lost one means. CUDA errors such as a device-side assert (an index out
of range in the reference's own gather) or an illegal address are sticky: every later call in the process fails.
A task server keeps one context for the whole session, so one task's error would become every later task's
REF_FAILED (seen on the H100: a params set drew a channel index list out of range, and the 30 tasks after it in that
server were UNVERIFIABLE). So:
  - after every request the server asks whether its context still works (lost); when it does not, it says so
    with its answer and exits, and the worker starts a fresh server for the next request (serving.read_asked);
  - while a task's derived input sets are tried, the set being run is known (SetGuard): when one loses the
    context, the request ends with ContextLost naming it, and the worker asks again in a fresh server with that
    set left out (`skip_sets`). A derived set is an extra; the task's own checks never depend on it.
On the CPU nothing is sticky: lost() is always None there."""


class ContextLost(Exception):
    """The device context stopped working while `set_name` (a derived set, "SHAPE_INDEX NAME" at a shape other
    than the anchor, or None outside the sets) ran."""

    def __init__(self, set_name, error):
        super().__init__(f"the device context was lost{f' on the derived set {set_name}' if set_name else ''}: "
                         f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"[:300])
        self.set_name = set_name


def lost(device):
    """None while the device context works, else what fails (its first line)."""
    if getattr(device, "type", device) != "cuda":
        return None
    import torch
    try:
        torch.cuda.synchronize(device)
        torch.ones(1, device=device).add_(1).cpu()
        return None
    except Exception as e:
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]


def empty_cache(device):
    """torch's cached device memory given back after a request (the candidates need the room), on a context that may
    be lost: that fails quietly here, and the server's one lost() after its answer says so (trusted.serve)."""
    if getattr(device, "type", device) != "cuda":
        return
    import torch
    try:
        torch.cuda.empty_cache()
    except Exception:
        pass


class SetGuard:
    """Which derived set is running, so that a lost context is charged to it. enter(name) first waits for the last
    set's launches (a device-side assert is reported when the stream is synchronized: it is the last set's); check(e),
    from any handler of a set's failure, raises ContextLost when the failure was the context's."""

    def __init__(self, device, skip=()):
        self.device, self.skip, self.name = device, set(skip or ()), None

    def enter(self, name):
        self.settle()
        self.name = name

    def settle(self):
        if getattr(self.device, "type", None) == "cuda":
            import torch
            try:
                torch.cuda.synchronize(self.device)
            except Exception as e:
                raise ContextLost(self.name, e) from None

    def check(self, error):
        if isinstance(error, ContextLost):
            raise error
        if lost(self.device):
            raise ContextLost(self.name, error) from None

    def skipped(self, name):
        """Why the set is not tried (an earlier attempt lost the context on it), or None."""
        return (f"it lost the device context in an earlier attempt (a CUDA error such as a device-side assert); "
                f"left out") if name in self.skip else None
