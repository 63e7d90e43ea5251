#!/usr/bin/env bash
# Run one fuzz target for a bounded time on a stable toolchain:
#   scripts/fuzz.sh TARGET SECONDS [extra libFuzzer flags...]
#   scripts/fuzz.sh --list
# Builds fuzz/ (its own workspace) with SanitizerCoverage through
# scripts/fuzz-rustc.sh, seeds fuzz/corpus/TARGET from fixtures/ and
# ../shared/realdata on first use, runs at the lowest CPU priority, and
# prints libFuzzer's closing statistics. A crash leaves its input in
# fuzz/artifacts/TARGET/ (turn it into a regression test under tests/).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
targets="skill_extract_lockfile lockfile config transcript_label doctor contract_grade findings hook_stdin"
if [ "${1:-}" = "--list" ] || [ $# -lt 2 ]; then
  echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer flags]"; echo "targets: $targets"; exit 2
fi
target="$1"; secs="$2"; shift 2
case " $targets " in *" $target "*) ;; *) echo "unknown target: $target (known: $targets)" >&2; exit 2;; esac
realdata="${SKILLGATE_REALDATA:-$root/../shared/realdata}"

cd "$root/fuzz"
RUSTC_WRAPPER="$root/scripts/fuzz-rustc.sh" CARGO_TARGET_DIR="$root/fuzz/target" \
  nice -n 19 cargo build --release --bin "$target" >&2

corpus="$root/fuzz/corpus/$target"
if [ ! -d "$corpus" ]; then
  mkdir -p "$corpus"
  seed() { # copy files under $1 matching name pattern $2 (at most 1 MiB each)
    [ -d "$1" ] || return 0
    find "$1" -type f -name "$2" -size -1024k -print0 2>/dev/null |
      while IFS= read -r -d '' f; do cp "$f" "$corpus/$(sha1sum "$f" | cut -c1-16)"; done
  }
  case "$target" in
    skill_extract_lockfile) seed "$root/fixtures" "SKILL.md"; seed "$realdata/skills" "SKILL.md"; seed "$realdata/skills-for-sessions" "SKILL.md";;
    lockfile) seed "$root/fixtures" "*.constraints.yaml"; cp "$root/fuzz/seeds/labels.constraints.yaml" "$corpus/";;
    config) seed "$root/fixtures" ".skillgate.*"; seed "$root/fixtures" "*.toml"; printf 'trajectories: [runs]\nwaivers:\n  - id: a\n    skill: b\n    reason: c\n' > "$corpus/handmade";;
    transcript_label|doctor) seed "$root/fixtures/decode" "*"; seed "$root/fixtures/decode-others" "*"; seed "$root/fixtures/gate" "*.jsonl"; seed "$realdata/transcripts" "*";;
    contract_grade) seed "$root/fixtures/grade" "*.yaml";;
    findings) seed "$root/fixtures/assess" "*.jsonl";;
    hook_stdin) printf 'refs/heads/main 0123456789abcdef0123456789abcdef01234567 refs/heads/main 0000000000000000000000000000000000000000\n' > "$corpus/push";;
  esac
fi
mkdir -p "$root/fuzz/artifacts/$target"
dict=()
[ -f "$root/fuzz/dicts/$target.dict" ] && dict=(-dict="$root/fuzz/dicts/$target.dict")
exec nice -n 19 "$root/fuzz/target/release/$target" "$corpus" \
  -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$root/fuzz/artifacts/$target/" "${dict[@]}" "$@"
