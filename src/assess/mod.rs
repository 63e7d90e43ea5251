//! assess: findings.jsonl → assessment.json (seed 002).
