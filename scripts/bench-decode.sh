#!/usr/bin/env bash
# Decode throughput of the Claude Code and Codex decoders beside a plain
# per-line serde_json::Value parse of the same bytes, plus peak memory.
#
#   scripts/bench-decode.sh [MB]        (default 200 MB per corpus)
#
# Generates ≥ MB of Claude Code session JSONL and of Codex rollout JSONL into a
# temporary folder (deleted afterwards), then times each decoder and the plain
# parse, each in its own process so that its peak RSS is its own.
# A benchmark, not a test: it prints figures and asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
MB="${1:-200}"
export CARGO_TERM_PROGRESS_WHEN=never
cargo build --release --example bench_decode >&2
BIN=target/release/examples/bench_decode
DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
echo "generating ${MB} MB corpora in $DIR ..." >&2
"$BIN" gen "$DIR" "$MB"
ls -l "$DIR" >&2
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') ($(nproc) cores)"
for f in claude codex; do
  # warm the page cache so that every run reads from memory
  cat "$DIR/$f.jsonl" > /dev/null
  "$BIN" value  "$DIR/$f.jsonl"
  "$BIN" decode "$DIR/$f.jsonl"
  # the yardstick of issue #15: Python's C json.loads over the same lines, one core
  /usr/bin/time -f '%e %U %S %M' -o "$DIR/time" python3 -c '
import json, sys
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        if line.strip():
            json.loads(line); n += 1
print(n)' "$DIR/$f.jsonl" >/dev/null
  read -r w u s m <"$DIR/time"
  mb=$(( $(stat -c %s "$DIR/$f.jsonl") / 1048576 ))
  printf '%-52s %-14s %7s MB in %6s s = %7s MB/s, cpu %6s s, peak RSS %6s MB\n' \
    "python json.loads per line" "$f.jsonl" "$mb" "$w" "$(echo "scale=1; $mb / $w" | bc)" \
    "$(echo "$u + $s" | bc)" "$(( m / 1024 ))"
done
