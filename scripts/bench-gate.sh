#!/usr/bin/env bash
# Time `skillgate gate` (release build) over the real corpus and over a
# generated larger one (the real transcripts copied N times). Prints figures;
# asserts nothing (a benchmark, not a test).
#
#   scripts/bench-gate.sh [N_COPIES]      (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-20}"
export CARGO_TERM_PROGRESS_WHEN=never
cargo build --release --quiet
bin=target/release/skillgate
skills=../shared/realdata/skills
real=../shared/realdata/transcripts

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq 1 "$copies"); do
  mkdir -p "$tmp/c$i"
  cp -r "$real"/. "$tmp/c$i/"
done

bytes() { du -sb "$1" | cut -f1; }
files() { find "$1" -type f | wc -l; }
nskills=$(find "$skills" -name SKILL.md | wc -l)

run() { # label, trajectories, threads
  local start end
  start=$(date +%s.%N)
  RAYON_NUM_THREADS="$3" "$bin" gate "$skills" --trajectories "$2" --format json --no-report >/dev/null || true
  end=$(date +%s.%N)
  printf '%-28s %3s threads  %6s files  %9s bytes  %3s skills  %8.3f s\n' \
    "$1" "$3" "$(files "$2")" "$(bytes "$2")" "$nskills" "$(echo "$end - $start" | bc)"
}

echo "skillgate gate over real skills (release build, $(nproc) cores)"
for t in 1 2 4; do run "real corpus" "$real" "$t"; done
for t in 1 2 4; do run "real corpus x$copies" "$tmp" "$t"; done

# One skill with a lockfile, as a pre-push hook would run it.
fx=fixtures/gate/force-push
start=$(date +%s.%N)
"$bin" gate "$fx/skills/release-helper" --trajectories "$fx/transcripts" --format json --no-report >/dev/null || true
end=$(date +%s.%N)
printf '%-28s %8.3f s\n' "one skill, 3 transcripts" "$(echo "$end - $start" | bc)"
