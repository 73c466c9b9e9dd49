"""Red team, stage 0: an exponential call tree built to stall stage 0 in the worker."""
import torch
import torch.nn as nn
import torch.nn.functional as F
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


def launch(x):
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[-1], BLOCK=triton.next_power_of_2(x.shape[-1]))
    return y


def f0(x, l):
    f1(x, [])
    f1(x, [])
    return x


def f1(x, l):
    f2(x, [])
    f2(x, [])
    return x


def f2(x, l):
    f3(x, [])
    f3(x, [])
    return x


def f3(x, l):
    f4(x, [])
    f4(x, [])
    return x


def f4(x, l):
    f5(x, [])
    f5(x, [])
    return x


def f5(x, l):
    f6(x, [])
    f6(x, [])
    return x


def f6(x, l):
    f7(x, [])
    f7(x, [])
    return x


def f7(x, l):
    f8(x, [])
    f8(x, [])
    return x


def f8(x, l):
    f9(x, [])
    f9(x, [])
    return x


def f9(x, l):
    f10(x, [])
    f10(x, [])
    return x


def f10(x, l):
    f11(x, [])
    f11(x, [])
    return x


def f11(x, l):
    f12(x, [])
    f12(x, [])
    return x


def f12(x, l):
    f13(x, [])
    f13(x, [])
    return x


def f13(x, l):
    f14(x, [])
    f14(x, [])
    return x


def f14(x, l):
    f15(x, [])
    f15(x, [])
    return x


def f15(x, l):
    f16(x, [])
    f16(x, [])
    return x


def f16(x, l):
    f17(x, [])
    f17(x, [])
    return x


def f17(x, l):
    f18(x, [])
    f18(x, [])
    return x


def f18(x, l):
    f19(x, [])
    f19(x, [])
    return x


def f19(x, l):
    f20(x, [])
    f20(x, [])
    return x


def f20(x, l):
    f21(x, [])
    f21(x, [])
    return x


def f21(x, l):
    f22(x, [])
    f22(x, [])
    return x


def f22(x, l):
    f23(x, [])
    f23(x, [])
    return x


def f23(x, l):
    f24(x, [])
    f24(x, [])
    return x


def f24(x, l):
    f25(x, [])
    f25(x, [])
    return x


def f25(x, l):
    f26(x, [])
    f26(x, [])
    return x


def f26(x, l):
    f27(x, [])
    f27(x, [])
    return x


def f27(x, l):
    f28(x, [])
    f28(x, [])
    return x


def f28(x, l):
    f29(x, [])
    f29(x, [])
    return x


def f29(x, l):
    f30(x, [])
    f30(x, [])
    return x


def f30(x, l):
    f31(x, [])
    f31(x, [])
    return x


def f31(x, l):
    f32(x, [])
    f32(x, [])
    return x


def f32(x, l):
    f33(x, [])
    f33(x, [])
    return x


def f33(x, l):
    f34(x, [])
    f34(x, [])
    return x


def f34(x, l):
    f35(x, [])
    f35(x, [])
    return x


def f35(x, l):
    f36(x, [])
    f36(x, [])
    return x


def f36(x, l):
    f37(x, [])
    f37(x, [])
    return x


def f37(x, l):
    f38(x, [])
    f38(x, [])
    return x


def f38(x, l):
    return x


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        f0(x, [])
        return launch(x)

