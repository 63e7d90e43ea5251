//! Shared helpers of the doctor's tests: a builder of decoded sessions in the
//! shapes decoders produce for Claude Code (Read/Edit/Write/Bash/Glob tool
//! names, `[Request interrupted by user]` markers).
#![allow(dead_code)]

use serde_json::json;
use skillgate::decode::{
    Action, Event, EventContent, FileEffect, Harness, Location, Role, ShellAction, SimpleCommand,
    Trajectory,
};
use skillgate::doctor::{self, DoctorOptions, Report, SessionInput};
use std::path::PathBuf;

/// A session under construction.
pub struct S {
    pub t: Trajectory,
}

impl S {
    pub fn new() -> Self {
        let mut t = Trajectory::new(
            PathBuf::from("session.jsonl"),
            Harness::ClaudeCode,
            "claude-code-jsonl",
        );
        t.session_id = Some("test-session".into());
        t.cwd = Some("/repo".into());
        S { t }
    }
    pub fn push(&mut self, mut e: Event) -> &mut Self {
        let n = self.t.events.len();
        e.index = n;
        e.location = Location::line(n as u64 + 1);
        e.timestamp = Some(format!("2025-06-10T12:00:{:02}Z", n % 60));
        self.t.events.push(e);
        self
    }
    pub fn msg(&mut self, role: Role, text: &str) -> &mut Self {
        let mut e = Event::new(Location::default(), role, Action::Message);
        e.content = Some(Box::new(EventContent {
            text: Some(text.into()),
            ..Default::default()
        }));
        self.push(e)
    }
    pub fn user(&mut self, text: &str) -> &mut Self {
        self.msg(Role::User, text)
    }
    pub fn say(&mut self, text: &str) -> &mut Self {
        self.msg(Role::Assistant, text)
    }
    pub fn tool(
        &mut self,
        name: &str,
        action: Action,
        input: serde_json::Value,
        output: &str,
        failed: bool,
    ) -> &mut Self {
        let mut e = Event::new(Location::default(), Role::Assistant, action);
        e.tool = Some(name.into());
        e.failed = failed;
        e.content = Some(Box::new(EventContent {
            text: None,
            tool_input: Some(input),
            tool_output: Some(output.into()),
        }));
        self.push(e)
    }
    pub fn read(&mut self, path: &str, output: &str) -> &mut Self {
        self.tool(
            "Read",
            Action::File {
                effects: vec![FileEffect::Read { path: path.into() }],
            },
            json!({ "file_path": path }),
            output,
            false,
        )
    }
    pub fn glob(&mut self, pattern: &str, output: &str) -> &mut Self {
        self.tool(
            "Glob",
            Action::Other,
            json!({ "pattern": pattern }),
            output,
            false,
        )
    }
    pub fn edit(&mut self, path: &str, old: &str, new: &str, failed: bool) -> &mut Self {
        self.tool(
            "Edit",
            Action::File {
                effects: vec![FileEffect::Edit { path: path.into() }],
            },
            json!({ "file_path": path, "old_string": old, "new_string": new }),
            if failed {
                "String to replace not found in file."
            } else {
                "The file has been updated."
            },
            failed,
        )
    }
    pub fn write(&mut self, path: &str, content: &str, output: &str) -> &mut Self {
        self.tool(
            "Write",
            Action::File {
                effects: vec![FileEffect::Write { path: path.into() }],
            },
            json!({ "file_path": path, "content": content }),
            output,
            false,
        )
    }
    pub fn bash(&mut self, line: &str, output: &str, failed: bool) -> &mut Self {
        let commands = line
            .split("&&")
            .map(|c| SimpleCommand {
                text: c.trim().into(),
                argv: c.split_whitespace().map(str::to_string).collect(),
                git: None,
            })
            .collect();
        let action = Action::Shell(ShellAction {
            line: line.into(),
            commands,
            ..Default::default()
        });
        self.tool("Bash", action, json!({ "command": line }), output, failed)
    }
    pub fn reject_last(&mut self) -> &mut Self {
        let e = self.t.events.last_mut().unwrap();
        e.rejected = true;
        e.failed = true;
        self
    }
    pub fn report(&self) -> Report {
        self.report_with(DoctorOptions::default())
    }
    pub fn report_with(&self, opts: DoctorOptions) -> Report {
        let mut t = self.t.clone();
        t.complete = true;
        doctor::diagnose(&SessionInput::Decoded(Box::new(t)), &opts)
    }
}
