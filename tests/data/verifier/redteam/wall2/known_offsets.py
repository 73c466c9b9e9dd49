"""Adds this host's runtime-wall offsets to the ctypes fixtures' KNOWN tables (README: "The ctypes fixtures locate the
wall's statics ... from offsets of the build they target"). Run it on the machine that runs the suite (a GPU host,
say) before the suite: it builds the wall where the worker keeps it (wall.cache_dir()), reads the statics' offsets
with nm, and writes an entry for that build's key into every answer here whose KNOWN table has one for another
build. Prints what it added, so the entries can be committed.

    python tests/data/verifier/redteam/wall2/known_offsets.py      (from the repository root, the worker's python)
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "gpu", "worker"))


def main():
    from sieve_worker.candidate import wall
    path, secs = wall.build(wall.cache_dir())
    key = path.rsplit("_", 1)[-1].split(".")[0]
    syms = {}
    for line in subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2].encode()] = int(parts[0], 16)
    print(f"wall {path} (built in {secs:.1f} s), key {key}")
    for f in sorted(glob.glob(os.path.join(HERE, "answers", "*.py"))):
        with open(f) as fh:
            text = fh.read()
        m = re.search(r'^KNOWN = \{"[0-9a-f]{20}": \{(.*?)\}', text, re.M)
        if not m or f'"{key}"' in text:
            continue
        kv = re.search(r'^KEY = (b"[^"]+")', text, re.M)
        entry = []
        for n in re.findall(r'(b"[^"]+"|KEY): 0x[0-9a-f]+', m.group(1)):
            literal = kv.group(1) if n == "KEY" else n
            entry.append(f"{n}: {hex(syms[literal[2:-1].encode()])}")
        new = f'"{key}": {{' + ", ".join(entry) + "}, "
        with open(f, "w") as fh:
            fh.write(text.replace("KNOWN = {", "KNOWN = {" + new, 1))
        print(os.path.basename(f), new)


if __name__ == "__main__":
    main()
