"""Renders KernelBench's prompts with KernelBench's own prompt constructor, for the fixtures beside this file.

Usage (see README.md):
  python render.py KB_CHECKOUT OUT_DIR

KB_CHECKOUT is a KernelBench tree (src/kernelbench and KernelBench/levelN) at the commit in COMMIT.
KernelBench's utils module imports API clients at load time that the prompt constructor never calls
(dotenv, openai, litellm) and tomli (tomllib's backport); empty stand-ins are put into sys.modules for
those that are missing, so nothing of the rendering is ours.
"""
import os
import sys
import types

kb, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(kb, "src"))
for name, attrs in {"dotenv": {"load_dotenv": lambda *a, **k: None}, "openai": {"OpenAI": object},
                    "litellm": {"completion": None}}.items():
    try:
        __import__(name)
    except ImportError:
        sys.modules[name] = types.SimpleNamespace(**attrs)
try:
    import tomli  # noqa: F401
except ImportError:
    import tomllib
    sys.modules["tomli"] = tomllib

from kernelbench.prompt_constructor_toml import get_prompt_for_backend  # noqa: E402

PROBLEMS = ["level1/19_ReLU", "level2/12_Gemm_Multiply_LeakyReLU", "level3/1_MLP"]
CASES = [(p, b, o, "fp32") for p in PROBLEMS for b in ("triton", "cuda") for o in ("zero_shot", "one_shot", "few_shot")]
CASES += [("level1/19_ReLU", "triton", "one_shot", "fp16"), ("level1/19_ReLU", "cuda", "zero_shot", "bf16")]

os.makedirs(out, exist_ok=True)
for problem, backend, option, precision in CASES:
    # As KernelBench's dataset reads a problem (kernelbench/dataset.py: open(path).read()).
    with open(os.path.join(kb, "KernelBench", problem + ".py")) as f:
        ref = f.read()
    text = get_prompt_for_backend(ref, backend, option=option, precision=precision)
    name = f"{problem.replace('/', '_')}.{backend}.{option}.{precision}.txt"
    with open(os.path.join(out, name), "w", newline="") as f:
        f.write(text)
    print(f"{name} {len(text)}")
