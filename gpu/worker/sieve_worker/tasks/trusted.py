"""Long-lived trusted processes of the worker: the judge (judge.py) and the task servers (TaskServer:
references, reference timing, task checks). Each is forked from the worker before the worker touches CUDA, holds no fd of
the worker's but its own end of a socket pair, makes its device context once and keeps it for the whole
session, and answers one JSON line per request (fds attached by SCM_RIGHTS) with one JSON line:
{"res": ...} or {"error": "..."}, with "context_lost" beside either when a sticky device error broke its context
(context.py: it exits after that answer, and a fresh one takes the next request). No candidate code and no
candidate process ever reaches one: they see task code (the corpus's reference) and, for the judge, the bytes of a
candidate's outputs.

A process per task (the first design) paid for a CUDA context per task: 3-7 s under load, most of a
reference's time, and for each reference timing Inductor's import besides (bench/RESULTS.md, "Persistent
task servers").
"""
import gc
import json
import os
import socket
import sys

from .. import WORKER_DIR
from . import context


def exit_of(pid):
    """How the process pid (a child of this one) ended if it has ('killed by signal 9', 'exit status 1'),
    without waiting; None while it runs."""
    try:
        got = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except (ChildProcessError, OSError):
        return None
    if got is None:
        return None
    if got.si_code in (os.CLD_KILLED, os.CLD_DUMPED):
        return f"killed by signal {got.si_status}"
    return f"exit status {got.si_status}"


def ask_room(sock, nbytes):
    """From inside a request: asks the worker for nbytes of device memory (its admission promises them to
    this request until it answers) and waits until it grants them; returns the bytes granted."""
    sock.sendall((json.dumps({"need_gpu": int(nbytes)}) + "\n").encode())
    line = b""
    while not line.endswith(b"\n"):
        data = sock.recv(1 << 12)
        if not data:
            raise RuntimeError("the worker closed the task server's socket")
        line += data
    return int(json.loads(line).get("granted", 0))


def serve(sock, handler):
    """The server's loop (in the forked process): one request, one answer, until the worker closes. A
    handler with a `room` attribute gets ask_room for this socket there."""
    if hasattr(handler, "room"):
        handler.room = lambda nbytes: ask_room(sock, nbytes)
    pending = b""
    while True:
        fds = []
        while b"\n" not in pending:
            data, got, _, _ = socket.recv_fds(sock, 1 << 16, 4)
            fds += got
            if not data:
                return
            pending += data
        line, pending = pending.split(b"\n", 1)
        try:
            out = {"res": handler(json.loads(line), fds)}
        except BaseException as e:  # the worker decides what a failure of the harness means
            out = {"error": f"{type(e).__name__}: {e}"[:1000]}
        finally:
            for fd in fds:
                os.close(fd)
        lost = handler.lost() if hasattr(handler, "lost") else None
        if lost:  # a sticky device error (context.py): this process serves no more; the worker starts another
            out["context_lost"] = lost
        sock.sendall((json.dumps(out) + "\n").encode())
        if lost:
            return


class Server:
    """Worker side of one trusted server: forks it on start() (make_handler() runs in the child, once,
    before the first request is read: that is where the device context is made), sends requests and reads
    answers, blocking (call) or from the worker's event loop (send, then poll when the socket is readable)."""

    def __init__(self, name, make_handler, confine=None):
        """confine: a task server's sandbox (taskbox.confine_server's spec, with "device"): the server is then
        a fresh interpreter (python -m sieve_worker.tasks.trusted), not a fork, so that nothing of the worker's
        memory or environment (the operator's keys) is in it, and make_handler is not used."""
        self.name, self.make_handler, self.confine = name, make_handler, confine
        self.proc = self.sandbox = None
        self.last_exit = None  # how the last process ended, when it ended by itself (a death's evidence)
        self.pid = self.sock = None
        self.buf = b""
        self.busy = False

    def start(self):
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        if self.confine is not None:
            return self.start_confined(parent, child)
        worker = os.getpid()
        pid = os.fork()
        if pid == 0:
            try:
                parent.close()
                os.setpgid(0, 0)
                os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # task prints must not reach the protocol
                from ..sandbox import sandbox
                # The worker's garbage that holds fds (a finished job's buffer in a cycle) is collected
                # here, before its fds are closed under it: collected later, it would close whatever fd
                # took its number by then (a lock, this socket). What is alive stays alive (frozen).
                gc.collect()
                gc.freeze()
                sandbox.close_fds_except(child.fileno())  # no job's buffer or pipe lives on in here
                sandbox.bind_to_parent(worker)  # never outlive a worker that was killed
                serve(child, self.make_handler())
            except BaseException as e:
                print(f"{self.name}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
            finally:
                os._exit(0)
        child.close()
        self.pid, self.sock, self.buf = pid, parent, b""

    def start_confined(self, parent, child):
        import subprocess
        from ..sandbox import taskbox
        spec = dict(self.confine)
        from ..sandbox import sandbox
        env = taskbox.scrubbed_env({"PYTHONPATH": WORKER_DIR, **sandbox.parent_env(),
                                    "TORCHINDUCTOR_COMPILE_THREADS": "1", **(spec.pop("env", None) or {})})
        self.proc = subprocess.Popen([sys.executable, "-s", "-m", "sieve_worker.tasks.trusted", str(child.fileno()),
                                      json.dumps(spec)], env=env, pass_fds=(child.fileno(),), close_fds=True,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, cwd="/",
                                     start_new_session=True)
        child.close()
        self.pid, self.sock, self.buf = self.proc.pid, parent, b""

    def fileno(self):
        return self.sock.fileno()

    def send(self, req, fds=()):
        if self.sock is None:
            self.start()
        self.sock.settimeout(30)  # a request is small; a server that does not take it in 30 s is stuck
        data = (json.dumps(req) + "\n").encode()
        if fds:
            n = socket.send_fds(self.sock, [data], list(fds))
            if n < len(data):
                self.sock.sendall(data[n:])
        else:
            self.sock.sendall(data)

    def read_line(self):
        """One whole answer from the socket as it is set (blocking with a timeout, or not blocking)."""
        while True:
            while b"\n" not in self.buf:
                data = self.sock.recv(1 << 20)
                if not data:
                    raise RuntimeError(f"the {self.name} exited")
                self.buf += data
            line, self.buf = self.buf.split(b"\n", 1)
            msg = json.loads(line)
            if isinstance(msg, dict) and set(msg) == {"sandbox"}:  # a confined server's first line
                self.sandbox = msg["sandbox"]
                continue
            return msg

    def reply(self, obj):
        """An answer to the server's own question within a request (ask_room)."""
        self.sock.settimeout(30)
        self.sock.sendall((json.dumps(obj) + "\n").encode())

    def poll(self):
        """The answer if a whole one has arrived (None if not yet); RuntimeError if the server is gone."""
        self.sock.settimeout(0)
        try:
            return self.read_line()
        except (BlockingIOError, InterruptedError):
            return None
        except OSError as e:
            raise RuntimeError(f"the {self.name} failed: {e}") from None

    def call(self, req, fds=(), timeout=None):
        """Sends req and waits up to timeout s for the answer: RuntimeError (and the server stopped) if it
        exits or does not answer in time."""
        try:
            self.send(req, fds)
            self.sock.settimeout(timeout)
            return self.read_line()
        except (OSError, RuntimeError) as e:
            self.stop()
            raise RuntimeError(f"the {self.name} failed: {e}") from None

    def stop(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.pid:
            self.last_exit = exit_of(self.pid)
            try:
                os.killpg(self.pid, 9)
            except OSError:
                pass
            if self.proc is not None:
                self.proc.wait()
                self.proc = None
            else:
                try:
                    os.waitpid(self.pid, 0)
                except OSError:
                    pass
            self.pid = None
        self.buf, self.busy = b"", False


class TaskServer:
    """The request handler of a task server: runs the task's own code (the corpus's reference, never a
    candidate's) for one request at a time, in one process and one device context for the whole session.
    Requests, by "op":
      references  taskref.compute_references: the request as in task_prepare, with task_path, cache_dir
                  (where references go) and task_lock (a lock file per task, shared by the workers of other
                  GPUs, held while it computes)
      timing      reftiming.run: its ctx, with lock_path (the GPU's timing lock) and env (Inductor's and
                  Triton's cache folders, set before Inductor is first imported)
      check       check.check_task: the request as in check_task, with task_path
    Between requests it leaves nothing of the last task behind that the next could see or trip on: the
    task module is dropped from sys.modules, torch's defaults that task code may change are set again,
    compiled graphs are dropped, the device's cache is emptied (the candidates need the room), and the
    locks are released."""

    def __init__(self, device):
        import torch
        from . import taskref
        self.torch, self.taskref = torch, taskref
        self.device = torch.device(device)
        self.room = None  # set by serve: asks the worker for device memory within a request
        taskref.setup_device(self.device)
        if self.device.type == "cuda":
            torch.zeros(1, device=self.device)  # the context now, before the first task waits for it

    def __call__(self, req, fds):
        torch, taskref = self.torch, self.taskref
        before = set(sys.modules)
        torch.set_default_dtype(torch.float32)
        torch.set_grad_enabled(True)
        taskref.setup_device(self.device)
        op = req.get("op")
        try:
            if op == "references":
                # a confined server gets the task's lock file as an fd (its folder is not in its sandbox)
                lock = taskref.take_lock(req["task_lock"]) if not fds else taskref.take_lock_fd(os.dup(fds[0]))
                try:
                    return taskref.compute_references(req, req["task_path"], req["cache_dir"], room=self.room)
                except context.ContextLost as e:  # asked again in a fresh server, without the set (serving.py)
                    return {"ok": False, "shapes": [], "dropped_shapes": [], "hygiene": [],
                            "context_lost": {"set": e.set_name, "message": str(e)}}
                except BaseException as e:
                    return {"ok": False, "shapes": [], "dropped_shapes": [],
                            "hygiene": [{"code": "REF_FAILED", "message": f"{type(e).__name__}: {e}"[:1000]}]}
                finally:
                    os.close(lock)
            if op == "timing":
                os.environ.update(req["env"])
                from . import reftiming
                lock = os.open(req["lock_path"], os.O_RDWR) if not fds else os.dup(fds[0])
                try:
                    return reftiming.run(req["ctx"], lock)
                finally:
                    os.close(lock)
                    if "torch._dynamo" in sys.modules:
                        sys.modules["torch._dynamo"].reset()  # this task's compiled graphs
            if op == "check":
                from . import check
                return check.check_task(req, req["task_path"], str(self.device), room=self.room)
            raise ValueError(f"unknown op {op!r}")
        finally:
            for name in set(sys.modules) - before:
                if name.startswith("sieve_task"):
                    del sys.modules[name]
            gc.collect()
            context.empty_cache(self.device)

    def lost(self):
        """What fails in this server's device context, None while it works (context.lost)."""
        return context.lost(self.device)


def main():
    """python -m sieve_worker.tasks.trusted FD SPEC: a sandboxed task server (Server with confine=SPEC, JSON), started
    by the worker with a scrubbed environment and no fd but its socket FD. The sandbox (taskbox.confine_server,
    lock_server) is in place before the first request, so before any task code runs; what it applied is the
    first line on the socket ({"sandbox": {...}}), read by the worker with the first answer."""
    fd, spec = int(sys.argv[1]), json.loads(sys.argv[2])
    sock = socket.socket(fileno=fd)
    from ..sandbox import sandbox, taskbox
    sandbox.set_pdeathsig()
    applied = taskbox.confine_server(spec)
    handler = TaskServer(spec.get("device", "cpu"))
    taskbox.lock_server(spec, applied)
    os.environ.update({"TMPDIR": spec["scratch"]})
    import tempfile
    tempfile.tempdir = spec["scratch"]
    sock.sendall((json.dumps({"sandbox": applied}) + "\n").encode())
    serve(sock, handler)
    os._exit(0)


if __name__ == "__main__":
    main()
