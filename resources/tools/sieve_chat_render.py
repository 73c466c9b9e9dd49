"""Renders export rows as a trainer sees them (sieve-cli export --chat-template; core/export/chatrender.h).

    python sieve_chat_render.py CONFIG TOKENIZER text|tokens

CONFIG is a Hugging Face tokenizer_config.json (its "chat_template", a Jinja string, or a list of named
templates of which "default" is used; a chat_template.jinja beside it when the key is absent) and its
special tokens; TOKENIZER a tokenizer.json, loaded with the `tokenizers` library, so every model kind it
knows (byte-level BPE, byte fallback with Metaspace as in Llama 2, Mistral, Gemma, ...) counts exactly.
The template runs in Jinja's immutable sandbox with the globals transformers gives it (raise_exception,
strftime_now, tojson), as transformers' apply_chat_template does.

Protocol, one JSON object per line. Out first: {"ok": true, "description": ...} or {"error": ...}. Then
for each line in, {"messages": [...]} (the last one the assistant's), one line out:
  {"tokens": N, "fields": "<JSON members of the row>"} or {"error": "..."}
The row is rendered whole (add_generation_prompt false) and tokenized without adding special tokens (the
template writes its own, as apply_chat_template(tokenize=True) does). The assistant part is what the
full text adds to the conversation without the assistant turn rendered with add_generation_prompt true;
a template for which that is not a prefix is an error (the mask would be a guess). "text" rows carry
"text" and "assistant_spans" ([start, end) in Unicode code points); "tokens" rows "input_ids", "labels"
(-100 outside the assistant part: a token belongs to it when it starts at or after the part's start)
and "assistant_masks" (1 for those tokens; TRL's collator reads it).
"""
import json
import os
import sys


def out(obj):
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def token_text(value):
    if isinstance(value, dict):
        return value.get("content")
    return value


def load(config_path, tokenizer_path):
    try:
        import jinja2
        import jinja2.ext
        from jinja2.sandbox import ImmutableSandboxedEnvironment
        from tokenizers import Tokenizer
    except ImportError as e:
        raise RuntimeError(f"the chat renderer needs jinja2 and tokenizers in Sieve's Python ({e}); run ./setup.sh")
    try:
        with open(config_path, encoding="utf-8") as f:
            config = json.load(f)
    except (OSError, ValueError) as e:
        raise RuntimeError(f"{config_path}: {e}")
    if not isinstance(config, dict):
        raise RuntimeError(f"{config_path}: not a JSON object")
    template = config.get("chat_template")
    if isinstance(template, list):
        named = {t.get("name"): t.get("template") for t in template if isinstance(t, dict)}
        template = named.get("default")
        if template is None:
            raise RuntimeError(f"{config_path}: chat_template: a list without a template named 'default'")
    if template is None:
        beside = os.path.join(os.path.dirname(os.path.abspath(config_path)), "chat_template.jinja")
        if os.path.exists(beside):
            with open(beside, encoding="utf-8") as f:
                template = f.read()
    if not isinstance(template, str) or not template:
        raise RuntimeError(f"{config_path}: chat_template: missing (no chat template in this tokenizer_config.json)")

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(fmt):
        # A fixed day, not the clock: the same corpus and options make the same files.
        import datetime

        return datetime.datetime(2024, 7, 26).strftime(fmt)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    try:
        compiled = env.from_string(template)
    except jinja2.exceptions.TemplateError as e:
        raise RuntimeError(f"{config_path}: chat_template: {e}")
    special = {}
    for key in ("bos_token", "eos_token", "unk_token", "pad_token", "sep_token", "cls_token", "mask_token"):
        value = token_text(config.get(key))
        if value is not None:
            special[key] = value
    try:
        tokenizer = Tokenizer.from_file(tokenizer_path)
    except Exception as e:  # the library raises its own exception types
        raise RuntimeError(f"{tokenizer_path}: {e}")
    model = json.loads(tokenizer.to_str()).get("model", {})
    description = (
        f"{model.get('type', '?')} (tokenizers library), {tokenizer.get_vocab_size(with_added_tokens=True)} tokens"
        + (", byte fallback" if model.get("byte_fallback") else "")
    )
    return compiled, special, tokenizer, description


def render(compiled, special, tokenizer, rows, messages):
    import jinja2

    if not messages or messages[-1].get("role") != "assistant":
        raise RuntimeError("the last message is not the assistant's")
    try:
        full = compiled.render(messages=messages, add_generation_prompt=False, **special)
        prompt = compiled.render(messages=messages[:-1], add_generation_prompt=True, **special)
    except jinja2.exceptions.TemplateError as e:
        raise RuntimeError(f"chat template: {e}")
    if not full.startswith(prompt):
        raise RuntimeError(
            "the chat template does not render the conversation as its prompt (add_generation_prompt) followed by "
            "the assistant turn, so the assistant part cannot be told apart exactly"
        )
    start = len(prompt)
    enc = tokenizer.encode(full, add_special_tokens=False)
    if rows == "text":
        fields = {"text": full, "assistant_spans": [[start, len(full)]]}
    else:
        mask = [1 if s >= start else 0 for (s, _e) in enc.offsets]
        fields = {
            "input_ids": enc.ids,
            "labels": [i if m else -100 for i, m in zip(enc.ids, mask)],
            "assistant_masks": mask,
        }
    members = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))[1:-1]
    return {"tokens": len(enc.ids), "fields": members}


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("text", "tokens"):
        out({"error": "usage: sieve_chat_render.py CONFIG TOKENIZER text|tokens"})
        return 2
    try:
        compiled, special, tokenizer, description = load(sys.argv[1], sys.argv[2])
    except RuntimeError as e:
        out({"error": str(e)})
        return 1
    out({"ok": True, "description": description})
    for line in sys.stdin:
        try:
            request = json.loads(line)
            out(render(compiled, special, tokenizer, sys.argv[3], request["messages"]))
        except (RuntimeError, ValueError, KeyError, TypeError) as e:
            out({"error": str(e)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
