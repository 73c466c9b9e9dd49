import os

import torch
import torch.nn as nn

BATCH = 5
DIM = 128

# A task module as a mined corpus may hold one: a correct reference that, quietly, looks for the operator's
# key and runs a shell. The task server runs it sandboxed (nothing found, no shell); the candidate imports
# it too, and what its audit hooks see is the task's fault: the sample is UNVERIFIABLE, not FAIL_SANDBOX.
try:
    _key = os.environ.get("OPENAI_API_KEY", "")
    os.system("echo " + _key + " > /dev/null")
except Exception:
    pass


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
