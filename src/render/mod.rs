//! render: a verdict → Markdown, JSON, SARIF, GitHub annotations, JUnit (SPEC §7).
