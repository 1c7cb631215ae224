#!/usr/bin/env bash
# CPU (user + system) of each test file, run alone under nice with a private TMPDIR, and the
# temporary files each one leaves behind. Not a test: a listing for finding the costly files.
#   bench/test-cpu.sh OUT [FILE…]   (default: every dist/test file `npm test` runs; build first)
# Writes OUT/cpu.tsv (cpu user sys wall exit file, largest first) and OUT/leaks.txt; prints the
# total and the top 25. Runs two files at a time, as `npm test` does.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "$1"); shift
[ $# -gt 0 ] || set -- dist/test/*.test.js dist/test/*/*.test.js
mkdir -p "$out"; : > "$out/raw.tsv"; : > "$out/leaks.txt"
one() {
  f=$1; out=$2; key=$(echo "$f" | tr / _)
  t=$(mktemp -d /tmp/test-cpu-XXXXXX); chmod 755 "$t" # 755: a test may run a step as another user
  TMPDIR=$t /usr/bin/time -f "%U %S %e %x" -o "$out/$key.time" nice -n 10 node --test "$f" > "$out/$key.log" 2>&1 || true
  left=$(ls -A "$t" | tr '\n' ' ')
  [ -z "$left" ] || echo "$f: $left" >> "$out/leaks.txt"
  rm -rf "$t"
  read -r u s e x < <(tail -1 "$out/$key.time")
  printf '%.2f\t%s\t%s\t%s\t%s\t%s\n' "$(echo "$u + $s" | bc)" "$u" "$s" "$e" "$x" "$f" >> "$out/raw.tsv"
}
export -f one
printf '%s\n' "$@" | xargs -P2 -I{} bash -c 'one "$@"' _ {} "$out"
sort -rn "$out/raw.tsv" > "$out/cpu.tsv"; rm "$out/raw.tsv"
awk -F'\t' '{c+=$1; u+=$2; s+=$3; if ($5 != 0) f++} END {printf "%d files: %.0f s CPU (user %.0f, sys %.0f), %d failed\n", NR, c, u, s, f}' "$out/cpu.tsv"
head -25 "$out/cpu.tsv"
