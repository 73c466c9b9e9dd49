import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


# world-readable files of the host: the planted one (its path is filled in by the selftest), the
# machine's name, its users, a file under /work and /home
HOST_FILES = ["{planted_file}", "/etc/hostname", "/etc/passwd", "/etc/os-release", "/work/main/README.md",
              "/home"]


def leak():
    for p in HOST_FILES:
        try:
            with open(p, "rb") as f:
                print(p, f.read(200), flush=True)
        except OSError as e:
            print(p, "refused:", e, flush=True)


class ModelNew(nn.Module):
    """Correct, but prints the first bytes of host files it should not be able to read."""

    def __init__(self):
        super().__init__()
        leak()

    def forward(self, x):
        leak()
        y = torch.empty_like(x)
        softmax_kernel[(x.shape[0],)](x, y, x.shape[-1], BLOCK=triton.next_power_of_2(x.shape[-1]))
        return y
