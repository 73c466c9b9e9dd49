"""Real answer, trimmed (gpt-o1's KernelBench answers, anneouyang/KernelBenchLeaderboard, e.g. level-2
59_Matmul_Swish_Scaling and level-3 2_ShallowWideMLP: the parameters are initialised as nn.Linear's own
reset_parameters does, with nn.init._calculate_fan_in_and_fan_out): that private torch.nn.init helper
returns two ints from a tensor's shape; stage 0 used to refuse it (FORBIDDEN_ATTR)."""
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_relu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                       stride_xm, stride_wn, stride_ym,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        x = tl.load(x_ptr + rm[:, None] * stride_xm + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * stride_wn + rk[:, None], mask=(rn[None, :] < N) & (rk[:, None] < K), other=0.0)
        acc += tl.dot(x, w, input_precision="ieee")
    b = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    y = tl.maximum(acc + b[None, :], 0.0)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :], y, mask=(rm[:, None] < M) & (rn[None, :] < N))


class FusedLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        nn.init.uniform_(self.bias, -bound, bound)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = FusedLinear(in_features, out_features)


    def _launch(self, x):
        M, K = x.shape
        N = self.linear.weight.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))
        linear_relu_kernel[grid](x, self.linear.weight, self.linear.bias, y, M, N, K,
                                 x.stride(0), self.linear.weight.stride(0), y.stride(0),
                                 BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
        return y

    def forward(self, x):
        assert x.dim() == 2 and x.shape[1] == self.linear.in_features
        x = x if x.is_contiguous() else x.contiguous()
        lead = math.prod(x.shape[:-1])
        return self._launch(x.view(lead, x.shape[-1]))
