//! release: where the gate meets the places skills ship (docs/integrations.md).
//!
//! - [`push`]: git's pre-push stdin lines, parsed;
//! - [`range`]: the commits each pushed ref brings, and the paths they change (git2);
//! - [`touched`]: which skills a set of changed paths concerns;
//! - [`tree`]: where a pushed commit's files are read from (the working tree, or an export);
//! - [`hook`]: the pre-push hook script and `hook install`;
//! - [`summary`]: the one-screen explanation the hook prints;
//! - [`github`]: the GitHub context, the check run and the one upserted PR comment;
//! - [`ship`]: the JSON verdict object of `skillgate ship`;
//! - [`normative`]: whether a change touches a rule (else it is not re-gated).
//!
//! Like every stage, nothing here prints, exits or reads the environment:
//! the commands under `src/cli/` pass the environment in.

pub mod changed;
pub mod github;
pub mod hook;
pub mod normative;
pub mod push;
pub mod range;
pub mod ship;
pub mod summary;
pub mod touched;
pub mod tree;

/// An error of the release integrations. Maps to exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum ReleaseError {
    /// A pre-push stdin line that does not have the four fields git writes.
    #[error("pre-push input line {line}: {message}")]
    PushLine { line: usize, message: String },
    /// A git operation failed (repository, revision, diff).
    #[error("{context}: {message}")]
    Git { context: String, message: String },
    /// A file could not be read or written.
    #[error("{}: {message}", path.display())]
    Io {
        path: std::path::PathBuf,
        message: String,
    },
    /// `hook install` found a hook it did not write.
    #[error("{}: a pre-push hook that skillgate did not write is already there; rerun with --force to replace it (it is kept as {})", path.display(), backup.display())]
    ForeignHook {
        path: std::path::PathBuf,
        backup: std::path::PathBuf,
    },
    /// Bad input of another kind (flags, environment, event file).
    #[error("{0}")]
    Input(String),
}

impl ReleaseError {
    pub(crate) fn git(context: impl Into<String>, e: git2::Error) -> ReleaseError {
        ReleaseError::Git {
            context: context.into(),
            message: e.message().to_string(),
        }
    }
    pub(crate) fn io(path: &std::path::Path, e: std::io::Error) -> ReleaseError {
        ReleaseError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}
