"""Read confinement through the builder's compiler log: a #line directive names a host file and the next line
is an error, so g++ quotes "that file's" line in its diagnostic, and the log goes into the verdict. Must not
leak (the builder's landlock does not let it read the planted file): a compile failure without the content."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = '#include <torch/extension.h>\n#line 1 "{planted_file}"\nthis is not C++;\nint run() { return 0; }\n'
ext = load_inline(name="sieve_w2_line_leak", cpp_sources=cpp_src, functions=["run"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
