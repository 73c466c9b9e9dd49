#!/usr/bin/env python3
"""Builds the small byte-level BPE tokenizers that test Sieve's C++ tokenizer, and the token ids that
the `tokenizers` library gives for a set of texts with each of them (token_counts.json).

Four tokenizers, trained on a generated code corpus, one per supported pre-tokenizer shape:
  gpt2-style.json   ByteLevel(use_regex) alone, merges written as "a b" strings, <|endoftext|>
  llama3-style.json Split(Llama 3 regex) + ByteLevel(no regex), ignore_merges, special tokens
  qwen2-style.json  NFC normalizer, Split(Qwen 2 regex) + ByteLevel, special and normalized tokens
  digits-prefix.json Digits(individual) + ByteLevel(add_prefix_space, use_regex)

Run: /root/.cache/sieve/venv/bin/python tests/data/export/make_tokenizers.py
"""
import json
import os
import random

import tokenizers
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

HERE = os.path.dirname(os.path.abspath(__file__))

GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
LLAMA3 = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
QWEN2 = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"

OPS = ["relu", "gelu", "softmax", "rms_norm", "layer_norm", "matmul", "add", "mul", "sigmoid", "tanh"]
PROSE = [
    "Let me think about the memory layout first. We'll load a block of rows; it's contiguous.",
    "The kernel doesn't need atomics: each program owns one row, so there's no race.",
    "Ça marche déjà très bien — naïve façade, coöperate, Ångström.",
    "分块计算可以减少内存访问。行归一化的内核。",
    "Число блоков равно 1024; шаг 256.",
    "emoji 🚀🔥 and math ∑ x² ≤ 10³, ½ ⅓ ٣٤ ١٢٣",
]


def kernel(rng):
    op = rng.choice(OPS)
    block = rng.choice([128, 256, 512, 1024, 2048])
    name = "%s_kernel_%d" % (op, rng.randint(0, 99))
    return f'''import torch
import triton
import triton.language as tl


@triton.jit
def {name}(x_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    # {rng.choice(PROSE)}
    y = tl.where(x > 0, x, 0.0) * {rng.random():.4f}
    tl.store(y_ptr + row * stride + offs, y, mask=mask)


class ModelNew(torch.nn.Module):
    def __init__(self, dim={rng.randint(16, 8192)}):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        y = torch.empty_like(x)
        {name}[(x.shape[0],)](x, y, x.shape[1], x.stride(0), 1e-6, BLOCK={block})
        return y
'''


def corpus():
    rng = random.Random(7)
    return [kernel(rng) for _ in range(400)] + PROSE * 20


def train(pre, normalizer=None, special=(), vocab_size=1500):
    tok = Tokenizer(models.BPE())
    if normalizer is not None:
        tok.normalizer = normalizer
    tok.pre_tokenizer = pre
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(special),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(corpus(), trainer=trainer)
    return tok


def save(tok, name, edit=None):
    data = json.loads(tok.to_str())
    if edit:
        edit(data)
    text = json.dumps(data, ensure_ascii=False, indent=1)
    path = os.path.join(HERE, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return Tokenizer.from_str(text)


def merges_as_strings(data):
    data["model"]["merges"] = [" ".join(m) if isinstance(m, list) else m for m in data["model"]["merges"]]


def ignore_merges(data):
    data["model"]["ignore_merges"] = True


def texts():
    fixed = [
        "", " ", "a", "hello world", "  leading spaces", "trailing   ", "tabs\tand\nnewlines\r\n\r\n  x",
        "I'm sure it's fine, we'll see; they've done it, I'd say. DON'T SHOUT, IT'S LOUD. ſ 'ſ 'S 'Ll",
        "numbers 1 12 123 1234 12345 3.14159 1e-6 0x1F ٣٤٥ ١٢٣٤",
        "e\u0301 caf\u00e9 cafe\u0301 \u212b A\u030a \u1e9b\u0323 \uac00\u11a8 \u1100\u1161\u11a8",
        "<|endoftext|>between<|endoftext|> <|im_start|>user\nhi<|im_end|> <|eot_id|>",
        "emoji 🚀🔥 and math ∑ x² ≤ 10³, ½ ⅓", "中文字符和English混合", "\u00a0nbsp\u2028line\u3000ideo",
        "    def forward(self, x):\n        return x\n\n\n", "x = [1,2,3]  # comment\n\t\tpass",
        "a\u200bb zero width", "!!!???...---", "'''docstring'''", "\n\n\n", "   \n   ", "s'", "'",
        "a <mask> b", "x  \t<mask>", "<mask>", "word[SW]word", "a [SW] b", "[SW]", "x[SW] y", "<rs>   tail",
        "pre<rs>\n\nx", "<rs><mask>", "é[SW]é", "1[SW]", "[SW]_",
    ]
    rng = random.Random(11)
    alphabet = [" ", "  ", "\n", "\r", "\t", "'", "s", "S", "ll", "re", "ſ", "1", "22", "٣", "é", "e\u0301", "中",
                "🚀", "<|endoftext|>", "<|im_start|>", "\u00a0", "\u2028", "(", ")", "=", "_", "x", "Ω", "\u0301",
                "\u3000", "\x00", "\x85", ".", "-", "def", "tl", "BLOCK", "\r\n", "½", "\uac00", "\u1100", "\u1161",
                "<mask>", "<rs>", "[SW]"]
    fuzz = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))) for _ in range(300)]
    rng2 = random.Random(5)
    code = [kernel(rng2) for _ in range(10)]
    return fixed + fuzz + code


def main():
    made = {}
    gpt2 = train(pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True), special=["<|endoftext|>"])
    made["gpt2-style.json"] = save(gpt2, "gpt2-style.json", merges_as_strings)

    llama = train(pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(LLAMA3), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]),
        special=["<|begin_of_text|>", "<|eot_id|>"])
    made["llama3-style.json"] = save(llama, "llama3-style.json", ignore_merges)

    qwen = train(pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(QWEN2), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]),
        normalizer=normalizers.NFC(), special=["<|endoftext|>", "<|im_start|>", "<|im_end|>"])
    qwen.add_tokens([tokenizers.AddedToken("BLOCK_SIZE", normalized=True), tokenizers.AddedToken("café", normalized=True)])
    made["qwen2-style.json"] = save(qwen, "qwen2-style.json")

    digits = train(pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=True, use_regex=True)]), vocab_size=800)
    digits.add_special_tokens([tokenizers.AddedToken("<mask>", lstrip=True, special=True),
                               tokenizers.AddedToken("<rs>", rstrip=True, special=True)])
    digits.add_tokens([tokenizers.AddedToken("[SW]", single_word=True, normalized=False)])
    made["digits-prefix.json"] = save(digits, "digits-prefix.json")

    all_texts = texts()
    expected = {"tokenizers_version": tokenizers.__version__, "texts": all_texts, "results": {}}
    for name, tok in made.items():
        tok.no_truncation()
        tok.no_padding()
        single = [tok.encode(t, add_special_tokens=False).ids for t in all_texts]
        batch = [e.ids for e in tok.encode_batch(all_texts, add_special_tokens=False)]
        assert single == batch
        expected["results"][name] = {"counts": [len(ids) for ids in single], "ids": single}
    with open(os.path.join(HERE, "token_counts.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=True)
    for name in made:
        print(name, os.path.getsize(os.path.join(HERE, name)))


if __name__ == "__main__":
    main()
