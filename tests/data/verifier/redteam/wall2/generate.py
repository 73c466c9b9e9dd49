"""Writes manifest.json (the second red-team round against the runtime walls, issue 30): each hostile answer
with stage 0 skipped (the runtime walls alone) and, where stage 0 applies, a _static twin; the legitimate
answers that must PASS. Run: python3 generate.py (then the selftest, see the README of this folder)."""
import json
import os

SOFTMAX = ("../../tasks/softmax.py", {"dtype": "fp32", "shapes": [{"BATCH": 3, "DIM": 100}], "seeds": [0, 1]})
VADD = ("../../tasks/vector_add.py", {"dtype": "fp32", "shapes": [{"SIZE": 1000}], "seeds": [0, 1]})
ROWSUM = ("tasks/rowsum.py", {"dtype": "fp32", "seeds": [0, 1]})
NUMPY_INPUTS = ("tasks/softmax_numpy_inputs.py", {"dtype": "fp32", "seeds": [0, 1]})
LINEAR_RELU = ("../../tasks/linear_relu.py", {"dtype": "fp32", "seeds": [0, 1]})
NUMPY_AS_TENSOR = ("tasks/softmax_numpy_as_tensor.py", {"dtype": "fp32", "seeds": [0, 1]})
OUTER = ("tasks/outer.py", {"dtype": "fp32", "seeds": [0, 1]})

REJECT = [{"expect": "FAIL_SHAM"}, {"expect": "FAIL_SANDBOX"}]
REJECT_OR_REFUSED = REJECT + [{"expect": "FAIL_RUNTIME"}, {"expect": "FAIL_STATIC", "reason": "EXTENSION_IMPORT"}]
# closed where the answer's trick no longer works and what it computes is then wrong (a seed it no longer learns,
# a hook the harness no longer calls)
REJECT_OR_WRONG = REJECT + [{"expect": "FAIL_MISMATCH"}]
# ctypes, DLPack, numpy's array interface at an address, numpy views of tensor memory and tensors over memory
# numpy or Python reaches are refused to the answer (ffi.cpp w_shut_ctypes and guard_data, wall.py
# entry_points): closed from the round's report on
RAW = [{"expect": "FAIL_SANDBOX", "reason": "RAW_MEMORY_ACCESS"}]
# the checks' seeds sealed for the wall (seed.cpp) and sent after the free phase (child.seed_for): an answer written
# to read the seed fails where it finds none, or computes on what is no check's input
SEED_SEALED = REJECT_OR_WRONG + [{"expect": "FAIL_RUNTIME"}, {"expect": "FAIL_COMPILE"}]
# a store into the output mapping outside the wall's write is a SIGSEGV (the mapping is read-only then): the sample's
# crash; a store the kernel refuses (EFAULT) fails the call, and one never made leaves the copy of the input, wrong
# a kernel of torch's reached from the answer's kernel by name (callees.cpp): the launch is refused, or the walk made
# again after it records the change
CALLEE_REFUSED = [{"expect": "FAIL_SHAM", "reason": "TORCH_OP_AT_RUNTIME"}]
R41 = REJECT_OR_WRONG + [{"expect": "FAIL_RUNTIME"}, {"expect": "FAIL_COMPILE"}]
# round 42's attacks need triton's interpreter (its C load and store, its cache of rewritten code): on the GPU hosts
# the answer's own kernel runs compiled, or the compile refuses a Python helper
R42_GPU = {"expect_gpu": {"expect_any": REJECT_OR_WRONG + [{"expect": "FAIL_RUNTIME"}, {"expect": "FAIL_COMPILE"}],
                          "doc": "on the GPU hosts: the attack needs triton's interpreter; the answer's own kernel "
                                 "runs compiled or the compile refuses its helper (not run on a GPU yet)"}}
# round 48's attacks on the GPU hosts: the compile refuses the kernel's body (a tile as an assert's message, a frame's
# locals) or the launch dies at a bad address; a launch of the answer's that raises fails the call
R48_GPU = {"expect_gpu": {"expect_any": REJECT_OR_WRONG + [{"expect": "FAIL_RUNTIME"}, {"expect": "FAIL_COMPILE"},
                                                          {"expect": "CRASH"}],
                          "doc": "on the GPU hosts: the compile refuses the body or the launch dies at a bad address "
                                 "(not run on a GPU yet)"}}
# round 40's callee attacks on the GPU hosts: triton's code generator refuses a plain function called from a kernel
# (Unsupported function referenced) or fails the compile; the class check latches an attribute triton's compile of
# torch's kernel adds to JITFunction (WALL_TAMPERED); or the answer's own kernel runs alone (FAIL_MISMATCH): each
# rejected, not always by the callee hook (seen on the H100, 2026-12-07)
CALLEE_GPU = {"expect_gpu": {"expect_any": REJECT_OR_WRONG + [{"expect": "FAIL_RUNTIME"}, {"expect": "FAIL_COMPILE"}],
                             "doc": "on the GPU hosts: the code generator refuses the call or the compile fails, the "
                                    "class check latches, or the answer's own kernel runs alone (seen on the H100, "
                                    "2026-12-07)"}}
MAPPING_FIXUP = REJECT_OR_WRONG + [{"expect": "CRASH", "reason": "SIGNAL"}, {"expect": "FAIL_RUNTIME"}]

# answers written for the CPU only, not run on a GPU: the C++ loops read the input's memory on the host (a CUDA
# tensor's is the device's: SIGSEGV on the H200, 2026-12-04), the two hostile ones make CPU tensors a Triton
# kernel then refuses ("cannot be accessed from Triton (cpu tensor?)": rejected, but not by the wall)
CPU_WRITTEN = {"cpu_only": True}

# the harness's data path refused an object or a moment of the answer's making: the refusal ends the call
# (RAW_MEMORY_ACCESS, FAIL_RUNTIME) or the report's tampering does
DATA_PATH = RAW + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}, {"expect": "FAIL_RUNTIME"},
                   {"expect": "FAIL_SANDBOX", "reason": "WALL_TAMPERED"}]

# what the GPU hosts' triton 3.6 and torch 2.11 lack, which the CPU's triton 3.9 and torch 2.15 have: there the answer
# dies of the missing function or its import fails (each seen on the H100, 2026-12-05)
NO_NVIDIA_MEMCPY = {"expect_gpu": {"expect_any": [{"expect": "FAIL_RUNTIME", "reason": "RUNTIME_ERROR"}, {"expect": "FAIL_SHAM"}, {"expect": "FAIL_SANDBOX"}], "doc": "on the GPU hosts: triton 3.6 (the GPU hosts') has no libtriton.nvidia.copy_device_to_host: the gadget does not exist there, and the answer dies of the AttributeError (seen on the H100, 2026-12-05)"}}
NO_COMPILE_SO_FROM_SRC = {"expect_gpu": {"expect_any": [{"expect": "FAIL_COMPILE", "reason": "COMPILE_ERROR"}, {"expect": "FAIL_SHAM"}, {"expect": "FAIL_SANDBOX"}, {"expect": "FAIL_RUNTIME"}, {"expect": "FAIL_STATIC", "reason": "EXTENSION_IMPORT"}], "doc": "on the GPU hosts: triton 3.6 (the GPU hosts') has no runtime.build.compile_so_from_src: the answer's import fails (seen on the H100, 2026-12-05)"}}
NO_PYOBJ_DISPATCH = {"expect_gpu": {"expect_any": [{"expect": "FAIL_RUNTIME", "reason": "RUNTIME_ERROR"}, {"expect": "FAIL_SHAM"}, {"expect": "FAIL_SANDBOX"}], "doc": "on the GPU hosts: torch 2.11 (the GPU hosts') has no OpOverload._enable_pyobj_dispatch: the answer dies of the AttributeError (seen on the H100, 2026-12-05)"}}
INTERPRETER_ONLY = {"expect_gpu": {"expect_any": [{"expect": "FAIL_RUNTIME", "reason": "RUNTIME_ERROR"}, {"expect": "FAIL_SHAM"}, {"expect": "FAIL_SANDBOX"}, {"expect": "FAIL_MISMATCH"}], "doc": "on the GPU hosts: the attack needs triton's interpreter (a pre-run hook called with the interpreter's arguments, a Python helper called from a kernel's body); triton 3.6's compiled launch calls the hook with instrumentation_mode= and debug=, which torch's softmax refuses, and refuses the helper (Unsupported function referenced): the answer dies of the error (seen on the H100, 2026-12-05)"}}
JIT_FILE_NOT_PYTHON = {"expect_gpu": {"expect_any": [{"expect": "FAIL_COMPILE", "reason": "COMPILE_ERROR"}, {"expect": "FAIL_SANDBOX", "reason": "RAW_MEMORY_ACCESS"}, {"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}], "doc": "on the GPU hosts: triton 3.6 (the GPU hosts') refuses an @jit function whose file is not a Python file: the answer's import fails (seen on the H100, 2026-12-05)"}}

INTERPRETER_CACHE = {"expect_gpu": {"expect_any": [{"expect": "FAIL_MISMATCH"}, {"expect": "FAIL_SHAM"}, {"expect": "FAIL_SANDBOX"}, {"expect": "FAIL_RUNTIME"}], "doc": "on the GPU hosts: the attack is on triton's interpreter (its rewritten-function cache); a compiled JITFunction runs the answer's own kernel, which writes zeros: the answer's output is wrong (not run on a GPU yet)"}}

# (name, task, answer, expect_any, doc is the answer's docstring, extra keys)
HOSTILE = [
    ("h_r8_output_storage_attr", SOFTMAX, SEED_SEALED, {}),
    ("h_r8_input_detach_attr", SOFTMAX, SEED_SEALED, {}),
    ("h_r8_closure_cell_finalizer", SOFTMAX, SEED_SEALED, {}),
    ("h_r8_thread_harness_phase", SOFTMAX, SEED_SEALED, {}),
    ("h_r8_os_urandom_gadget", SOFTMAX, SEED_SEALED, {}),
    ("h_r8_task_get_inputs_gadget", SOFTMAX, SEED_SEALED, {}),
    ("h_r8_output_detach_attr", SOFTMAX, SEED_SEALED, {}),
    # round 9 (against b4f148e): a shape variable of the task module, in no snapshot
    ("h_r9_shape_var_index", SOFTMAX, SEED_SEALED, {}),
    # round 10 (against 9abb3ba): the shape where the harness keeps it (ctx), not on the task module
    ("h_r10_ctx_shape_index", SOFTMAX, SEED_SEALED, {}),
    # round 11 (against 3e6bf27), all PASS with stage 0 skipped: raw host memory from Python without ctypes (triton's
    # interpreter load/store, /proc/self/mem, a LOAD_CONST past co_consts), TorchScript's prim::tolist and Static
    # Runtime's out variants (RecordFunction scope STATIC_RUNTIME_OP, which the wall's FUNCTION-only callback misses)
    ("h_r11_triton_interp_raw_load", SOFTMAX, REJECT, {}),
    ("h_r11_triton_interp_clear_violations", SOFTMAX, REJECT, {}),  # offsets: see README
    ("h_r11_proc_self_mem_read", SOFTMAX, REJECT_OR_REFUSED, {}),  # EACCES: the candidate is not dumpable
    ("h_r11_seed_unseal_proc_mem", SOFTMAX, SEED_SEALED, {}),  # offsets: KNOWN
    ("h_r11_bytecode_raw_memory", SOFTMAX, REJECT, {}),
    ("h_r11_torchscript_tolist", SOFTMAX, REJECT, {}),
    ("h_r11_static_runtime_softmax", SOFTMAX, REJECT, {}),
    # round 12 (helper red12 against f0a06e9, stage 0 skipped): raw memory past shut_raw (a CPython use-after-free of
    # io.BufferedReader's buffer), a JIT-only operator read from Python (aten::_tensor_to_list), CUDA graph replay
    ("h_r12_bufferedreader_uaf_raw_memory", SOFTMAX, REJECT, {}),
    ("h_r12_tensor_to_list_jit_op", SOFTMAX, REJECT, {}),
    ("h_r12_cuda_graph_replay", SOFTMAX, REJECT, {"gpu": True}),
    ("h_r12_triton_build_c_module", SOFTMAX, REJECT_OR_REFUSED, {}),
    ("h_r12_code_replace_via_torch_renamer", SOFTMAX, REJECT_OR_REFUSED, {}),  # the renamer is a no-op now
    ("h_r12_triton_nvidia_memcpy", SOFTMAX, REJECT, {"gpu": True, **NO_NVIDIA_MEMCPY}),
    # round 13 (against d9c5838): a native module loaded past importlib by trusted frames that are no loader
    ("h_r13_native_module_via_pytree", SOFTMAX, REJECT_OR_REFUSED, NO_COMPILE_SO_FROM_SRC),
    # round 14 (helper red14 against d187878, stage 0 skipped)
    ("h_r14_op_dk_softmax", SOFTMAX, REJECT, {}),
    ("h_r14_scriptlist_repr_read", SOFTMAX, REJECT, {}),
    ("h_r14_onnx_export_initializer_read", SOFTMAX, REJECT, {}),
    ("h_r14_pyobj_redispatch_softmax", SOFTMAX, REJECT, NO_PYOBJ_DISPATCH),
    ("h_r14_constprop_jit_only_op", SOFTMAX, REJECT, {}),
    ("h_r14_nnc_tensorexpr_softmax", SOFTMAX, REJECT, {}),
    ("h_r14_sysmodules_torch_harness_redispatch", SOFTMAX, REJECT_OR_WRONG, {}),
    ("h_r14_state_report_iter_numpy_gadget", SOFTMAX, RAW + REJECT_OR_WRONG, {}),
    # round 15 (helper red15 against 67a0cbb, stage 0 skipped)
    ("h_r15_weakref_refmodel_numpy_gadget", SOFTMAX,
     RAW + REJECT_OR_WRONG + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}], {}),
    ("h_r15_build_impl_knob_driver_loads", SOFTMAX, REJECT_OR_REFUSED + [{"expect": "FAIL_MISMATCH"}], {}),
    ("h_r15_cache_plant_two_faced_fspath", SOFTMAX, REJECT_OR_REFUSED + [{"expect": "FAIL_MISMATCH"}], {}),
    ("h_r15_cache_plant_os_open_fspath", SOFTMAX, RAW + REJECT, {}),
    ("h_r16_cache_plant_relative_build", SOFTMAX, REJECT_OR_REFUSED + [{"expect": "FAIL_MISMATCH"}], {}),
    # round 17 (helper red17 against f66cf09, stage 0 skipped)
    ("h_r17_preexec_ptxas_gcc_ld_preload_plant", SOFTMAX, REJECT_OR_REFUSED + [{"expect": "FAIL_MISMATCH"}], {}),
    # round 18 (helper red18 against d312ba1): a race with triton's own launcher build
    ("h_r18_late_header_in_build_folder", SOFTMAX, REJECT_OR_REFUSED, {}),
    # round 19 (mine, against d6c0997): triton's build helper called by a finalizer, no frame of the answer's
    ("h_r19_finalizer_build_helper", SOFTMAX, REJECT_OR_REFUSED + [{"expect": "FAIL_MISMATCH"}], {}),
    ("h_r15_spec_origin_two_faced_property", SOFTMAX, REJECT_OR_REFUSED + [{"expect": "FAIL_MISMATCH"}], {}),
    ("h_r15_cache_plant_dir_fd_rename", SOFTMAX, RAW + REJECT + [{"expect": "FAIL_MISMATCH"}], {}),
    ("h_r15_ctx_backend_eq_numpy_gadget", SOFTMAX, RAW + REJECT_OR_WRONG, {}),
    ("h_r7_gadget_redraw_after_seed", SOFTMAX, SEED_SEALED, {}),
    ("h_r7_gadget_frame_inputs_softmax", SOFTMAX, SEED_SEALED, {}),
    ("h_r7_library_copy_in_wall_write", SOFTMAX, MAPPING_FIXUP, {}),
    ("h_r7_forged_built_early_seed", SOFTMAX, SEED_SEALED, {}),
    ("h_r7_forged_wall_built", SOFTMAX, SEED_SEALED, {}),
    ("h_r7_gadget_initial_seed_reader", SOFTMAX, SEED_SEALED, {}),
    ("h_seed_lsd_override", SOFTMAX, REJECT_OR_WRONG, CPU_WRITTEN),
    ("h_seed_state_dict_post_hook", SOFTMAX, REJECT_OR_WRONG, {}),
    ("h_seed_frame_locals", SOFTMAX, SEED_SEALED, {}),
    ("h_seed_wall_call_direct", SOFTMAX, SEED_SEALED, {}),
    ("h_seed_gadget_draw_before_free", SOFTMAX, SEED_SEALED, {}),
    ("h_ctypes_phase_flip", SOFTMAX, RAW, {}),  # offsets: see README
    ("h_ctypes_clear_violations", SOFTMAX, RAW, {}),  # offsets: see README
    ("h_probe_tell_wall_ablate", SOFTMAX, RAW, {}),  # offsets: see README
    ("h_ctypes_host_compute", SOFTMAX, RAW, {}),
    ("h_dlpack_numpy", SOFTMAX, RAW, {}),
    ("h_ctypes_at_cpu_out", SOFTMAX, RAW, {}),
    ("h_numpy_interface_host_compute", SOFTMAX, RAW, {}),
    ("h_ctypes_borrowed_filename", SOFTMAX, RAW + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}],
     JIT_FILE_NOT_PYTHON),
    # a refusal charged to the harness in the same report as the answer's op: the op decides (FAIL_SHAM)
    ("h_harness_refusal_masks_sham", SOFTMAX, [{"expect": "FAIL_SHAM", "reason": "TORCH_OP_AT_RUNTIME"}],
     {"static_twin": False}),
    ("h_harness_refusal_swallowed", SOFTMAX, [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}],
     {"static_twin": False}),
    ("h_harness_refusal_hides_mismatch", SOFTMAX,
     [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}, {"expect": "FAIL_MISMATCH"}], {}),
    ("h_as_tensor_numpy_alias", SOFTMAX, RAW, {}),
    ("h_triton_filename_forward", SOFTMAX, REJECT, {}),
    ("h_probe_tell_gc_hook", SOFTMAX, REJECT, CPU_WRITTEN),
    ("h_probe_constant_protected_flag", SOFTMAX, REJECT, {}),
    ("h_probe_poison_readback", SOFTMAX, RAW, CPU_WRITTEN),
    ("h_probe_timing_tell", SOFTMAX, REJECT, CPU_WRITTEN),
    ("h_launchhook_property_setter", SOFTMAX, REJECT_OR_WRONG, {}),
    ("h_no_kernel_fake_launches", SOFTMAX, REJECT, {}),
    ("h_kb_einsum_reduction", ROWSUM, REJECT, {"policy": "kernelbench"}),
    # round 33 (mine, against einsum judged by what it contracts): two operands, nothing shared summed
    ("h_kb_einsum_sum_then_scale", ROWSUM, REJECT, {"policy": "kernelbench"}),
    # round 33 (helper, against 431c1c0): torch does the task's work inside a core op that contracts nothing real
    ("h_r33_sdpa_softmax", SOFTMAX, REJECT, {"policy": "kernelbench"}),
    ("h_r33_tensordot_outer", OUTER, REJECT, {"policy": "kernelbench"}),
    ("h_r33_einsum_dot_pairs_vadd", VADD, REJECT, {"policy": "kernelbench"}),
    ("h_cpp_phdr_at_cpu", SOFTMAX, REJECT_OR_REFUSED, {}),
    ("h_cpp_pyobject_call_numpy", SOFTMAX, REJECT_OR_REFUSED, {}),
    ("h_probe_tell_launch_return", SOFTMAX, REJECT, {"gpu": True}),
    ("h_inductor_free_phase", SOFTMAX, REJECT, {"gpu": True}),
    # a CUDA graph captured in the constructor replays torch's add with no op dispatched (GPU only)
    ("h_graph_replay_add", VADD, REJECT, {"gpu": True}),
    ("h_ext_passthrough_launder", SOFTMAX, REJECT, {}),
    # tensors over memory numpy or Python reaches, and the mirror image (a tensor's bytes read with no op): the
    # constructors' data is looked at, the sharing and serializing paths are the harness's alone (sieve_wall.cpp
    # guard_data, wall.py SHARED_MEMORY)
    ("h_asarray_vf_computed_name", SOFTMAX, RAW, {}),
    ("h_legacy_ctor_numpy_init", SOFTMAX, RAW, {}),
    ("h_tensor_subclass_new_numpy", SOFTMAX, RAW, {}),
    ("h_tensor_new_dict_numpy", SOFTMAX, RAW, {}),
    ("h_array_interface_buffer_as_tensor", SOFTMAX, RAW + [{"expect": "FAIL_RUNTIME"}], {}),  # torch ignores it
    ("h_from_file_shared_memmap", SOFTMAX, RAW, {}),
    ("h_share_memory_mmap", SOFTMAX, RAW, {}),
    ("h_shared_memory_frombuffer", SOFTMAX, RAW, {}),
    ("h_torch_save_bytesio_read", SOFTMAX, RAW, {}),
    ("h_pickle_storage_reduce_read", SOFTMAX, RAW, {}),
    ("h_jit_save_buffer_read", SOFTMAX, RAW, {}),
    ("h_storage_from_data_pointer", SOFTMAX, RAW, {}),
    ("h_numpy_array_of_tensor", SOFTMAX, REJECT, {}),  # Tensor.numpy in the forward: FAIL_SHAM
    # torch gives neither a tensor nor a storage the buffer protocol: the answer fails on its own
    ("h_memoryview_tensor", SOFTMAX, RAW + [{"expect": "FAIL_RUNTIME"}], {}),
    ("h_borrowed_filename_as_tensor_init", SOFTMAX,
     RAW + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}], {}),
    ("h_borrowed_filename_harness_phase_alias", SOFTMAX,
     RAW + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}], {}),
    ("h_gadget_default_convert_harness_phase", SOFTMAX,
     RAW + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}], {}),
    # round 3: gadgets in the harness's own code (its phase, no frame of the answer's)
    # transport.Writer.write takes only its own writer, mapping, torch and plain tensors: the answer then fails on
    # its own (FAIL_RUNTIME)
    ("h_gadget_transport_writer_torch_function", SOFTMAX,
     RAW + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}, {"expect": "FAIL_RUNTIME"}], {}),
    ("h_gadget_trusted_code_answer_globals", SOFTMAX,
     RAW + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}, {"expect": "FAIL_RUNTIME"}], {}),
    # the data path's torch.frombuffer takes only a mapping the harness registered before the answer loaded, and
    # only in the write after a forward window (trusted.cpp mapping_call_refused); a refusal there is tampering
    ("h_gadget_builtins_defeat_writer_checks", SOFTMAX, DATA_PATH, {}),
    ("h_gadget_writer_real_mapping_inputs", SOFTMAX, DATA_PATH, {}),
    ("h_gadget_writer_mapping_subrange", SOFTMAX, DATA_PATH, {}),
    ("h_gadget_writer_remapped_mapping", SOFTMAX, DATA_PATH, {}),
    ("h_wall_register_own_mapping", SOFTMAX, DATA_PATH, {}),
    ("h_gadget_native_save_numpy", SOFTMAX, RAW + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}],
     {}),
    # refused at the harness's frombuffer (answer_hook), or earlier: the mode's code, under torch's file name,
    # runs the harness's ops in its phase (FAIL_SHAM)
    ("h_gadget_torch_function_mode_output_map", SOFTMAX, REJECT, {}),
    # torch's ops in the harness's phase from code the answer compiled under a borrowed file name (its parameters(),
    # which the harness reads in the free phase since round 7, before the inputs exist: it finds none, FAIL_RUNTIME)
    ("h_borrowed_filename_harness_phase_compute", SOFTMAX, REJECT + [{"expect": "FAIL_RUNTIME"}], {}),
    ("h_fresh_filename_harness_phase_compute", SOFTMAX,
     REJECT + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}, {"expect": "FAIL_RUNTIME"}], {}),
    # round 5: compute with no op (Tensor.apply_ runs a Python function per element in C++)
    ("h_apply_python_compute", SOFTMAX, REJECT, {}),
    # the answer's code in the harness's phase after a window (an instance attribute of the harness's Child object
    # it shadows): reading the input to Python there, or rewriting the output mapping after the write
    ("h_harness_attr_tolist_compute", SOFTMAX, REJECT + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}],
     {}),
    ("h_harness_attr_mapping_fixup", SOFTMAX, MAPPING_FIXUP, {}),
    # round 7: against the read-only output mapping (trusted.cpp w_write, w_map_shared)
    ("h_mapping_fixup_proc_mem", SOFTMAX, MAPPING_FIXUP, {}),
    ("h_mapping_fixup_thread", SOFTMAX, MAPPING_FIXUP, {}),
    ("h_mapping_fixup_readv", SOFTMAX, MAPPING_FIXUP, {}),
    ("h_mapping_fixup_fd_remap", SOFTMAX, MAPPING_FIXUP, {}),
    ("h_mapping_fixup_wall_write", SOFTMAX, MAPPING_FIXUP, {}),
    # the task module's names: the check's seed learnt while the inputs are made
    ("h_task_module_seed_leak", SOFTMAX, SEED_SEALED, {}),
    # the device context's frame is passed over only for the task's own call
    ("h_gadget_device_context_direct", SOFTMAX, RAW + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}],
     {}),
    # round 6: values to Python past REFUSE_READ (a storage's bytes: ops)
    ("h_harness_attr_storage_read", SOFTMAX, REJECT + [{"expect": "UNVERIFIABLE", "reason": "RAW_MEMORY_HARNESS"}],
     {}),
    # the device context's constructor set (an lru_cache's mutable result, in no snapshot) runs the
    # answer's __eq__ while torch holds the check's seed
    ("h_device_ctors_set_seed_leak", SOFTMAX, SEED_SEALED, {}),
    ("h_device_ctors_name_swap", SOFTMAX, SEED_SEALED, {}),
    # the same leak through DeviceContext's own method, which the wall snapshots (against 68e46db/round 5)
    ("h_device_context_method_swap", SOFTMAX, SEED_SEALED, {}),
    # the answer's code while the harness makes a check's inputs: a thread started in the free phase (rejected only
    # because it seldom gets the GIL in that moment), a signal handler on a timer, a profile function
    ("h_free_phase_thread_seed_leak", SOFTMAX, SEED_SEALED, {}),
    ("h_signal_timer_seed_leak", SOFTMAX, SEED_SEALED, {}),
    ("h_profile_func_seed_leak", SOFTMAX, SEED_SEALED, {}),
    ("h_build_line_directive_leak", SOFTMAX,
     [{"expect": "FAIL_COMPILE"}, {"expect": "FAIL_STATIC"}, {"expect": "FAIL_RUNTIME"}],
     {"planted_file": {"content": "sieve-wall2-planted-7f3c1e"}, "static_twin": False}),
    # round 22 (helper red22 against 7012e69), all PASS with stage 0 skipped on the CPU: torch's op run by triton's
    # interpreter for the answer (a pre-run hook, or a helper under a triton file name) inside its interpreted launch,
    # with the answer's frames past the 200 the wall read; the interpreter's exemption for its own copies let it by
    ("h_r22_pre_run_hook_fake_forward", SOFTMAX, REJECT_OR_WRONG, INTERPRETER_ONLY),
    ("h_r22_pre_run_hook_deep_stack", SOFTMAX, REJECT_OR_WRONG, INTERPRETER_ONLY),
    ("h_r22_pre_run_hook_singledispatch_depth", SOFTMAX, REJECT_OR_WRONG, INTERPRETER_ONLY),
    ("h_r22_pre_run_hook_heuristics_depth", SOFTMAX, REJECT_OR_WRONG, INTERPRETER_ONLY),
    ("h_r22_kernel_body_deep_triton_name", SOFTMAX, REJECT_OR_WRONG, INTERPRETER_ONLY),
    # round 38 (helper, against e026787, stage 0 skipped): a core overload's kernel replaced (kernelbench), a
    # two-faced warmup flag and a kernel object whose fn is not what triton runs (torch's own Triton kernel)
    ("h_r38_aten_mm_kernel_override", SOFTMAX, REJECT, {"policy": "kernelbench"}),
    ("h_r38_py_impl_python_dispatcher_mm", SOFTMAX, REJECT, {"policy": "kernelbench"}),
    ("h_r38_warmup_two_faced_torch_kernel", SOFTMAX, REJECT, {}),
    ("h_r38_kernel_fn_swapped_torch_kernel", SOFTMAX, REJECT, {}),
    ("h_r38_warmup_compiled_kernel_launch", SOFTMAX, REJECT, {"gpu": True}),
    # round 39 (helper, against abba72b, stage 0 skipped): torch's Triton kernel called by the answer's as a device
    # function, or put into the interpreter's rewritten-function cache (the class's, under the answer's file name, or
    # the object's own, which triton reads first); a core op's kernel replaced for a dispatch key the wall does not
    # compare (AutocastCPU), or only inside a forward (kernelbench)
    ("h_r39_device_call_torch_kernel", SOFTMAX, CALLEE_REFUSED, {}),
    # closed by dropping the cache entry before each launch (interpreted_runs): the answer's own kernel then runs,
    # and writes zeros
    ("h_r39_rewritten_cache_torch_code", SOFTMAX, REJECT_OR_WRONG, INTERPRETER_CACHE),
    ("h_r39_instance_rewritten_fn_dict", SOFTMAX, REJECT_OR_WRONG, INTERPRETER_CACHE),
    ("h_r39_autocast_cpu_mm_kernel", SOFTMAX, REJECT, {"policy": "kernelbench"}),
    ("h_r39_mm_kernel_within_forward", SOFTMAX, REJECT, {"policy": "kernelbench"}),
    # round 40 (mine, against the callee walk, callees.cpp): torch's Triton kernel reached from the answer's kernel
    # through a patched tl attribute, its plain fn, a constexpr argument, a default, an object's __getattr__, a
    # staticmethod, a tuple; and three races with the walk: a grid function, an argument's __getattr__ and a helper
    # that stores a global (refused before the launch, or seen by the walk made again after it)
    ("h_r40_callee_patched_tl_attr", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_plain_fn", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_constexpr_arg", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_default_arg", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_getattr_object", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_staticmethod_holder", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_in_tuple", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_grid_swap", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_arg_hasattr_swap", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_helper_global_store", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_helper_globals_dict", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_callee_getattr_string", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    # round 40, a helper's red team against the name walk of c48b814 (all PASS there): torch's kernel reached
    # through slots, a deep tuple, getattr by a built name, attrgetter, functools.partial, a cell, a metaclass, a
    # class held by triton.language, a list held by it, nn.Module's __getattr__, a UserDict, a plain function or
    # helper reached through an attribute, and linecache lines that make the interpreter compile torch's call into
    # the answer's empty kernel: the device-call hooks (callees.cpp) judge what triton compiles or calls
    ("h_r40_rt_slots", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_deep_tuple", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_getattr_str", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_attrgetter", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_partial", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_cell", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_metaclass_attr", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_tl_class_attr", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_tl_all_list", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_nn_module_getattr", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_userdict", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_indirect_plain_fn", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_indirect_answer_helper", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    ("h_r40_rt_linecache", SOFTMAX, CALLEE_REFUSED, CALLEE_GPU),
    # mine, against 8f79e33 (an answer's cache entry dropped once a launch): planted inside the launch, between two
    # calls of the answer's device function
    ("h_r40_cache_plant_mid_launch", SOFTMAX, REJECT_OR_WRONG, INTERPRETER_CACHE),
    # round 41, a helper's red team against ec41991 (all six PASSed with stage 0 skipped, on the CPU): the interpreter
    # runs a kernel's body as Python. Mended then: a raw store through triton's C function (the gate's own bounds
    # check, ffi.cpp outside_launch), a cache entry planted for one of triton's own device functions (dropped at every
    # launch), a kernel function whose __wrapped__ is torch's (refused); and in round 43 the rest, Python called from a
    # kernel's body (numpy on a tile's handle, torch's kernel text compiled under the answer's or the standard
    # library's file name): the kernel watch (callees.cpp kernel_calls)
    ("h_r41_interp_raw_clear_violations", SOFTMAX, R41, INTERPRETER_ONLY),
    ("h_r41_own_kernel_cache_plant", SOFTMAX, R41, INTERPRETER_CACHE),
    ("h_r41_wrapped_torch_source", SOFTMAX, R41, {}),
    ("h_r41_interp_numpy_handle", SOFTMAX, R41, INTERPRETER_ONLY),
    ("h_r41_torch_src_compiled_as_answer", SOFTMAX, R41, INTERPRETER_ONLY),
    ("h_r41_torch_src_compiled_as_stdlib", SOFTMAX, R41, INTERPRETER_ONLY),
    # round 42, a helper's red team against 8292484's three mends (all six PASSed with stage 0 skipped, CPU): the gate's
    # bounds check read a mask broadcast as numpy does and the arrays through the buffer protocol, where triton's C
    # function indexes the mask flat and reads __dlpack__; a cache key that compares equal to the wall's lookup only
    # when triton asks; a plant from the grid function, after the launch's drop; the rewriter reading torch's text
    # through linecache.lazycache once the answer's file is moved away. All mended in round 43: exact arrays of the
    # pointers' shape, a cache of functions' entries only, triton's own rewritten by the wall at each device call,
    # linecache seeded with the answer's text; and the kernel watch refuses the helpers they start from
    ("h_r42_mask_shape_clear_violations", SOFTMAX, R41, R42_GPU),
    ("h_r42_dlpack_two_faced_ptrs_clear_violations", SOFTMAX, R41, R42_GPU),
    ("h_r42_own_cache_two_faced_key", SOFTMAX, R41, R42_GPU),
    ("h_r42_answer_cache_two_faced_key", SOFTMAX, R41, R42_GPU),
    ("h_r42_own_cache_plant_in_grid", SOFTMAX, R41, R42_GPU),
    ("h_r42_moved_file_lazy_torch_source", SOFTMAX, R41, R42_GPU),
    # round 43, written against the kernel watch and round 42's mends (CPU): a combine function's fn that triton's
    # interpreter calls itself, the watch taken out by the grid function, torch's kernel text under triton's own file
    # name, linecache's lines planted for triton's standard.py, and numpy's operators in the kernel's own body (the
    # open end: a known gap on the CPU)
    ("h_r43_combine_fn_plain_numpy", SOFTMAX, R41, R42_GPU),
    ("h_r43_setprofile_in_grid", SOFTMAX, R41, R42_GPU),
    ("h_r43_torch_src_as_triton_file", SOFTMAX, R41, R42_GPU),
    ("h_r43_linecache_triton_plant", SOFTMAX, R41, R42_GPU),
    ("h_r43_body_numpy_operators", SOFTMAX, R41, R42_GPU),
    # round 44 (a helper's red team against the kernel watch, CPU)
    ("h_r44_tile_stash_across_launches", SOFTMAX, R41, R42_GPU),
    ("h_r44_stdlib_trampoline_foreign_code", SOFTMAX, R41, R42_GPU),
    ("h_r44_assign_class_property_foreign", SOFTMAX, R41, R42_GPU),
    ("h_r44_grid_getitem_between_programs", SOFTMAX, R41, R42_GPU),
    ("h_r44_thread_off_main", SOFTMAX, R41, R42_GPU),
    ("h_r44_rewrite_window_tokenize_hook", SOFTMAX, R41, R42_GPU),
    ("h_r44_kernel_code_renamed", SOFTMAX, R41, R42_GPU),
    ("h_r45_grid_fn_raw_load_store", SOFTMAX, R41, R42_GPU),
    ("h_r45_del_at_kernel_return", SOFTMAX, R41, R42_GPU),
    ("h_r45_patch_lang_module_eq", SOFTMAX, R41, R42_GPU),
    ("h_r45_settrace_line_tracer", SOFTMAX, R41, R42_GPU),
    ("h_r45_c_chain_builtin_max", SOFTMAX, R41, R42_GPU),
    ("h_r45_helper_named_as_kernel", SOFTMAX, R41, R42_GPU),
    ("h_r45_exception_repr_after_programs", SOFTMAX, R41, R42_GPU),
    ("h_r46_del_in_launch_from_grid", SOFTMAX, R41, R42_GPU),
    ("h_r46_grid_wrapper_reused", SOFTMAX, R41, R42_GPU),
    ("h_r46_grid_runs_programs", SOFTMAX, R41, R42_GPU),
    # round 47 (mine, against the walls as a whole: a channel from the kernel's data to the host that no op sees)
    ("h_r47_device_print_leak", SOFTMAX, REJECT_OR_WRONG,
     {"expect_gpu": {"expect_any": REJECT_OR_WRONG + [{"expect": "FAIL_COMPILE"}],
                     "doc": "on the GPU hosts the refusal is raised inside triton's code generator, which reports a "
                            "compile error (seen on the H100, 2026-12-07)"}}),
    ("h_r47_static_print_leak", SOFTMAX, REJECT_OR_WRONG, {}),
    ("h_r47_static_print_restored", SOFTMAX, REJECT_OR_WRONG, {}),
    # round 48 (a helper's red team against round 47's mend, CPU): other ways for a tile to reach the forward
    ("h_r48_static_assert_message", SOFTMAX, R41, R48_GPU),
    ("h_r48_oob_address_message", SOFTMAX, R41, R48_GPU),
    ("h_r48_multiple_of_attr_sink", SOFTMAX, R41, R48_GPU),
    ("h_r48_traceback_frame_locals", SOFTMAX, R41, R48_GPU),
    ("h_r48_python_assert_message", SOFTMAX, R41, R48_GPU),
    # round 49 (mine, against round 48's mend)
    ("h_r49_assert_caught_in_body", SOFTMAX, R41, R48_GPU),
    ("h_r47_cuda_host_compute", SOFTMAX, REJECT_OR_WRONG + [{"expect": "FAIL_STATIC", "reason": "EXTENSION_IMPORT"}],
     {"gpu": True, "backend": "cuda"}),
    ("h_r47_cuda_host_compute_aten", SOFTMAX, REJECT_OR_WRONG + [{"expect": "FAIL_STATIC", "reason": "EXTENSION_IMPORT"}],
     {"gpu": True, "backend": "cuda"}),
    ("h_r47_cuda_pinned_host_compute", SOFTMAX, REJECT_OR_WRONG + [{"expect": "FAIL_STATIC", "reason": "EXTENSION_IMPORT"}],
     {"gpu": True, "backend": "cuda"}),
]
LEGIT = [
    ("l2_vadd_autotune_heuristics", VADD, {}),
    ("l2_vadd_persistent", VADD, {}),
    ("l2_softmax_noncontig_output", SOFTMAX, {}),
    ("l2_softmax_scratch_in_buffer", SOFTMAX, {}),
    ("l2_cpp_stats_triton_normalize", SOFTMAX, CPU_WRITTEN),
    ("l2_cpp_loop_softmax", SOFTMAX, CPU_WRITTEN),
    ("l2_cpp_class_method_softmax", SOFTMAX, CPU_WRITTEN),
    ("l2_softmax_as_tensor_list", SOFTMAX, {}),
    ("l2_softmax_task_numpy_inputs", NUMPY_INPUTS, {}),
    ("l2_softmax_task_as_tensor_inputs", NUMPY_AS_TENSOR, {}),
    ("l2_kb_einsum_linear_relu", LINEAR_RELU, {"policy": "kernelbench"}),
    # round 38 (helper, against e026787): the Triton answers run under both policies. Stage 0 refuses a profiler
    # label in forward (record_function: TORCH_OP_IN_FORWARD, UNRESOLVED_CALL) by its rules: no static twin for the
    # labelled ones (as round 36's)
    ("l2_r38_softmax_core_named_labels", SOFTMAX, {"static_twin": False}),
    ("l2_r38_softmax_core_named_labels_kb", SOFTMAX,
     {"policy": "kernelbench", "answer": "answers/l2_r38_softmax_core_named_labels.py", "static_twin": False}),
    ("l2_r38_softmax_autotune_helper", SOFTMAX, {}),
    ("l2_r38_softmax_autotune_helper_kb", SOFTMAX,
     {"policy": "kernelbench", "answer": "answers/l2_r38_softmax_autotune_helper.py"}),
    ("l2_r38_kb_linear_in_core_label", LINEAR_RELU, {"policy": "kernelbench", "static_twin": False}),
    # round 39 (helper, against abba72b): a nested kernel calling device functions of the answer's file (what a check
    # of the functions a kernel calls, h_r39_device_call_torch_kernel, must let by)
    ("l2_r39_softmax_nested_kernel_helper", SOFTMAX, {}),
    ("l2_r39_softmax_nested_kernel_helper_kb", SOFTMAX,
     {"policy": "kernelbench", "answer": "answers/l2_r39_softmax_nested_kernel_helper.py"}),
    # round 40 (mine): stage 0 refuses a kernel calling its own parameter (NORMALIZE, a device function passed as a
    # constexpr: UNRESOLVED_CALL), so the runtime walls alone judge it: no static twin
    ("l2_r40_softmax_callees", SOFTMAX, {"static_twin": False}),
    ("l2_r40_softmax_callees_kb", SOFTMAX,
     {"policy": "kernelbench", "answer": "answers/l2_r40_softmax_callees.py", "static_twin": False}),
    # the three the name walk of c48b814 refused (a helper's red team): an IntEnum constexpr, and attribute names of
    # tl (softmax, cast) that the answer's module also imports from torch and typing. Stage 0 refuses the imports of
    # the first two (enum; a function imported from torch.nn.functional): no static twin
    ("l2_r40_rt_intenum_constexpr", SOFTMAX, {"static_twin": False}),
    ("l2_r40_rt_import_name_collision", SOFTMAX, {"static_twin": False}),
    ("l2_r40_rt_typing_cast_collision", SOFTMAX, {}),
    # round 41 (helper): a device function of the answer's own between load and store, a kernel made in a factory
    # function, two launches (statistics, then the normalisation)
    ("l2_r41_softmax_own_device_fn", SOFTMAX, {}),
    ("l2_r41_softmax_kernel_factory", SOFTMAX, {}),
    ("l2_r41_softmax_two_launch", SOFTMAX, {}),
    # round 42 (helper): 2-D tiles with a (ROWS, 1) & (1, BLOCK) mask; tl.reshape and tl.ravel between load and store
    ("l2_r42_softmax_2d_broadcast_mask", SOFTMAX, {}),
    ("l2_r42_softmax_tl_ravel_reshape", SOFTMAX, {}),
    ("l2_r43_softmax_reduce_combine", SOFTMAX, {}),
]

# the doc line of a round's fixtures starts with the round (as in the manifest's round-36 entries)
ROUND_DOC = {"r38": "Red team round 38 (helper, against e026787): ",
             "r39": "Red team round 39 (helper, against abba72b): ",
             "r41": "Red team round 41 (helper, against ec41991): "}


def round_doc(name, doc):
    for tag, prefix in ROUND_DOC.items():
        if name.startswith((f"h_{tag}_", f"l2_{tag}_")):
            return prefix + doc
    return doc

# filled in from the CPU run (see the report): what lets each one through today
KNOWN_GAPS = {
    # round 49 (mine, against round 48's mend): the body's class
    "h_r49_assert_caught_in_body": "the kernel's own body catches the assert it raised with a tile as the message and "
                                   "keeps its text in a module list: no error leaves the launch, so the wall's latch "
                                   "sees none (the body's class under the interpreter: stage 0 refuses the try, "
                                   "triton's code generator on the GPU too)",
    # round 47 (mine): the built-module judge allows cudaMemcpy (kernel wrappers upload tables with it)
    "h_r47_cuda_host_compute": "the wrapper's host code does the work between a device-to-host and a host-to-device "
                               "cudaMemcpyAsync (both on the import allowlist), and its own copy kernel writes the "
                               "output: no op, no refused symbol, the probe satisfied (PASS on the H100, 2026-12-07)",
    "h_r47_cuda_host_compute_aten": "as h_r47_cuda_host_compute with Tensor::to(kCPU) and back (the op _to_copy, a "
                                    "copy, which the strict policy allows) instead of cudaMemcpy (PASS on the H100)",
    "h_r47_cuda_pinned_host_compute": "as h_r47_cuda_host_compute through a pinned host buffer the GPU reaches by "
                                      "unified addressing (its own kernel copies in and out): no copy op, no "
                                      "cudaMemcpy (PASS on the H100)",
    "h_r47_cuda_host_compute_static": "stage 0's C++ scan finds nothing to refuse either: host code and cudaMemcpy "
                                      "are what a wrapper is made of (PASS on the H100)",
    "h_r47_cuda_host_compute_aten_static": "stage 0 lets Tensor::to(kCPU) by, a copy (PASS on the H100)",
    "h_r47_cuda_pinned_host_compute_static": "stage 0 lets a pinned allocation by (PASS on the H100)",
    # round 18: the build folder is checked when gcc starts and written while it runs (a thread of the answer's)
    "h_r18_late_header_in_build_folder": "a race with triton's own launcher build: a header written into its "
                                         "temporary folder after fork_exec's check; a launcher built outside the "
                                         "candidate closes it (on the CPU, triton 3.9 builds no launcher: PASS)",
    # round 15 (helper red15 against 67a0cbb): PASS with stage 0 skipped
    "h_r12_bufferedreader_uaf_raw_memory": "CPython 3.11's own use-after-free (io.BufferedReader's readinto view of "
                                           "its freed buffer) gives raw memory in pure Python; stage 0 refuses it",
    # round 33 (helper, against 431c1c0): policy kernelbench trusts what a core op computes
    "h_r33_sdpa_softmax": "by decision under policy kernelbench: scaled_dot_product_attention is a core op whose "
                          "insides go unjudged, and with a zero query and key its additive mask is a softmax of the "
                          "input (the strict policy refuses it; judging its insides would refuse legitimate fused "
                          "attention, whose ops differ by backend)",
    "h_r33_sdpa_softmax_static": "by decision under policy kernelbench: stage 0 keeps "
                                 "scaled_dot_product_attention as a core op whatever its operands",
    "h_r33_tensordot_outer": "under policy kernelbench the wall judges tensordot's insides, but dims=0 dispatches an "
                             "mm with an inner size of 1, and mm is core (the wall sees no operand sizes: it records "
                             "ops without their inputs); stage 0 refuses it",
    "h_r33_einsum_dot_pairs_vadd": "by decision under policy kernelbench: a contraction of size 2 is a bmm, a core op, "
                                   "like a GEMM with a ones vector, which the rule allows; the answer's kernels only "
                                   "lay out the operands (the strict policy refuses it)",
    "h_r33_einsum_dot_pairs_vadd_static": "as h_r33_einsum_dot_pairs_vadd: stage 0 reads a contraction",
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
    # round 43 (against the kernel watch), CPU only: what no call shows
    "h_r43_body_numpy_operators": "under the CPU interpreter the kernel's own body computes with numpy's ufuncs and "
                                  "operators on its tile's handle (no call the kernel watch is told of); triton's "
                                  "code generator refuses the body on the GPU; stage 0 refuses it",
    # round 44 (a helper's red team against the kernel watch), CPU: PASS with stage 0 skipped; six of the seven
    # closed in the next session (the interpreter's arrays outlive their launch still)
    "h_r44_tile_stash_across_launches": "the kernel watch runs only inside a launch: a first launch keeps its loaded "
                                        "tiles, the forward computes numpy's softmax on their arrays between "
                                        "launches, and a second launch stores them",
    # round 45 (a helper's red team against round 44's mends), CPU: seven PASSed with stage 0 skipped; one is open
    "h_r45_c_chain_builtin_max": "a pipeline of C objects only (numpy's ufuncs with out=, map, methodcaller) that the "
                                 "kernel's body drives with Python's max: C calling C, no call the watch is told of, "
                                 "the class of h_r43_body_numpy_operators; triton's code generator refuses the body on "
                                 "the GPU; stage 0 refuses it",
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
        on_gpu = extra.pop("expect_gpu", None)  # the attack's own fixture only: its static twin is FAIL_STATIC anywhere
        fx = {"name": name, "task": task, "task_meta": meta, "answer": f"answers/{name}.py", "backend": "triton",
              "expect": expect_any[0]["expect"], "reason": expect_any[0].get("reason"), "expect_any": expect_any,
              "gpu": gpu, "skip_static": True, "doc": round_doc(name, doc_of(f"{name}.py")), **extra}
        if on_gpu:
            fx["expect_gpu"] = on_gpu
        if name in KNOWN_GAPS:
            fx["known_gap"] = KNOWN_GAPS[name]
        out.append(fx)
        if twin:
            out.append({"name": f"{name}_static", "task": task, "task_meta": meta, "answer": f"answers/{name}.py",
                        "backend": "triton", "expect": "FAIL_STATIC", "reason": None, "gpu": gpu,
                        "skip_static": False, "doc": round_doc(name, "the same answer with stage 0"), **extra})
            if f"{name}_static" in KNOWN_GAPS:
                out[-1]["known_gap"] = KNOWN_GAPS[f"{name}_static"]
    for name, (task, meta), extra in LEGIT:
        if name in SLOW_BUILD:
            extra = {**extra, "timeouts": {"compile": 600}}
        extra = dict(extra)
        twin = extra.pop("static_twin", True)
        fx = {"name": name, "task": task, "task_meta": meta, "answer": f"answers/{name}.py", "backend": "triton",
              "expect": "PASS", "reason": None, "gpu": False, "skip_static": True,
              "doc": round_doc(name, doc_of(os.path.basename(extra.get("answer", f"{name}.py")))), **extra}
        if name in KNOWN_GAPS:
            fx["known_gap"] = KNOWN_GAPS[name]
        out.append(fx)
        if not twin:
            continue
        out.append({**fx, "name": f"{name}_static", "skip_static": False,
                    "doc": round_doc(name, "the same answer with stage 0")})
        out[-1].pop("known_gap", None)
        if f"{name}_static" in KNOWN_GAPS:
            out[-1]["known_gap"] = KNOWN_GAPS[f"{name}_static"]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "manifest.json")
    # fixtures written into the manifest by hand (round 36's) are kept as they are
    ours = {name for name, *_ in HOSTILE + LEGIT}
    if os.path.exists(path):
        with open(path) as f:
            out += [fx for fx in json.load(f)["fixtures"]
                    if fx["name"] not in ours and fx["name"].removesuffix("_static") not in ours]
    with open(path, "w") as f:
        json.dump({"version": 1, "protocol_checks": False, "fixtures": out}, f, indent=1)
        f.write("\n")
    print(f"{len(out)} fixtures -> {path}")


if __name__ == "__main__":
    main()
