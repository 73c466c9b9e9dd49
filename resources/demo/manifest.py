"""What the demo corpus holds: its tasks (tasks/*.py with their settings) and samples (samples/*.py,
each with the outcome a correct verifier must reach). build.py writes tasks.jsonl and samples.jsonl
from this; check.py runs every sample against its task under TRITON_INTERPRET=1."""

TASKS = [
    {"task_id": "demo/rmsnorm", "file": "rmsnorm.py", "level": 1, "category": "normalization",
     "shapes": [{"M": 8, "N": 256}, {"M": 7, "N": 1000}, {"M": 3, "N": 61}]},
    {"task_id": "demo/softmax", "file": "softmax.py", "level": 1, "category": "activation",
     "shapes": [{"M": 8, "N": 200}, {"M": 5, "N": 1024}]},
    {"task_id": "demo/vector_add", "file": "vector_add.py", "level": 1, "category": "elementwise",
     "shapes": [{"N": 1000}, {"N": 4097}]},
    {"task_id": "demo/relu", "file": "relu.py", "level": 1, "category": "activation",
     "shapes": [{"B": 16, "D": 300}, {"B": 3, "D": 1025}]},
    {"task_id": "demo/matmul_bias_relu", "file": "matmul_bias_relu.py", "level": 2, "category": "gemm-epilogue",
     "shapes": [{"M": 32, "K": 48, "N": 40}, {"M": 17, "K": 33, "N": 65}]},
]

# expect: PASS, WRONG (wrong output), COMPILE (does not build), OOB (out-of-bounds access), SHAM (right
# output, but the result comes from PyTorch, not from the kernel), NO_ANSWER (no code block).
# form: "code" (the answer as code), "response" (a raw reply with the answer in a fenced block),
# "think" (a raw reply with <think> reasoning and a draft block inside it), "openai" (an OpenAI
# chat-completion object with reasoning_content).
SAMPLES = [
    {"sample_id": "rmsnorm-A", "task_id": "demo/rmsnorm", "file": "rmsnorm_A.py", "expect": "PASS", "form": "code",
     "reasoning": "One program per row; the whole row fits one tile (BLOCK_N >= N), so a single tl.sum "
                  "reduces it. Accumulate in fp32, mask the tail."},
    {"sample_id": "rmsnorm-A-dup", "task_id": "demo/rmsnorm", "file": "rmsnorm_A_dup.py", "expect": "PASS",
     "form": "response", "note": "near-duplicate of rmsnorm-A: renamed variables, other comments, wider tile"},
    {"sample_id": "rmsnorm-B", "task_id": "demo/rmsnorm", "file": "rmsnorm_B.py", "expect": "PASS", "form": "code",
     "reasoning": "Blocked reduction: loop over column chunks to accumulate the sum of squares, then loop "
                  "again to normalise. Handles any N at the cost of reading the row twice."},
    {"sample_id": "rmsnorm-C", "task_id": "demo/rmsnorm", "file": "rmsnorm_C.py", "expect": "PASS", "form": "think"},
    {"sample_id": "rmsnorm-sham", "task_id": "demo/rmsnorm", "file": "rmsnorm_sham.py", "expect": "SHAM",
     "form": "code"},
    {"sample_id": "rmsnorm-layernorm", "task_id": "demo/rmsnorm", "file": "rmsnorm_layernorm.py",
     "expect": "WRONG", "form": "code"},
    {"sample_id": "rmsnorm-fp16-acc", "task_id": "demo/rmsnorm", "file": "rmsnorm_fp16_acc.py", "expect": "WRONG",
     "form": "code"},
    {"sample_id": "rmsnorm-no-constexpr", "task_id": "demo/rmsnorm", "file": "rmsnorm_no_constexpr.py",
     "expect": "COMPILE", "form": "code"},
    {"sample_id": "rmsnorm-no-code", "task_id": "demo/rmsnorm", "file": None, "expect": "NO_ANSWER",
     "form": "response"},
    {"sample_id": "softmax-1", "task_id": "demo/softmax", "file": "softmax.py", "expect": "PASS", "form": "openai"},
    {"sample_id": "vector-add-1", "task_id": "demo/vector_add", "file": "vector_add.py", "expect": "PASS",
     "form": "code"},
    {"sample_id": "vector-add-bad-mask", "task_id": "demo/vector_add", "file": "vector_add_bad_mask.py",
     "expect": "OOB", "form": "code"},
    {"sample_id": "relu-1", "task_id": "demo/relu", "file": "relu.py", "expect": "PASS", "form": "code"},
    {"sample_id": "matmul-bias-relu-1", "task_id": "demo/matmul_bias_relu", "file": "matmul_bias_relu.py",
     "expect": "PASS", "form": "code"},
    # A CUDA answer (load_inline): the workbench's PTX/SASS view compiles it with NVRTC; verifying it
    # needs a GPU and the CUDA toolkit (check.py skips it without them).
    {"sample_id": "relu-cuda-1", "task_id": "demo/relu", "file": "relu_cuda.py", "expect": "PASS", "form": "code",
     "backend": "cuda"},
]
