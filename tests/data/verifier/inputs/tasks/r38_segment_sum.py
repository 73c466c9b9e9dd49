import torch
import torch.nn as nn

# Graph readout (a PyG global_add_pool): the sum of the node features of each graph, the graph of each node given by
# an int64 `batch` vector. get_inputs batches graphs of equal size, so every seed's vector is
# [0]*n + [1]*n + ... (sorted, each graph's nodes contiguous and equally many), as a batch of equal molecules gives.


class Model(nn.Module):
    def __init__(self, num_graphs):
        super().__init__()
        self.num_graphs = num_graphs

    def forward(self, x: torch.Tensor, batch: torch.Tensor) -> torch.Tensor:
        out = torch.zeros(self.num_graphs, x.shape[1], dtype=x.dtype, device=x.device)
        return out.index_add(0, batch, x)


num_graphs = 6
nodes_per_graph = 10
hidden = 32


def get_inputs():
    batch = torch.arange(num_graphs).repeat_interleave(nodes_per_graph)
    return [torch.randn(num_graphs * nodes_per_graph, hidden), batch]


def get_init_inputs():
    return [num_graphs]
