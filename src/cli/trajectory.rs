//! `skillgate trajectory PATH... [--format text|json] [--input-format NAME]`:
//! the normalized events of transcripts, for debugging decoders and predicates.
//!
//! Shows each trajectory's header, its events (index, line or JSON pointer,
//! role, agent, tool, action with paths and commands, failure) and its decode
//! problems. Never message text or tool output: the shell line is shown as its
//! simple commands (heredoc bodies are data and are not shown).

use anyhow::Context;
use skillgate::decode::{
    self, discover, Action, AgentPath, DecodeError, DecodeOptions, Event, FileEffect, Location,
    Trajectory,
};
use skillgate::exit::Exit;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Transcript files, or folders to search (like the gate: recursive,
    /// `skill-coverage/` and sidecars skipped).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Decode every file as this format instead of sniffing it
    /// (claude-code-jsonl, claude-chat-json, claude-stream-json, codex-rollout,
    /// codex-exec, gemini, …).
    #[arg(long = "input-format", value_name = "NAME")]
    pub input_format: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    if let Some(f) = &args.input_format {
        if !decode::format_names().contains(&f.as_str()) {
            anyhow::bail!(
                "unknown --input-format `{f}` (known: {})",
                decode::format_names().join(", ")
            );
        }
    }
    let mut files = Vec::new();
    let mut errors: Vec<String> = Vec::new();
    for p in &args.paths {
        match discover::discover_all(p) {
            Ok(d) => {
                for (path, why) in d.skipped {
                    eprintln!("note: skipped {}: {why}", path.display());
                }
                files.extend(d.files);
            }
            Err(e) => errors.push(format!("{}: cannot read: {e}", p.display())),
        }
    }
    let opts = DecodeOptions::default();
    let mut out = std::io::stdout().lock();
    let mut json_items = Vec::new();
    for f in &files {
        match decode::decode_path(f, args.input_format.as_deref(), &opts) {
            Ok(t) => match args.format {
                Format::Text => write_text(&mut out, &t).context("cannot write to stdout")?,
                Format::Json => json_items.push(json_view(&t)),
            },
            Err(e) => errors.push(describe(&e)),
        }
    }
    if args.format == Format::Json {
        serde_json::to_writer_pretty(&mut out, &serde_json::Value::Array(json_items))?;
        writeln!(out)?;
    }
    out.flush()?;
    for e in &errors {
        eprintln!("error: {e}");
    }
    Ok(if errors.is_empty() {
        Exit::Ok
    } else {
        Exit::Error
    })
}

fn describe(e: &DecodeError) -> String {
    e.to_string()
}

/// The JSON view: the model's serialization without the raw shell line (which
/// can hold heredoc bodies, i.e. file contents).
fn json_view(t: &Trajectory) -> serde_json::Value {
    let mut v = serde_json::to_value(t).unwrap_or(serde_json::Value::Null);
    if let Some(events) = v.get_mut("events").and_then(|e| e.as_array_mut()) {
        for e in events {
            if let Some(action) = e.get_mut("action").and_then(|a| a.as_object_mut()) {
                if action.get("kind").and_then(|k| k.as_str()) == Some("shell") {
                    action.remove("line");
                }
            }
        }
    }
    if let Some(obj) = v.as_object_mut() {
        let counts = action_counts(t);
        obj.insert(
            "action_counts".into(),
            serde_json::to_value(counts).unwrap_or_default(),
        );
    }
    v
}

/// Events per action kind (`shell`, `file`, `skill-load`, …) and per git subcommand.
pub fn action_counts(t: &Trajectory) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for e in &t.events {
        *m.entry(kind(&e.action).to_string()).or_insert(0) += 1;
        if let Action::Shell(s) = &e.action {
            for c in &s.commands {
                if let Some(g) = &c.git {
                    *m.entry(format!("git {}", g.subcommand)).or_insert(0) += 1;
                }
            }
        }
    }
    m
}

fn kind(a: &Action) -> &'static str {
    match a {
        Action::Message => "message",
        Action::UserTurn { .. } => "user-turn",
        Action::File { .. } => "file",
        Action::Shell(_) => "shell",
        Action::Fetch { .. } => "fetch",
        Action::SkillLoad { .. } => "skill-load",
        Action::Subagent { .. } => "subagent",
        Action::Other => "other",
    }
}

fn loc(l: &Location, t: &Trajectory) -> String {
    let mut s = String::new();
    if let Some(f) = &l.file {
        let shown = f
            .strip_prefix(t.path.parent().unwrap_or(Path::new("")))
            .unwrap_or(f);
        s.push_str(&format!("{}:", shown.display()));
    }
    if let Some(n) = l.line {
        s.push_str(&format!("L{n}"));
    } else if let Some(p) = &l.pointer {
        s.push_str(p);
    }
    s
}

fn one_line(s: &str, max: usize) -> String {
    let flat = s.replace('\n', "\\n");
    if flat.chars().count() > max {
        let cut: String = flat.chars().take(max).collect();
        format!("{cut}…")
    } else {
        flat
    }
}

fn effect(e: &FileEffect) -> String {
    match e {
        FileEffect::Read { path } => format!("read {path}"),
        FileEffect::Write { path } => format!("write {path}"),
        FileEffect::Edit { path } => format!("edit {path}"),
        FileEffect::Delete { path } => format!("delete {path}"),
        FileEffect::Rename { from, to } => format!("rename {from} -> {to}"),
    }
}

fn write_text(out: &mut impl Write, t: &Trajectory) -> std::io::Result<()> {
    let yn = |b: bool| if b { "yes" } else { "no" };
    writeln!(out, "{}", t.path.display())?;
    writeln!(
        out,
        "  format {}  harness {}{}",
        t.format,
        t.harness.as_str(),
        t.harness_version
            .as_deref()
            .map(|v| format!(" {v}"))
            .unwrap_or_default()
    )?;
    let mut meta = Vec::new();
    if let Some(s) = &t.session_id {
        meta.push(format!("session {s}"));
    }
    if let Some(c) = &t.cwd {
        meta.push(format!("cwd {c}"));
    }
    if let Some(b) = &t.git_branch {
        meta.push(format!("branch {b}"));
    }
    if !meta.is_empty() {
        writeln!(out, "  {}", meta.join("  "))?;
    }
    writeln!(
        out,
        "  complete {}  truncated {}  events {}  problems {}",
        yn(t.complete),
        yn(t.truncated),
        t.events.len(),
        t.problems.total()
    )?;
    if let Some(r) = &t.retro {
        let skills = r
            .loaded_skills
            .as_ref()
            .map(|v| v.join(", "))
            .unwrap_or_else(|| "-".into());
        writeln!(out, "  retro sidecar: loaded_skills [{skills}]")?;
    }
    for f in &t.extra_files {
        writeln!(out, "  + {}", f.display())?;
    }
    let counts = action_counts(t);
    if !counts.is_empty() {
        let c: Vec<String> = counts.iter().map(|(k, v)| format!("{k}={v}")).collect();
        writeln!(out, "  counts {}", c.join(" "))?;
    }
    for e in &t.events {
        write_event(out, e, t)?;
    }
    if !t.problems.is_empty() {
        writeln!(out, "  problems:")?;
        for p in &t.problems {
            let kind = serde_json::to_value(p.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            writeln!(
                out,
                "    {} {kind}: {}",
                loc(&p.location, t),
                one_line(&p.detail, 160)
            )?;
        }
        if t.problems.omitted > 0 {
            writeln!(
                out,
                "    … and {} more, counted but not listed",
                t.problems.omitted
            )?;
        }
    }
    writeln!(out)
}

fn write_event(out: &mut impl Write, e: &Event, t: &Trajectory) -> std::io::Result<()> {
    let role = serde_json::to_value(e.role)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let agent = match &e.agent {
        AgentPath::Main => String::new(),
        AgentPath::Subagent(id) => format!(" [sub {id}]"),
    };
    let tool = e
        .tool
        .as_deref()
        .map(|t| format!(" {t}"))
        .unwrap_or_default();
    let mut status = String::new();
    if e.rejected {
        status.push_str(" REJECTED");
    } else if e.failed {
        status.push_str(" FAILED");
    }
    if let Some(c) = e.exit_code {
        status.push_str(&format!(" exit={c}"));
    }
    if let Some(o) = e.test_outcome {
        // what the test runner's summary said (a pipe may mask the exit status)
        let o = serde_json::to_value(o)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        status.push_str(&format!(" tests={o}"));
    }
    let head = format!("  #{} {} {role}{agent}{tool}", e.index, loc(&e.location, t));
    match &e.action {
        Action::Message => writeln!(out, "{head}: message{status}"),
        Action::UserTurn { via, command } => {
            let via = serde_json::to_value(via)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let cmd = command
                .as_deref()
                .map(|c| format!(" /{c}"))
                .unwrap_or_default();
            writeln!(out, "{head}: user-turn ({via}){cmd}{status}")
        }
        Action::File { effects } => {
            let fx: Vec<String> = effects.iter().map(effect).collect();
            writeln!(
                out,
                "{head}: file {}{status}",
                if fx.is_empty() {
                    "-".into()
                } else {
                    fx.join("; ")
                }
            )
        }
        Action::Fetch { url } => writeln!(out, "{head}: fetch {}{status}", one_line(url, 200)),
        Action::SkillLoad {
            name,
            via,
            body_sha256,
        } => {
            let via = serde_json::to_value(via)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let body = body_sha256
                .as_deref()
                .map(|h| format!(" body={}", &h[..h.len().min(12)]))
                .unwrap_or_default();
            writeln!(out, "{head}: skill-load {name} (via {via}){body}{status}")
        }
        Action::Subagent {
            agent_type,
            agent_id,
        } => writeln!(
            out,
            "{head}: subagent{}{}{status}",
            agent_type
                .as_deref()
                .map(|t| format!(" type={t}"))
                .unwrap_or_default(),
            agent_id
                .as_deref()
                .map(|t| format!(" id={t}"))
                .unwrap_or_default()
        ),
        Action::Other => writeln!(out, "{head}: other{status}"),
        Action::Shell(s) => {
            let wd = s
                .workdir
                .as_deref()
                .map(|w| format!(" (in {w})"))
                .unwrap_or_default();
            writeln!(out, "{head}: shell{wd}{status}")?;
            for c in &s.commands {
                let git = c
                    .git
                    .as_ref()
                    .map(|g| {
                        let mut parts = vec![format!("git {}", g.subcommand)];
                        if let Some(d) = &g.dir {
                            parts.push(format!("dir={d}"));
                        }
                        if !g.flags.is_empty() {
                            parts.push(format!("flags={}", g.flags.join(",")));
                        }
                        if !g.args.is_empty() {
                            parts.push(format!("args={}", g.args.join(",")));
                        }
                        format!("  [{}]", one_line(&parts.join(" "), 200))
                    })
                    .unwrap_or_default();
                writeln!(out, "      $ {}{git}", one_line(&c.text, 200))?;
            }
            for f in &s.effects {
                writeln!(out, "      -> {}", effect(f))?;
            }
            Ok(())
        }
    }
}
