//! Finding SKILL.md files: a file, a skill folder, or a tree holding many.
