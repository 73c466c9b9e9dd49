import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def embedding_kernel(idx_ptr, w_ptr, y_ptr, D, PAD: tl.constexpr, BLOCK: tl.constexpr):
    t = tl.program_id(0)  # one token
    i = tl.load(idx_ptr + t)
    offs = tl.arange(0, BLOCK)
    # padding tokens read nothing: their row is zero
    m = (offs < D) & ((offs * 0 + i) != PAD)
    row = tl.load(w_ptr + i * D + offs, mask=m, other=0.0)
    tl.store(y_ptr + t * D + offs, row, mask=offs < D)


class ModelNew(nn.Module):
    def __init__(self, num_embeddings: int, dim: int):
        super().__init__()
        self.emb = nn.Embedding(num_embeddings, dim, padding_idx=0)

    def forward(self, idx):
        idx = idx.contiguous()
        D = self.emb.weight.shape[1]
        y = torch.empty(tuple(idx.shape) + (D,), device=idx.device, dtype=self.emb.weight.dtype)
        n = idx.numel()
        embedding_kernel[(n,)](idx, self.emb.weight, y, D, PAD=0, BLOCK=triton.next_power_of_2(D))
        return y
