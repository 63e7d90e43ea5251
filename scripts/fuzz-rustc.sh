#!/usr/bin/env bash
# RUSTC_WRAPPER for fuzzing on a stable toolchain (docs/reliability.md):
# adds SanitizerCoverage instrumentation (what `cargo fuzz` does on nightly)
# to skillgate, the fuzz targets and the parser crates they lean on, and to
# nothing else (the rest of the tree builds as usual, fast).
rustc="$1"; shift
name=""
prev=""
for a in "$@"; do
  if [ "$prev" = "--crate-name" ]; then name="$a"; fi
  prev="$a"
done
case "$name" in
  skillgate|skillgate_fuzz|skill_extract_lockfile|lockfile|config|transcript_label|doctor|contract_grade|findings|hook_stdin|\
  yaml_serde|libyaml_rs|gray_matter|globset)
    exec "$rustc" "$@" \
      -Cpasses=sancov-module \
      -Cllvm-args=-sanitizer-coverage-level=4 \
      -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
      -Cllvm-args=-sanitizer-coverage-pc-table \
      -Cllvm-args=-sanitizer-coverage-trace-compares ;;
  *)
    exec "$rustc" "$@" ;;
esac
