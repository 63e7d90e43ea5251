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
# FUZZ_NO_BUILD=1 runs the binary already built (a long campaign keeps
# fuzzing one build while the sources move on).
if [ "${FUZZ_NO_BUILD:-0}" != "1" ] || [ ! -x "$root/fuzz/target/release/$target" ]; then
  RUSTC_WRAPPER="$root/scripts/fuzz-rustc.sh" CARGO_TARGET_DIR="$root/fuzz/target" \
    nice -n 19 cargo build --release --bin "$target" >&2
fi

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
  # grammar-aware seeds size-limited fuzzing never reaches by mutation:
  # deep nesting, long phrases, huge inputs (issue 19)
  rep() { # rep N STRING: STRING N times
    local n="$1" s="$2"; head -c $(( n * ${#s} )) < <(yes -- "$s" | tr -d '\n')
  }
  case "$target" in
    lockfile|config|contract_grade)
      { printf 'a: '; rep 5000 '['; } > "$corpus/gen-deep-flow"
      { printf 'a:\n'; for i in $(seq 1 300); do printf '%*s- \n' "$i" ''; done; } > "$corpus/gen-deep-block"
      { printf 'a: &a [x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nd: [*c, *c, *c, *c]\n'; } > "$corpus/gen-alias";;
  esac
  case "$target" in
    config)
      { printf 'lexicon:\n  phrases:\n    - match: ["never ... force ... push ... to ... main ... again"]\n      action: {git: push, args: ["--force"]}\n'
        printf '    - match: ["%s"]\n      action: {git: push}\n' "$(rep 30 'push|')push"
        printf '  scopes:\n    - tag: shared-repo-state\n      words: ["main ... branch ... ever"]\n'; } > "$corpus/gen-lexicon-gaps";;
    transcript_label|doctor)
      { rep 100000 '['; printf '\n'; } > "$corpus/gen-deep-json"
      { head -c 65536 /dev/zero | tr '\0' '\n'; printf '{"type":"assistant","sessionId":"s","message":{"content":[{"type":"tool_use","name":"Bash","id":"t","input":{"command":"git push --force"}}]}}\n'; } > "$corpus/gen-blank-first"
      { printf '{"type":"user","sessionId":"s","message":{"content":"'; rep 20000 'never force push to main '; printf '"}}\n'; } > "$corpus/gen-long-turn"
      printf '{"trajectory":[{"action":"git push --force","observation":"ok","response":"x","thought":NaN}],"info":{"x":Infinity}}' > "$corpus/gen-nan.json";;
    skill_extract_lockfile)
      { printf -- '---\nname: big\ndescription: d\n---\n'; for i in $(seq 1 2000); do printf -- '- Never run `git push --force` to main, rule %d; always ask before deleting `~/.ssh`.\n' "$i"; done; } > "$corpus/gen-many-rules"
      { printf -- '---\nname: deep\ndescription: d\nmetadata: '; rep 2000 '['; printf '\n---\nNever push.\n'; } > "$corpus/gen-deep-frontmatter";;
    findings)
      { for i in $(seq 1 5000); do printf '{"id": "F%d", "kind": "security", "severity": "high", "title": "t", "evidence": "e", "suggestion": "s"}\n' "$i"; done; } > "$corpus/gen-many"
      { rep 100000 '['; printf '\n'; } > "$corpus/gen-deep-json";;
    hook_stdin)
      { for i in $(seq 1 2000); do printf 'refs/heads/b%d 0123456789abcdef0123456789abcdef01234567 refs/heads/b%d 0000000000000000000000000000000000000000\n' "$i" "$i"; done; } > "$corpus/gen-many-refs";;
  esac
fi
mkdir -p "$root/fuzz/artifacts/$target"
dict=()
[ -f "$root/fuzz/dicts/$target.dict" ] && dict=(-dict="$root/fuzz/dicts/$target.dict")
# Largest input libFuzzer builds, per target: near each input's real limit
# where that stays fast (docs/reliability.md, "Limits"); the grammar-aware
# seeds above are larger still and are kept whole.
case "$target" in
  transcript_label|doctor|findings) max_len=1048576;;
  skill_extract_lockfile) max_len=1048576;;
  lockfile|config|contract_grade) max_len=262144;;
  hook_stdin) max_len=65536;;
esac
exec nice -n 19 "$root/fuzz/target/release/$target" "$corpus" \
  -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -max_len="$max_len" -artifact_prefix="$root/fuzz/artifacts/$target/" "${dict[@]}" "$@"
