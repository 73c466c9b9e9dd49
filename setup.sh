#!/usr/bin/env bash
# Sieve's one entry point on a fresh Debian 12 machine.
#   ./setup.sh          install what is missing, build, and open the workbench on the demo corpus
#                       (with no display: run the same job through sieve-cli and print a summary)
#   ./setup.sh test     install what is missing, build everything, and run the whole test suite
#   ./setup.sh build    install what is missing and build everything
#   ./setup.sh sanitize install what is missing, build the fuzzer and the unit tests with ASan+UBSan
#                       (preset sanitize: Clang, no Qt) and run them (ctest -L 'fuzz|unit'); any report
#                       fails
# The demo builds only what it runs (sieve and sieve-cli); at the end every mode prints how long each
# phase took.
# Environment: SIEVE_VENV (default ~/.cache/sieve/venv), SIEVE_BUILD_DIR (default build/dev),
#              SIEVE_PRESET (default dev; sanitize for the sanitize mode), SIEVE_SKIP_INSTALL=1 to skip
#              apt/pip, SIEVE_FUZZ_CASES (sanitize: cases per fuzz target, default 3000 as in ctest).
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-demo}
case "$mode" in demo|test|build|sanitize) ;; *) echo "usage: $0 [demo|test|build|sanitize]" >&2; exit 2;; esac

default_preset=dev
[ "$mode" = sanitize ] && default_preset=sanitize
preset=${SIEVE_PRESET:-$default_preset}
build_dir=${SIEVE_BUILD_DIR:-build/$preset}
export SIEVE_VENV=${SIEVE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sieve/venv}

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Phase timing: `phase NAME` closes the running phase and opens NAME; the summary is printed on exit,
# also when a phase fails (it then names the phase that was running).
phase_names=() phase_secs=() phase_now="" phase_start=0
phase() {
  local t; t=$(date +%s)
  if [ -n "$phase_now" ]; then phase_names+=("$phase_now"); phase_secs+=($((t - phase_start))); fi
  phase_now=$1 phase_start=$t
}
phase_summary() {
  local rc=$? total=0 i
  phase ""
  [ ${#phase_names[@]} -eq 0 ] && return
  printf '\033[1m==> time per phase (%s)%s\033[0m\n' "$mode" "$([ "$rc" -ne 0 ] && echo ", FAILED in ${phase_names[-1]}")" >&2
  for i in "${!phase_names[@]}"; do
    printf '    %-14s %5d s\n' "${phase_names[$i]}" "${phase_secs[$i]}" >&2
    total=$((total + phase_secs[i]))
  done
  printf '    %-14s %5d s\n' total "$total" >&2
}
trap phase_summary EXIT

apt_packages=(build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n libqscintilla2-qt6-dev libdtl-dev
  libgl1-mesa-dev libsqlite3-dev sqlite3 nlohmann-json3-dev libsimdjson-dev libzstd-dev liblz4-dev libxxhash-dev libssl-dev
  libgtest-dev libgmock-dev python3 python3-venv xvfb xauth)
# `./setup.sh test` also runs sharded verification through a real single-node Slurm (ctest label slurm).
# It also checks the C++ layout against .clang-format (tests/format/check-format.sh, from .ci/run).
if [ "$mode" = test ]; then apt_packages+=(slurmctld slurmd slurm-client munge clang-format); fi
# `./setup.sh sanitize` builds with Clang: one runtime for ASan and UBSan, so both write their reports to
# log_path (GCC's separate libubsan ignores it), and a cold build takes about a third less CPU than GCC's.
# llvm-14 brings llvm-symbolizer (file:line in the reports), libclang-rt-14-dev the sanitizer runtimes.
if [ "$mode" = sanitize ]; then apt_packages+=(clang libclang-rt-14-dev llvm-14); fi
py_packages=(torch triton numpy tokenizers jinja2 datasketch pytest)

install_apt() {
  local missing=()
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    # A Debian 12 installed with a root password has no sudo.
    command -v sudo >/dev/null || { echo "setup.sh: no sudo; as root run: apt-get install --no-install-recommends ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

install_venv() {
  local py="$SIEVE_VENV/bin/python"
  if [ -x "$py" ] && "$py" -c 'import torch, triton, numpy, tokenizers, jinja2, datasketch, pytest' 2>/dev/null; then
    return 0
  fi
  log "creating the verifier's Python environment in $SIEVE_VENV (torch, triton, numpy)"
  # Prefer the interpreter the machine ships; Debian's python3-venv works as well.
  python3 -m venv "$SIEVE_VENV"
  "$py" -m pip install -q --upgrade pip
  "$py" -m pip install -q "${py_packages[@]}"
}

build() {
  phase configure
  log "configuring ($preset) in $build_dir"
  local defs=()
  [ "$mode" = sanitize ] && defs+=(-DSIEVE_FUZZ_CASES="${SIEVE_FUZZ_CASES:-3000}")
  cmake --preset "$preset" -B "$build_dir" "${defs[@]}" >/dev/null
  phase build
  local targets=()
  if [ "$mode" = demo ]; then
    # The demo runs sieve-cli, then the workbench when the preset builds it: nothing else (no tests).
    targets=(--target sieve-cli)
    grep -q '^SIEVE_BUILD_GUI:BOOL=ON' "$build_dir/CMakeCache.txt" && targets+=(sieve)
  fi
  # What the sanitized run executes: the fuzzer and the unit tests (they build sieve-cli and run it).
  [ "$mode" = sanitize ] && targets=(--target sieve_fuzz sieve_unit_tests)
  log "building ${targets[*]:+${targets[*]:1} }($preset) in $build_dir"
  cmake --build "$build_dir" -j"$(nproc)" "${targets[@]}"
}

if [ "${SIEVE_SKIP_INSTALL:-0}" != 1 ]; then
  phase "install apt"
  install_apt
  phase "install venv"
  install_venv
fi
build
# the runtime wall every candidate loads (gpu/worker/wall): built here once, not in the first verify's wait
phase "build runtime wall"
(cd gpu/worker && PYTHONPATH=. "$SIEVE_VENV/bin/python" -m sieve_worker --build-wall)
[ "$mode" = build ] || phase "$mode"

cli="$build_dir/app/sieve-cli"
case "$mode" in
  build) ;;
  test)
    log "running the test suite (GPU tests skip without a GPU)"
    ctest --test-dir "$build_dir" --output-on-failure -j"$(nproc)"
    ;;
  sanitize)
    # Every sanitized process the tests start (sieve-cli children included) writes its report to a file
    # here, so a report fails the run even where a test expected that child to exit non-zero.
    reports="$(cd "$build_dir" && pwd)/sanitizer-reports"
    rm -rf "$reports"; mkdir -p "$reports"
    sym=$(command -v llvm-symbolizer || ls /usr/lib/llvm-*/bin/llvm-symbolizer 2>/dev/null | tail -1 || true)
    export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:log_path=$reports/asan${sym:+:external_symbolizer_path=$sym}"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan${sym:+:external_symbolizer_path=$sym}"
    log "running the fuzz and unit tests under ASan+UBSan (label python: no C++ of ours, skipped)"
    rc=0
    ctest --test-dir "$build_dir" --output-on-failure -j"$(nproc)" -L 'fuzz|unit' -LE python || rc=$?
    if [ -n "$(ls -A "$reports")" ]; then
      for f in "$reports"/*; do printf '\n==> %s\n' "$f" >&2; cat "$f" >&2; done
      log "sanitizer reports: $(ls "$reports" | wc -l) (in $reports)"
      rc=1
    fi
    [ "$rc" -eq 0 ] && log "sanitizers: no reports"
    exit "$rc"
    ;;
  demo)
    demo="$build_dir/demo.sieve"
    rm -f "$demo" "$demo-wal" "$demo-shm"
    log "building the demo corpus at $demo"
    "$cli" init "$demo" >/dev/null
    "$cli" import "$demo" --format sieve resources/demo/tasks.jsonl resources/demo/samples.jsonl
    verify_flags=(--cpu)
    command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && verify_flags=()
    "$cli" verify "$demo" "${verify_flags[@]}"
    "$cli" dedup "$demo" >/dev/null
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$build_dir/app/sieve" ]; then
      phase_summary
      trap - EXIT
      log "opening the workbench"
      exec "$build_dir/app/sieve" "$demo"
    fi
    log "no display: summary of the same job"
    "$cli" stats "$demo"
    "$cli" list "$demo"
    ;;
esac
