//! Decode-throughput benchmark (run by `scripts/bench-decode.sh`).
//!
//! ```text
//! bench_decode gen <dir> [MB]       write claude.jsonl and codex.jsonl (each ≥ MB, default 200)
//! bench_decode decode <file>        time skillgate's decoder on the file
//! bench_decode value <file>         time a plain per-line serde_json::Value parse of the same bytes
//! ```
//!
//! Each measurement prints one line: `<what> <file> <MB> MB in <s> s = <MB/s> MB/s, peak RSS <MB> MB`
//! (peak RSS read from /proc/self/status `VmHWM`, so run each measurement in
//! its own process — the script does).
//!
//! The generated sessions imitate the real shapes of the corpus: Claude Code
//! 2.1.x records (one block per assistant record, Bash/Read/Edit/Write calls,
//! tool results of 0.5–60 KB, file-history snapshots, progress records) and a
//! Codex 0.58 rollout (session_meta, turn_context, shell function calls with
//! JSON-string arguments and JSON-wrapped outputs, event_msg token counts,
//! reasoning items, apply_patch heredocs).

use serde_json::json;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => {
            let dir = PathBuf::from(args.get(1).expect("gen <dir> [MB]"));
            let mb: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
            std::fs::create_dir_all(&dir).unwrap();
            gen_claude(&dir.join("claude.jsonl"), mb * 1024 * 1024);
            gen_codex(&dir.join("codex.jsonl"), mb * 1024 * 1024);
        }
        Some("decode") => {
            let f = PathBuf::from(args.get(1).expect("decode <file>"));
            let start = Instant::now();
            let t = skillgate::decode::decode_path(
                &f,
                None,
                &skillgate::decode::DecodeOptions::default(),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            let secs = start.elapsed().as_secs_f64();
            report(
                &format!("skillgate {} ({} events)", t.format, t.events.len()),
                &f,
                secs,
            );
        }
        Some("value") => {
            let f = PathBuf::from(args.get(1).expect("value <file>"));
            let start = Instant::now();
            let mut r = BufReader::with_capacity(256 * 1024, std::fs::File::open(&f).unwrap());
            let mut buf = Vec::new();
            let mut n = 0u64;
            loop {
                buf.clear();
                if r.read_until(b'\n', &mut buf).unwrap() == 0 {
                    break;
                }
                let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
                n += u64::from(!v.is_null());
            }
            let secs = start.elapsed().as_secs_f64();
            report(&format!("serde_json::Value per line ({n} lines)"), &f, secs);
        }
        _ => {
            eprintln!("usage: bench_decode gen <dir> [MB] | decode <file> | value <file>");
            std::process::exit(2);
        }
    }
}

fn report(what: &str, f: &Path, secs: f64) {
    let mb = std::fs::metadata(f).unwrap().len() as f64 / (1024.0 * 1024.0);
    println!(
        "{what:<52} {:<14} {mb:>7.1} MB in {secs:>6.2} s = {:>7.1} MB/s, cpu {:>6.2} s, peak RSS {:>6.1} MB",
        f.file_name().unwrap().to_string_lossy(),
        mb / secs,
        cpu_secs(),
        peak_rss_mb()
    );
}

/// User + system CPU seconds of this process so far (/proc/self/stat, in clock ticks of 1/100 s).
fn cpu_secs() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = &s[s.rfind(')')? + 2..];
            let f: Vec<&str> = rest.split_whitespace().collect();
            let utime: f64 = f.get(11)?.parse().ok()?;
            let stime: f64 = f.get(12)?.parse().ok()?;
            Some((utime + stime) / 100.0)
        })
        .unwrap_or(f64::NAN)
}

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A text of `lo` to `lo + span` bytes.
    fn text_r(&mut self, lo: usize, span: u64) -> String {
        let len = lo + self.below(span) as usize;
        self.text(len)
    }
    fn text(&mut self, len: usize) -> String {
        const WORDS: &[&str] = &[
            "the",
            "build",
            "fails",
            "because",
            "src/lib.rs",
            "function",
            "returns",
            "None",
            "when",
            "config",
            "is",
            "missing;",
            "let",
            "me",
            "check",
            "tests",
            "\"quoted\"",
            "path/to/file.ts",
            "error[E0308]:",
            "mismatched",
            "types",
            "\n",
            "✓",
            "{",
            "}",
            "=>",
            "\\",
            "ok",
        ];
        let mut s = String::with_capacity(len + 16);
        while s.len() < len {
            s.push_str(WORDS[self.below(WORDS.len() as u64) as usize]);
            s.push(' ');
        }
        s
    }
}

const COMMANDS: &[&str] = &[
    "git status",
    "git add -A && git commit -m \"feat: add parser\" && git push origin main",
    "cargo test 2>&1 | tail -40",
    "cd web && npm run build > build.log 2>&1",
    "rg -n \"TODO\" src | head -50",
    "sed -i 's/old/new/g' src/config.rs",
    "python3 -c 'import json; print(json.load(open(\"a.json\")))'",
    "git log --oneline -20",
    "ls -la && cat README.md",
];

fn gen_claude(path: &Path, target: u64) {
    let mut w = BufWriter::new(std::fs::File::create(path).unwrap());
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let sid = "5f2b1c3e-0000-4000-8000-000000000001";
    let mut written = 0u64;
    let mut n = 0u64;
    let mut parent = serde_json::Value::Null;
    let line = |w: &mut BufWriter<std::fs::File>, v: serde_json::Value, written: &mut u64| {
        let s = v.to_string();
        *written += s.len() as u64 + 1;
        w.write_all(s.as_bytes()).unwrap();
        w.write_all(b"\n").unwrap();
    };
    while written < target {
        n += 1;
        let ts = format!(
            "2026-01-{:02}T{:02}:{:02}:{:02}.000Z",
            1 + n / 86400 % 28,
            n / 3600 % 24,
            n / 60 % 60,
            n % 60
        );
        let uuid = format!("u-{n}");
        let env = |t: &str, msg: serde_json::Value, parent: &serde_json::Value| {
            json!({"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": "/home/dev/proj",
                   "sessionId": sid, "version": "2.1.96", "gitBranch": "main", "type": t, "message": msg,
                   "uuid": uuid, "timestamp": ts})
        };
        match rng.below(10) {
            0 => {
                let t = rng.text_r(200, 800);
                line(
                    &mut w,
                    env("user", json!({"role": "user", "content": t}), &parent),
                    &mut written,
                );
            }
            1 => {
                let t = rng.text_r(100, 1500);
                let msg = json!({"id": format!("msg_{n}"), "type": "message", "role": "assistant", "model": "claude-opus-4-5",
                                 "content": [{"type": "text", "text": t}], "stop_reason": null,
                                 "usage": {"input_tokens": 10, "output_tokens": 200}});
                line(&mut w, env("assistant", msg, &parent), &mut written);
            }
            2 => {
                let snap = json!({"type": "file-history-snapshot", "messageId": uuid,
                                  "snapshot": {"messageId": uuid, "trackedFileBackups": {}, "timestamp": ts}, "isSnapshotUpdate": false});
                line(&mut w, snap, &mut written);
            }
            k => {
                // a tool call and its result
                let id = format!("toolu_{n:016x}");
                let (name, input) = match k {
                    3..=5 => (
                        "Bash",
                        json!({"command": COMMANDS[rng.below(COMMANDS.len() as u64) as usize], "description": "run"}),
                    ),
                    6 | 7 => (
                        "Read",
                        json!({"file_path": format!("/home/dev/proj/src/m{}.rs", rng.below(50))}),
                    ),
                    8 => (
                        "Edit",
                        json!({"file_path": "/home/dev/proj/src/lib.rs", "old_string": rng.text(300), "new_string": rng.text(400)}),
                    ),
                    _ => (
                        "Write",
                        json!({"file_path": format!("/home/dev/proj/gen/f{n}.ts"), "content": rng.text(3000)}),
                    ),
                };
                let msg = json!({"id": format!("msg_{n}"), "type": "message", "role": "assistant", "model": "claude-opus-4-5",
                                 "content": [{"type": "tool_use", "id": id, "name": name, "input": input, "caller": {"type": "direct"}}]});
                line(&mut w, env("assistant", msg, &parent), &mut written);
                let out = rng.text_r(500, 60_000);
                let err = rng.below(12) == 0;
                let res = json!({"role": "user", "content": [{"tool_use_id": id, "type": "tool_result",
                                 "content": if err { format!("Exit code 1\n{out}") } else { out.clone() }, "is_error": err}]});
                let mut r = env("user", res, &json!(uuid));
                r["toolUseResult"] =
                    json!({"stdout": out, "stderr": "", "interrupted": false, "isImage": false});
                line(&mut w, r, &mut written);
            }
        }
        parent = json!(uuid);
    }
    w.flush().unwrap();
}

fn gen_codex(path: &Path, target: u64) {
    let mut w = BufWriter::new(std::fs::File::create(path).unwrap());
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut written = 0u64;
    let line = |w: &mut BufWriter<std::fs::File>, v: serde_json::Value, written: &mut u64| {
        let s = v.to_string();
        *written += s.len() as u64 + 1;
        w.write_all(s.as_bytes()).unwrap();
        w.write_all(b"\n").unwrap();
    };
    let ts = "2025-11-17T21:30:28.664Z";
    line(
        &mut w,
        json!({"timestamp": ts, "type": "session_meta", "payload": {"id": "019a93b9-f380-7600-98ff-940e6b99603c",
        "timestamp": ts, "cwd": "/home/user/proj", "originator": "codex_cli_rs", "cli_version": "0.58.0", "instructions": null,
        "source": "cli", "model_provider": "openai", "git": {"commit_hash": "0f02", "branch": "main"}}}),
        &mut written,
    );
    let mut n = 0u64;
    while written < target {
        n += 1;
        match rng.below(8) {
            0 => line(
                &mut w,
                json!({"timestamp": ts, "type": "turn_context", "payload": {"cwd": "/home/user/proj",
                "approval_policy": "never", "sandbox_policy": {"mode": "danger-full-access"}, "model": "gpt-5.1-codex", "effort": "high", "summary": "auto"}}),
                &mut written,
            ),
            1 => line(
                &mut w,
                json!({"timestamp": ts, "type": "response_item", "payload": {"type": "reasoning",
                "summary": [{"type": "summary_text", "text": rng.text(300)}], "content": null, "encrypted_content": "gAAAA".repeat(200)}}),
                &mut written,
            ),
            2 => line(
                &mut w,
                json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "token_count",
                "info": {"total_token_usage": {"input_tokens": n * 1000, "output_tokens": n * 10}}, "rate_limits": {"primary": {"used_percent": 1.0}}}}),
                &mut written,
            ),
            3 => line(
                &mut w,
                json!({"timestamp": ts, "type": "response_item", "payload": {"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": rng.text(600)}]}}),
                &mut written,
            ),
            _ => {
                let call = format!("call_{n:020x}");
                let script = if rng.below(10) == 0 {
                    format!("apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: src/m{}.ts\n@@\n-{}\n+{}\n*** End Patch\nPATCH", rng.below(40), rng.text(200), rng.text(200))
                } else {
                    COMMANDS[rng.below(COMMANDS.len() as u64) as usize].to_string()
                };
                let args =
                    json!({"command": ["bash", "-lc", script], "workdir": "/home/user/proj"})
                        .to_string();
                line(
                    &mut w,
                    json!({"timestamp": ts, "type": "response_item", "payload": {"type": "function_call", "name": "shell",
                    "arguments": args, "call_id": call}}),
                    &mut written,
                );
                let out = json!({"output": rng.text_r(500, 40_000),
                                 "metadata": {"exit_code": rng.below(6) / 5, "duration_seconds": 0.1}}).to_string();
                line(
                    &mut w,
                    json!({"timestamp": ts, "type": "response_item", "payload": {"type": "function_call_output",
                    "call_id": call, "output": out}}),
                    &mut written,
                );
            }
        }
    }
    w.flush().unwrap();
}
