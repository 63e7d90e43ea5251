//! doctor: score one session and write a self-contained report.html (seed 000).
