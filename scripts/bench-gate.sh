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
out=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
for i in $(seq 1 "$copies"); do
  mkdir -p "$tmp/c$i"
  cp -r "$real"/. "$tmp/c$i/"
done

bytes() { du -sb "$1" | cut -f1; }
files() { find "$1" -type f ! -name '*.retro.yaml' ! -path '*/skill/*' | wc -l; }
nskills=$(find "$skills" -name SKILL.md | wc -l)

run() { # label, trajectories, threads [, skills]
  local start end code=0
  start=$(date +%s.%N)
  RAYON_NUM_THREADS="$3" "$bin" gate "${4:-$skills}" --trajectories "$2" --format json --no-report >"$out/out.json" 2>"$out/err.txt" || code=$?
  end=$(date +%s.%N)
  printf '%-34s %3s threads  %6s files  %9s bytes  exit %s  %8.3f s\n' \
    "$1" "$3" "$(files "$2")" "$(bytes "$2")" "$code" "$(echo "$end - $start" | bc)"
  if [ "$code" = 2 ]; then head -3 "$out/err.txt"; fi
}

echo "skillgate gate (release build, $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg))"
echo "-- $nskills real skills (extracted) over transcripts that load none of them: decode + extract + discard"
for t in 1 2 4; do run "real corpus" "$real" "$t"; done
for t in 1 2 4; do run "real corpus x$copies" "$tmp" "$t"; done

# Labelling: one skill with a 12-rule lockfile, loaded (by session-retro
# sidecar) in every copied transcript, so every event of every transcript is
# in scope and matched against every predicate.
bench_skill="$tmp/skill/bench-skill"
mkdir -p "$bench_skill"
printf -- '---\nname: bench-skill\ndescription: Benchmark skill.\n---\n\nRules.\n' >"$bench_skill/SKILL.md"
sha=$(sha256sum "$bench_skill/SKILL.md" | cut -d' ' -f1)
{
  echo "version: 1"; echo "skill: bench-skill"; echo "source_sha256: $sha"; echo "constraints:"
  rule() { printf '  - id: %s\n    text: "r"\n    lines: [6, 6]\n    modality: must\n%b' "$1" "$2"; }
  rule no-force-push '    scope: [shared-repo-state]\n    forbid: {git: push, args: ["--force"]}\n'
  rule no-hard-reset '    scope: [shared-repo-state]\n    forbid: {git: reset, args: ["--hard"]}\n'
  rule no-env '    scope: [sensitive-memory]\n    forbid: {read: "**/.env*"}\n'
  rule no-ssh '    scope: [sensitive-memory]\n    forbid: {any: [{read: "~/.ssh/**"}, {read: "**/*.pem"}]}\n'
  rule no-skill-edits '    scope: [self-modification]\n    forbid: {touch: ".claude/**"}\n'
  rule no-rm-rf '    forbid: {command_re: "^rm -rf? /"}\n'
  rule tests-after-edit '    when: {edit: "**/*.{rs,py,ts,tsx,js}"}\n    require: {command: "*test*"}\n'
  rule lint-before-commit '    when: {git: commit}\n    require: {command_re: "(lint|clippy|ruff|eslint)"}\n    order: before\n'
  rule no-curl-post '    forbid: {all: [{fetch: "http*"}, {command: "curl *-d*"}]}\n'
  rule no-main-push '    scope: [shared-repo-state]\n    forbid: {all: [{git: push}, {branch: main}]}\n'
  rule review-merges '    scope: [shared-repo-state]\n    when: {git: merge}\n    manual: "reviewers"\n'
  rule be-kind '    manual: "people"\n'
} >"$bench_skill/SKILL.constraints.yaml"
find "$tmp" -path "$tmp/skill" -prune -o -type f \( -name '*.jsonl' -o -name '*.json' -o -name '*.traj' -o -name '*.md' \) -print |
  while read -r f; do echo "loaded_skills: [bench-skill]" >"$f.retro.yaml"; done
echo "-- 1 skill, 12 rules, every transcript loads it (labelling over every event)"
for t in 1 2 4; do run "labelled x$copies" "$tmp" "$t" "$bench_skill"; done
python3 - "$out/out.json" <<'PY' 2>/dev/null || true
import json, sys
v = json.load(open(sys.argv[1]))
n = v["numbers"]
print(f"   {len(v['trajectories']['valid'])} valid trajectories; labels: exercised {n['exercised']}, violated {n['violated']}, ambiguous {n['ambiguous']}, untested {n['untested']}, unverifiable {n['unverifiable']}")
PY

# One skill with a lockfile, as a pre-push hook would run it.
fx=fixtures/gate/force-push
start=$(date +%s.%N)
"$bin" gate "$fx/skills/release-helper" --trajectories "$fx/transcripts" --format json --no-report >/dev/null || true
end=$(date +%s.%N)
printf '%-28s %8.3f s\n' "one skill, 3 transcripts" "$(echo "$end - $start" | bc)"
