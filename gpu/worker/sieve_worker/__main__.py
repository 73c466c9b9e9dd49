"""python -m sieve_worker --device cpu|cuda:N --parallel P  (JSON lines on stdin/stdout)
python -m sieve_worker --build-wall  (builds the runtime wall into its cache and exits: setup.sh, at install)"""
import argparse
import os
import sys


def main():
    ap = argparse.ArgumentParser(prog="sieve_worker")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--build-wall", action="store_true", help="build the runtime wall (cached) and exit")
    args = ap.parse_args()
    if args.build_wall:
        from .candidate import wall
        path, took = wall.build(wall.cache_dir())
        print(f"runtime wall: {path} ({'built in %.1f s' % took if took else 'already built'})")
        return 0
    if args.device == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"  # must be set before triton is imported
    # torch and triton for the trusted children (references, reference timing); candidates come from the
    # zygote (zygote.py), a fresh interpreter, never from this process
    import torch  # noqa: F401
    import triton  # noqa: F401
    import triton.language  # noqa: F401
    try:
        import triton.runtime.interpreter  # noqa: F401
    except ImportError:
        pass
    if args.device == "cpu":
        from .candidate.hooks import fix_interpreter_scalars
        fix_interpreter_scalars()
    import torch.nn.functional  # noqa: F401
    if args.device != "cpu":
        import torch.profiler  # noqa: F401
    from .worker import Worker
    Worker(args.device, args.parallel).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
