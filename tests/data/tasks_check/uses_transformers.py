# KernelBench level 4's pattern: a Hugging Face model, imported inside a function and downloaded.
import torch
import torch.nn as nn

model_name = "gpt2"


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        from transformers import AutoModelForCausalLM
        self.model = AutoModelForCausalLM.from_pretrained(model_name)

    def forward(self, x):
        return self.model(x).logits


def get_inputs():
    return [torch.randint(0, 100, (1, 32))]


def get_init_inputs():
    return []
