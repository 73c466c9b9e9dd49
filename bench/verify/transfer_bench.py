"""Moving one call's outputs between a candidate child and the judge, on a GPU (issue #16): 6.4 GB of fp32
(KernelBench's 4096 x 393216 activations) copied device -> memfd mapping -> device, pageable and page-locked
(cudaHostRegister, as transport.pin_mapping does), and whether CUDA IPC works across a uid change (the
candidate runs as another uid). Prints one line per measurement.

    python3 bench/verify/transfer_bench.py        (from the repository root, on the GPU host)
"""
import base64
import mmap
import os
import pickle
import subprocess
import sys
import time

if len(sys.argv) > 1 and sys.argv[1] == "--ipc-child":
    os.setresgid(65534, 65534, 65534)
    os.setresuid(65534, 65534, 65534)
    import torch
    a = torch.full((1 << 20,), 7.0, device="cuda:0")
    sys.stdout.write(base64.b64encode(pickle.dumps(a.untyped_storage()._share_cuda_())).decode() + "\n")
    sys.stdout.flush()
    time.sleep(8)
    sys.exit(0)

import numpy as np  # noqa: E402
import torch  # noqa: E402
dev = torch.device("cuda:0")
n = 4096 * 393216
nbytes = n * 4
def t(): torch.cuda.synchronize(); return time.perf_counter()
x = torch.rand(n, device=dev)
t0 = t(); y = torch.relu(x); t1 = t(); print(f"relu on device: {t1-t0:.4f} s")
t0 = t(); g = torch.Generator(device=dev); g.manual_seed(3); z = torch.rand(n, device=dev, generator=g); t1 = t(); print(f"rand on device: {t1-t0:.4f} s")
fd = os.memfd_create("buf")
os.ftruncate(fd, nbytes)
m = mmap.mmap(fd, nbytes, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
dst = torch.frombuffer(m, dtype=torch.float32, count=n)
for i in range(3):
    t0 = t(); dst.copy_(y); t1 = t(); print(f"child D2H pageable copy #{i}: {t1-t0:.3f} s ({nbytes/(t1-t0)/1e9:.1f} GB/s)")
cudart = torch.cuda.cudart()
ptr = dst.data_ptr()
t0 = time.perf_counter(); r = cudart.cudaHostRegister(ptr, nbytes, 0); t1 = time.perf_counter(); print(f"cudaHostRegister child mapping: rc={r} {t1-t0:.3f} s")
for i in range(3):
    t0 = t(); dst.copy_(y, non_blocking=False); t1 = t(); print(f"child D2H pinned copy #{i}: {t1-t0:.3f} s ({nbytes/(t1-t0)/1e9:.1f} GB/s)")
cudart.cudaHostUnregister(ptr)
# judge side: private writable mapping, chunked H2D as judge.py does today
CH = 1 << 26
def judge_pass(src, label):
    t0 = t()
    s = 0
    for off in range(0, n, CH):
        c = src[off:off+CH].to(dev)
        s += int((c != y[off:off+CH]).sum())
    t1 = t(); print(f"judge {label}: {t1-t0:.3f} s, bad={s}")
pm = mmap.mmap(fd, nbytes, mmap.MAP_PRIVATE, mmap.PROT_READ | mmap.PROT_WRITE)
src = torch.frombuffer(pm, dtype=torch.float32, count=n)
judge_pass(src, "private mapping, pageable #0")
judge_pass(src, "private mapping, pageable #1")
del src; pm.close()
sm = mmap.mmap(fd, nbytes, mmap.MAP_SHARED, mmap.PROT_READ)
arr = np.frombuffer(sm, dtype=np.float32, count=n)
src = torch.from_numpy(arr)
judge_pass(src, "shared ro mapping, pageable")
t0 = time.perf_counter(); r = cudart.cudaHostRegister(src.data_ptr(), nbytes, 8); t1 = time.perf_counter(); print(f"cudaHostRegister ReadOnly judge mapping: rc={r} {t1-t0:.3f} s")
judge_pass(src, "shared ro mapping, pinned")
judge_pass(src, "shared ro mapping, pinned again")
cudart.cudaHostUnregister(src.data_ptr())
t0 = t(); whole = src.to(dev); t1 = t(); print(f"judge whole H2D pageable: {t1-t0:.3f} s")
del whole
# full compare on device as judge.compare_flat does
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gpu", "worker"))
from sieve_worker.data import judge as J
t0 = t(); res = J.compare_flat(y, y.clone(), 1e-5, 1e-5); t1 = t(); print(f"compare_flat device/device: {t1-t0:.3f} s {res}")
# CUDA IPC across a uid change
p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--ipc-child"], stdout=subprocess.PIPE)
try:
    h = pickle.loads(base64.b64decode(p.stdout.readline()))
    t0 = time.perf_counter()
    s = torch.UntypedStorage._new_shared_cuda(*h)
    tt = torch.tensor([], dtype=torch.float32, device=dev).set_(s)
    print(f"CUDA IPC across uids: opened in {time.perf_counter()-t0:.4f} s, sum={float(tt[:1024].sum())}")
except Exception as e:
    print("CUDA IPC across uids failed:", type(e).__name__, e)
p.wait()
