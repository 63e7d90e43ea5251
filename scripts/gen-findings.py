#!/usr/bin/env python3
"""Generate a synthetic retort run folder for timing `skillgate assess`.

Writes RUN_DIR/findings.jsonl with N findings in the shape retort's
`evaluate-run` writes (id, kind, severity, title, evidence, suggestion, one
JSON object per line), plus stack.json and an evaluation.md whose requirement
table lists R1..R<requirements>. The output is deterministic for a given
--seed, so figures can be compared across machines and commits.

    scripts/gen-findings.py /tmp/assess-bench            # 200,000 findings
    scripts/gen-findings.py /tmp/assess-bench -n 1000 --malformed 10

Then (see docs/assess.md, "Streaming and speed"):

    cargo build --release
    time target/release/skillgate assess /tmp/assess-bench
"""

import argparse
import json
import os
import random

SEVERITIES = ["critical", "high", "medium", "low", "info"]
# Roughly what real runs show: few criticals, many low/info findings.
WEIGHTS = [1, 6, 20, 38, 35]
KINDS = ["lint_warning", "enhancement", "test_gap", "security", "build_failure"]
WORDS = (
    "handler query request response error parse validate book author title "
    "isbn route database index cache token session config schema field value "
    "timeout retry pagination filter sort limit offset status code body header"
).split()


def sentence(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_dir")
    ap.add_argument("-n", "--findings", type=int, default=200_000, help="number of findings (default 200000)")
    ap.add_argument("--requirements", type=int, default=40, help="requirements R1..RN in evaluation.md (default 40)")
    ap.add_argument("--malformed", type=int, default=0, help="also insert this many malformed lines")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    os.makedirs(args.run_dir, exist_ok=True)
    bad_at = set(rng.sample(range(args.findings), min(args.malformed, args.findings)))
    path = os.path.join(args.run_dir, "findings.jsonl")
    with open(path, "w", encoding="utf-8") as out:
        for i in range(args.findings):
            if i in bad_at:
                out.write('{"id": "broken-%d", "severity": "sever' % i + "\n")
                continue
            severity = rng.choices(SEVERITIES, WEIGHTS)[0]
            if rng.random() < 0.05:
                req = rng.randint(1, args.requirements)
                fid = "R%d" % req
                kind = rng.choice(["requirement_missing", "requirement_partial"])
            else:
                fid = "F%d" % i
                kind = rng.choice(KINDS)
            finding = {
                "id": fid,
                "kind": kind,
                "severity": severity,
                "title": sentence(rng, 5, 12),
                "evidence": "src/%s.rs:%d — %s" % (rng.choice(WORDS), rng.randint(1, 900), sentence(rng, 20, 45)),
                "suggestion": sentence(rng, 6, 16),
            }
            out.write(json.dumps(finding, ensure_ascii=False) + "\n")

    with open(os.path.join(args.run_dir, "stack.json"), "w", encoding="utf-8") as f:
        json.dump({"language": "rust", "model": "bench-model", "tooling": "none"}, f)
        f.write("\n")
    with open(os.path.join(args.run_dir, "evaluation.md"), "w", encoding="utf-8") as f:
        f.write("# Evaluation: synthetic benchmark run\n\n## Requirements\n\n")
        f.write("| ID | Requirement (short) | Status | Evidence |\n|----|----|----|----|\n")
        for r in range(1, args.requirements + 1):
            f.write("| R%d | requirement %d | ✓ implemented | generated |\n" % (r, r))

    size = os.path.getsize(path)
    print("wrote %s: %d findings (%d malformed), %.1f MB" % (path, args.findings, len(bad_at), size / 1e6))


if __name__ == "__main__":
    main()
