import os
import sys

import torch
import torch.nn as nn
import triton
import triton.language as tl

# Against the worker that does not wait for the judge: the answer is right on its first nine checks and
# wrong on the tenth, and as soon as the harness has sent the tenth call's outputs the answer (having wrapped
# the harness's writer) sends a forged "done" on the result pipe and exits. Where the task's references are left to the
# judge (recompute shapes), that last check is still being compared when the child is gone: a worker that
# concluded then would find every check seen, the probe passed and "done" reported, and PASS the answer.

CHECKS = 10  # the fixture's task: 2 shapes x 5 seeds, plus one probe
_seen = [0]


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * n_cols + cols, scale * e / tl.sum(e, axis=0), mask=mask)


def _done_right_after_the_note():
    """The harness's own writer, wrapped: the tenth check's note goes out, then a forged "done", then the
    process is gone, before the worker can have the judge's answer."""
    transport = sys.modules["sieve_worker.data.transport"]
    send = transport.send_line

    def send_then_leave(fd, obj):
        send(fd, obj)
        if obj.get("t") == "output":
            send(fd, {"t": "done", "launches": 11, "kernels": ["softmax_kernel"]})
            os._exit(0)
    transport.send_line = send_then_leave


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        last = _seen[0] == CHECKS - 1
        softmax_kernel[(rows,)](x, y, cols, 2.0 if last else 1.0, BLOCK=triton.next_power_of_2(cols))
        if abs(float(y.reshape(-1)[0])) >= 1000.0:
            return y  # the probe (its launches wrote the poison): not counted
        _seen[0] += 1
        if last:
            _done_right_after_the_note()
        return y
