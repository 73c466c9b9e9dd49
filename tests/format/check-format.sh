#!/usr/bin/env bash
# The C++ sources (every tracked *.cpp and *.h) against .clang-format, the house style. Prints each place
# clang-format would change and exits 1 if there is any; `git ls-files '*.cpp' '*.h' | xargs clang-format -i`
# mends them. The layout clang-format gives differs between its major versions: this is Debian 12's (14),
# which `./setup.sh test` installs.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v clang-format >/dev/null || { echo "check-format: clang-format is missing (./setup.sh test installs it)" >&2; exit 2; }
version=$(clang-format --version)
case "$version" in *" 14."*) ;; *) echo "check-format: note: $version, not 14: layouts may differ" >&2;; esac
files=$(git ls-files '*.cpp' '*.h' | wc -l)
if git ls-files -z '*.cpp' '*.h' | xargs -0 clang-format --dry-run --Werror 2> /tmp/check-format.$$; then
  rm -f /tmp/check-format.$$
  echo "check-format: $files files match .clang-format"
  exit 0
fi
grep -E '^[^ ].*: error:' /tmp/check-format.$$ | cut -d: -f1 | sort -u | sed 's/^/  not formatted: /' >&2
head -40 /tmp/check-format.$$ >&2
rm -f /tmp/check-format.$$
echo "check-format: files differ from .clang-format; mend with: git ls-files '*.cpp' '*.h' | xargs clang-format -i" >&2
exit 1
