//! Helpers of the release tests: throwaway git repositories built with git2
//! (a working clone and a local bare remote), the demo skill of
//! `fixtures/release/demo`, and a runner for the binary with stdin and env.

#![allow(dead_code)]

use git2::{IndexAddOption, Oid, Repository, Signature, Time};
use std::path::{Path, PathBuf};

pub const ZERO: &str = "0000000000000000000000000000000000000000";
pub const DEMO: &str = "fixtures/release/demo";

/// The repository root of skillgate (for fixtures).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn fixture(rel: &str) -> String {
    std::fs::read_to_string(repo_root().join(DEMO).join(rel)).unwrap()
}

/// A working repository (`work/`, branch `main`) beside a bare remote (`remote.git`).
pub struct TestRepo {
    pub dir: tempfile::TempDir,
    pub repo: Repository,
}

fn sig() -> Signature<'static> {
    Signature::new("Test", "test@example.com", &Time::new(1_767_323_045, 0)).unwrap()
}

impl TestRepo {
    pub fn new() -> TestRepo {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let mut opts = git2::RepositoryInitOptions::new();
        opts.initial_head("main");
        let repo = Repository::init_opts(&work, &opts).unwrap();
        {
            let mut c = repo.config().unwrap();
            c.set_str("user.name", "Test").unwrap();
            c.set_str("user.email", "test@example.com").unwrap();
        }
        Repository::init_bare(dir.path().join("remote.git")).unwrap();
        repo.remote("origin", "../remote.git").unwrap();
        TestRepo { dir, repo }
    }

    pub fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    pub fn remote_path(&self) -> PathBuf {
        self.dir.path().join("remote.git")
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.work().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    pub fn remove(&self, rel: &str) {
        std::fs::remove_file(self.work().join(rel)).unwrap();
    }

    /// The demo skill (SKILL.md + lockfile) under `skills/tidy-branches`.
    pub fn add_skill(&self) {
        self.write(
            "skills/tidy-branches/SKILL.md",
            &fixture("skills/tidy-branches/SKILL.md"),
        );
        self.write(
            "skills/tidy-branches/SKILL.constraints.yaml",
            &fixture("skills/tidy-branches/SKILL.constraints.yaml"),
        );
    }

    /// A demo session (`clean` or `forced`) as `.planning/patterns/<name>.jsonl`.
    pub fn add_session(&self, which: &str, name: &str) {
        self.write(
            &format!(".planning/patterns/{name}.jsonl"),
            &fixture(&format!("sessions/{which}.jsonl")),
        );
    }

    /// Commit every change of the working tree on HEAD.
    pub fn commit(&self, msg: &str) -> Oid {
        let mut index = self.repo.index().unwrap();
        index
            .add_all(["*"].iter(), IndexAddOption::DEFAULT, None)
            .unwrap();
        index.update_all(["*"].iter(), None).unwrap();
        index.write().unwrap();
        let tree = self.repo.find_tree(index.write_tree().unwrap()).unwrap();
        let parents: Vec<git2::Commit> = match self.repo.head() {
            Ok(h) => vec![h.peel_to_commit().unwrap()],
            Err(_) => vec![],
        };
        let refs: Vec<&git2::Commit> = parents.iter().collect();
        self.repo
            .commit(Some("HEAD"), &sig(), &sig(), msg, &tree, &refs)
            .unwrap()
    }

    /// A commit of the current index tree on top of `parent`, without moving any ref.
    pub fn commit_detached(&self, msg: &str, parent: Oid) -> Oid {
        let mut index = self.repo.index().unwrap();
        index
            .add_all(["*"].iter(), IndexAddOption::DEFAULT, None)
            .unwrap();
        index.update_all(["*"].iter(), None).unwrap();
        index.write().unwrap();
        let tree = self.repo.find_tree(index.write_tree().unwrap()).unwrap();
        let p = self.repo.find_commit(parent).unwrap();
        self.repo
            .commit(None, &sig(), &sig(), msg, &tree, &[&p])
            .unwrap()
    }

    /// Point `refs/heads/<branch>` at `id` and check it out (forced).
    pub fn checkout(&self, branch: &str, id: Oid) {
        let name = format!("refs/heads/{branch}");
        self.repo.reference(&name, id, true, "test").unwrap();
        self.repo.set_head(&name).unwrap();
        self.repo
            .checkout_head(Some(
                git2::build::CheckoutBuilder::new()
                    .force()
                    .remove_untracked(true),
            ))
            .unwrap();
    }

    /// What a fetch would record: `refs/remotes/origin/<branch>` at `id`.
    pub fn set_remote_ref(&self, branch: &str, id: Oid) {
        self.repo
            .reference(&format!("refs/remotes/origin/{branch}"), id, true, "test")
            .unwrap();
    }
}

/// Output of one run of the binary.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `skillgate ARGS` in `dir` with `stdin` and extra environment; the
/// pre-commit and GitHub variables of the test's own environment are removed.
pub fn run(dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Run {
    let mut cmd = assert_cmd::Command::cargo_bin("skillgate").unwrap();
    cmd.current_dir(dir)
        .args(args)
        .write_stdin(stdin.to_string());
    for k in [
        "RUST_LOG",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "PRE_COMMIT_FROM_REF",
        "PRE_COMMIT_TO_REF",
        "PRE_COMMIT_REMOTE_NAME",
        "PRE_COMMIT_REMOTE_URL",
        "PRE_COMMIT_LOCAL_BRANCH",
        "PRE_COMMIT_REMOTE_BRANCH",
        "PRE_COMMIT",
        "GITHUB_STEP_SUMMARY",
        "GITHUB_TOKEN",
        "GITHUB_EVENT_PATH",
        "GITHUB_REPOSITORY",
        "GITHUB_SHA",
        "GITHUB_API_URL",
    ] {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `skillgate hook pre-push origin ../remote.git` in the working tree, with `lines` on stdin.
pub fn pre_push(r: &TestRepo, lines: &str) -> Run {
    run(
        &r.work(),
        &["hook", "pre-push", "origin", "../remote.git"],
        lines,
        &[],
    )
}

/// A pre-push stdin line.
pub fn line(local_ref: &str, local: &str, remote_ref: &str, remote: &str) -> String {
    format!("{local_ref} {local} {remote_ref} {remote}\n")
}
