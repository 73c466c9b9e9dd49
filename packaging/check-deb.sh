#!/usr/bin/env bash
# Builds the Debian package and checks it the way a user would meet it: on a fresh Debian 12 root
# (debootstrap into a folder, entered with chroot), `apt-get install ./sieve_*.deb`, then
# `sieve-cli --version`, an offscreen start of `sieve`, and the desktop metadata validators.
# Usage: packaging/check-deb.sh [BUILD_DIR]      (needs root; the chroot is cached in /var/tmp)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
root=${SIEVE_CHROOT:-/var/tmp/sieve-bookworm}

cmake --preset release -B "$build" -DSIEVE_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)"
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls -t "$build"/sieve_*.deb | head -1)
echo "package: $deb"
dpkg-deb -f "$deb" Package Version Depends

command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "creating a fresh Debian 12 root in $root"
  debootstrap --variant=minbase bookworm "$root" >/dev/null
fi
cp "$deb" "$root/tmp/"
mount --bind /proc "$root/proc" 2>/dev/null || true
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$deb")" >/dev/null
in_root sieve-cli --version
in_root env QT_QPA_PLATFORM=offscreen sieve --smoke
in_root sieve-cli init /tmp/check.sieve
in_root sieve-cli stats /tmp/check.sieve >/dev/null
in_root test -f /usr/share/sieve/worker/sieve_worker/__init__.py
in_root test -f /usr/share/applications/io.github.sieve.Sieve.desktop
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq desktop-file-utils appstream >/dev/null
desktop-file-validate packaging/io.github.sieve.Sieve.desktop
appstreamcli validate --no-net packaging/io.github.sieve.Sieve.metainfo.xml
echo "package check: ok"
