//! propose: unified-diff proposals for violated or undecidable constraints (SPEC §7).
