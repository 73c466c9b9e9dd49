"""The candidate's seccomp filter on prctl: PR_SET_DUMPABLE may go to 0 (the runtime wall makes the candidate not
dumpable, so its /proc/self/mem is root's: ffi.cpp shut_raw) and never back to 1; the other refused options stay
refused. Each case runs in a throw-away fork (the filter is for good)."""
import ctypes
import os
import unittest

from sieve_worker.sandbox import sandbox

PR_GET_DUMPABLE, PR_SET_DUMPABLE, PR_SET_PDEATHSIG = 3, 4, 1


class SeccompPrctl(unittest.TestCase):
    def test_dumpable_may_go_to_zero_only(self):
        if sandbox.seccomp_arch() is None:
            self.skipTest("no seccomp filter for this machine")
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                sandbox.no_new_privs()
                sandbox.seccomp()
                res = [libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0),
                       libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), ctypes.get_errno(),
                       libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), libc.prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)]
                os.write(w, repr(res).encode())
            finally:
                os._exit(0)
        os.close(w)
        got = os.read(r, 1000).decode()
        os.waitpid(pid, 0)
        # set to 0: allowed; back to 1: EPERM, still 0; another refused option: refused
        self.assertEqual(got, repr([0, 0, -1, 1, 0, -1]))


if __name__ == "__main__":
    unittest.main()
