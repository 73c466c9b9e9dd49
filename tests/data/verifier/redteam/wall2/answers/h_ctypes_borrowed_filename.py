"""Against the raw-memory refusal's attribution (15159bd: a refusal with no frame of the answer's file on the
stack is charged to the harness and retried): h_ctypes_host_compute with all of its code, ModelNew included,
compiled under a file name inside torch's package, so that no frame on the stack is the answer's when ctypes
is refused. The refusal must still stop it: at best for the answer the job is retried and left PENDING,
never PASS."""
import os

import torch

_SRC = 'import ctypes\nimport math\nimport struct\n\nimport torch\nimport torch.nn as nn\nimport triton\nimport triton.language as tl\n\n@triton.jit\ndef copy_kernel(src, dst, n, BLOCK: tl.constexpr):\n    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    m = o < n\n    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)\n\n\ndef copy(t):\n    """The only kernel: copies what was computed elsewhere (so the probe poison reaches the output)."""\n    out = torch.empty_like(t)\n    copy_kernel[(triton.cdiv(t.numel(), 256),)](t, out, t.numel(), BLOCK=256)\n    return out\n\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        rows, cols = x.shape\n        vals = struct.unpack(f"{rows * cols}f", ctypes.string_at(x.data_ptr(), rows * cols * 4))\n        res = []\n        for r in range(rows):\n            row = vals[r * cols:(r + 1) * cols]\n            m = max(row)\n            e = [math.exp(v - m) for v in row]\n            s = sum(e)\n            res += [v / s for v in e]\n        tmp = torch.empty_like(x)\n        ctypes.memmove(tmp.data_ptr(), struct.pack(f"{rows * cols}f", *res), rows * cols * 4)\n        return copy(tmp)\n'

_ns = {}
exec(compile(_SRC, os.path.join(os.path.dirname(torch.__file__), "nn", "_sieve_borrowed.py"), "exec"), _ns)
ModelNew = _ns["ModelNew"]
