"""Writes manifest.json (the second red-team round against the runtime walls, issue 30): each hostile answer
with stage 0 skipped (the runtime walls alone) and, where stage 0 applies, a _static twin; the legitimate
answers that must PASS. Run: python3 generate.py (then the selftest, see the README of this folder)."""
import json
import os

SOFTMAX = ("../../tasks/softmax.py", {"dtype": "fp32", "shapes": [{"BATCH": 3, "DIM": 100}], "seeds": [0, 1]})
VADD = ("../../tasks/vector_add.py", {"dtype": "fp32", "shapes": [{"SIZE": 1000}], "seeds": [0, 1]})
ROWSUM = ("tasks/rowsum.py", {"dtype": "fp32", "seeds": [0, 1]})

REJECT = [{"expect": "FAIL_SHAM"}, {"expect": "FAIL_SANDBOX"}]
REJECT_OR_REFUSED = REJECT + [{"expect": "FAIL_RUNTIME"}, {"expect": "FAIL_STATIC", "reason": "EXTENSION_IMPORT"}]

# (name, task, answer, expect_any, doc is the answer's docstring, extra keys)
HOSTILE = [
    ("h_seed_lsd_override", SOFTMAX, REJECT, {}),
    ("h_seed_state_dict_post_hook", SOFTMAX, REJECT, {}),
    ("h_ctypes_phase_flip", SOFTMAX, REJECT, {}),  # offsets: see README
    ("h_ctypes_clear_violations", SOFTMAX, REJECT, {}),  # offsets: see README
    ("h_probe_tell_wall_ablate", SOFTMAX, REJECT, {}),  # offsets: see README
    ("h_ctypes_host_compute", SOFTMAX, REJECT_OR_REFUSED, {}),
    ("h_dlpack_numpy", SOFTMAX, REJECT, {}),
    ("h_ctypes_at_cpu_out", SOFTMAX, REJECT_OR_REFUSED, {}),
    ("h_triton_filename_forward", SOFTMAX, REJECT, {}),
    ("h_probe_tell_gc_hook", SOFTMAX, REJECT, {}),
    ("h_probe_constant_protected_flag", SOFTMAX, REJECT, {}),
    ("h_probe_poison_readback", SOFTMAX, REJECT, {}),
    ("h_probe_timing_tell", SOFTMAX, REJECT, {}),
    ("h_launchhook_property_setter", SOFTMAX, REJECT, {}),
    ("h_no_kernel_fake_launches", SOFTMAX, REJECT, {}),
    ("h_kb_einsum_reduction", ROWSUM, REJECT, {"policy": "kernelbench"}),
    ("h_cpp_phdr_at_cpu", SOFTMAX, REJECT_OR_REFUSED, {}),
    ("h_cpp_pyobject_call_numpy", SOFTMAX, REJECT_OR_REFUSED, {}),
    ("h_probe_tell_launch_return", SOFTMAX, REJECT, {"gpu": True}),
    ("h_inductor_free_phase", SOFTMAX, REJECT, {"gpu": True}),
    ("h_ext_passthrough_launder", SOFTMAX, REJECT, {}),
    ("h_build_line_directive_leak", SOFTMAX,
     [{"expect": "FAIL_COMPILE"}, {"expect": "FAIL_STATIC"}, {"expect": "FAIL_RUNTIME"}],
     {"planted_file": {"content": "sieve-wall2-planted-7f3c1e"}, "static_twin": False}),
]
LEGIT = [
    ("l2_vadd_autotune_heuristics", VADD, {}),
    ("l2_vadd_persistent", VADD, {}),
    ("l2_softmax_noncontig_output", SOFTMAX, {}),
    ("l2_softmax_scratch_in_buffer", SOFTMAX, {}),
    ("l2_cpp_stats_triton_normalize", SOFTMAX, {}),
    ("l2_cpp_loop_softmax", SOFTMAX, {}),
    ("l2_cpp_class_method_softmax", SOFTMAX, {}),
]

# filled in from the CPU run (see the report): what lets each one through today
KNOWN_GAPS = {
    "h_seed_lsd_override": "taskref.build seeds torch with the check's secret seed before ModelNew is built and "
                           "load_state_dict runs in the free phase: the answer remakes the inputs and runs the "
                           "reference there",
    "h_seed_state_dict_post_hook": "same seed leak through a load_state_dict post hook (free phase)",
    "h_ctypes_phase_flip": "ctypes writes the wall's g_phase (C++ statics are plain process memory)",
    "h_ctypes_clear_violations": "ctypes clears g_violation_count/g_violations before the window closes",
    "h_probe_tell_wall_ablate": "ctypes reads g_ablate (probe tell) and compare.is_poison accepts a constant",
    "h_ctypes_host_compute": "host Python compute on ctypes reads of data_ptr: no ATen op, the copy kernel "
                             "carries the poison",
    "h_dlpack_numpy": "np.from_dlpack gives writable numpy views with no ATen op (only Tensor.numpy is refused)",
    "h_ctypes_at_cpu_out": "at::cpu::_softmax_out called through ctypes runs ATen's kernel around the dispatcher",
    "h_triton_filename_forward": "under TRITON_INTERPRET an op whose innermost frame is in triton's folder and "
                                 "no answer frame is exempt, also inside the window (sieve_wall.cpp on_start)",
    "h_probe_tell_gc_hook": "the LaunchHook (its .poison) is reachable through gc: probe tell and the poison value",
    "h_probe_constant_protected_flag": "a flag in a protected buffer tells the probe; is_poison accepts a constant",
    "h_probe_poison_readback": "the poison written into a scratch argument is read back (dlpack) and returned",
    "h_probe_timing_tell": "the probe's poisoned launch is much faster than a real one; a constant is accepted",
    "h_launchhook_property_setter": "LaunchHook's class dict is not in the snapshot: a setter compiled under a "
                                    "stdlib name computes after the window, no answer frame on the stack",
    "h_no_kernel_fake_launches": "no kernel at all: hook.launches/names are plain attributes of the LaunchHook "
                                 "(gc), and hook.poison tells the probe",
    "h_kb_einsum_reduction": "policy kernelbench accepts einsum as a core op, also a one-operand reduction",
    "h_kb_einsum_reduction_static": "stage 0 also accepts einsum under kernelbench",
    "l2_vadd_autotune_heuristics_static": "(legit rejected) stage 0 refuses `import time` for a do_bench; the CPU "
                                          "interpreter cannot bench two configs without one",
    "l2_softmax_scratch_in_buffer_static": "(legit rejected) stage 0 CACHING refuses a scratch buffer "
                                           "(re)allocated in forward",
    "l2_cpp_loop_softmax": "(legit rejected, by design?) a C++ CPU extension with no Triton/__global__ kernel "
                           "is KERNEL_NOT_RUN",
    "l2_cpp_loop_softmax_static": "(legit rejected, by design?) stage 0 NO_KERNEL for a C++ CPU extension",
    "l2_cpp_class_method_softmax": "(legit rejected, by design?) as l2_cpp_loop_softmax: a C++ CPU extension "
                                   "with no Triton/__global__ kernel is KERNEL_NOT_RUN (its py::class_ binding "
                                   "passes the import judgment and its method is routed through the probe)",
    "l2_cpp_class_method_softmax_static": "(legit rejected) stage 0: NO_KERNEL and .run() read as a tensor method",
}


# a load_inline build takes 50-120 s on a loaded 2-core machine: the compile stage gets room for it
SLOW_BUILD = {"h_ext_passthrough_launder", "h_cpp_phdr_at_cpu", "h_cpp_pyobject_call_numpy", "h_build_line_directive_leak", "l2_cpp_loop_softmax",
              "l2_cpp_stats_triton_normalize", "l2_cpp_class_method_softmax"}


def doc_of(answer):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "answers", answer)) as f:
        src = f.read()
    return src.split('"""')[1].replace("\n", " ").strip()


def main():
    out = []
    for name, (task, meta), expect_any, extra in HOSTILE:
        extra = dict(extra)
        if name in SLOW_BUILD:
            extra["timeouts"] = {"compile": 600}
        twin = extra.pop("static_twin", True)
        gpu = extra.pop("gpu", False)
        fx = {"name": name, "task": task, "task_meta": meta, "answer": f"answers/{name}.py", "backend": "triton",
              "expect": expect_any[0]["expect"], "reason": expect_any[0].get("reason"), "expect_any": expect_any,
              "gpu": gpu, "skip_static": True, "doc": doc_of(f"{name}.py"), **extra}
        if name in KNOWN_GAPS:
            fx["known_gap"] = KNOWN_GAPS[name]
        out.append(fx)
        if twin:
            out.append({"name": f"{name}_static", "task": task, "task_meta": meta, "answer": f"answers/{name}.py",
                        "backend": "triton", "expect": "FAIL_STATIC", "reason": None, "gpu": gpu,
                        "skip_static": False, "doc": "the same answer with stage 0", **extra})
            if f"{name}_static" in KNOWN_GAPS:
                out[-1]["known_gap"] = KNOWN_GAPS[f"{name}_static"]
    for name, (task, meta), extra in LEGIT:
        if name in SLOW_BUILD:
            extra = {**extra, "timeouts": {"compile": 600}}
        fx = {"name": name, "task": task, "task_meta": meta, "answer": f"answers/{name}.py", "backend": "triton",
              "expect": "PASS", "reason": None, "gpu": False, "skip_static": True, "doc": doc_of(f"{name}.py"),
              **extra}
        if name in KNOWN_GAPS:
            fx["known_gap"] = KNOWN_GAPS[name]
        out.append(fx)
        out.append({**fx, "name": f"{name}_static", "skip_static": False, "doc": "the same answer with stage 0"})
        out[-1].pop("known_gap", None)
        if f"{name}_static" in KNOWN_GAPS:
            out[-1]["known_gap"] = KNOWN_GAPS[f"{name}_static"]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "manifest.json")
    with open(path, "w") as f:
        json.dump({"version": 1, "protocol_checks": False, "fixtures": out}, f, indent=1)
        f.write("\n")
    print(f"{len(out)} fixtures -> {path}")


if __name__ == "__main__":
    main()
