"""Builds the small real tokenizers of tests/unit/export/test_chat_export.cpp with the tokenizers library
(no download): run with Sieve's Python from this folder,

    /root/.cache/sieve/venv/bin/python make_tokenizers.py

- llama2/: a Llama 2 style BPE: Metaspace pre-tokenizer (prepend_scheme first, no split), byte fallback
  (<0x00>..<0xFF> in the vocabulary), <unk>/<s>/</s>, trained on ../kernelbench_prompts/problems; the
  tokenizer_config.json carries Llama 2's chat template (system in <<SYS>>, [INST] ... [/INST]).
- mistral/: llama2/tokenizer.json with Mistral's template (user/assistant only: a system message is refused).
- chatml/: a byte-level BPE (GPT-2 pre-tokenizer, as Qwen's) with <|im_start|>/<|im_end|> and a ChatML
  template.
The vocabularies are tiny on purpose: most characters outside the training text take byte-fallback tokens.
"""
import glob
import json
import os

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

HERE = os.path.dirname(os.path.abspath(__file__))
corpus = [open(p, encoding="utf-8").read() for p in sorted(glob.glob(os.path.join(HERE, "../kernelbench_prompts/problems/*/*.py")))]

LLAMA2 = (
    "{% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}"
    "{% set system_message = messages[0]['content'] %}{% else %}{% set loop_messages = messages %}"
    "{% set system_message = false %}{% endif %}{% for message in loop_messages %}"
    "{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}"
    "{% if loop.index0 == 0 and system_message != false %}"
    "{% set content = '<<SYS>>\\n' + system_message + '\\n<</SYS>>\\n\\n' + message['content'] %}"
    "{% else %}{% set content = message['content'] %}{% endif %}"
    "{% if message['role'] == 'user' %}{{ bos_token + '[INST] ' + content.strip() + ' [/INST]' }}"
    "{% elif message['role'] == 'assistant' %}{{ ' '  + content.strip() + ' ' + eos_token }}{% endif %}{% endfor %}"
)
MISTRAL = (
    "{{ bos_token }}{% for message in messages %}"
    "{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}"
    "{% if message['role'] == 'user' %}{{ '[INST] ' + message['content'] + ' [/INST]' }}"
    "{% elif message['role'] == 'assistant' %}{{ message['content'] + eos_token}}"
    "{% else %}{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}{% endfor %}"
)
CHATML = (
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)


def write(folder, tok, config):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    if tok is not None:
        tok.save(os.path.join(HERE, folder, "tokenizer.json"))
    with open(os.path.join(HERE, folder, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2, ensure_ascii=False)
        f.write("\n")


# Llama 2 style: train a Metaspace BPE, then give it byte fallback tokens as Llama's vocabulary has them.
trainer_tok = Tokenizer(models.BPE(unk_token="<unk>"))
trainer_tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="first", split=False)
trainer_tok.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=400, limit_alphabet=40, special_tokens=["<unk>", "<s>", "</s>"], show_progress=False))
trained = json.loads(trainer_tok.to_str())["model"]
vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
for b in range(256):
    vocab[f"<0x{b:02X}>"] = len(vocab)
for piece, _ in sorted(trained["vocab"].items(), key=lambda kv: kv[1]):
    if piece not in vocab:
        vocab[piece] = len(vocab)
merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in trained["merges"]]
llama = Tokenizer(models.BPE(vocab=vocab, merges=merges, unk_token="<unk>", byte_fallback=True, fuse_unk=True))
llama.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="first", split=False)
llama.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)])
llama.add_special_tokens(["<unk>", "<s>", "</s>"])
special = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
write("llama2", llama, {**special, "add_bos_token": True, "chat_template": LLAMA2})
write("mistral", None, {**special, "add_bos_token": True, "chat_template": MISTRAL})

# ChatML over a byte-level BPE.
chatml = Tokenizer(models.BPE())
chatml.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
chatml.decoder = decoders.ByteLevel()
chatml.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=500, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"], show_progress=False))
write("chatml", chatml, {"eos_token": {"content": "<|im_end|>", "special": True}, "pad_token": "<|endoftext|>", "chat_template": CHATML})

# No chat template (chatml/tokenizer.json's config without one): the export must refuse it, naming the field.
write("nochat", None, {"eos_token": "<|im_end|>"})
print("written", sorted(os.listdir(HERE)))
