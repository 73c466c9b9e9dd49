#!/usr/bin/env bash
# The README's first command on a fresh Debian 12 machine: a new minbase root (debootstrap, see
# debian-root.sh), the checkout copied in (what git tracks or would add, no build/), then `./setup.sh`
# run inside it as root with nothing else installed, so every Debian package it needs has to come from
# setup.sh's own list. Then the products are checked: sieve-cli and sieve built, the demo corpus
# verified headless, and the workbench started offscreen. With --test, `./setup.sh test` follows in the
# same root (the whole suite, plus the Slurm packages it adds).
# Ends with exactly one line, `fresh setup: ok` or `fresh setup: FAILED at <step>` (exit status 1).
#
# Usage: tests/fresh/check-fresh.sh [--test]      (needs root)
#   SIEVE_FRESH_DROP_PACKAGE="p1 p2"  remove these from setup.sh's apt list in the copy (the negative
#                                     check: with libqt6opengl6-dev removed it must fail at configure)
#   SIEVE_FRESH_CCACHE=0   build without the host's compiler cache (a cold build, as a new machine has)
#   SIEVE_FRESH_KEEP=1     keep the root afterwards (its path is printed)
#   SIEVE_FRESH_CACHE      base tarball and downloaded .debs (default ~/.cache/sieve/fresh)
#   SIEVE_VENV             the host's verifier environment to lend the root (default ~/.cache/sieve/venv)
#
# What is shared with the host, and why it does not weaken the check:
# - the verifier's Python environment (5+ GiB of torch/triton wheels), bind-mounted read-only at its
#   host path when it imports torch, triton, numpy, tokenizers and datasketch, so setup.sh finds it
#   complete and downloads nothing. A venv's python is a symlink to the interpreter it was made from:
#   when that lives outside /usr (pyenv, a self-built Python), its prefix is bind-mounted read-only as
#   well; when it is the distribution's /usr/bin/python3, the root's own python3 serves it, which only
#   exists there if setup.sh's list installs it. With no usable host venv, setup.sh makes one in the root.
# - the compiler cache (rw, with the host's ccache settings) and the apt download folder (.debs only;
#   apt still resolves and installs every package from setup.sh's list, against fresh indexes).
# - the checkout sits at its host path inside the root, so ccache's paths match the host's builds.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/debian-root.sh"
root_enter_private_mounts "$0" "$@"

with_test=0
for a in "$@"; do
  case "$a" in --test) with_test=1 ;; *) echo "usage: $0 [--test]" >&2; exit 2 ;; esac
done

step_names=() step_secs=() step="" step_t0=0 failed=""
begin() { finish_step; step=$1 step_t0=$(date +%s); printf '\n== %s\n' "$step"; }
finish_step() {
  [ -n "$step" ] || return 0
  step_names+=("$step"); step_secs+=($(($(date +%s) - step_t0))); step=""
}
fail() { failed=${step:-start}; [ -n "${1:-}" ] && echo "$1" >&2; exit 1; }
# setup.sh in the root, its output kept; a failure names setup.sh's phase too ("./setup.sh: configure").
run_setup() {
  in_root bash -c "cd '$repo' && ./setup.sh $* 2>&1 | tee /tmp/setup.log; exit \${PIPESTATUS[0]}" && return 0
  local phase; phase=$(sed -n 's/.*FAILED in \([^[:cntrl:]]*\).*/\1/p' "$root_dir/tmp/setup.log" | tail -1)
  failed="$step${phase:+: $phase}"; exit 1
}
report() {
  local rc=$? i
  [ -n "$failed" ] || [ "$rc" -eq 0 ] || failed=${step:-start}
  finish_step
  root_release
  if [ ${#step_names[@]} -gt 0 ]; then
    echo; echo "time per step:"
    for i in "${!step_names[@]}"; do printf '  %-34s %5d s\n' "${step_names[$i]}" "${step_secs[$i]}"; done
  fi
  if [ -z "$failed" ]; then echo "fresh setup: ok"; exit 0; fi
  echo "fresh setup: FAILED at $failed"; exit 1
}
trap report EXIT
trap 'exit 130' INT TERM

begin "fresh Debian 12 root"
root_create sieve-fresh || fail "could not make the root"
root_mount || fail "could not mount /proc, /sys, /dev, /run in $root_dir"
echo "root: $root_dir ($(in_root dpkg-query -W -f='.\n' | wc -l) packages)"

begin "copy the checkout"
mkdir -p "$root_dir$repo"
(cd "$repo" && git ls-files -z -co --exclude-standard |
   while IFS= read -r -d '' f; do [ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"; done |
   tar --null -T - -cf -) | tar -C "$root_dir$repo" -xf - || fail "could not copy $repo"
echo "$repo: $(find "$root_dir$repo" -type f | wc -l) files, no build/"
for p in ${SIEVE_FRESH_DROP_PACKAGE:-}; do
  # Only setup.sh's apt list (the apt_packages=(...) lines) loses the word.
  sed -i -E "/^apt_packages=\(/,/\)/ s/(^|[( ])$p([ )]|\$)/\1\2/" "$root_dir$repo/setup.sh"
  sed -n -E '/^apt_packages=\(/,/\)/p' "$root_dir$repo/setup.sh" | grep -qw -- "$p" &&
    fail "could not remove $p from setup.sh's apt list"
  cmp -s "$repo/setup.sh" "$root_dir$repo/setup.sh" && fail "$p is not in setup.sh's apt list"
  echo "removed from setup.sh's apt list: $p"
done

begin "share caches (venv, ccache, .debs)"
mkdir -p "$root_cache/apt-archives/partial"
root_bind "$root_cache/apt-archives" /var/cache/apt/archives || fail
venv=${SIEVE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sieve/venv}
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import torch, triton, numpy, tokenizers, datasketch' 2>/dev/null; then
  root_bind "$venv" "$venv" ro || fail
  [ "$venv" = /root/.cache/sieve/venv ] || root_env+=("SIEVE_VENV=$venv")
  home=$(sed -n 's/^home *= *//p' "$venv/pyvenv.cfg")
  case "$home" in
    /usr/*) echo "venv $venv (read-only), interpreter from the root's own python3 ($home)" ;;
    */bin) root_bind "${home%/bin}" "${home%/bin}" ro || fail
           echo "venv $venv and its interpreter ${home%/bin} (read-only)" ;;
    *) fail "cannot tell the interpreter of $venv (home = $home)" ;;
  esac
else
  echo "no usable venv at $venv: setup.sh creates one in the root (downloads torch)"
fi
if [ "${SIEVE_FRESH_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null; then
  cdir=$(ccache -k cache_dir); mkdir -p "$cdir"
  root_bind "$cdir" /ccache || fail
  root_env+=(CCACHE_DIR=/ccache "CCACHE_MAXSIZE=$(ccache -k max_size)" "CCACHE_COMPILERCHECK=$(ccache -k compiler_check)")
  [ -n "$(ccache -k base_dir)" ] && root_env+=("CCACHE_BASEDIR=$(ccache -k base_dir)")
  [ "$(ccache -k hash_dir)" = false ] && root_env+=(CCACHE_NOHASHDIR=1)
  [ -n "$(ccache -k ignore_options)" ] && root_env+=("CCACHE_IGNOREOPTIONS=$(ccache -k ignore_options)")
  echo "ccache: $cdir, shared (${root_env[*]})"
else
  root_env+=(CCACHE_DISABLE=1)
  echo "ccache: not shared, a cold build"
fi

begin "./setup.sh"
ccache_before=$(ccache -s 2>/dev/null | grep -E '^ +Hits:' | head -1)
run_setup
echo "host ccache before: ${ccache_before:-?}; after: $(ccache -s 2>/dev/null | grep -E '^ +Hits:' | head -1)"

begin "sieve, sieve-cli and the verified demo"
build=$repo/build/dev
for b in app/sieve-cli app/sieve; do in_root test -x "$build/$b" || fail "not built: $build/$b"; done
in_root test ! -e "$build/tests/sieve_unit_tests" || fail "the demo built the test suite: $build/tests/sieve_unit_tests"
stats=$(in_root "$build/app/sieve-cli" stats "$build/demo.sieve") || fail "sieve-cli stats failed"
echo "$stats" | head -12
in_root "$build/app/sieve-cli" list "$build/demo.sieve" --json > "$root_dir/tmp/list.jsonl" || fail "sieve-cli list failed"
# The demo must really have been verified: every sample has a verdict, some pass, some fail (it ships both).
n_all=$(grep -c . "$root_dir/tmp/list.jsonl") n_pass=$(grep -cE '"status": ?"PASS"' "$root_dir/tmp/list.jsonl")
n_fail=$(grep -cE '"status": ?"FAIL_' "$root_dir/tmp/list.jsonl") n_pending=$(grep -cE '"status": ?"PENDING"' "$root_dir/tmp/list.jsonl")
echo "demo samples: $n_all, PASS $n_pass, FAIL_* $n_fail, PENDING $n_pending"
[ "$n_pass" -gt 0 ] && [ "$n_fail" -gt 0 ] && [ "$n_pending" -eq 0 ] || fail "the demo was not verified as expected"

begin "sieve --smoke (offscreen)"
in_root install -d -m 700 /tmp/xdg-runtime
in_root env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/xdg-runtime "$build/app/sieve" --smoke || fail

if [ "$with_test" = 1 ]; then
  begin "./setup.sh test"
  run_setup test
fi
finish_step
