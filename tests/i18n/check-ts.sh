#!/bin/sh
# Every string the workbench shows has its German: lupdate reads the sources into a copy of
# translations/sieve_de.ts (as `--target update_translations` does, without touching the tree), and
# any new or untranslated string fails the test with its text.
# usage: check-ts.sh LUPDATE SOURCE_DIR
lupdate=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$src/translations/sieve_de.ts" "$tmp/sieve_de.ts"
# -I: the sources include their headers by path from the project root ("ui/main/mainwindow.h").
"$lupdate" -silent -no-obsolete -locations none -I "$src" "$src/ui" "$src/net" "$src/app/gui_main.cpp" -ts "$tmp/sieve_de.ts" || exit 1
if grep -q 'type="unfinished"' "$tmp/sieve_de.ts"; then
  echo "strings without German (run: cmake --build build/dev --target update_translations, then translate):"
  grep -B2 'type="unfinished"' "$tmp/sieve_de.ts" | sed -n 's/.*<source>\(.*\)<\/source>.*/  \1/p'
  exit 1
fi
echo "every string of ui/, net/ and app/gui_main.cpp has its German"
