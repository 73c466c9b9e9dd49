"""Reads confined (issue 30 point 5): landlock's read rules alone, without the mount namespace's hiding,
keep a world-readable host file from a restricted process, while the interpreter, torch and the task module
stay readable. Each case runs in a throw-away fork (landlock is for good)."""
import os
import shutil
import sys
import tempfile
import unittest

from sieve_worker.sandbox import sandbox


class LandlockReads(unittest.TestCase):
    def setUp(self):
        if sandbox.landlock_abi() < 1:
            self.skipTest("no landlock in this kernel")
        # outside /tmp, world-readable, as a file under /home or /work is
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/, not on sys.path
        self.dir = tempfile.mkdtemp(prefix=".planted-", dir=here)
        os.chmod(self.dir, 0o755)
        self.secret = os.path.join(self.dir, "secret.txt")
        self.task = os.path.join(self.dir, "task.py")
        for p, text in ((self.secret, "host secret\n"), (self.task, "X = 1\n")):
            with open(p, "w") as f:
                f.write(text)
            os.chmod(p, 0o644)
        self.scratch = tempfile.mkdtemp(prefix="sieve-reads-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(self.scratch, ignore_errors=True)

    def restricted(self, paths):
        """What a process restricted as a candidate (read_rules with the task module) reads of paths."""
        def probe():
            out = {}
            try:
                sandbox.no_new_privs()
                sandbox.landlock(sandbox.read_rules([self.task], own_proc=False), [self.scratch], [], ["/dev"])
            except OSError as e:
                return {"error": str(e)}
            for p in paths:
                try:
                    with open(p, "rb") as f:
                        out[p] = f.read(64).decode("latin-1")
                except OSError as e:
                    out[p] = f"refused: {e.errno}"
            return out
        return sandbox.in_fork(probe, {"error": "the probe died"})

    def test_host_files_are_refused_and_what_the_candidate_needs_is_not(self):
        torch_init = os.path.join(os.path.dirname(__import__("torch").__file__), "__init__.py")
        hostname = "/etc/hostname"
        got = self.restricted([self.secret, hostname, self.task, torch_init, os.__file__, "/proc/self/status",
                               "/etc/ld.so.cache"])
        self.assertNotIn("error", got)
        self.assertTrue(got[self.secret].startswith("refused"), got[self.secret])
        if os.path.exists(hostname):
            self.assertTrue(got[hostname].startswith("refused"), got[hostname])
        for p in (self.task, torch_init, os.__file__, "/proc/self/status", "/etc/ld.so.cache"):
            if os.path.exists(p):
                self.assertFalse(got[p].startswith("refused"), (p, got[p]))

    def test_the_rules_name_no_host_folder(self):
        rules = sandbox.read_rules([self.task])
        for host in ("/", "/etc", "/home", "/root", "/work", "/srv", "/mnt", "/opt"):
            self.assertNotIn(host, rules)
        self.assertIn(os.path.realpath(self.task), rules)
        self.assertIn(os.path.realpath(os.path.dirname(os.__file__)), rules)

    def test_host_roots_hide_what_is_not_system(self):
        roots = sandbox.host_roots()
        for system in ("/usr", "/etc", "/proc", "/dev", "/sys"):
            self.assertNotIn(system, roots)
        for host in ("/home", "/root", "/srv", "/mnt", "/opt"):
            if os.path.isdir(host) and not os.path.islink(host):
                self.assertIn(host, roots)


if __name__ == "__main__":
    sys.exit(unittest.main())
