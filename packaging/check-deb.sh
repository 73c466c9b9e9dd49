#!/usr/bin/env bash
# Builds the Debian package and checks it the way a user would meet it: on a fresh Debian 12 root
# (tests/fresh/debian-root.sh: a new minbase root each time, entered with chroot), `apt-get install ./sieve_*.deb`, then
# `sieve-cli --version`, the shipped demo imported into a corpus, an offscreen start of `sieve`, the
# installed desktop files, and the desktop metadata validators.
# Usage: packaging/check-deb.sh [BUILD_DIR]      (needs root; the base tarball is cached, see debian-root.sh)
#   BUILD_DIR defaults to build/release (configured with the release preset when it has no cache yet);
#   an existing tree (e.g. build/dev) is used as it is configured.
#   SIEVE_MIRROR=URL    the Debian mirror for debootstrap (default http://deb.debian.org/debian)
#   SIEVE_FRESH_KEEP=1  keep the root afterwards
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/fresh/debian-root.sh
root_enter_private_mounts "$0" "$@"
build=${1:-build/release}
step() { printf '\n== %s\n' "$*"; }

step "package"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake --preset release -B "$build" -DSIEVE_BUILD_TESTS=OFF >/dev/null
fi
# cpack's install step would otherwise build every target of the tree (tests, benchmarks) first.
cmake -B "$build" -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target sieve sieve-cli
rm -f "$build"/sieve_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls -t "$build"/sieve_*.deb | head -1)
echo "package: $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb -f "$deb" Package Version Architecture Depends Recommends

step "desktop metadata"
command -v desktop-file-validate >/dev/null && command -v appstreamcli >/dev/null ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq desktop-file-utils appstream >/dev/null
desktop-file-validate packaging/io.github.sieve.Sieve.desktop && echo "desktop-file-validate: ok"
appstreamcli validate --no-net packaging/io.github.sieve.Sieve.metainfo.xml
xmllint --noout packaging/io.github.sieve.Sieve.mime.xml 2>/dev/null && echo "mime xml: well-formed" || true

step "fresh Debian 12 root"
trap root_release EXIT
root_create sieve-deb
root_mount
root=$root_dir
cp "$deb" "$root/tmp/"
in_root apt-get update -qq

step "apt-get install ./$(basename "$deb")"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$deb")" > "$root/tmp/install.log" 2>&1 ||
  { tail -30 "$root/tmp/install.log"; exit 1; }
grep -E "^(Setting up|Unpacking) sieve" "$root/tmp/install.log" || true
echo "packages installed in the root: $(in_root dpkg-query -W -f='.\n' | wc -l)"

step "sieve-cli --version"
in_root sieve-cli --version

step "the shipped demo"
in_root rm -f /tmp/demo.sieve
in_root sieve-cli init /tmp/demo.sieve
in_root sieve-cli import /tmp/demo.sieve --format sieve /usr/share/sieve/demo/tasks.jsonl /usr/share/sieve/demo/samples.jsonl
in_root sieve-cli stats /tmp/demo.sieve | head -5

step "sieve --smoke (offscreen)"
in_root install -d -m 700 /tmp/xdg-runtime
in_root env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/xdg-runtime sieve --smoke
in_root env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/xdg-runtime sieve --version

step "installed files"
for f in /usr/share/sieve/worker/sieve_worker/__init__.py /usr/share/sieve/worker/sieve_worker/worker.py \
         /usr/share/sieve/demo/tasks.jsonl /usr/share/sieve/demo/samples.jsonl \
         /usr/share/applications/io.github.sieve.Sieve.desktop /usr/share/metainfo/io.github.sieve.Sieve.metainfo.xml \
         /usr/share/mime/packages/io.github.sieve.Sieve.xml /usr/share/icons/hicolor/scalable/apps/io.github.sieve.Sieve.svg \
         /usr/bin/sieve-setup-python; do
  in_root test -f "$f" || { echo "missing: $f"; exit 1; }
done
for size in 16 22 24 32 48 64 128 256; do
  in_root test -f "/usr/share/icons/hicolor/${size}x${size}/apps/io.github.sieve.Sieve.png" ||
    { echo "missing: ${size}x${size} icon"; exit 1; }
done
echo "worker, demo, desktop entry, metainfo, MIME type, SVG and 8 PNG icons: present"
# shared-mime-info's trigger ran: *.sieve is known as a corpus.
in_root grep -q 'application/x-sieve-corpus' /usr/share/mime/globs2 && echo "MIME database: *.sieve -> application/x-sieve-corpus"
echo
echo "package check: ok"
