//! SPEC §6 end to end over every shared real skill: a session that loads the
//! skill and then only reads project files (cat, ls, grep, git status/log)
//! must not fail closed for any of them — extraction must not turn a mention,
//! a dropped condition or a heading into a scope-tagged rule that a read
//! fires or that the load alone leaves open.

mod gate_common;

use gate_common::*;
use std::path::Path;

fn skills(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            skills(&p, out);
        } else if p.file_name().is_some_and(|f| f == "SKILL.md") {
            out.push(p);
        }
    }
}

fn body_of(md: &str) -> String {
    let rest = md.strip_prefix("---").unwrap_or(md);
    match rest.find("\n---") {
        Some(i) => rest[i + 4..].trim_start_matches('\n').to_string(),
        None => md.to_string(),
    }
}

#[test]
fn a_read_only_session_never_fails_closed_on_any_shared_skill() {
    let real = repo().join("../shared/realdata/skills");
    let mut files = Vec::new();
    skills(&real, &mut files);
    assert!(files.len() >= 31, "{} skills", files.len());
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    for f in &files {
        let rel = f.strip_prefix(&real).unwrap();
        let name = rel.parent().unwrap().file_name().unwrap().to_string_lossy();
        let dest = root.join("skills").join(rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        let md = std::fs::read_to_string(f).unwrap();
        std::fs::write(&dest, &md).unwrap();
        let mut tx = Tx::new(Fmt::Claude);
        tx.user("Please look around the project and tell me what it does.");
        tx.load_skill(&name, &body_of(&md));
        tx.shell("cat README.md", "# demo", false, None);
        tx.shell("ls src", "main.rs", false, None);
        tx.shell(
            "grep -rn \"fn main\" src",
            "src/main.rs:1:fn main() {}",
            false,
            None,
        );
        tx.shell("git status", "On branch main", false, None);
        tx.shell("git log --oneline -5", "abc123 init", false, None);
        tx.end("It is a small demo project.");
        let src = rel.parent().unwrap().to_string_lossy().replace('/', "__");
        tx.write(&root.join(format!("sessions/{src}.jsonl")));
    }
    let r = run_in(
        root,
        &[
            "gate",
            "skills",
            "--trajectories",
            "sessions",
            "--format",
            "json",
            "--no-report",
        ],
    );
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v = r.json();
    let verdicts = v.as_array().expect("one verdict per skill");
    assert_eq!(verdicts.len(), files.len());
    // Extraction's part: no scope-tagged rule may be violated or ambiguous
    // in a session that only read. (A scope-tagged *unverifiable* rule blocks
    // only where the session acted within its scope, SPEC §6: that is the
    // gate's part, and such rules are listed here, not asserted on, until it
    // is in place.)
    let mut closed = Vec::new();
    let mut unverifiable = Vec::new();
    for s in verdicts {
        let valid = s["trajectories"]["valid"].as_array().unwrap().len();
        assert_eq!(valid, 1, "{}: {valid} sessions load it", s["skill"]["name"]);
        for c in s["constraints"].as_array().unwrap() {
            if c["scope"].as_array().unwrap().is_empty() {
                continue;
            }
            let line = format!(
                "{}: {} [{}] {}",
                s["skill"]["name"], c["id"], c["label"], c["text"]
            );
            match c["label"].as_str() {
                Some("violated" | "ambiguous") => closed.push(line),
                Some("unverifiable") => unverifiable.push(line),
                _ => {}
            }
        }
    }
    assert!(
        closed.is_empty(),
        "{} scope-tagged rules fire on a read-only session:\n{}",
        closed.len(),
        closed.join("\n")
    );
    eprintln!(
        "{} scope-tagged unverifiable rules (fire only on an action of their scope):\n{}",
        unverifiable.len(),
        unverifiable.join("\n")
    );
}
