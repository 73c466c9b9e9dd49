import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_eval_kernel(x_ptr, y_ptr, w_ptr, b_ptr, rm_ptr, rv_ptr, C, HW, eps, BLOCK: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_hw = tl.program_id(1)
    c = pid_nc % C
    mean = tl.load(rm_ptr + c).to(tl.float32)
    var = tl.load(rv_ptr + c).to(tl.float32)
    w = tl.load(w_ptr + c).to(tl.float32)
    b = tl.load(b_ptr + c).to(tl.float32)
    inv_std = 1.0 / tl.sqrt(var + eps)
    offs = pid_hw * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    x = tl.load(x_ptr + pid_nc * HW + offs, mask=mask, other=0.0).to(tl.float32)
    y = (x - mean) * inv_std * w + b
    tl.store(y_ptr + pid_nc * HW + offs, y.to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    """fp16 BatchNorm2d (eval), (x - mean) * inv_std * w + b in fp32 registers."""

    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.randn(num_features) * 0.5)
            self.bn.running_var.copy_(torch.rand(num_features) * 1.5 + 0.05)
            self.bn.weight.copy_(torch.rand(num_features) + 0.5)
            self.bn.bias.copy_(torch.randn(num_features) * 0.2)
        self.bn.half()

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
