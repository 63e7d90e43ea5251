//! The hostile-input matrix of issue 19 (docs/reliability.md): every kind of
//! bad input in every role a command reads a file in. For each cell: no
//! panic (never exit 101 or a signal), an exit code of the contract, an
//! error that names the file, a deadline (a hang fails) and a memory cap
//! (RLIMIT_AS: an unbounded read aborts the child, which fails the cell).

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DEADLINE: Duration = Duration::from_secs(30);
const MEMORY_CAP: u64 = 2 << 30;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Empty,
    Binary,
    InvalidUtf8,
    Nul,
    BomGarbage,
    DeepNesting,
    HugeLine,
    ManyLines,
    Crlf,
    Fifo,
    DevZero,
    Folder,
    Dangling,
    Loop,
}

const KINDS: [Kind; 14] = [
    Kind::Empty,
    Kind::Binary,
    Kind::InvalidUtf8,
    Kind::Nul,
    Kind::BomGarbage,
    Kind::DeepNesting,
    Kind::HugeLine,
    Kind::ManyLines,
    Kind::Crlf,
    Kind::Fifo,
    Kind::DevZero,
    Kind::Folder,
    Kind::Dangling,
    Kind::Loop,
];

impl Kind {
    /// Not a readable regular file: every command must refuse it (exit 2),
    /// except a folder where a command takes folders.
    fn special(self) -> bool {
        matches!(
            self,
            Kind::Fifo | Kind::DevZero | Kind::Folder | Kind::Dangling | Kind::Loop
        )
    }

    fn make(self, p: &Path) {
        use std::os::unix::fs::symlink;
        let write = |b: Vec<u8>| std::fs::write(p, b).unwrap();
        match self {
            Kind::Empty => write(Vec::new()),
            Kind::Binary => write((0..4096u32).map(|i| (i * 7919 % 251) as u8).collect()),
            Kind::InvalidUtf8 => write(b"name: \xff\xfe\xfd\n{\"a\": \"\xc3\x28\"}\n".to_vec()),
            Kind::Nul => write(b"---\nname: a\0b\n---\n\0\0\0{\"type\":\"user\"}\0\n".to_vec()),
            Kind::BomGarbage => write(b"\xEF\xBB\xBF\xEF\xBB\xBFgarbage: [\n".to_vec()),
            Kind::DeepNesting => write(format!("a: {}\n", "[".repeat(100_000)).into_bytes()),
            Kind::HugeLine => write(vec![b'a'; 24 << 20]),
            Kind::ManyLines => write(b"{}\n".repeat(300_000)),
            Kind::Crlf => write(b"---\r\nname: x\r\n---\r\n{\"a\":1}\r\n".to_vec()),
            Kind::Fifo => {
                let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
                // SAFETY: a plain libc call with a valid C string.
                assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
            }
            Kind::DevZero => symlink("/dev/zero", p).unwrap(),
            Kind::Folder => std::fs::create_dir(p).unwrap(),
            Kind::Dangling => symlink(p.with_extension("missing"), p).unwrap(),
            Kind::Loop => symlink(p, p).unwrap(),
        }
    }
}

/// The role the hostile file plays, and the command that reads it.
#[derive(Clone, Copy, Debug)]
enum Role {
    SkillMd,
    Lockfile,
    Config,
    Contract,
    Transcript,
    TranscriptIngest,
    TranscriptDoctor,
    Findings,
    StackJson,
}

const ROLES: [Role; 9] = [
    Role::SkillMd,
    Role::Lockfile,
    Role::Config,
    Role::Contract,
    Role::Transcript,
    Role::TranscriptIngest,
    Role::TranscriptDoctor,
    Role::Findings,
    Role::StackJson,
];

const SKILL: &str = "---\nname: demo\ndescription: A demo skill for the hostile-input matrix.\n---\n\n# demo\n\nYou MUST NOT force-push.\n";

/// Build the cell's folder; returns (args, the file name an error must name,
/// exit codes allowed for a regular file, folder accepted as input).
fn cell(dir: &Path, role: Role, kind: Kind) -> (Vec<String>, String, &'static [i32], bool) {
    let s = |x: &str| x.to_string();
    match role {
        Role::SkillMd => {
            std::fs::create_dir_all(dir.join("s")).unwrap();
            kind.make(&dir.join("s/SKILL.md"));
            // a folder named SKILL.md is a folder to search: nothing found → error
            (
                vec![s("extract"), s("s/SKILL.md")],
                s("SKILL.md"),
                &[0, 2],
                false,
            )
        }
        Role::Lockfile => {
            std::fs::create_dir_all(dir.join("s/demo")).unwrap();
            std::fs::write(dir.join("s/demo/SKILL.md"), SKILL).unwrap();
            kind.make(&dir.join("s/demo/SKILL.constraints.yaml"));
            (
                vec![
                    s("gate"),
                    s("s/demo"),
                    s("--trajectories"),
                    s("s"),
                    s("--no-report"),
                ],
                s("SKILL.constraints.yaml"),
                &[2],
                false,
            )
        }
        Role::Config => {
            kind.make(&dir.join("c.yaml"));
            (
                vec![s("config"), s("--config"), s("c.yaml")],
                s("c.yaml"),
                &[0, 2],
                false,
            )
        }
        Role::Contract => {
            kind.make(&dir.join("k.yaml"));
            (
                vec![
                    s("grade"),
                    s("--mode"),
                    s("execution"),
                    s("--contract"),
                    s("k.yaml"),
                ],
                s("k.yaml"),
                &[0, 2],
                false,
            )
        }
        Role::Transcript => {
            std::fs::create_dir_all(dir.join("s/demo")).unwrap();
            std::fs::write(dir.join("s/demo/SKILL.md"), SKILL).unwrap();
            kind.make(&dir.join("t.jsonl"));
            (
                vec![
                    s("gate"),
                    s("s/demo"),
                    s("--trajectories"),
                    s("t.jsonl"),
                    s("--no-report"),
                ],
                s("t.jsonl"),
                &[2, 3],
                true,
            )
        }
        Role::TranscriptIngest => {
            kind.make(&dir.join("t.jsonl"));
            (
                vec![s("ingest"), s("t.jsonl"), s("--db"), s("a.db")],
                s("t.jsonl"),
                &[0, 2],
                true,
            )
        }
        Role::TranscriptDoctor => {
            kind.make(&dir.join("t.jsonl"));
            (
                vec![s("doctor"), s("t.jsonl"), s("--out"), s("rep")],
                s("t.jsonl"),
                &[0, 2, 3],
                true,
            )
        }
        Role::Findings => {
            std::fs::create_dir(dir.join("run")).unwrap();
            kind.make(&dir.join("run/findings.jsonl"));
            (
                vec![s("assess"), s("run"), s("--dry-run")],
                s("findings.jsonl"),
                &[0, 2],
                false,
            )
        }
        Role::StackJson => {
            std::fs::create_dir(dir.join("run")).unwrap();
            std::fs::write(dir.join("run/findings.jsonl"), "").unwrap();
            kind.make(&dir.join("run/stack.json"));
            (
                vec![s("assess"), s("run"), s("--dry-run")],
                s("stack.json"),
                &[0, 2],
                false,
            )
        }
    }
}

struct Outcome {
    code: Option<i32>,
    said: String,
    took: Duration,
}

fn run(dir: &Path, args: &[String]) -> Outcome {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("skillgate"));
    cmd.current_dir(dir)
        .args(args)
        .env_remove("RUST_LOG")
        .env("HOME", dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: only async-signal-safe setrlimit between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: MEMORY_CAP,
                rlim_max: MEMORY_CAP,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().unwrap();
    // drain both pipes on threads so a chatty child never blocks
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t1 = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = std::io::Read::read_to_end(&mut so, &mut b);
        b
    });
    let t2 = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = std::io::Read::read_to_end(&mut se, &mut b);
        b
    });
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break Some(st);
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = start.elapsed();
    let out = t1.join().unwrap();
    let err = t2.join().unwrap();
    let mut said = String::from_utf8_lossy(&out).into_owned();
    said.push_str(&String::from_utf8_lossy(&err));
    Outcome {
        code: status.and_then(|s| s.code()),
        said,
        took,
    }
}

#[test]
fn every_hostile_input_in_every_role_gets_a_clean_answer() {
    let root = tempfile::tempdir().unwrap();
    let cells: Vec<(Role, Kind, PathBuf)> = ROLES
        .iter()
        .flat_map(|r| KINDS.iter().map(move |k| (*r, *k)))
        .enumerate()
        .map(|(i, (r, k))| {
            let d = root.path().join(format!("c{i}"));
            std::fs::create_dir(&d).unwrap();
            (r, k, d)
        })
        .collect();
    let total = cells.len();
    let queue = std::sync::Mutex::new(cells);
    let failures = std::sync::Mutex::new(Vec::<String>::new());
    let started = Instant::now();
    std::thread::scope(|sc| {
        for _ in 0..4 {
            sc.spawn(|| loop {
                let Some((role, kind, dir)) = queue.lock().unwrap().pop() else {
                    break;
                };
                let (args, named, allowed, folders_ok) = cell(&dir, role, kind);
                let o = run(&dir, &args);
                let mut bad = Vec::new();
                match o.code {
                    None => bad.push(format!(
                        "killed or timed out after {:?} (hang, signal or memory cap)",
                        o.took
                    )),
                    Some(101) => bad.push("panicked (exit 101)".into()),
                    Some(c) => {
                        let must_refuse = kind.special() && !(kind == Kind::Folder && folders_ok);
                        if must_refuse && c != 2 {
                            bad.push(format!("exit {c}, expected 2 for a {kind:?}"));
                        } else if !(must_refuse
                            || allowed.contains(&c)
                            || (kind == Kind::Folder && c <= 3))
                        {
                            bad.push(format!("exit {c}, expected one of {allowed:?}"));
                        }
                        if c == 2 && !o.said.contains(&named) {
                            bad.push(format!("the error does not name {named}"));
                        }
                    }
                }
                if o.said.contains("panicked") {
                    bad.push("a panic message".into());
                }
                if !bad.is_empty() {
                    let said: String = o.said.chars().take(400).collect();
                    failures.lock().unwrap().push(format!(
                        "{role:?} × {kind:?} ({}): {} — {said}",
                        args.join(" "),
                        bad.join("; ")
                    ));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {total} cells failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{total} cells in {:?}", started.elapsed());
}
