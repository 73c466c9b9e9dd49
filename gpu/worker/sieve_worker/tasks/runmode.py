"""The mode a task's models run in: as KernelBench runs them. Its harness (src/kernelbench/eval.py) builds Model and
ModelNew and calls them as constructed, never .eval(): in training mode, unless a constructor says otherwise, so
BatchNorm normalizes with the batch's own statistics. The one exception: modules whose training-mode output is random
(dropout, RReLU, attention's and recurrent layers' dropout) run in eval mode, for the reference must be deterministic
and no answer could match a secret mask (KernelBench itself draws the answer's mask after the reference's, from the advanced generator,
so its own dropout tasks fail every answer that drops). The reference and the answer alike (docs/VERIFIER.md, "The
mode the models run in")."""

# MultiheadAttention drops attention weights in training mode (its dropout, through the functional form), and
# RNNBase (LSTM, GRU, RNN) the outputs between its layers (its dropout argument); nothing else differs between their
# modes. A module missed here, or a forward's own F.dropout(training=self.training), makes the reference
# nondeterministic, which hygiene reports (REF_NONDETERMINISTIC)
RANDOM_IN_TRAINING = ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
                      "RReLU", "MultiheadAttention", "RNNBase")


def as_kernelbench_runs(model):
    """model, its random-in-training modules switched to eval mode; every other module's mode as constructed."""
    import torch.nn as nn
    random = tuple(getattr(nn, n) for n in RANDOM_IN_TRAINING if hasattr(nn, n))
    for m in model.modules():
        if isinstance(m, random):
            m.eval()
    return model
