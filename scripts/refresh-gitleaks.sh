#!/usr/bin/env bash
# Refresh the vendored gitleaks rule set used by skillgate's redaction
# (src/redact/gitleaks.toml, MIT, © Zachary Rice — src/redact/gitleaks.LICENSE).
#
# Usage:
#   scripts/refresh-gitleaks.sh                 # fetch config/gitleaks.toml from gitleaks' default branch
#   scripts/refresh-gitleaks.sh REF             # ... at a tag or commit (e.g. v8.28.0)
#   scripts/refresh-gitleaks.sh --from FILE     # copy a gitleaks.toml you already have
#
# Then run `cargo test --lib redact::` : the test
# `redact::gitleaks::tests::vendored_rules_load_and_skips_are_counted` counts
# the usable rules and lists the skipped ones (rules scoped to file paths, and
# any regex the Rust engine rejects); update its expected numbers after
# reading that list, and the provenance line in src/redact/PROVENANCE.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=src/redact/gitleaks.toml
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if [[ "${1:-}" == "--from" ]]; then
  cp "${2:?--from needs a file}" "$tmp"
  source="file ${2}"
else
  ref=${1:-master}
  url="https://raw.githubusercontent.com/gitleaks/gitleaks/${ref}/config/gitleaks.toml"
  curl -fsSL "$url" -o "$tmp"
  source="$url"
fi
grep -q '^\[\[rules\]\]' "$tmp" || { echo "error: $source holds no [[rules]]" >&2; exit 2; }
rules=$(grep -c '^\[\[rules\]\]' "$tmp")
mv "$tmp" "$dest"
trap - EXIT
sha=$(sha256sum "$dest" | cut -d' ' -f1)
printf 'gitleaks.toml: from %s, %s rules, sha256 %s, refreshed %s\n' \
  "$source" "$rules" "$sha" "$(date -u +%Y-%m-%d)" > src/redact/PROVENANCE
cat src/redact/PROVENANCE
echo "now run: cargo test --lib redact::"
