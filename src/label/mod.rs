//! label: constraints × trajectories → per-trajectory and aggregated labels (SPEC §6).
