//! git's pre-push input: one line per pushed ref,
//! `<local ref> SP <local object id> SP <remote ref> SP <remote object id> LF`
//! (githooks(5)). Lines are split from the right, since a local ref may hold
//! spaces; object ids are 40 (SHA-1) or 64 (SHA-256) hex digits, all zeros
//! for a remote branch that does not exist yet or for a deletion.

use super::ReleaseError;

/// One pushed ref.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushRef {
    /// What the user pushed (`refs/heads/main`, or `(delete)`).
    pub local_ref: String,
    /// Lowercase hex object id; all zeros for a deletion.
    pub local_oid: String,
    pub remote_ref: String,
    /// Lowercase hex object id; all zeros when the remote ref does not exist yet.
    pub remote_oid: String,
}

/// What a pushed ref does to the remote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushKind {
    /// The remote ref is deleted: nothing to check.
    Delete,
    /// The remote ref does not exist yet.
    NewBranch,
    /// The remote ref moves from a known id (fast-forward or forced).
    Update,
}

/// True for an id made of zeros only (git's "no object").
pub fn is_zero(oid: &str) -> bool {
    !oid.is_empty() && oid.bytes().all(|b| b == b'0')
}

fn is_object_id(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

impl PushRef {
    pub fn kind(&self) -> PushKind {
        if is_zero(&self.local_oid) {
            PushKind::Delete
        } else if is_zero(&self.remote_oid) {
            PushKind::NewBranch
        } else {
            PushKind::Update
        }
    }

    /// `refs/heads/x → refs/heads/y`, for messages.
    pub fn describe(&self) -> String {
        if self.local_ref == self.remote_ref {
            self.remote_ref.clone()
        } else {
            format!("{} → {}", self.local_ref, self.remote_ref)
        }
    }
}

/// Parse the whole of git's pre-push stdin. Blank lines are ignored; a line
/// without four fields or with a malformed object id is an error naming it.
pub fn parse_push_lines(text: &str) -> Result<Vec<PushRef>, ReleaseError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        out.push(parse_line(line).map_err(|message| ReleaseError::PushLine {
            line: i + 1,
            message,
        })?);
    }
    Ok(out)
}

fn parse_line(line: &str) -> Result<PushRef, String> {
    let expected = "expected `<local ref> <local object id> <remote ref> <remote object id>`";
    let mut parts = line.rsplitn(4, ' ');
    let (Some(remote_oid), Some(remote_ref), Some(local_oid), Some(local_ref)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!(
            "{expected}, got {} field(s)",
            line.split(' ').count()
        ));
    };
    if local_ref.is_empty() || remote_ref.is_empty() {
        return Err(format!("{expected}: an empty ref name"));
    }
    for (what, id) in [("local", local_oid), ("remote", remote_oid)] {
        if !is_object_id(id) {
            return Err(format!(
                "the {what} object id `{}` is not 40 or 64 hexadecimal digits",
                id.chars().take(80).collect::<String>()
            ));
        }
    }
    if local_oid.len() != remote_oid.len() {
        return Err("the local and remote object ids have different lengths".into());
    }
    Ok(PushRef {
        local_ref: local_ref.to_string(),
        local_oid: local_oid.to_ascii_lowercase(),
        remote_ref: remote_ref.to_string(),
        remote_oid: remote_oid.to_ascii_lowercase(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "1111111111111111111111111111111111111111";
    const B: &str = "2222222222222222222222222222222222222222";
    const Z: &str = "0000000000000000000000000000000000000000";

    #[test]
    fn update_new_branch_and_deletion() {
        let text = format!(
            "refs/heads/main {A} refs/heads/main {B}\nrefs/heads/new {A} refs/heads/new {Z}\n(delete) {Z} refs/heads/old {B}\n"
        );
        let refs = parse_push_lines(&text).unwrap();
        assert_eq!(refs.len(), 3);
        assert_eq!(refs[0].kind(), PushKind::Update);
        assert_eq!(refs[0].local_oid, A);
        assert_eq!(refs[0].remote_oid, B);
        assert_eq!(refs[1].kind(), PushKind::NewBranch);
        assert_eq!(refs[2].kind(), PushKind::Delete);
        assert_eq!(refs[2].local_ref, "(delete)");
        assert_eq!(refs[2].remote_ref, "refs/heads/old");
    }

    #[test]
    fn split_from_the_right_keeps_spaces_in_the_local_ref() {
        let refs =
            parse_push_lines(&format!("HEAD~1 with space {A} refs/heads/x {B}\r\n")).unwrap();
        assert_eq!(refs[0].local_ref, "HEAD~1 with space");
        assert_eq!(refs[0].remote_ref, "refs/heads/x");
        assert_eq!(refs[0].remote_oid, B);
    }

    #[test]
    fn sha256_ids_are_accepted_and_zero_detection_works() {
        let a = "a".repeat(64);
        let z = "0".repeat(64);
        let refs = parse_push_lines(&format!("refs/heads/m {a} refs/heads/m {z}")).unwrap();
        assert_eq!(refs[0].kind(), PushKind::NewBranch);
        let refs = parse_push_lines(&format!("(delete) {z} refs/heads/m {a}")).unwrap();
        assert_eq!(refs[0].kind(), PushKind::Delete);
        assert_eq!(
            parse_push_lines(&format!("HEAD {} refs/heads/m {}", "AB".repeat(20), B)).unwrap()[0]
                .local_oid,
            "ab".repeat(20)
        );
    }

    #[test]
    fn blank_lines_are_ignored_and_bad_lines_are_named() {
        assert!(parse_push_lines("\n\n").unwrap().is_empty());
        let e = parse_push_lines(&format!("\nrefs/heads/main {A} refs/heads/main\n")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "pre-push input line 2: expected `<local ref> <local object id> <remote ref> <remote object id>`, got 3 field(s)"
        );
        let e = parse_push_lines("just-one-field").unwrap_err();
        assert!(
            e.to_string().starts_with("pre-push input line 1: expected"),
            "{e}"
        );
        let e = parse_push_lines(&format!("a {A} b {}", "c".repeat(64))).unwrap_err();
        assert!(e.to_string().contains("different lengths"), "{e}");
        let e = parse_push_lines(&format!("a b {A} c")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "pre-push input line 1: the local object id `b` is not 40 or 64 hexadecimal digits"
        );
        let e = parse_push_lines(&format!("a {A} b xyz{}", &B[3..])).unwrap_err();
        assert!(e.to_string().contains("remote object id"), "{e}");
    }
}
