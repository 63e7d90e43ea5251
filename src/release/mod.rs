//! release: the pre-push hook, changed skills, GitHub reporting, the ship step.
