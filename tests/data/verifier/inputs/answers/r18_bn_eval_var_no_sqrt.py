import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_eval_kernel(x_ptr, y_ptr, w_ptr, b_ptr, rm_ptr, rv_ptr, C, HW, eps, BLOCK: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_hw = tl.program_id(1)
    c = pid_nc % C
    mean = tl.load(rm_ptr + c)
    var = tl.load(rv_ptr + c)
    w = tl.load(w_ptr + c)
    b = tl.load(b_ptr + c)
    # BUG: divides by the variance, not the standard deviation (the sqrt is missing)
    scale = w / (var + eps)
    shift = b - mean * scale
    offs = pid_hw * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    x = tl.load(x_ptr + pid_nc * HW + offs, mask=mask, other=0.0)
    tl.store(y_ptr + pid_nc * HW + offs, x * scale + shift, mask=mask)


class ModelNew(nn.Module):
    """BatchNorm2d (eval) with scale = w / (running_var + eps): wrong wherever running_var is not 1."""

    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        y = torch.empty_like(x)
        HW = H * W
        BLOCK = 256
        bn = self.bn
        bn_eval_kernel[(N * C, triton.cdiv(HW, BLOCK))](x, y, bn.weight, bn.bias, bn.running_mean,
                                                         bn.running_var, C, HW, bn.eps, BLOCK=BLOCK)
        return y
