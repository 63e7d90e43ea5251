//! `skillgate hook install`: writes the pre-push hook (the script committed
//! as `hooks/pre-push`) into the repository's hooks folder, respecting
//! `core.hooksPath`, and never replaces a hook it did not write (recognised
//! by [`MARKER`]) unless forced — then the old hook is kept as a backup.

use super::ReleaseError;
use git2::Repository;
use std::path::{Path, PathBuf};

/// The line that marks a hook written by skillgate.
pub const MARKER: &str = "# skillgate-managed-hook: pre-push";

/// The hook script: the very file `hooks/pre-push` of this repository.
pub const SCRIPT: &str = include_str!("../../hooks/pre-push");

/// True when `text` is a hook skillgate wrote.
pub fn is_ours(text: &str) -> bool {
    text.lines().any(|l| l.trim_end() == MARKER)
}

/// What `install` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// No pre-push hook was there.
    Created,
    /// An older skillgate hook was rewritten.
    Updated,
    /// The same script was already installed.
    Unchanged,
    /// A foreign hook was replaced (`--force`); it was kept at `backup`.
    Replaced { backup: PathBuf },
}

/// Where the hook went and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    pub path: PathBuf,
    pub action: Action,
    /// The hooks folder comes from `core.hooksPath`.
    pub hooks_path_config: bool,
}

/// The folder git runs hooks from: `core.hooksPath` (relative to the
/// working tree, or to the git folder of a bare repository), else the
/// `hooks` folder of the (common) git directory.
pub fn hooks_dir(repo: &Repository) -> Result<(PathBuf, bool), ReleaseError> {
    let config = repo
        .config()
        .map_err(|e| ReleaseError::git("reading the git configuration", e))?;
    match config.get_path("core.hooksPath") {
        Ok(p) if !p.as_os_str().is_empty() => {
            let p = if p.is_absolute() {
                p
            } else {
                repo.workdir().unwrap_or_else(|| repo.path()).join(p)
            };
            Ok((p, true))
        }
        Ok(_) => Ok((repo.commondir().join("hooks"), false)),
        Err(e) if e.code() == git2::ErrorCode::NotFound => {
            Ok((repo.commondir().join("hooks"), false))
        }
        Err(e) => Err(ReleaseError::git("core.hooksPath", e)),
    }
}

/// The first free backup name beside `path`.
fn backup_name(path: &Path) -> PathBuf {
    let base = format!(
        "{}.skillgate-backup",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    );
    let dir = path.parent().unwrap_or(Path::new("."));
    let first = dir.join(&base);
    if !first.exists() {
        return first;
    }
    (2..)
        .map(|n| dir.join(format!("{base}-{n}")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

fn write_executable(path: &Path, text: &str) -> Result<(), ReleaseError> {
    crate::fsutil::atomic_write(path, text.as_bytes()).map_err(|e| ReleaseError::io(path, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| ReleaseError::io(path, e))?;
    }
    Ok(())
}

/// Install the pre-push hook of `repo`.
pub fn install(repo: &Repository, force: bool) -> Result<Installed, ReleaseError> {
    let (dir, from_config) = hooks_dir(repo)?;
    std::fs::create_dir_all(&dir).map_err(|e| ReleaseError::io(&dir, e))?;
    let path = dir.join("pre-push");
    let existing = match std::fs::read(&path) {
        Ok(b) => Some(String::from_utf8_lossy(&b).into_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(ReleaseError::io(&path, e)),
    };
    let action = match existing {
        None => Action::Created,
        Some(text) if is_ours(&text) => {
            if text == SCRIPT && is_executable(&path) {
                return Ok(Installed {
                    path,
                    action: Action::Unchanged,
                    hooks_path_config: from_config,
                });
            }
            Action::Updated
        }
        Some(_) if !force => {
            return Err(ReleaseError::ForeignHook {
                backup: backup_name(&path),
                path,
            })
        }
        Some(_) => {
            let backup = backup_name(&path);
            std::fs::copy(&path, &backup).map_err(|e| ReleaseError::io(&backup, e))?;
            Action::Replaced { backup }
        }
    };
    write_executable(&path, SCRIPT)?;
    Ok(Installed {
        path,
        action,
        hooks_path_config: from_config,
    })
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_carries_the_marker_and_runs_the_hook() {
        assert!(is_ours(SCRIPT));
        assert!(SCRIPT.starts_with("#!/bin/sh\n"));
        assert!(SCRIPT.contains("hook pre-push \"$@\""));
        assert!(!is_ours("#!/bin/sh\nexec other-tool\n"));
    }

    #[test]
    fn install_creates_updates_and_refuses_foreign_hooks() {
        let d = tempfile::tempdir().unwrap();
        let repo = Repository::init(d.path()).unwrap();
        let first = install(&repo, false).unwrap();
        assert_eq!(first.action, Action::Created);
        assert_eq!(first.path, repo.path().join("hooks/pre-push"));
        assert_eq!(std::fs::read_to_string(&first.path).unwrap(), SCRIPT);
        assert!(is_executable(&first.path));
        assert_eq!(install(&repo, false).unwrap().action, Action::Unchanged);
        std::fs::write(&first.path, format!("{SCRIPT}\n# old version\n")).unwrap();
        assert_eq!(install(&repo, false).unwrap().action, Action::Updated);

        std::fs::write(&first.path, "#!/bin/sh\necho mine\n").unwrap();
        let e = install(&repo, false).unwrap_err();
        assert!(matches!(e, ReleaseError::ForeignHook { .. }), "{e}");
        assert_eq!(
            std::fs::read_to_string(&first.path).unwrap(),
            "#!/bin/sh\necho mine\n"
        );
        let forced = install(&repo, true).unwrap();
        let Action::Replaced { backup } = forced.action else {
            panic!("{forced:?}")
        };
        assert_eq!(backup, repo.path().join("hooks/pre-push.skillgate-backup"));
        assert_eq!(
            std::fs::read_to_string(&backup).unwrap(),
            "#!/bin/sh\necho mine\n"
        );
        assert_eq!(std::fs::read_to_string(&forced.path).unwrap(), SCRIPT);
    }

    #[test]
    fn core_hooks_path_is_respected() {
        let d = tempfile::tempdir().unwrap();
        let repo = Repository::init(d.path()).unwrap();
        repo.config()
            .unwrap()
            .set_str("core.hooksPath", ".githooks")
            .unwrap();
        let i = install(&repo, false).unwrap();
        assert!(i.hooks_path_config);
        assert_eq!(
            i.path.canonicalize().unwrap(),
            d.path().join(".githooks/pre-push").canonicalize().unwrap()
        );
    }
}
