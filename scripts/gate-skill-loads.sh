#!/usr/bin/env bash
# The gate over the eight real Claude Code sessions that loaded real
# superpowers skills (../shared/realdata/transcripts/claude-code-skill-loads/),
# each skill at the exact version the session ran
# (../shared/realdata/skills-for-sessions/). One line per (skill, session):
# verdict, exit code, and the labels of the constraints that fired.
# Usage: scripts/gate-skill-loads.sh [SKILLGATE_BINARY]   (from the repository root)
set -euo pipefail
bin=${1:-target/debug/skillgate}
rd=../shared/realdata
t=$rd/transcripts/claude-code-skill-loads
s=$rd/skills-for-sessions/obra-superpowers
run() { # skill-dir session
  "$bin" gate "$s@$1" --trajectories "$t/$2_full.jsonl" --format json --no-report 2>/dev/null |
    python3 -c '
import json, sys
j = json.load(sys.stdin); v = j["skills"][0] if "skills" in j else j
n = v["numbers"]
fired = [c["id"] + "=" + c["label"] for c in v["constraints"] if c["label"] in ("violated", "ambiguous", "exercised")]
fc = [c["id"] for c in v["constraints"] if c["outcome"] == "fail-closed"]
print("%-38s %-28s %-16s exit %s  ex %s vi %s am %s un %s uv %s adequacy %s" % (sys.argv[1], sys.argv[2], v["verdict"], v["exit_code"], n["exercised"], n["violated"], n["ambiguous"], n["untested"], n["unverifiable"], n.get("adequacy")))
print("    fired:", ", ".join(fired) or "-")
print("    fail-closed:", ", ".join(fc) or "-")
' "$1" "$2" || true
}
run v4.1.1/writing-plans            entireio__a7f087274d3b-0
run v4.1.1/receiving-code-review    entireio__243ed775b643-0
run v4.0.3/requesting-code-review   entireio__e012b8e855d7-0
run v4.1.1/systematic-debugging     entireio__a4a8d7d25377-3
run v4.1.1/writing-plans            entireio__a4a8d7d25377-3
run v4.0.3/brainstorming            entireio__7033bba9319c-2
run v4.2.0/requesting-code-review   entireio__18b9cffdf43b-0
run v4.3.1/systematic-debugging     RecoveryLM__c7a439bc5cb0-0
run v4.3.1/brainstorming            RecoveryLM__c7a439bc5cb0-0
run v4.3.1/brainstorming            RecoveryLM__1ee785c22e6a-0
run v4.3.1/writing-plans            RecoveryLM__1ee785c22e6a-0
run v4.3.1/subagent-driven-development RecoveryLM__1ee785c22e6a-0
