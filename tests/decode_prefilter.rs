//! The `memchr::memmem` record pre-filter of issue #15, checked for misses.
//!
//! The pre-filter would skip, before JSON parsing, every JSONL record that
//! holds none of [`NEEDLES`] (markers of a tool call, a tool result, a
//! function call, a skill load, a user or assistant turn). It is **not wired
//! into the decoders** (docs/trajectories.md, Speed and memory: measured, a
//! skipped record must still be parsed to count a broken line and to read the
//! session's metadata, so the gain it leaves is within the noise). This test
//! keeps the claim that it would never skip an action-bearing record true on
//! every JSONL input we have: each file of the decoders' fixtures, the gate's
//! fixtures and `../shared/realdata/transcripts` is decoded as it is and with
//! every needle-less line blanked (line numbers kept), and the events — every
//! action, tool, user turn, skill load, result and their order — must be the
//! same.

mod files_common;

use files_common::files_under;
use skillgate::decode::{decode_path, DecodeOptions};
use std::path::Path;

const REAL: &str = "../shared/realdata/transcripts";

/// A record holding none of these cannot hold an action or a turn.
const NEEDLES: &[&[u8]] = &[
    b"tool_use",
    b"tool_result",
    b"_call", // function_call, mcp_tool_call, custom_tool_call, local_shell_call
    b"file_change",
    b"\"user\"",
    b"\"assistant\"",
    b"\"human\"",
    b"\"model\"",
    b"\"attachment\"",
    b"\"result\"",
    b"kill", // skill, Skill, skills
    b"command",
    b"patch",
    b"message",
    b"\"action\"",
    b"\"observation\"",
    b"\"role\"",
    b"toolCalls",
    b"\"gemini\"",
];

/// The pre-filter: may this line hold an action? The first record of a file
/// is always read (session headers: Codex's legacy header, Gemini's `kind`,
/// Claude Code's leading `summary`, which decide how later records read).
fn may_hold_action(first: bool, line: &[u8]) -> bool {
    first
        || NEEDLES
            .iter()
            .any(|n| memchr::memmem::find(line, n).is_some())
}

/// Copy `src` into `dst`, blanking the lines of every `.jsonl` file that the
/// pre-filter would skip. Returns (lines kept, lines blanked).
fn filtered_copy(src: &Path, dst: &Path) -> (usize, usize) {
    let (mut kept, mut blanked) = (0, 0);
    let mut files = Vec::new();
    files_under(src, &mut files);
    for f in files {
        let to = dst.join(f.strip_prefix(src).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let bytes = std::fs::read(&f).unwrap();
        if f.extension().is_some_and(|e| e == "jsonl") {
            let mut out = Vec::with_capacity(bytes.len());
            let mut first = true;
            for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
                if i > 0 {
                    out.push(b'\n');
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    out.extend_from_slice(line);
                } else if may_hold_action(first, line) {
                    out.extend_from_slice(line);
                    kept += 1;
                    first = false;
                } else {
                    blanked += 1;
                    first = false;
                }
            }
            std::fs::write(&to, out).unwrap();
        } else {
            std::fs::write(&to, bytes).unwrap();
        }
    }
    (kept, blanked)
}

/// The events of a decoded file as JSON, the copy's root written as the
/// original's (subagent events name their file).
fn events(path: &Path, root: &Path) -> Option<String> {
    let t = decode_path(path, None, &DecodeOptions::default()).ok()?;
    let json = serde_json::to_string(&t.events).unwrap();
    Some(json.replace(&root.display().to_string(), "<root>"))
}

#[test]
fn the_prefilter_never_skips_an_action_bearing_record() {
    let tmp = tempfile::tempdir().unwrap();
    let roots = [
        "fixtures/decode",
        "fixtures/decode-others",
        "fixtures/gate",
        REAL,
    ];
    let (mut files, mut kept, mut blanked) = (0, 0, 0);
    let mut missed = Vec::new();
    for (k, root) in roots.iter().enumerate() {
        let src = Path::new(root);
        let dst = tmp.path().join(k.to_string());
        let (kk, bb) = filtered_copy(src, &dst);
        kept += kk;
        blanked += bb;
        let mut all = Vec::new();
        files_under(src, &mut all);
        for f in all {
            if f.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let g = dst.join(f.strip_prefix(src).unwrap());
            let full = events(&f, src);
            let pre = events(&g, &dst);
            if let (Some(full), Some(pre)) = (&full, &pre) {
                assert!(full != "[]" || pre == "[]");
            }
            if full != pre {
                missed.push(f.display().to_string());
            }
            files += 1;
        }
    }
    assert!(
        missed.is_empty(),
        "the pre-filter changes the events of {missed:#?}"
    );
    assert!(files >= 40, "the JSONL inputs are found ({files})");
    // the filter does skip records (else the test proves nothing)
    eprintln!(
        "pre-filter: {blanked} of {} records skipped",
        kept + blanked
    );
    assert!(
        blanked > 300,
        "records skipped: {blanked} of {}",
        kept + blanked
    );
}
