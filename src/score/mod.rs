//! score: labels → numbers, flags and the verdict (SPEC §6).
