"""The candidate's side of the trusted extension builder (builder.py).

Installed by the child before any of the answer is loaded: torch.utils.cpp_extension.load_inline and load
are replaced by functions that send the build request to the worker on the result pipe, wait for its answer
on the control pipe, and import the built module from the read-only folder the worker binds into the
candidate's mount namespace. The candidate's process runs no compiler, ninja or shell (its landlock exec
allowlist has none of them); restoring torch's own load_inline gets it nothing but a refused exec.
"""
import importlib.util
import inspect
import json
import os

CHUNK = 24000  # characters of the request's JSON per message (escaped again, each line stays < 64 KiB)


class CompilationError(RuntimeError):
    """The extension did not build (its compiler's log in the message): COMPILE_ERROR (child.classify)."""


def _strings(v, what):
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    if isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
        return list(v)
    raise TypeError(f"load_inline({what}=...) must be a string or a list of strings")


def install(send, command, capability=None, loaded=None):
    """send(obj): a message on the result pipe; command(): the worker's next message on the control pipe;
    loaded(module): told of every module built here (torch's own loader never puts it in sys.modules, so the
    runtime wall, which routes the answer's extension functions for the ablation probe, is told instead)."""
    import torch.utils.cpp_extension as ce
    seq = [0]

    def build(req):
        seq[0] += 1
        req = {**req, "arch": capability}
        data = json.dumps(req)
        parts = max(1, (len(data) + CHUNK - 1) // CHUNK)
        for i in range(parts):
            send({"t": "build", "seq": seq[0], "part": i, "parts": parts, "data": data[i * CHUNK:(i + 1) * CHUNK]})
        reply = command()
        if reply.get("do") != "built" or reply.get("seq") != seq[0]:
            raise CompilationError(f"the worker answered a build request with {str(reply)[:200]}")
        if not reply.get("ok"):
            raise CompilationError(f"Error building extension '{req['name']}': {reply.get('message', '')}")
        spec = importlib.util.spec_from_file_location(req["name"], reply["path"])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if loaded is not None:
            loaded(module)
        return module

    sig_inline = inspect.signature(ce.load_inline)  # this torch's own parameters (positions differ by version)
    sig_load = inspect.signature(ce.load)

    def load_inline(*args, **kwargs):
        k = sig_inline.bind(*args, **kwargs)
        k.apply_defaults()
        k = k.arguments
        functions = k.get("functions")
        if isinstance(functions, str):
            functions = [functions]
        if isinstance(functions, dict):
            functions = list(functions)  # docstrings are not pasted into the generated C++
        return build({"name": k["name"], "cpp_sources": _strings(k.get("cpp_sources"), "cpp_sources"),
                      "cuda_sources": _strings(k.get("cuda_sources"), "cuda_sources"),
                      "sycl_sources": _strings(k.get("sycl_sources"), "sycl_sources"),
                      "functions": functions, "extra_cflags": _strings(k.get("extra_cflags"), "extra_cflags"),
                      "extra_cuda_cflags": _strings(k.get("extra_cuda_cflags"), "extra_cuda_cflags"),
                      "extra_ldflags": _strings(k.get("extra_ldflags"), "extra_ldflags"),
                      "extra_include_paths": _strings(k.get("extra_include_paths"), "extra_include_paths"),
                      "with_cuda": k.get("with_cuda"), "is_python_module": k.get("is_python_module", True),
                      "with_pytorch_error_handling": bool(k.get("with_pytorch_error_handling", True)),
                      "no_implicit_headers": bool(k.get("no_implicit_headers", False))})

    def load(*args, **kwargs):
        k = sig_load.bind(*args, **kwargs)
        k.apply_defaults()
        k = k.arguments
        name, sources = k["name"], k["sources"]
        extra_cflags, extra_cuda_cflags = k.get("extra_cflags"), k.get("extra_cuda_cflags")
        extra_ldflags, extra_include_paths = k.get("extra_ldflags"), k.get("extra_include_paths")
        with_cuda, is_python_module = k.get("with_cuda"), k.get("is_python_module", True)
        is_standalone = k.get("is_standalone", False)
        cpp, cuda = [], []
        for path in _strings(sources, "sources"):
            with open(path) as f:
                text = f.read()
            (cuda if os.path.splitext(path)[1] in (".cu", ".cuh") else cpp).append(text)
        return build({"name": name, "cpp_sources": cpp, "cuda_sources": cuda, "functions": None,
                      "extra_cflags": _strings(extra_cflags, "extra_cflags"),
                      "extra_cuda_cflags": _strings(extra_cuda_cflags, "extra_cuda_cflags"),
                      "extra_ldflags": _strings(extra_ldflags, "extra_ldflags"),
                      "extra_include_paths": _strings(extra_include_paths, "extra_include_paths"),
                      "with_cuda": with_cuda, "is_python_module": is_python_module and not is_standalone,
                      "with_pytorch_error_handling": True, "no_implicit_headers": True})
    ce.load_inline = load_inline
    ce.load = load
