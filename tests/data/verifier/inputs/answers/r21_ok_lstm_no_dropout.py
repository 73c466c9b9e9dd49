import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def lstm_step(x_ptr, x_stride, h_ptr, h_stride, c_ptr, wih_ptr, whh_ptr, bih_ptr, bhh_ptr, out_ptr, out_stride,
              IN, H, BH: tl.constexpr, BK: tl.constexpr):
    # one program per batch row: the four gates of one time step (i, f, g, o as torch orders them), then c and h
    b = tl.program_id(0)
    j = tl.arange(0, BH)
    jm = j < H
    gates = []
    for g in tl.static_range(4):
        acc = tl.load(bih_ptr + g * H + j, mask=jm, other=0.0) + tl.load(bhh_ptr + g * H + j, mask=jm, other=0.0)
        for k0 in range(0, IN, BK):
            k = k0 + tl.arange(0, BK)
            km = k < IN
            w = tl.load(wih_ptr + (g * H + j)[:, None] * IN + k[None, :], mask=jm[:, None] & km[None, :], other=0.0)
            v = tl.load(x_ptr + b * x_stride + k, mask=km, other=0.0)
            acc += tl.sum(w * v[None, :], axis=1)
        for k0 in range(0, H, BK):
            k = k0 + tl.arange(0, BK)
            km = k < H
            w = tl.load(whh_ptr + (g * H + j)[:, None] * H + k[None, :], mask=jm[:, None] & km[None, :], other=0.0)
            v = tl.load(h_ptr + b * h_stride + k, mask=km, other=0.0)
            acc += tl.sum(w * v[None, :], axis=1)
        gates.append(acc)
    i = 1.0 / (1.0 + tl.exp(-gates[0]))
    f = 1.0 / (1.0 + tl.exp(-gates[1]))
    gg = 2.0 / (1.0 + tl.exp(-2.0 * gates[2])) - 1.0
    o = 1.0 / (1.0 + tl.exp(-gates[3]))
    c = f * tl.load(c_ptr + b * H + j, mask=jm, other=0.0) + i * gg
    tl.store(c_ptr + b * H + j, c, mask=jm)
    tl.store(out_ptr + b * out_stride + j, o * (2.0 / (1.0 + tl.exp(-2.0 * c)) - 1.0), mask=jm)


class ModelNew(nn.Module):
    """A 2-layer LSTM (batch first) with the dropout between its layers as the harness runs it (eval mode: none). The
    nn.LSTM holds the weights (loaded from the reference's) and is never called."""

    def __init__(self, hidden: int):
        super().__init__()
        self.lstm = nn.LSTM(hidden, hidden, num_layers=2, dropout=0.5, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, steps, _ = x.shape
        H = self.lstm.hidden_size
        BH = triton.next_power_of_2(H)
        lstm = self.lstm
        layers = [(lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0, lstm.bias_hh_l0),
                  (lstm.weight_ih_l1, lstm.weight_hh_l1, lstm.bias_ih_l1, lstm.bias_hh_l1)]
        inp = x
        for wih, whh, bih, bhh in layers:
            IN = inp.shape[2]
            out = torch.empty(batch, steps, H, device=x.device, dtype=x.dtype)
            h0 = torch.zeros(batch, H, device=x.device, dtype=x.dtype)
            c = torch.zeros(batch, H, device=x.device, dtype=x.dtype)
            for t in range(steps):
                xt = inp[:, t, :]
                h = h0 if t == 0 else out[:, t - 1, :]
                ot = out[:, t, :]
                lstm_step[(batch,)](xt, inp.stride(0), h, h.stride(0), c, wih, whh, bih, bhh, ot, out.stride(0),
                                    IN, H, BH=BH, BK=32)
            inp = out
        return inp
