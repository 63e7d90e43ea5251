//! Configuration: `.skillgate.yaml`, found by walking up from the working
//! directory, or `--config FILE`; strict (unknown keys are errors with their line).
