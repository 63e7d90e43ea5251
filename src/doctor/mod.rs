//! doctor: score one agent session and render a self-contained report.html
//! (seed 000, SPEC §8).
//!
//! ```text
//! Trajectory ──turns──> [Turn] ──rubric──> scores + evidence ──findings──> ranked suggestions ──html──> report.html
//! ```
//!
//! Everything here is pure: the caller (`skillgate doctor`) locates and
//! decodes the transcript, passes the clock's reading in, and writes the file.
//! The doctor is the one part of skillgate that quotes session text back to
//! its user: only through [`redact::excerpt`] (secrets redacted, at most 240
//! characters), and not at all with `--no-excerpts`. `docs/doctor.md` is the
//! rubric.

pub mod html;
pub mod redact;
pub mod rubric;
pub mod signals;
pub mod turns;

use crate::decode::Trajectory;
use serde::Serialize;
use std::path::PathBuf;
pub use turns::{Turn, TurnRole};

/// How to build the report.
#[derive(Debug, Clone, Copy)]
pub struct DoctorOptions {
    /// Quote redacted excerpts of the cited turns (`--no-excerpts` turns this off:
    /// evidence then cites turn numbers only).
    pub excerpts: bool,
}

impl Default for DoctorOptions {
    fn default() -> Self {
        DoctorOptions { excerpts: true }
    }
}

/// What the caller found and decoded.
#[derive(Debug)]
pub enum SessionInput {
    /// No transcript was found (a path that does not exist, an empty
    /// directory, nothing under the default session folders).
    NoHistory { searched: Vec<String> },
    /// The transcript file is empty (or only whitespace).
    Empty { path: PathBuf },
    /// A decoded session (possibly with undecodable records in `problems`).
    Decoded(Box<Trajectory>),
    /// A plain-text log (no decoder recognised it, it is not JSON, and role
    /// markers split it into turns): scored like any session (seed 000 step 2).
    PlainText { path: PathBuf, turns: Vec<Turn> },
    /// No decoder recognised the file, or decoding failed. `recovered` are
    /// the turns found by plain-text role markers, if any.
    Undecodable {
        path: PathBuf,
        line: Option<u64>,
        message: String,
        recovered: Vec<Turn>,
    },
}

/// One piece of evidence: a turn, what we saw there (our words: counts,
/// tool names, turn numbers, never session text), and a redacted excerpt.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Evidence {
    pub turn: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    pub note: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

/// One rubric line.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SubScore {
    /// Stable kebab-case code (`task-completion`, `minimal-diff`…).
    pub code: &'static str,
    pub category: &'static str,
    pub score: u8,
    pub max: u8,
    /// How the score was set, in the rubric's terms (counts and turn numbers).
    pub basis: String,
    pub evidence: Vec<Evidence>,
    /// One concrete improvement; set when the score is below its maximum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

/// A 0–10 score made of sub-scores, or N/A with its reason.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Score {
    Scored { total: u8, subs: Vec<SubScore> },
    NotApplicable { reason: String },
}

impl Score {
    pub fn total(&self) -> Option<u8> {
        match self {
            Score::Scored { total, .. } => Some(*total),
            Score::NotApplicable { .. } => None,
        }
    }
    pub fn subs(&self) -> &[SubScore] {
        match self {
            Score::Scored { subs, .. } => subs,
            Score::NotApplicable { .. } => &[],
        }
    }
}

/// A sub-score below its maximum, with its evidence and one suggestion.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Finding {
    pub code: &'static str,
    /// "Efficiency" or "Code quality".
    pub area: &'static str,
    pub category: &'static str,
    pub score: u8,
    pub max: u8,
    pub basis: String,
    pub evidence: Vec<Evidence>,
    pub suggestion: String,
}

/// A suggestion in the ranked list: highest potential gain first.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Suggestion {
    pub rank: usize,
    pub code: &'static str,
    pub category: &'static str,
    /// Points the sub-score could gain (max − score).
    pub gain: u8,
    pub text: String,
}

/// The session the report is about.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SessionInfo {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harness: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    pub turns: usize,
}

/// The counts the rubric reads, shown in the report so a reader can recount.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Facts {
    pub turns: usize,
    pub user_requests: usize,
    pub interrupts: usize,
    /// Assistant messages + tool calls (subagents included).
    pub agent_turns: usize,
    /// Turns of subagents (any role).
    pub subagent_turns: usize,
    pub tool_calls: usize,
    pub failed_calls: usize,
    pub rejected_calls: usize,
    pub exploration_turns: usize,
    pub wasted_exploration: usize,
    pub blind_retries: usize,
    pub files_read: usize,
    /// Files changed (scratch files excluded).
    pub files_changed: usize,
    /// Files created and deleted again within the session.
    pub scratch_files: usize,
    pub code_files_changed: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_code_change_turn: Option<usize>,
    pub checks_after_last_change: usize,
}

/// Which report this is.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// Minimal report: "No conversation history found".
    NoHistory { searched: Vec<String> },
    /// Minimal report: "Session too short to assess".
    TooShort { turns: usize },
    /// Report with a parsing-error note, the partial turns, scores N/A.
    ParseError { note: String },
    /// The full report.
    Scored,
}

/// A line of the turn list shown for partial (parse-error) reports.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TurnLine {
    pub turn: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    pub role: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

/// Everything report.html shows.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    pub outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub efficiency: Option<Score>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_quality: Option<Score>,
    pub findings: Vec<Finding>,
    pub suggestions: Vec<Suggestion>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts: Option<Facts>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub turn_list: Vec<TurnLine>,
    /// How many turns the parse-error list left out.
    #[serde(skip_serializing_if = "is_zero")]
    pub turn_list_omitted: usize,
    pub excerpts: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The most turns a parse-error report lists.
pub const TURN_LIST_MAX: usize = 200;

/// The message of the no-history minimal report.
pub const NO_HISTORY: &str = "No conversation history found";
/// The message of the too-short minimal report.
pub const TOO_SHORT: &str = "Session too short to assess";

/// Score a session and build the report (seed 000 steps 1–6).
pub fn diagnose(input: &SessionInput, opts: &DoctorOptions) -> Report {
    match input {
        SessionInput::NoHistory { searched } => minimal(
            Outcome::NoHistory {
                searched: searched.clone(),
            },
            None,
            opts,
        ),
        SessionInput::Empty { path } => minimal(
            Outcome::TooShort { turns: 0 },
            Some(SessionInfo {
                path: path.display().to_string(),
                session_id: None,
                harness: None,
                format: None,
                started_at: None,
                ended_at: None,
                turns: 0,
            }),
            opts,
        ),
        SessionInput::Undecodable {
            path,
            line,
            message,
            recovered,
        } => {
            let at = line.map(|l| format!(":{l}")).unwrap_or_default();
            let recovered_note = match recovered.len() {
                0 => "No turn could be recovered from plain-text role markers (User:, Assistant:, Tool:)".to_string(),
                n => format!("{n} turn(s) recovered from plain-text role markers are listed below"),
            };
            let note = format!(
                "{}{at}: {message}. {recovered_note}; tool calls and their results cannot be identified, \
                 so no score is assessed.",
                path.display(),
            );
            let session = SessionInfo {
                path: path.display().to_string(),
                session_id: None,
                harness: None,
                format: None,
                started_at: recovered.iter().find_map(|t| t.timestamp.clone()),
                ended_at: None,
                turns: recovered.len(),
            };
            parse_error_report(note, session, recovered, opts)
        }
        SessionInput::Decoded(traj) => from_trajectory(traj, opts),
        SessionInput::PlainText { path, turns } => from_plain_text(path, turns, opts),
    }
}

/// The format name reported for plain-text logs.
pub const PLAIN_TEXT_FORMAT: &str = "plain-text (role markers)";

fn from_plain_text(path: &std::path::Path, turns: &[Turn], opts: &DoctorOptions) -> Report {
    let session = SessionInfo {
        path: path.display().to_string(),
        session_id: None,
        harness: None,
        format: Some(PLAIN_TEXT_FORMAT.to_string()),
        started_at: None,
        ended_at: None,
        turns: turns.len(),
    };
    let substantive = turns.iter().filter(|t| t.role != TurnRole::System).count();
    if substantive < 2 {
        return minimal(
            Outcome::TooShort { turns: substantive },
            Some(session),
            opts,
        );
    }
    scored(session, turns, None, false, opts)
}

/// Where the undecodable records of a trajectory are (`line 6`, a JSON
/// pointer), for the report's note and the command's stderr.
pub fn undecodable_locations(traj: &Trajectory) -> Vec<String> {
    traj.problems
        .iter()
        .filter(|p| {
            matches!(
                p.kind,
                crate::decode::ProblemKind::Undecodable | crate::decode::ProblemKind::InvalidUtf8
            )
        })
        .map(|p| match (p.location.line, &p.location.pointer) {
            (Some(l), _) => format!("line {l}"),
            (None, Some(ptr)) => ptr.clone(),
            _ => "an unknown location".to_string(),
        })
        .collect()
}

/// `line 3, line 9, and 4 more`.
pub fn list_locations(locs: &[String]) -> String {
    let shown: Vec<&str> = locs.iter().take(10).map(String::as_str).collect();
    let more = locs.len().saturating_sub(shown.len());
    format!(
        "{}{}",
        shown.join(", "),
        if more > 0 {
            format!(", and {more} more")
        } else {
            String::new()
        }
    )
}

fn minimal(outcome: Outcome, session: Option<SessionInfo>, opts: &DoctorOptions) -> Report {
    Report {
        outcome,
        session,
        efficiency: None,
        code_quality: None,
        findings: Vec::new(),
        suggestions: Vec::new(),
        facts: None,
        turn_list: Vec::new(),
        turn_list_omitted: 0,
        excerpts: opts.excerpts,
    }
}

fn session_info(traj: &Trajectory, turns: &[Turn]) -> SessionInfo {
    SessionInfo {
        path: traj.path.display().to_string(),
        session_id: traj.session_id.clone(),
        harness: Some(traj.harness.as_str().to_string()),
        format: Some(traj.format.clone()),
        started_at: turns.iter().find_map(|t| t.timestamp.clone()),
        ended_at: turns.iter().rev().find_map(|t| t.timestamp.clone()),
        turns: turns.len(),
    }
}

fn parse_error_report(
    note: String,
    session: SessionInfo,
    turns: &[Turn],
    opts: &DoctorOptions,
) -> Report {
    let na = || Score::NotApplicable {
        reason: "Not assessed: the transcript could not be fully decoded (see the parsing note)."
            .to_string(),
    };
    let turn_list = turns
        .iter()
        .take(TURN_LIST_MAX)
        .map(|t| TurnLine {
            turn: t.number,
            line: t.line,
            role: t.role.as_str(),
            tool: t.tool_name.clone(),
            excerpt: if opts.excerpts {
                rubric::turn_excerpt(t, rubric::Focus::Auto)
            } else {
                None
            },
        })
        .collect();
    Report {
        outcome: Outcome::ParseError { note },
        session: Some(session),
        efficiency: Some(na()),
        code_quality: Some(na()),
        findings: Vec::new(),
        suggestions: Vec::new(),
        facts: None,
        turn_list,
        turn_list_omitted: turns.len().saturating_sub(TURN_LIST_MAX),
        excerpts: opts.excerpts,
    }
}

fn from_trajectory(traj: &Trajectory, opts: &DoctorOptions) -> Report {
    let turns = turns::from_trajectory(traj);
    let session = session_info(traj, &turns);
    let undecodable = undecodable_locations(traj);
    if !undecodable.is_empty() {
        let note = format!(
            "{}: {} record(s) could not be decoded ({}). The {} decoded turn(s) are listed below; \
             scores are not assessed because the hidden records could change every count.",
            traj.path.display(),
            undecodable.len(),
            list_locations(&undecodable),
            turns.len()
        );
        return parse_error_report(note, session, &turns, opts);
    }
    let substantive = turns.iter().filter(|t| t.role != TurnRole::System).count();
    if substantive < 2 {
        return minimal(
            Outcome::TooShort { turns: substantive },
            Some(session),
            opts,
        );
    }
    scored(session, &turns, traj.cwd.as_deref(), traj.truncated, opts)
}

fn scored(
    session: SessionInfo,
    turns: &[Turn],
    cwd: Option<&str>,
    truncated: bool,
    opts: &DoctorOptions,
) -> Report {
    let assessed = rubric::assess(turns, cwd, truncated, opts);
    let (findings, suggestions) = rubric::findings(&assessed.efficiency, &assessed.code_quality);
    Report {
        outcome: Outcome::Scored,
        session: Some(session),
        efficiency: Some(assessed.efficiency),
        code_quality: Some(assessed.code_quality),
        findings,
        suggestions,
        facts: Some(assessed.facts),
        turn_list: Vec::new(),
        turn_list_omitted: 0,
        excerpts: opts.excerpts,
    }
}
