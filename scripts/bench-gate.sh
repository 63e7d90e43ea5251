#!/usr/bin/env bash
# Time `skillgate gate` (release build) against the targets of issue #15,
# side by side with a Python `json.loads` pass over the same bytes, in the
# same run. Prints figures; asserts nothing (a benchmark, not a test).
#
#   scripts/bench-gate.sh [COPIES] [SCALE]     (defaults 10 and 10)
#
# - corpus S: the real transcripts (../shared/realdata/transcripts) copied
#   COPIES times (≈ 150 MB), every file with a session-retro sidecar that
#   loads the bench skills, so every event of every transcript is labelled;
# - corpus L: the same, copied COPIES × SCALE times (≈ 1.5 GB, SCALE × the
#   files); generated here, in a temporary folder, deleted afterwards;
# - skills: `bench-skill-1` (12 rules, a lockfile) and 31 copies of it under
#   other names, for the 32-skill run;
# - each run: wall, user and system seconds and peak RSS from /usr/bin/time;
# - python: `json.loads` of every JSONL line / JSON file of the corpus, one
#   core (the yardstick of the issue);
# - pre-push: `skillgate hook pre-push` on a push that changes only docs.
#
# Runs are repeated RUNS times (default 3); the fastest wall time and the
# least CPU time (user + sys) of the runs are kept: the build machine is
# shared, so the minimum is the least disturbed figure. CPU seconds are much
# less sensitive to the load than wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-10}"
scale="${2:-10}"
runs="${RUNS:-3}"
export CARGO_TERM_PROGRESS_WHEN=never
# SKILLGATE_BIN=path runs another build (e.g. an older commit's) instead.
if [ -z "${SKILLGATE_BIN:-}" ]; then cargo build --release --quiet; fi
bin=${SKILLGATE_BIN:-$PWD/target/release/skillgate}
real=$PWD/../shared/realdata/transcripts

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
mkdir -p "$out"

# ---------------------------------------------------------------- skills
skills=$tmp/skills
loaded="[bench-skill-1"
for k in $(seq 2 32); do loaded="$loaded, bench-skill-$k"; done
loaded="$loaded]"
for k in $(seq 1 32); do
  d=$skills/all/bench-skill-$k
  mkdir -p "$d"
  printf -- '---\nname: bench-skill-%s\ndescription: Benchmark skill.\n---\n\nRules.\n' "$k" >"$d/SKILL.md"
  sha=$(sha256sum "$d/SKILL.md" | cut -d' ' -f1)
  {
    echo "version: 1"; echo "skill: bench-skill-$k"; echo "source_sha256: $sha"; echo "constraints:"
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
  } >"$d/SKILL.constraints.yaml"
done
one_skill=$skills/all/bench-skill-1

# ---------------------------------------------------------------- corpora
make_corpus() { # dir, copies
  local dir=$1 n=$2 i
  mkdir -p "$dir/c1"
  cp -r "$real"/. "$dir/c1/"
  find "$dir/c1" -type f \( -name '*.jsonl' -o -name '*.json' -o -name '*.traj' -o -name '*.md' \) ! -name '*.meta.json' |
    while read -r f; do echo "loaded_skills: $loaded" >"$f.retro.yaml"; done
  for i in $(seq 2 "$n"); do cp -r "$dir/c1" "$dir/c$i"; done
}
echo "generating corpora in $tmp ..." >&2
make_corpus "$tmp/S" "$copies"
make_corpus "$tmp/L" $((copies * scale))

bytes() { find "$1" -type f ! -name '*.retro.yaml' -printf '%s\n' | awk '{s+=$1} END {print s}'; }
files() { find "$1" -type f ! -name '*.retro.yaml' ! -name '*.meta.json' | wc -l; }

# best of $runs: "wall user sys maxrss_kb exit cpu" — the fastest run's
# wall, user, sys, peak RSS and exit code, and the least CPU (user + sys) of
# any run (on a shared machine the two minima are often different runs).
measure() { # command...
  local best="" cpu_min="" i line code
  for i in $(seq 1 "$runs"); do
    code=0
    /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$@" >"$out/stdout" 2>"$out/stderr" || code=$?
    line="$(tail -1 "$out/time") $code"
    if [ -z "$best" ] || awk -v a="$line" -v b="$best" 'BEGIN {split(a, x, " "); split(b, y, " "); exit !(x[1] < y[1])}'; then
      best=$line
    fi
    cpu_min=$(echo "$line" | awk -v m="$cpu_min" '{c = $2 + $3; print (m == "" || c < m) ? c : m}')
  done
  echo "$best $cpu_min"
}

gate() { # threads, skills, corpus
  measure env RAYON_NUM_THREADS="$1" "$bin" gate "$2" --trajectories "$3" --format json --no-report
}

python_pass() { # corpus
  measure python3 -c '
import json, os, sys
n = 0
for root, dirs, names in os.walk(sys.argv[1]):
    for name in names:
        if name.endswith(".retro.yaml") or name.endswith(".meta.json"):
            continue
        p = os.path.join(root, name)
        data = open(p, "rb").read()
        if name.endswith(".jsonl"):
            for line in data.split(b"\n"):
                if line.strip():
                    try:
                        json.loads(line); n += 1
                    except ValueError:
                        pass
        elif name.endswith((".json", ".traj")):
            try:
                json.loads(data); n += 1
            except ValueError:
                pass
print(n)' "$1"
}

row() { # label, "wall user sys rss exit cpu"
  local w u s m c k
  read -r w u s m c k <<<"$2"
  printf '%-44s %7.3f s wall (%6.3f user %6.3f sys) %7.1f MB peak  exit %s; least cpu %6.3f s\n' \
    "$1" "$w" "$u" "$s" "$(echo "scale=1; $m / 1024" | bc)" "$c" "$k"
}
wall() { echo "$1" | cut -d' ' -f1; }
cpu() { echo "$1" | cut -d' ' -f6; }
rss() { echo "$1" | cut -d' ' -f4; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }
verdict() { awk -v x="$1" -v op="$2" -v t="$3" 'BEGIN {ok = (op == ">=") ? x >= t : x <= t; print ok ? "met" : "NOT met"}'; }

sb=$(bytes "$tmp/S"); lb=$(bytes "$tmp/L")
echo "skillgate gate, release build, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), best of $runs"
echo "corpus S: $(files "$tmp/S") files, $((sb / 1048576)) MB; corpus L: $(files "$tmp/L") files, $((lb / 1048576)) MB"
cat "$tmp"/S/c1/claude-code/*.jsonl >/dev/null

py=$(python_pass "$tmp/S");            row "python json.loads, corpus S (1 core)" "$py"
s1=$(gate 2 "$one_skill" "$tmp/S");    row "gate 1 skill, corpus S, 2 threads" "$s1"
s1t=$(gate 1 "$one_skill" "$tmp/S");   row "gate 1 skill, corpus S, 1 thread" "$s1t"
s32=$(gate 2 "$skills/all" "$tmp/S");  row "gate 32 skills, corpus S, 2 threads" "$s32"
l1=$(gate 2 "$one_skill" "$tmp/L");    row "gate 1 skill, corpus L, 2 threads" "$l1"
python3 - "$out/stdout" <<'PY' 2>/dev/null || true
import json, sys
v = json.load(open(sys.argv[1]))
v = v["skills"][0] if "skills" in v else v
n = v["numbers"]
print(f"   (last run: {len(v['trajectories']['valid'])} valid trajectories; exercised {n['exercised']}, violated {n['violated']}, untested {n['untested']}, unverifiable {n['unverifiable']})")
PY

# pre-push on a push that changes only docs
repo=$tmp/repo
git init -q "$repo"
(
  cd "$repo"
  git config user.email b@b.invalid; git config user.name bench
  mkdir -p skills docs .planning/patterns
  cp -r "$one_skill" skills/
  cp "$real"/claude-code/*.jsonl .planning/patterns/
  echo "# docs" >docs/a.md
  git add -A; git commit -qm one
  echo "more" >>docs/a.md
  git commit -qam docs
)
old=$(git -C "$repo" rev-parse HEAD~1); new=$(git -C "$repo" rev-parse HEAD)
echo "refs/heads/main $new refs/heads/main $old" >"$tmp/refs"
pp=$(cd "$repo" && runs=$((runs + 2)) measure sh -c "'$bin' hook pre-push origin x <'$tmp/refs'")
row "pre-push, docs-only push" "$pp"

echo
echo "targets (issue #15)"
r=$(ratio "$(wall "$py")" "$(wall "$s1")");  echo "  1 skill, S: python wall / gate wall = $r (≥ 10): $(verdict "$r" ">=" 10)"
r=$(ratio "$(cpu "$py")" "$(cpu "$s1")");    echo "  1 skill, S: python cpu / gate cpu = $r (≥ 3): $(verdict "$r" ">=" 3)"
r=$(ratio "$(wall "$s32")" "$(wall "$s1")"); echo "  32 skills / 1 skill, wall = $r (≤ 1.5): $(verdict "$r" "<=" 1.5)"
r=$(ratio "$(cpu "$s32")" "$(cpu "$s1")");   echo "  32 skills / 1 skill, cpu = $r"
r=$(ratio "$(wall "$l1")" "$(wall "$s1")");  echo "  L / S wall = $r for $(ratio "$lb" "$sb")× the bytes (≤ 11): $(verdict "$r" "<=" 11)"
r=$(ratio "$(cpu "$l1")" "$(cpu "$s1")");    echo "  L / S cpu = $r"
r=$(ratio "$(rss "$l1")" "$(rss "$s1")");    echo "  L / S peak RSS = $r (≤ 1.10): $(verdict "$r" "<=" 1.10)"
ms=$(awk -v w="$(wall "$pp")" 'BEGIN {printf "%.0f", w * 1000}')
echo "  pre-push docs-only = ${ms} ms (< 50 ms): $(verdict "$ms" "<=" 49)"
