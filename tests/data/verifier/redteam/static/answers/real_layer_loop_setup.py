"""Real answer, trimmed (gemini-1.5-flash's level-3 1_MLP, anneouyang/KernelBenchLeaderboard: __init__ builds
its layers in a loop, `self.layers.append(nn.Linear(current_input_size, layer_size))`), policy kernelbench:
stage 0 used to give up on the loop (UNRESOLVED_VALUE: no fixpoint, each pass made a new layer object)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        layers = []
        current_input_size = in_features
        for i, layer_size in enumerate([out_features]):
            layers.append(nn.Linear(current_input_size, layer_size))
            current_input_size = layer_size
        self.linear = layers[0]  # the reference's parameter names, so the harness copies its weights

    def forward(self, x):
        x = self.linear(x)
        y = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
        return y
