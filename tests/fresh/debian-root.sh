# A fresh Debian 12 (bookworm) root for the checks that meet Sieve the way a new machine does
# (tests/fresh/check-fresh.sh, packaging/check-deb.sh). Sourced, not run; needs root.
#
#   root_enter_private_mounts "$0" "$@"   re-runs the calling script in its own mount namespace, so no
#                                         mount made here outlives it even when it is killed
#   root_create [NAME]   a new folder /var/tmp/NAME-XXXXXX (default sieve-root) becomes a minbase root, unpacked from a cached tarball of a debootstrap
#                        run (made once; debootstrap is installed when missing); it also gets the
#                        sources, hosts and resolver files of an installed machine
#   root_mount DIR       the root onto itself (so "/" is a mount point inside), then /proc, /sys (with
#                        the host's /sys/fs/cgroup), /dev, /dev/pts, /dev/shm and /run inside it
#   root_bind SRC DST [ro]   SRC (a host path) at DST inside the root, read-only with "ro"
#   root_release         (also on EXIT) ends the processes still running in the root, unmounts in
#                        reverse order, and deletes the root only when nothing is mounted below it
#   in_root CMD...       CMD inside the root with a clean environment (plus the NAME=VALUE words
#                        in the array root_env)
# Environment: SIEVE_MIRROR (default http://deb.debian.org/debian),
#              SIEVE_FRESH_CACHE (default ~/.cache/sieve/fresh: the base tarball lives there).

root_dir="" root_mounts=() root_env=()
root_mirror=${SIEVE_MIRROR:-http://deb.debian.org/debian}
root_cache=${SIEVE_FRESH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sieve/fresh}

root_enter_private_mounts() {
  [ "$(id -u)" -eq 0 ] || { echo "$(basename "$1"): needs root (debootstrap, chroot, mount)" >&2; exit 2; }
  if [ "${SIEVE_ROOT_PRIVATE_MOUNTS:-}" != 1 ]; then
    SIEVE_ROOT_PRIVATE_MOUNTS=1 exec unshare --mount --propagation private -- "$@"
  fi
}

root_base_tarball() {
  local tarball="$root_cache/bookworm-minbase.tar"
  if [ ! -s "$tarball" ]; then
    command -v debootstrap >/dev/null ||
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
    mkdir -p "$root_cache"
    local tmp; tmp=$(mktemp -d /var/tmp/sieve-debootstrap-XXXXXX)
    echo "debootstrap --variant=minbase bookworm from $root_mirror (cached as $tarball)" >&2
    if ! debootstrap --variant=minbase bookworm "$tmp" "$root_mirror" > "$root_cache/debootstrap.log" 2>&1; then
      tail -20 "$root_cache/debootstrap.log" >&2; rm -rf "$tmp"; return 1
    fi
    tar -C "$tmp" --numeric-owner -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
    rm -rf "$tmp"
  fi
  echo "$tarball"
}

root_create() {
  local tarball; tarball=$(root_base_tarball) || return 1
  root_dir=$(mktemp -d "/var/tmp/${1:-sieve-root}-XXXXXX") || return 1
  tar -C "$root_dir" --numeric-owner -xpf "$tarball"
  # after the tarball: its "." is debootstrap's mktemp folder (0700), and -p gives "/" that mode; a
  # sandboxed candidate (another uid) then cannot resolve any path, /proc/self/fd included
  chmod 755 "$root_dir"
  # What an installed Debian 12 has and a debootstrap root lacks: the updates and security suites,
  # a hosts file, a resolver.
  cat > "$root_dir/etc/apt/sources.list" <<EOF
deb $root_mirror bookworm main
deb $root_mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
  # as Debian's installer writes it: the machine's own name resolves (slurmctld looks it up)
  printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\tlocalhost ip6-localhost ip6-loopback\n' "$(hostname)" \
    > "$root_dir/etc/hosts"
  cp -L /etc/resolv.conf "$root_dir/etc/resolv.conf"
}

root_mount_one() {  # mount ARGS... TARGET (TARGET is inside the root)
  local target=${*: -1}
  mount "$@" && root_mounts+=("$target")
}

root_mount() {
  # First the root onto itself: on a real machine or in a container "/" is a mount point, in a bare chroot
  # it is not, and the verifier's sandbox refuses to run there (its mounts could not be kept private).
  root_mount_one --bind "$root_dir" "$root_dir"
  root_mount_one -t proc proc "$root_dir/proc"
  root_mount_one -t sysfs sysfs "$root_dir/sys"
  # A booted machine has its cgroup filesystem there (slurmd 22.05 will not start without one).
  if mountpoint -q /sys/fs/cgroup && [ -d "$root_dir/sys/fs/cgroup" ]; then
    root_mount_one --rbind /sys/fs/cgroup "$root_dir/sys/fs/cgroup" # with its hierarchies (cgroup v1)
  fi
  root_mount_one --bind /dev "$root_dir/dev"
  root_mount_one --bind /dev/pts "$root_dir/dev/pts"
  root_mount_one -t tmpfs -o mode=1777 tmpfs "$root_dir/dev/shm"
  root_mount_one -t tmpfs -o mode=755 tmpfs "$root_dir/run"
}

root_bind() {  # SRC DST [ro]
  local dst=$root_dir$2
  if [ -d "$1" ]; then mkdir -p "$dst"; else mkdir -p "$(dirname "$dst")"; touch "$dst"; fi
  root_mount_one --bind "$1" "$dst" || return 1
  if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$dst"; fi
}

root_release() {
  [ -n "$root_dir" ] || return 0
  local pid i left
  # Daemons a check started in the root (munged, slurmd, Xvfb...) would keep its mounts busy.
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$root_dir" ] && kill -9 "$pid" 2>/dev/null
  done
  for ((i = ${#root_mounts[@]} - 1; i >= 0; i--)); do
    umount "${root_mounts[$i]}" 2>/dev/null || umount -l "${root_mounts[$i]}" 2>/dev/null || true
  done
  root_mounts=()
  left=$(awk -v r="$root_dir/" 'index($5, r) == 1 { print $5 }' /proc/self/mountinfo)
  if [ -n "$left" ]; then
    echo "still mounted, so $root_dir is kept: $left" >&2
  elif [ "${SIEVE_FRESH_KEEP:-0}" = 1 ]; then
    echo "kept $root_dir" >&2
  else
    rm -rf "$root_dir"
  fi
  root_dir=""
}

in_root() {
  chroot "$root_dir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" "${root_env[@]}" "$@"
}
