//! Git option spellings: a short and a long form of one option are one flag
//! (`-f` is `--force`), so `{git: push, args: ["-f"]}` and `git push --force`
//! meet. The decoder's shell parser already normalises the flags it records;
//! this table normalises what users write in predicates (and re-normalises
//! recorded flags, which is idempotent for long forms).

/// The long form of `flag` for `subcommand`, or `flag` itself.
pub fn long_form(subcommand: &str, flag: &str) -> String {
    let Some(short) = flag
        .strip_prefix('-')
        .filter(|s| !s.starts_with('-') && s.chars().count() == 1)
    else {
        return flag.to_string();
    };
    let long = match (subcommand, short) {
        (_, "q") => Some("--quiet"),
        (_, "v") => Some("--verbose"),
        ("push", "f") => Some("--force"),
        ("push", "u") => Some("--set-upstream"),
        ("push", "d") => Some("--delete"),
        ("push", "n") => Some("--dry-run"),
        ("commit", "a") => Some("--all"),
        ("commit", "m") => Some("--message"),
        ("commit", "n") => Some("--no-verify"),
        ("commit", "s") => Some("--signoff"),
        ("commit", "F") => Some("--file"),
        ("commit", "S") => Some("--gpg-sign"),
        ("commit", "C") => Some("--reuse-message"),
        ("commit", "c") => Some("--reedit-message"),
        ("commit", "p") => Some("--patch"),
        ("clean", "f") => Some("--force"),
        ("clean", "n") => Some("--dry-run"),
        ("clean", "i") => Some("--interactive"),
        ("branch", "d") => Some("--delete"),
        ("branch", "m") => Some("--move"),
        ("branch", "c") => Some("--copy"),
        ("branch", "f") => Some("--force"),
        ("branch", "a") => Some("--all"),
        ("branch", "r") => Some("--remotes"),
        ("branch", "u") => Some("--set-upstream-to"),
        ("checkout", "f") => Some("--force"),
        ("checkout", "p") => Some("--patch"),
        ("switch", "c") => Some("--create"),
        ("switch", "C") => Some("--force-create"),
        ("switch", "f") => Some("--force"),
        ("merge", "m") => Some("--message"),
        ("merge", "s") => Some("--strategy"),
        ("merge", "X") => Some("--strategy-option"),
        ("rebase", "i") => Some("--interactive"),
        ("rebase", "f") => Some("--force-rebase"),
        ("rebase", "x") => Some("--exec"),
        ("tag", "d") => Some("--delete"),
        ("tag", "f") => Some("--force"),
        ("tag", "a") => Some("--annotate"),
        ("tag", "s") => Some("--sign"),
        ("tag", "m") => Some("--message"),
        ("tag", "l") => Some("--list"),
        ("worktree", "f") => Some("--force"),
        ("fetch", "f") => Some("--force"),
        ("fetch", "p") => Some("--prune"),
        ("fetch", "t") => Some("--tags"),
        ("fetch", "a") => Some("--append"),
        ("pull", "f") => Some("--force"),
        ("pull", "r") => Some("--rebase"),
        ("add", "A") => Some("--all"),
        ("add", "f") => Some("--force"),
        ("add", "u") => Some("--update"),
        ("add", "p") => Some("--patch"),
        ("add", "n") => Some("--dry-run"),
        ("rm", "f") => Some("--force"),
        ("rm", "n") => Some("--dry-run"),
        ("rm", "r") => Some("-r"),
        ("cherry-pick", "n") => Some("--no-commit"),
        ("cherry-pick", "e") => Some("--edit"),
        ("revert", "n") => Some("--no-commit"),
        ("revert", "e") => Some("--edit"),
        ("stash", "u") => Some("--include-untracked"),
        ("stash", "a") => Some("--all"),
        ("stash", "k") => Some("--keep-index"),
        ("stash", "p") => Some("--patch"),
        ("stash", "m") => Some("--message"),
        ("reset", "p") => Some("--patch"),
        ("mv", "f") => Some("--force"),
        ("mv", "n") => Some("--dry-run"),
        _ => None,
    };
    long.map(str::to_string).unwrap_or_else(|| flag.to_string())
}

/// Split a predicate's `args` entry into normalised flags: combined short
/// flags (`-fu`) become one flag each; long flags stay as written.
pub fn normalize_flags(subcommand: &str, arg: &str) -> Vec<String> {
    // Shorthands for two options: `git branch -D` is `--delete --force`
    // (so a rule on deleting a branch sees the forced deletion too).
    let pair: Option<[&str; 2]> = match (subcommand, arg) {
        ("branch", "-D") => Some(["--delete", "--force"]),
        ("branch", "-M") => Some(["--move", "--force"]),
        ("branch", "-C") => Some(["--copy", "--force"]),
        _ => None,
    };
    if let Some(pair) = pair {
        return pair.iter().map(|s| s.to_string()).collect();
    }
    if let Some(rest) = arg.strip_prefix('-') {
        if !rest.starts_with('-')
            && rest.chars().count() > 1
            && rest.chars().all(|c| c.is_ascii_alphabetic())
        {
            return rest
                .chars()
                .map(|c| long_form(subcommand, &format!("-{c}")))
                .collect();
        }
    }
    vec![long_form(subcommand, arg)]
}

/// Does a recorded flag satisfy a wanted one? `--force-with-lease=origin/x`
/// satisfies `--force-with-lease`; a wanted `--x=v` needs the exact value.
pub fn flag_satisfies(recorded: &str, wanted: &str) -> bool {
    if recorded == wanted {
        return true;
    }
    if wanted.contains('=') {
        return false;
    }
    recorded
        .split_once('=')
        .is_some_and(|(name, _)| name == wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_forms_are_one_flag() {
        assert_eq!(long_form("push", "-f"), "--force");
        assert_eq!(long_form("push", "--force"), "--force");
        assert_eq!(long_form("commit", "-n"), "--no-verify");
        assert_eq!(long_form("branch", "-D"), "-D");
        assert_eq!(normalize_flags("branch", "-D"), vec!["--delete", "--force"]);
        assert_eq!(normalize_flags("branch", "-d"), vec!["--delete"]);
        assert_eq!(
            normalize_flags("push", "-fu"),
            vec!["--force", "--set-upstream"]
        );
        assert_eq!(
            normalize_flags("push", "--force-with-lease"),
            vec!["--force-with-lease"]
        );
    }

    #[test]
    fn valued_flags_match_by_name() {
        assert!(flag_satisfies(
            "--force-with-lease=origin/main",
            "--force-with-lease"
        ));
        assert!(!flag_satisfies("--force-with-lease", "--force"));
        assert!(!flag_satisfies(
            "--force-with-lease=a",
            "--force-with-lease=b"
        ));
    }
}
