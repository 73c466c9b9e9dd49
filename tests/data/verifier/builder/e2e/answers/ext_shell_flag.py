# Hostile: a flag that a shell would run; the builder refuses it before anything runs.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = load_inline("sieve_e2e_flag", ["int f() { return 0; }"], with_cuda=False,
                               no_implicit_headers=True, extra_cflags=["-O2;touch /tmp/sieve-e2e-pwned"])

    def forward(self, a, b):
        return a + b
