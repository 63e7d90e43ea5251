//! Session-retro sidecars: `<file>.retro.yaml`.

use super::{DecodeError, Trajectory};

/// Read `<path>.retro.yaml` when present and apply it.
pub fn apply(_traj: &mut Trajectory) -> Result<(), DecodeError> {
    Ok(())
}
