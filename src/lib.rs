//! skillgate — a CI gate for agent skills.
//!
//! The pipeline (SPEC §2) is the architecture; each folder is one stage:
//!
//! ```text
//! SKILL.md ──parse──> Skill ──extract──> Constraints ──┐
//!                                                       ├─label──> Labels ──score──> Verdict ──render──> reports
//! transcripts ──decode──> Trajectories ────────────────┘
//! ```
//!
//! Stages are pure: they never print, exit, read the clock or the environment.
//! The binary's `cli` module does the I/O. Sibling commands (`assess`, `doctor`,
//! `audit`, `grade`) live in folders of their own; `release` holds the git-hook,
//! changed-skill and GitHub integrations; `propose` turns verdicts into diffs.

pub mod config;
pub mod exit;
pub mod fsutil;

pub mod decode;
pub mod extract;
pub mod gate;
pub mod label;
pub mod parse;
pub mod render;
pub mod score;

pub mod assess;
pub mod audit;
pub mod capture;
pub mod doctor;
pub mod grade;
pub mod propose;
pub mod redact;
pub mod release;
pub mod review;
pub mod shard;
