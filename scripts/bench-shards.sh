#!/usr/bin/env bash
# Wall time of the gate on 1 process vs 2 shards (`gate --shard K/2`, run at
# the same time: two processes on this machine stand in for two CI jobs), and
# of `skillgate merge`, over a generated corpus (release build). Prints
# figures; asserts nothing (a benchmark, not a test). docs/shards.md.
#
#   scripts/bench-shards.sh [COPIES]   (default 100: the real transcripts
#                                       copied 100 times, about 1.5 GB)
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-100}"
export CARGO_TERM_PROGRESS_WHEN=never
if [ -z "${SKILLGATE_BIN:-}" ]; then cargo build --release --quiet; fi
bin=${SKILLGATE_BIN:-$PWD/target/release/skillgate}
real=$PWD/../shared/realdata/transcripts

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
git init -q .

# One skill with a lockfile, loaded by every session (a retro sidecar).
d=skills/bench-skill
mkdir -p "$d"
printf -- '---\nname: bench-skill\ndescription: Benchmark skill.\n---\n\nRules.\n' >"$d/SKILL.md"
sha=$(sha256sum "$d/SKILL.md" | cut -d' ' -f1)
cat >"$d/SKILL.constraints.yaml" <<YAML
version: 1
skill: bench-skill
source_sha256: $sha
constraints:
  - id: no-force-push
    text: "r"
    lines: [6, 6]
    modality: must
    scope: [shared-repo-state]
    forbid: {git: push, args: ["--force"]}
  - id: no-env
    text: "r"
    lines: [6, 6]
    modality: must
    scope: [sensitive-memory]
    forbid: {read: "**/.env*"}
  - id: tests-after-edit
    text: "r"
    lines: [6, 6]
    modality: must
    when: {edit: "**/*.{rs,py,ts,tsx,js}"}
    require: {command: "*test*"}
YAML

echo "generating the corpus in $tmp ..." >&2
mkdir -p corpus/c1
cp -r "$real"/. corpus/c1/
find corpus/c1 -type f \( -name '*.jsonl' -o -name '*.json' -o -name '*.traj' -o -name '*.md' \) ! -name '*.meta.json' |
  while read -r f; do echo "loaded_skills: [bench-skill]" >"$f.retro.yaml"; done
for i in $(seq 2 "$copies"); do cp -r corpus/c1 "corpus/c$i"; done
bytes=$(du -sb corpus | cut -f1)
files=$(find corpus -type f ! -name '*.retro.yaml' | wc -l)
printf 'corpus: %s files, %.2f GB, %s\n' "$files" "$(echo "$bytes / 1000000000" | bc -l)" "$(nproc) cores"

t() { /usr/bin/time -f '%e %U %S %M' -o "$1" "${@:2}"; }
t one.time "$bin" gate skills --trajectories corpus --format json --no-report >one.json 2>/dev/null || true
start=$(date +%s.%N)
t s1.time "$bin" gate skills --trajectories corpus --format json --shard 1/2 >s1.json 2>/dev/null &
t s2.time "$bin" gate skills --trajectories corpus --format json --shard 2/2 >s2.json 2>/dev/null &
wait
end=$(date +%s.%N)
t merge.time "$bin" merge s1.json s2.json --format json >merged.json 2>/dev/null || true
cmp -s one.json merged.json && same=yes || same=NO
row() { read -r w u s m <"$2"; printf '%-28s wall %6.2f s  user %6.2f s  sys %5.2f s  peak RSS %7.1f MB\n' "$1" "$w" "$u" "$s" "$(echo "$m / 1024" | bc -l)"; }
row "1 process" one.time
row "shard 1/2" s1.time
row "shard 2/2" s2.time
printf '%-28s wall %6.2f s\n' "2 shards at once" "$(echo "$end - $start" | bc -l)"
row "merge of 2" merge.time
printf 'shard results: %s + %s bytes; merge identical to one run: %s\n' "$(wc -c <s1.json)" "$(wc -c <s2.json)" "$same"
