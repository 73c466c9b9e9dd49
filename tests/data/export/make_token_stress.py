#!/usr/bin/env python3
"""Texts that probe the C++ tokenizer's fast paths, with the ids the `tokenizers` library gives for
them with each fixture tokenizer (token_stress.json). Uses the tokenizer files that
make_tokenizers.py wrote; does not retrain them.

What the texts aim at (core/tokenizer/tokenizer.cpp, core/tokenizer/pretokenize.cpp):
  - pieces of 14-17 bytes (the short word cache takes up to 15) and words of 30-34 and 100+ symbols
    (scan merging up to 32 symbols, the heap beyond);
  - runs of letters, digits, punctuation and spaces that turn non-ASCII at every offset up to 40
    (the ASCII matcher hands over to the general one; letter runs are compared 16 bytes at a time);
  - texts shorter than 16 bytes and pieces at a text's end (the cache key is read without going past it);
  - NUL bytes (keys are zero-padded, so lengths must tell "a" from "a\\0");
  - random ASCII and mixed fuzz.
It also writes the pieces the GPT-2, Llama 3 and Qwen 2 split patterns give for these texts and for
token_counts.json's, as lengths in code points.

Run: /root/.cache/sieve/venv/bin/python tests/data/export/make_token_stress.py
"""
import json
import os
import random

import tokenizers
from tokenizers import Regex, Tokenizer, pre_tokenizers

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["gpt2-style.json", "llama3-style.json", "qwen2-style.json", "digits-prefix.json"]
GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
LLAMA3 = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
QWEN2 = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"


def texts():
    rng = random.Random(23)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = []
    # Long words around the cache and scan limits, alone, after a space, after punctuation.
    for n in [14, 15, 16, 17, 30, 31, 32, 33, 34, 100, 257]:
        w = "".join(rng.choice(letters) for _ in range(n))
        out += [w, " " + w, "(" + w, w + "\n", "x = " + w + "_" + w[: n // 2] + "()"]
    out += ["a" * 40, "ab" * 40, " " + "ab" * 20, "0123456789" * 5, "-" * 40, " " + "=-" * 20 + "\n\n", " " * 40 + "x",
            "\t" * 20 + "\n" * 20 + " " * 20, "\r\n" * 20, "aaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaa", "}}}}}}}}}}}}}}}\n"]
    # Runs that turn non-ASCII at every offset.
    heads = ["abcdefghijklmnopqrstuvwxyzabcdefghijklmnop", "1234567890123456789012345678901234567890",
             "!@#$%^&*()!@#$%^&*()!@#$%^&*()!@#$%^&*()", "                                        ",
             "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n", " abcdefghijklmnopqrstuvwxyzabcdefghijklmn"]
    tails = ["é", "ſ", "中", "\u0301", "٣", "\u00a0", "\u3000", "\u2028", "\u0085", "🚀", "Ω"]
    for head in heads:
        for k in range(0, 41, 3):
            out.append(head[:k] + rng.choice(tails) + head[:5] + rng.choice(tails))
    # Short texts and NUL bytes.
    out += ["a\x00", "a", "a\x00\x00", "\x00", "\x00a", " \x00", "x\x00\x00\x00\x00\x00\x00\x00\x00y", "ab cd",
            "0", "'s", " '", "\x00" * 20, "é", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq"]
    # Random ASCII (printable, tabs, newlines).
    ascii_chars = [chr(c) for c in range(32, 127)] + ["\t", "\n", "\r", " ", " ", " "] + list(letters) * 2
    for _ in range(150):
        out.append("".join(rng.choice(ascii_chars) for _ in range(rng.randint(1, 120))))
    # Random words of mixed scripts.
    parts = ["the", "kernel", "BLOCK_SIZE", "tl.load", "x_amntyy", "acc_zhsdkaaa", "  ", "\n", "\t", "é", "ſ", "中文",
             "٣٤", "\u00a0", "\u0301", "🚀", "123456", "(", ")", "[", "]", "==", "'s", "'LL", ",", ".", "\r\n", "Ω",
             "abcdefghijklmnopqrst", "\x00", "a" * 16, "ab" * 9]
    for _ in range(120):
        out.append("".join(rng.choice(parts) + rng.choice(["", " ", "", "_"]) for _ in range(rng.randint(1, 30))))
    return out


def main():
    all_texts = texts()
    expected = {"tokenizers_version": tokenizers.__version__, "texts": all_texts, "results": {}}
    for name in NAMES:
        tok = Tokenizer.from_file(os.path.join(HERE, name))
        tok.no_truncation()
        tok.no_padding()
        expected["results"][name] = {"ids": [tok.encode(t, add_special_tokens=False).ids for t in all_texts]}
    # The pre-tokenizer's pieces alone: a wrong boundary often leaves the ids unchanged (no merge
    # crosses it), so the split patterns are checked on their own as well.
    with open(os.path.join(HERE, "token_counts.json"), encoding="utf-8") as f:
        split_texts = json.load(f)["texts"] + all_texts
    expected["pieces"] = {}  # for token_counts.json's texts, then these
    for pattern, regex in [("gpt2", GPT2), ("llama3", LLAMA3), ("qwen2", QWEN2)]:
        split = pre_tokenizers.Split(Regex(regex), behavior="isolated")
        # Pieces as lengths in code points (the texts are valid Unicode).
        expected["pieces"][pattern] = [[len(p) for p, _ in split.pre_tokenize_str(t)] for t in split_texts]
    with open(os.path.join(HERE, "token_stress.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=True, separators=(",", ":"))
    print(len(all_texts), "texts", os.path.getsize(os.path.join(HERE, "token_stress.json")), "bytes")


if __name__ == "__main__":
    main()
