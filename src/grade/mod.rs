//! grade: execution grade and effectiveness audit (seed 003).
