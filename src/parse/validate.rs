//! The lint rules of `skillgate validate` (SPEC §3).
