"""torch's add captured in a CUDA graph in the constructor (the free phase, where torch may run), over buffers of the
answer's larger than any input; in the forward the inputs are copied into them (copy_ is allowed), the graph is
replayed (torch's add kernel runs with no op dispatched, so the op observer sees nothing) and a Triton kernel of the
answer's copies the sum out. GPU only (a CUDA graph needs a device): the wall refuses capture and replay to the
answer (wall.GRAPH_METHODS)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX = 1 << 22


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        dev = torch.device("cuda")
        self.a = torch.zeros(MAX, device=dev)
        self.b = torch.zeros(MAX, device=dev)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            self.c = self.a + self.b  # warm-up, as torch wants before a capture
        torch.cuda.current_stream().wait_stream(s)
        self.g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.g):
            self.c = self.a + self.b

    def forward(self, a, b):
        n = a.numel()
        self.a[:n].copy_(a.reshape(-1))
        self.b[:n].copy_(b.reshape(-1))
        self.g.replay()
        out = torch.empty_like(a)
        copy_kernel[(triton.cdiv(n, 1024),)](self.c, out, n, BLOCK=1024)
        return out
