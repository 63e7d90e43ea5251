//! Error kinds of failed tool calls: a small documented set, decided from the
//! event's flags, its exit code and (in memory only) its output text. The
//! output text is never stored: only the kind is.

use serde::Serialize;

/// Why a tool call failed. The order of [`ErrorKind::ALL`] is the order in
/// which [`classify`] tries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The user vetoed the call (a rejection in the harness's permission prompt).
    RejectedByUser,
    /// The call ran out of time ("timed out", exit code 124).
    Timeout,
    /// The call lacked permission (EACCES, "permission denied", sandbox denial, exit 126).
    PermissionDenied,
    /// Something named did not exist (a file, a command — exit 127 —, a URL: 404).
    NotFound,
    /// The tool rejected its input (schema validation, a string to replace
    /// that is not in the file, a file that must be read first).
    InvalidInput,
    /// A command exited with a nonzero status and nothing more specific applies.
    NonzeroExit,
    /// Failed, for a reason none of the above describes.
    Other,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 7] = [
        ErrorKind::RejectedByUser,
        ErrorKind::Timeout,
        ErrorKind::PermissionDenied,
        ErrorKind::NotFound,
        ErrorKind::InvalidInput,
        ErrorKind::NonzeroExit,
        ErrorKind::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::RejectedByUser => "rejected_by_user",
            ErrorKind::Timeout => "timeout",
            ErrorKind::PermissionDenied => "permission_denied",
            ErrorKind::NotFound => "not_found",
            ErrorKind::InvalidInput => "invalid_input",
            ErrorKind::NonzeroExit => "nonzero_exit",
            ErrorKind::Other => "other",
        }
    }

    pub fn parse(s: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// A one-sentence refinement suggestion for a recurring kind (used by `refine`).
    pub fn suggestion(self) -> &'static str {
        match self {
            ErrorKind::RejectedByUser => {
                "Users veto these calls: say in the tool's or skill's instructions when to ask before calling it, and narrow the cases that call it."
            }
            ErrorKind::Timeout => {
                "Calls run out of time: document expected run times, pass an explicit timeout, or run long jobs in the background and poll."
            }
            ErrorKind::PermissionDenied => {
                "Calls lack permission: document which paths and commands are allowed (sandbox, allowed-tools) so the agent stays inside them."
            }
            ErrorKind::NotFound => {
                "Calls name things that do not exist: tell the agent to list or search before it reads, runs or fetches a guessed path."
            }
            ErrorKind::InvalidInput => {
                "The tool rejects its input: document the parameters with a valid example and the preconditions (for example, read a file before editing it)."
            }
            ErrorKind::NonzeroExit => {
                "Commands exit nonzero: document the project's real build/test commands and how to read their failures before retrying."
            }
            ErrorKind::Other => {
                "Calls fail for varied reasons: inspect the cited sessions and document the failure modes in the tool's description."
            }
        }
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What classification looks at.
#[derive(Debug, Clone, Copy, Default)]
pub struct FailureFacts<'a> {
    pub rejected: bool,
    pub exit_code: Option<i64>,
    /// The tool's output text (in memory only).
    pub output: Option<&'a str>,
    /// The raw tool name.
    pub tool: Option<&'a str>,
}

/// How many bytes of a long output's head and of its tail classification reads.
const SCAN_BYTES: usize = 4096;

/// The kind of one failed call. Call it only for failed calls.
pub fn classify(f: &FailureFacts<'_>) -> ErrorKind {
    if f.rejected {
        return ErrorKind::RejectedByUser;
    }
    let text = f
        .output
        .map(scan_window)
        .unwrap_or_default()
        .to_ascii_lowercase();
    let has = |needles: &[&str]| needles.iter().any(|n| text.contains(n));

    if has(&[
        "user doesn't want to proceed",
        "user doesn't want to take this action",
        "tool use was rejected",
    ]) {
        return ErrorKind::RejectedByUser;
    }
    if matches!(f.exit_code, Some(124))
        || has(&[
            "timed out",
            "timeout exceeded",
            "deadline exceeded",
            "command timeout",
            "etimedout",
        ])
    {
        return ErrorKind::Timeout;
    }
    if matches!(f.exit_code, Some(126))
        || has(&[
            "permission denied",
            "eacces",
            "operation not permitted",
            "eperm",
            "access denied",
            "access is denied",
            "not permitted by",
            "blocked by sandbox",
            "sandbox denied",
            "http 403",
            "403 forbidden",
            "requested permissions to",
            "haven't granted it",
        ])
    {
        return ErrorKind::PermissionDenied;
    }
    // Input errors come before not-found: "String to replace not found in file"
    // is a wrong argument, not a missing file.
    if has(&[
        "inputvalidationerror",
        "invalid tool parameters",
        "invalid_tool_params",
        "invalid arguments",
        "invalid argument",
        "invalid input",
        "missing required",
        "required parameter",
        "unexpected parameter",
        "string to replace not found",
        "no replacement was performed",
        "did not appear verbatim",
        "is required for command",
        "invalid `",
        "searchreplacenoexactmatch",
        "failed to exactly match",
        "failed to match",
        "eisdir",
        "illegal operation on a directory",
        "old_string not found",
        "has not been read yet",
        "failed to parse",
        "could not parse",
        "unrecognized arguments",
        "usage:",
    ]) {
        return ErrorKind::InvalidInput;
    }
    if matches!(f.exit_code, Some(127))
        || has(&[
            "no such file or directory",
            "command not found",
            "does not exist",
            "not found",
            "enoent",
            "cannot find",
            "can't cd to",
            "unable to locate",
            "no rule to make target",
            "could not find",
            "no such",
            "404 not found",
            "status 404",
            "http 404",
            "unknown skill",
        ])
    {
        return ErrorKind::NotFound;
    }
    // An uncaught Python exception ends the process with status 1.
    if matches!(f.exit_code, Some(c) if c != 0)
        || exit_code_in_text(&text)
        || text.contains("traceback (most recent call last)")
    {
        return ErrorKind::NonzeroExit;
    }
    // aider marks a SEARCH/REPLACE block failed only when its SEARCH text does
    // not match the file (SearchReplaceNoExactMatch); the decoder keeps no text.
    if f.tool == Some("search/replace") && text.trim().is_empty() {
        return ErrorKind::InvalidInput;
    }
    ErrorKind::Other
}

/// "Exit code 1", "exited with code 2", "exit status 1", "exit_code": 1 (nonzero).
fn exit_code_in_text(text: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r#"(exit code|exited with code|exit status|exit_code"?:)\s*([0-9]+)"#)
            .expect("static regex")
    });
    re.captures_iter(text)
        .any(|c| c.get(2).is_some_and(|m| m.as_str() != "0"))
}

/// The head and the tail of a long output (errors state their cause first or last).
fn scan_window(s: &str) -> std::borrow::Cow<'_, str> {
    if s.len() <= 2 * SCAN_BYTES {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut head_end = SCAN_BYTES;
    while !s.is_char_boundary(head_end) {
        head_end -= 1;
    }
    let mut tail_start = s.len() - SCAN_BYTES;
    while !s.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    std::borrow::Cow::Owned(format!("{}\n{}", &s[..head_end], &s[tail_start..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(s: &str) -> ErrorKind {
        classify(&FailureFacts {
            output: Some(s),
            ..Default::default()
        })
    }

    #[test]
    fn rejection_wins() {
        let f = FailureFacts {
            rejected: true,
            exit_code: Some(1),
            output: Some("timed out"),
            tool: None,
        };
        assert_eq!(classify(&f), ErrorKind::RejectedByUser);
        assert_eq!(
            out("The user doesn't want to proceed with this tool use. The tool use was rejected"),
            ErrorKind::RejectedByUser
        );
    }

    #[test]
    fn kinds_from_text() {
        assert_eq!(out("Command timed out after 2m 0.0s"), ErrorKind::Timeout);
        assert_eq!(
            out("bash: /etc/shadow: Permission denied"),
            ErrorKind::PermissionDenied
        );
        assert_eq!(
            out("cat: foo.txt: No such file or directory"),
            ErrorKind::NotFound
        );
        assert_eq!(
            out("bash: line 1: pnpm: command not found"),
            ErrorKind::NotFound
        );
        assert_eq!(
            out("<tool_use_error>String to replace not found in file.</tool_use_error>"),
            ErrorKind::InvalidInput
        );
        assert_eq!(
            out("<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"),
            ErrorKind::InvalidInput
        );
        assert_eq!(
            out("InputValidationError: Edit failed due to the following issue"),
            ErrorKind::InvalidInput
        );
        assert_eq!(
            out("Error: Exit code 1\nFAILED tests/test_a.py"),
            ErrorKind::NonzeroExit
        );
        assert_eq!(out("something odd happened"), ErrorKind::Other);
        // OpenHands str_replace_editor and build outputs (real lines, cut).
        assert_eq!(
            out("ERROR:\nNo replacement was performed, old_str `x` did not appear verbatim in /w/a.c."),
            ErrorKind::InvalidInput
        );
        assert_eq!(
            out("ERROR:\nParameter `old_str` is required for command: str_replace."),
            ErrorKind::InvalidInput
        );
        assert_eq!(
            out("/bin/sh: 1: cd: can't cd to /workspace/build\nmake: *** [Makefile:192: build] Error 2"),
            ErrorKind::NotFound
        );
    }

    #[test]
    fn claude_code_tool_errors() {
        // Real result texts from the corpus (CC 1.0.x and 2.1.x), cut.
        assert_eq!(
            out("Claude requested permissions to write to /p/CLAUDE.md, but you haven't granted it yet."),
            ErrorKind::PermissionDenied
        );
        assert_eq!(
            out("EISDIR: illegal operation on a directory, read"),
            ErrorKind::InvalidInput
        );
        assert_eq!(
            out("Traceback (most recent call last):\n  File \"x.py\", line 3\nKeyError: 'a'"),
            ErrorKind::NonzeroExit
        );
        assert_eq!(
            out("Exit code 127\n(eval):1: command not found: a-sdlc"),
            ErrorKind::NotFound
        );
    }

    #[test]
    fn a_failed_aider_block_without_text_is_invalid_input() {
        let f = FailureFacts {
            tool: Some("search/replace"),
            ..Default::default()
        };
        assert_eq!(classify(&f), ErrorKind::InvalidInput);
        let f = FailureFacts {
            tool: Some("Edit"),
            ..Default::default()
        };
        assert_eq!(classify(&f), ErrorKind::Other);
    }

    #[test]
    fn kinds_from_exit_codes() {
        let f = |c| {
            classify(&FailureFacts {
                exit_code: Some(c),
                ..Default::default()
            })
        };
        assert_eq!(f(124), ErrorKind::Timeout);
        assert_eq!(f(126), ErrorKind::PermissionDenied);
        assert_eq!(f(127), ErrorKind::NotFound);
        assert_eq!(f(2), ErrorKind::NonzeroExit);
        assert_eq!(classify(&FailureFacts::default()), ErrorKind::Other);
    }

    #[test]
    fn exit_code_zero_in_text_is_not_a_failure_kind() {
        assert_eq!(out("Exit code 0"), ErrorKind::Other);
    }

    #[test]
    fn names_round_trip() {
        for k in ErrorKind::ALL {
            assert_eq!(ErrorKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(ErrorKind::parse("nope"), None);
    }

    #[test]
    fn long_outputs_do_not_panic_on_char_boundaries() {
        let s = "é".repeat(10_000);
        assert_eq!(out(&s), ErrorKind::Other);
    }
}
