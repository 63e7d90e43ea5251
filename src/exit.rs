//! The exit-code contract (SPEC §6). Only `main` turns a value into a process exit.

use std::process::ExitCode;

/// What a command concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// 0: the gate passed (non-blocking flags allowed), or the command succeeded.
    Ok = 0,
    /// 1: the gate failed closed (or `validate` found errors).
    Fail = 1,
    /// 2: usage, configuration or input error.
    Error = 2,
    /// 3: nothing to measure (no valid trajectory).
    NothingToMeasure = 3,
}

impl Exit {
    /// The worse of two outcomes, for commands over several skills
    /// (error > fail > nothing-to-measure > ok).
    pub fn worst(self, other: Exit) -> Exit {
        fn rank(e: Exit) -> u8 {
            match e {
                Exit::Ok => 0,
                Exit::NothingToMeasure => 1,
                Exit::Fail => 2,
                Exit::Error => 3,
            }
        }
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}
