import torch

print("no model here")
