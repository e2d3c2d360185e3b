#!/usr/bin/env bash
# A/B of garbling kernels or plans: runs `garble_min` binaries alternately
# (per round, per binary: aes_128 400 iterations, sha256 150) and prints,
# per circuit and binary, the min and median of the per-round minima.
# Alternating matters on this kind of machine: its speed swings by up to
# ~30 % between minutes, so only binaries measured in the same minutes
# compare. The docs' `/tmp/ab.sh ROUNDS NAME...` is this script with the
# binaries at /tmp/garble_min_NAME.
#
# usage: scripts/garble-ab.sh ROUNDS GARBLE_MIN_BINARY...
#   build one with: cargo build --release -p brickyard-garble --examples
#   (then copy target/release/examples/garble_min aside per variant)
# env: CIRCUITS (default ../shared/circuits/bristol_fashion)
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,13p' "$0"; exit 2; }
rounds=$1; shift
dir=${CIRCUITS:-$(dirname "$0")/../../shared/circuits/bristol_fashion}
out=$(mktemp); trap 'rm -f "$out"' EXIT
for _ in $(seq "$rounds"); do
  for b in "$@"; do
    for c in aes_128:400 sha256:150; do
      f=${c%%:*}; n=${c##*:}
      r=$("$b" "$dir/$f.txt" "$n")
      g=$(sed -E 's/.*min garble ([0-9.]+).*/\1/' <<<"$r")
      e=$(sed -E 's/.*min eval ([0-9.]+).*/\1/' <<<"$r")
      echo "$(basename "$b") $f $g $e" >>"$out"
    done
  done
done
python3 - "$out" <<'PY'
import statistics as st, sys
d = {}
for line in open(sys.argv[1]):
    b, f, g, e = line.split()
    d.setdefault((f, b), []).append((float(g), float(e)))
for (f, b), v in sorted(d.items()):
    g = [x[0] for x in v]; e = [x[1] for x in v]
    print(f"{f:8} {b:24} garble min {min(g):6.2f} med {st.median(g):6.2f} | "
          f"eval min {min(e):6.2f} med {st.median(e):6.2f}  (n={len(v)})")
PY
