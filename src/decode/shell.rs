//! Shell lines → simple commands, git operations and file effects.
//!
//! A small POSIX-shell reader, written for what agents type: `bash -lc '…'`,
//! `&&` / `||` / `;` / `|` / `&` lists, subshells `( … )`, groups `{ …; }`,
//! command substitution `$( … )` and backticks (their commands run, so they are
//! parsed), heredocs (their body is data — except for `apply_patch`, `git apply`
//! / `patch` and `bash` / `sh` whose body is a patch or a script), redirections,
//! env-var prefixes, wrappers (`sudo`, `env`, `timeout`, `xargs`, …) and `cd`.
//!
//! Quoted text is never split or executed: `echo "git push -f"` is one `echo`
//! command with one argument. Variables are not expanded; a word holding a
//! substitution keeps the placeholder `$(…)` in its place. The reader never
//! fails and never panics: anything it does not understand stays a plain word.

use super::model::{FileEffect, GitOp, ShellAction, SimpleCommand};
use super::patch;

/// Nesting limit for subshells / substitutions / `bash -c` scripts.
const MAX_DEPTH: usize = 24;

/// Parse one shell line. A line that is only `bash -lc '<script>'` (or `sh -c`,
/// `zsh -c`) is unwrapped: [`ShellAction::line`] is the script.
pub fn parse_line(line: &str) -> ShellAction {
    let mut out = Out::default();
    let mut cwd = Cwd::Base;
    parse_script(line, 0, &mut cwd, &mut out);
    let line = match (&out.top_level, out.unwrapped.as_ref()) {
        (1, Some(script)) => script.clone(),
        _ => line.to_string(),
    };
    ShellAction {
        line,
        commands: out.commands,
        effects: out.effects,
        workdir: None,
    }
}

/// Parse a command given as an argv array (Codex `shell` / `local_shell_call`):
/// `["bash", "-lc", "<script>"]` is the script; any other argv is one command.
pub fn parse_argv(argv: &[String]) -> ShellAction {
    if let Some(script) = shell_c_script(argv) {
        let mut action = parse_line(&script);
        action.line = script;
        return action;
    }
    let line = argv
        .iter()
        .map(|w| quote_word(w))
        .collect::<Vec<_>>()
        .join(" ");
    parse_line(&line)
}

/// Quote a word for display so that it reads back as one word.
pub fn quote_word(w: &str) -> String {
    let safe = !w.is_empty()
        && w.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'_' | b'-'
                        | b'.'
                        | b'/'
                        | b'='
                        | b':'
                        | b','
                        | b'@'
                        | b'%'
                        | b'+'
                        | b'^'
                        | b'~'
                        | b'*'
                        | b'?'
                        | b'['
                        | b']'
                        | b'{'
                        | b'}'
                )
                || b >= 0x80
        });
    if safe {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// The script of `bash -c <script>` style argv (after wrappers), if that is what it is.
fn shell_c_script(argv: &[String]) -> Option<String> {
    let first = argv.first()?;
    if !is_shell(first) {
        return None;
    }
    let mut i = 1;
    let mut has_c = false;
    while i < argv.len() {
        let a = &argv[i];
        if a == "--" {
            i += 1;
            break;
        }
        if let Some(cluster) = a.strip_prefix('-') {
            if cluster.starts_with('-') {
                // long option (`--login`, `--norc`); `--rcfile x` takes a value
                if a == "--rcfile" || a == "--init-file" {
                    i += 1;
                }
                i += 1;
                continue;
            }
            if cluster.contains('c') {
                has_c = true;
            }
            if cluster.contains('o') || cluster.contains('O') {
                i += 1; // `-o pipefail`
            }
            i += 1;
            continue;
        }
        if a.starts_with('+') {
            i += 1;
            continue;
        }
        break;
    }
    if has_c {
        argv.get(i).cloned()
    } else {
        None
    }
}

fn is_shell(w: &str) -> bool {
    matches!(basename(w), "bash" | "sh" | "zsh" | "dash" | "ksh" | "ash")
}

fn basename(w: &str) -> &str {
    w.rsplit('/').next().unwrap_or(w)
}

/// What the reader has collected so far.
#[derive(Default)]
struct Out {
    commands: Vec<SimpleCommand>,
    effects: Vec<FileEffect>,
    pending: Vec<PendingHeredoc>,
    /// Number of simple commands found at depth 0.
    top_level: usize,
    /// The script of a depth-0 `bash -c` wrapper.
    unwrapped: Option<String>,
}

/// A heredoc whose body has not been read yet.
struct PendingHeredoc {
    delim: String,
    strip_tabs: bool,
    /// The effective argv (wrappers removed) of the command it feeds.
    argv: Vec<String>,
    cwd: Cwd,
    depth: usize,
}

/// The directory commands run in, as far as `cd` in the line tells.
#[derive(Debug, Clone, PartialEq)]
enum Cwd {
    /// The tool's working directory (paths stay as written).
    Base,
    /// After `cd <dir>`: relative paths are joined to it.
    Dir(String),
    /// After a `cd` we cannot follow (`cd -`, `cd $X`): paths stay as written.
    Unknown,
}

impl Cwd {
    fn resolve(&self, path: &str) -> String {
        match self {
            Cwd::Dir(d)
                if !path.starts_with('/') && !path.starts_with('~') && !path.starts_with('$') =>
            {
                join(d, path)
            }
            _ => path.to_string(),
        }
    }
}

fn join(dir: &str, path: &str) -> String {
    let path = path.trim_start_matches("./");
    if path.is_empty() || path == "." {
        return dir.to_string();
    }
    if dir.ends_with('/') {
        format!("{dir}{path}")
    } else {
        format!("{dir}/{path}")
    }
}

/// A word after quote removal.
#[derive(Debug, Clone, Default)]
struct Word {
    text: String,
    /// Some part was quoted (so `{`, `if`, `NAME=x` are not special).
    quoted: bool,
}

#[derive(Debug, Clone)]
enum RedirKind {
    Write,
    Read,
    /// `<<` / `<<-`: the delimiter; body read at the next newline.
    Heredoc {
        strip_tabs: bool,
    },
    /// `<<<`, `>&N`, `<&N`: no file effect.
    Other,
}

#[derive(Debug, Clone)]
struct Redir {
    op: String,
    kind: RedirKind,
    target: String,
}

fn parse_script(script: &str, depth: usize, cwd: &mut Cwd, out: &mut Out) {
    let mut p = Parser {
        s: script.as_bytes(),
        i: 0,
        depth,
    };
    p.parse_list(false, cwd, out);
    // A heredoc at the very end without its newline: empty body.
    if depth == 0 {
        p.read_heredoc_bodies(out);
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

/// A word's bytes as text (invalid UTF-8 replaced, as `from_utf8_lossy`
/// does), without copying a valid one.
fn into_text(buf: Vec<u8>) -> String {
    String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The simple command being read.
#[derive(Default)]
struct Building {
    words: Vec<Word>,
    redirs: Vec<Redir>,
}

/// `case … in` bookkeeping: pattern words up to `)` are not commands.
#[derive(Default)]
struct CaseState {
    level: usize,
    expect_pattern: bool,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn peek_at(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    /// Read commands until the end, or (when `nested`) an unmatched `)`.
    fn parse_list(&mut self, nested: bool, cwd: &mut Cwd, out: &mut Out) {
        let mut cur = Building::default();
        let mut case = CaseState::default();
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\\' if self.peek_at(1) == Some(b'\n') => self.i += 2,
                b'\n' => {
                    self.i += 1;
                    self.finish(&mut cur, &mut case, cwd, out);
                    self.read_heredoc_bodies(out);
                }
                b'#' => {
                    while let Some(c) = self.peek() {
                        if c == b'\n' {
                            break;
                        }
                        self.i += 1;
                    }
                }
                b';' => {
                    self.i += 1;
                    if self.peek() == Some(b';') {
                        self.i += 1;
                        if case.level > 0 {
                            self.finish(&mut cur, &mut case, cwd, out);
                            case.expect_pattern = true;
                            continue;
                        }
                    }
                    self.finish(&mut cur, &mut case, cwd, out);
                }
                b'&' => {
                    if self.peek_at(1) == Some(b'>') {
                        self.read_redir(&mut cur);
                    } else {
                        self.i += if self.peek_at(1) == Some(b'&') { 2 } else { 1 };
                        self.finish(&mut cur, &mut case, cwd, out);
                    }
                }
                b'|' => {
                    self.i += if matches!(self.peek_at(1), Some(b'|') | Some(b'&')) {
                        2
                    } else {
                        1
                    };
                    if opens_case(&cur) {
                        case.level += 1;
                        case.expect_pattern = true;
                        cur = Building::default();
                        continue;
                    }
                    if case.expect_pattern {
                        cur = Building::default(); // `a|b)` pattern alternatives
                        continue;
                    }
                    self.finish(&mut cur, &mut case, cwd, out);
                }
                b'(' => {
                    self.i += 1;
                    if cur.words.is_empty() && self.depth < MAX_DEPTH {
                        // subshell: `cd` inside does not leak out
                        let mut inner = cwd.clone();
                        let mut sub = Parser {
                            s: self.s,
                            i: self.i,
                            depth: self.depth + 1,
                        };
                        sub.parse_list(true, &mut inner, out);
                        self.i = sub.i;
                    } else if self.peek() == Some(b')') {
                        self.i += 1; // `f()` function definition
                        cur = Building::default();
                    }
                }
                b')' => {
                    self.i += 1;
                    if opens_case(&cur) {
                        case.level += 1;
                        cur = Building::default();
                        continue;
                    }
                    if case.expect_pattern {
                        cur = Building::default();
                        case.expect_pattern = false;
                        continue;
                    }
                    self.finish(&mut cur, &mut case, cwd, out);
                    if nested {
                        return;
                    }
                }
                b'<' | b'>' if self.peek_at(1) == Some(b'(') => {
                    let w = self.read_word(cwd, out);
                    cur.words.push(w);
                }
                b'<' | b'>' => self.read_redir(&mut cur),
                b'0'..=b'9' if self.is_fd_redir() => self.read_redir(&mut cur),
                _ => {
                    let w = self.read_word(cwd, out);
                    cur.words.push(w);
                }
            }
        }
        self.finish(&mut cur, &mut case, cwd, out);
    }

    /// `2>`, `1>>`, `2>&1`: digits directly followed by `<` or `>`.
    fn is_fd_redir(&self) -> bool {
        let mut k = self.i;
        while k < self.s.len() && self.s[k].is_ascii_digit() {
            k += 1;
        }
        k < self.s.len() && matches!(self.s[k], b'<' | b'>')
    }

    fn read_redir(&mut self, cur: &mut Building) {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let rest = &self.s[self.i..];
        let (op, kind): (&str, RedirKind) = if rest.starts_with(b"&>>") {
            ("&>>", RedirKind::Write)
        } else if rest.starts_with(b"&>") {
            ("&>", RedirKind::Write)
        } else if rest.starts_with(b"<<<") {
            ("<<<", RedirKind::Other)
        } else if rest.starts_with(b"<<-") {
            ("<<-", RedirKind::Heredoc { strip_tabs: true })
        } else if rest.starts_with(b"<<") {
            ("<<", RedirKind::Heredoc { strip_tabs: false })
        } else if rest.starts_with(b"<>") {
            ("<>", RedirKind::Write)
        } else if rest.starts_with(b"<&") {
            ("<&", RedirKind::Other)
        } else if rest.starts_with(b">&") {
            (">&", RedirKind::Write)
        } else if rest.starts_with(b">>") {
            (">>", RedirKind::Write)
        } else if rest.starts_with(b">|") {
            (">|", RedirKind::Write)
        } else if rest.starts_with(b">") {
            (">", RedirKind::Write)
        } else {
            ("<", RedirKind::Read)
        };
        self.i += op.len();
        let fd = String::from_utf8_lossy(&self.s[start..self.i - op.len()]).into_owned();
        while matches!(self.peek(), Some(b' ') | Some(b'\t')) {
            self.i += 1;
        }
        // Targets never hold substitutions we need to run; read them plainly.
        let w = self.read_word_plain();
        let mut kind = kind;
        if op == ">&" && (w.text.chars().all(|c| c.is_ascii_digit()) || w.text == "-") {
            kind = RedirKind::Other;
        }
        let op = match &kind {
            RedirKind::Heredoc { .. } => format!(
                "{fd}{op}{}",
                if w.quoted {
                    format!("'{}'", w.text)
                } else {
                    w.text.clone()
                }
            ),
            _ => format!("{fd}{op}"),
        };
        cur.redirs.push(Redir {
            op,
            kind,
            target: w.text,
        });
    }

    /// A word without running substitutions (redirection targets, heredoc delimiters).
    fn read_word_plain(&mut self) -> Word {
        // (A substitution in a redirection target is not followed: rare, and
        // its commands would land in the wrong order.)
        let mut cwd = Cwd::Unknown;
        let mut scratch = Out::default();
        self.read_word(&mut cwd, &mut scratch)
    }

    fn read_word(&mut self, cwd: &mut Cwd, out: &mut Out) -> Word {
        let mut buf: Vec<u8> = Vec::new();
        let mut quoted = false;
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' | b';' | b'&' | b'|' | b'<' | b'>' | b')' => {
                    // `<(` / `>(` process substitution only at word start
                    if (c == b'<' || c == b'>') && buf.is_empty() && self.peek_at(1) == Some(b'(') {
                        self.i += 2;
                        self.substitution(cwd, out);
                        buf.extend_from_slice(if c == b'<' { "<(…)" } else { ">(…)" }.as_bytes());
                        continue;
                    }
                    break;
                }
                b'(' => {
                    if buf.is_empty() {
                        break;
                    }
                    // `arr=(a b)` or a stray paren: keep it literal up to the match
                    self.i += 1;
                    buf.push(b'(');
                    let mut d = 1usize;
                    while let Some(c) = self.peek() {
                        self.i += 1;
                        buf.push(c);
                        if c == b'(' {
                            d += 1;
                        } else if c == b')' {
                            d -= 1;
                            if d == 0 {
                                break;
                            }
                        }
                    }
                }
                b'\'' => {
                    quoted = true;
                    let rest = &self.s[self.i + 1..];
                    let end = memchr::memchr(b'\'', rest).unwrap_or(rest.len());
                    buf.extend_from_slice(&rest[..end]);
                    // past the closing quote (or to the end)
                    self.i = (self.i + 2 + end).min(self.s.len());
                }
                b'"' => {
                    quoted = true;
                    self.i += 1;
                    self.read_double_quoted(&mut buf, cwd, out);
                }
                b'\\' => {
                    self.i += 1;
                    match self.peek() {
                        Some(b'\n') => self.i += 1,
                        Some(n) => {
                            quoted = true;
                            buf.push(n);
                            self.i += 1;
                        }
                        None => {}
                    }
                }
                b'`' => {
                    self.i += 1;
                    self.backtick(cwd, out);
                    buf.extend_from_slice("`…`".as_bytes());
                }
                b'$' => self.dollar(&mut buf, &mut quoted, cwd, out),
                _ => {
                    // the run of bytes no arm above handles, copied at once
                    let run = self.s[self.i + 1..]
                        .iter()
                        .position(|&c| {
                            matches!(
                                c,
                                b' ' | b'\t'
                                    | b'\n'
                                    | b'\r'
                                    | b';'
                                    | b'&'
                                    | b'|'
                                    | b'<'
                                    | b'>'
                                    | b')'
                                    | b'('
                                    | b'\''
                                    | b'"'
                                    | b'\\'
                                    | b'`'
                                    | b'$'
                            )
                        })
                        .map_or(self.s.len(), |k| self.i + 1 + k);
                    buf.extend_from_slice(&self.s[self.i..run]);
                    self.i = run;
                }
            }
        }
        Word {
            text: into_text(buf),
            quoted,
        }
    }

    fn read_double_quoted(&mut self, buf: &mut Vec<u8>, cwd: &mut Cwd, out: &mut Out) {
        while let Some(c) = self.peek() {
            match c {
                b'"' => {
                    self.i += 1;
                    return;
                }
                b'\\' => {
                    self.i += 1;
                    match self.peek() {
                        Some(b'\n') => self.i += 1,
                        Some(n @ (b'$' | b'`' | b'"' | b'\\')) => {
                            buf.push(n);
                            self.i += 1;
                        }
                        Some(_) => buf.push(b'\\'),
                        None => {}
                    }
                }
                b'`' => {
                    self.i += 1;
                    self.backtick(cwd, out);
                    buf.extend_from_slice("`…`".as_bytes());
                }
                b'$' => {
                    let mut q = true;
                    self.dollar(buf, &mut q, cwd, out)
                }
                _ => {
                    // the run of bytes no arm above handles, copied at once
                    let run = self.s[self.i + 1..]
                        .iter()
                        .position(|&c| matches!(c, b'"' | b'\\' | b'`' | b'$'))
                        .map_or(self.s.len(), |k| self.i + 1 + k);
                    buf.extend_from_slice(&self.s[self.i..run]);
                    self.i = run;
                }
            }
        }
    }

    /// At a `$`: `$(…)`, `$((…))`, `${…}`, `$'…'`, `$NAME` or a lone `$`.
    fn dollar(&mut self, buf: &mut Vec<u8>, quoted: &mut bool, cwd: &mut Cwd, out: &mut Out) {
        match self.peek_at(1) {
            Some(b'(') if self.peek_at(2) == Some(b'(') => {
                // arithmetic: no commands
                self.i += 3;
                let mut d = 2usize;
                while let Some(c) = self.peek() {
                    self.i += 1;
                    if c == b'(' {
                        d += 1;
                    } else if c == b')' {
                        d -= 1;
                        if d == 0 {
                            break;
                        }
                    }
                }
                buf.extend_from_slice("$((…))".as_bytes());
            }
            Some(b'(') => {
                self.i += 2;
                self.substitution(cwd, out);
                buf.extend_from_slice("$(…)".as_bytes());
            }
            Some(b'{') => {
                let start = self.i;
                self.i += 2;
                let mut d = 1usize;
                while let Some(c) = self.peek() {
                    self.i += 1;
                    if c == b'{' {
                        d += 1;
                    } else if c == b'}' {
                        d -= 1;
                        if d == 0 {
                            break;
                        }
                    }
                }
                buf.extend_from_slice(&self.s[start..self.i]);
            }
            Some(b'\'') => {
                *quoted = true;
                self.i += 2;
                while let Some(c) = self.peek() {
                    self.i += 1;
                    match c {
                        b'\'' => break,
                        b'\\' => {
                            let n = self.peek();
                            self.i += usize::from(n.is_some());
                            match n {
                                Some(b'n') => buf.push(b'\n'),
                                Some(b't') => buf.push(b'\t'),
                                Some(b'r') => buf.push(b'\r'),
                                Some(b'0') => {}
                                Some(o) => buf.push(o),
                                None => {}
                            }
                        }
                        _ => buf.push(c),
                    }
                }
            }
            _ => {
                buf.push(b'$');
                self.i += 1;
            }
        }
    }

    /// After `$(` or `<(`: the commands up to the matching `)` run.
    fn substitution(&mut self, cwd: &mut Cwd, out: &mut Out) {
        if self.depth >= MAX_DEPTH {
            // too deep: skip to the matching paren without parsing
            let mut d = 1usize;
            while let Some(c) = self.peek() {
                self.i += 1;
                if c == b'(' {
                    d += 1;
                } else if c == b')' {
                    d -= 1;
                    if d == 0 {
                        return;
                    }
                }
            }
            return;
        }
        let mut inner = cwd.clone();
        let mut sub = Parser {
            s: self.s,
            i: self.i,
            depth: self.depth + 1,
        };
        sub.parse_list(true, &mut inner, out);
        self.i = sub.i;
    }

    /// After an opening backtick: the text up to the closing one runs.
    fn backtick(&mut self, cwd: &mut Cwd, out: &mut Out) {
        let mut inner: Vec<u8> = Vec::new();
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                b'`' => break,
                b'\\' => {
                    if let Some(n) = self.peek() {
                        self.i += 1;
                        if !matches!(n, b'`' | b'\\' | b'$') {
                            inner.push(b'\\');
                        }
                        inner.push(n);
                    }
                }
                _ => inner.push(c),
            }
        }
        if self.depth < MAX_DEPTH {
            let text = String::from_utf8_lossy(&inner).into_owned();
            let mut inner_cwd = cwd.clone();
            let mut sub = Parser {
                s: text.as_bytes(),
                i: 0,
                depth: self.depth + 1,
            };
            sub.parse_list(false, &mut inner_cwd, out);
        }
    }

    /// At a newline: read the bodies of the heredocs opened on the line.
    fn read_heredoc_bodies(&mut self, out: &mut Out) {
        if out.pending.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut out.pending);
        for h in pending {
            let mut body = String::new();
            loop {
                if self.i >= self.s.len() {
                    break;
                }
                let end =
                    memchr::memchr(b'\n', &self.s[self.i..]).map_or(self.s.len(), |k| self.i + k);
                let raw = String::from_utf8_lossy(&self.s[self.i..end]);
                self.i = (end + 1).min(self.s.len());
                let line = if h.strip_tabs {
                    raw.trim_start_matches('\t')
                } else {
                    &raw
                };
                if line.trim_end_matches('\r') == h.delim {
                    break;
                }
                body.push_str(line);
                body.push('\n');
            }
            heredoc_effects(&h, &body, out);
        }
    }

    /// End of a simple command: record it, with its git operation and effects.
    fn finish(&mut self, cur: &mut Building, case: &mut CaseState, cwd: &mut Cwd, out: &mut Out) {
        let mut b = std::mem::take(cur);
        if b.words.is_empty() && b.redirs.is_empty() {
            return;
        }
        // the command's words are b.words[lo..hi]
        let (mut lo, mut hi) = (0, b.words.len());
        // reserved words that only open / close compound commands
        while lo < hi {
            let w = &b.words[lo];
            if w.quoted {
                break;
            }
            match w.text.as_str() {
                "if" | "then" | "else" | "elif" | "fi" | "do" | "done" | "while" | "until"
                | "!" | "{" | "}" | "time" => lo += 1,
                "esac" => {
                    case.level = case.level.saturating_sub(1);
                    case.expect_pattern = false;
                    lo += 1;
                }
                _ => break,
            }
        }
        if lo < hi {
            let w = &b.words[lo];
            if !w.quoted && matches!(w.text.as_str(), "for" | "select" | "function") {
                return;
            }
            if !w.quoted && w.text == "case" {
                case.level += 1;
                case.expect_pattern = true;
                return;
            }
        }
        if lo < hi && !b.words[hi - 1].quoted && b.words[hi - 1].text == "}" {
            hi -= 1;
        }
        // env-var prefixes
        let n_env = b.words[lo..hi]
            .iter()
            .take_while(|w| is_assignment(&w.text))
            .count();
        // the words are moved out, not copied: the command is built once
        let argv: Vec<String> = b.words.drain(lo + n_env..hi).map(|w| w.text).collect();

        for r in &b.redirs {
            match r.kind {
                RedirKind::Write if !is_special_file(&r.target) => {
                    out.effects.push(FileEffect::Write {
                        path: cwd.resolve(&r.target),
                    })
                }
                RedirKind::Read if !is_special_file(&r.target) => {
                    out.effects.push(FileEffect::Read {
                        path: cwd.resolve(&r.target),
                    })
                }
                _ => {}
            }
        }
        if argv.is_empty() {
            return;
        }
        let eff = strip_wrappers(&argv);
        for r in &b.redirs {
            if let RedirKind::Heredoc { strip_tabs } = r.kind {
                out.pending.push(PendingHeredoc {
                    delim: r.target.clone(),
                    strip_tabs,
                    argv: eff.to_vec(),
                    cwd: cwd.clone(),
                    depth: self.depth,
                });
            }
        }
        // `bash -c '<script>'`, `eval …`: the script's commands are what runs.
        let script = shell_c_script(eff).or_else(|| {
            (eff.first().map(String::as_str) == Some("eval") && eff.len() > 1)
                .then(|| eff[1..].join(" "))
        });
        if let Some(script) = script {
            if self.depth == 0 {
                out.top_level += 1;
                if out.top_level == 1 && b.redirs.is_empty() {
                    out.unwrapped = Some(script.clone());
                }
            }
            if self.depth < MAX_DEPTH {
                // the child shell starts in our directory; its `cd` does not leak
                let mut inner = cwd.clone();
                let mut sub = Parser {
                    s: script.as_bytes(),
                    i: 0,
                    depth: self.depth + 1,
                };
                sub.parse_list(false, &mut inner, out);
                sub.read_heredoc_bodies(out);
            }
            return;
        }
        if self.depth == 0 {
            out.top_level += 1;
        }
        let mut text: Vec<String> = argv.iter().map(|w| quote_word(w)).collect();
        for r in &b.redirs {
            match r.kind {
                RedirKind::Heredoc { .. } => text.push(r.op.clone()),
                _ => text.push(format!("{}{}", r.op, quote_word(&r.target))),
            }
        }
        let git = (!eff.is_empty() && basename(&eff[0]) == "git").then(|| parse_git(eff, cwd));
        command_effects(eff, cwd, &mut out.effects);
        // `cd dir`: later commands of the line run there
        if let Some(first) = eff.first() {
            if first == "cd" || first == "pushd" {
                let target = eff[1..]
                    .iter()
                    .find(|a| !a.starts_with('-') || a.as_str() == "-");
                *cwd = match target {
                    Some(t) if !t.contains('$') && t != "-" && !t.contains('…') => {
                        if t.starts_with('/') || t.starts_with('~') {
                            Cwd::Dir(t.clone())
                        } else {
                            match cwd {
                                Cwd::Dir(d) => Cwd::Dir(join(d, t)),
                                Cwd::Base => Cwd::Dir(t.trim_start_matches("./").to_string()),
                                Cwd::Unknown => Cwd::Unknown,
                            }
                        }
                    }
                    _ => Cwd::Unknown,
                };
            } else if first == "popd" {
                *cwd = Cwd::Unknown;
            }
        }
        out.commands.push(SimpleCommand {
            text: text.join(" "),
            argv,
            git,
        });
    }
}

/// `case WORD in PATTERN` read as one command up to the pattern's `|` or `)`.
fn opens_case(cur: &Building) -> bool {
    cur.words.len() >= 4
        && !cur.words[0].quoted
        && cur.words[0].text == "case"
        && cur.words[2].text == "in"
}

fn is_assignment(w: &str) -> bool {
    match w.find('=') {
        Some(k) if k > 0 => {
            let name = w[..k].trim_end_matches('+');
            !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !name.as_bytes()[0].is_ascii_digit()
        }
        _ => false,
    }
}

fn is_special_file(p: &str) -> bool {
    p.is_empty()
        || matches!(p, "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty")
        || p.starts_with("/dev/fd/")
}

/// The command behind wrappers: `sudo`, `env`, `command`, `exec`, `nohup`,
/// `time`, `nice`, `timeout`, `stdbuf`, `xargs`.
fn strip_wrappers(argv: &[String]) -> &[String] {
    let mut a = argv;
    for _ in 0..8 {
        let Some(first) = a.first() else { return a };
        // options of each wrapper that take a value
        let value_opts: &[&str] = match basename(first) {
            "sudo" => &["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U"],
            "env" => &["-u", "-C", "-S", "--unset", "--chdir"],
            "nice" => &["-n", "--adjustment"],
            "timeout" => &["-s", "-k", "--signal", "--kill-after"],
            "stdbuf" => &["-i", "-o", "-e"],
            "xargs" => &[
                "-n",
                "-I",
                "-P",
                "-L",
                "-d",
                "-s",
                "-E",
                "-a",
                "--max-args",
                "--replace",
                "--max-procs",
                "--delimiter",
                "--arg-file",
            ],
            "command" | "exec" | "nohup" | "time" | "builtin" => &["-a"],
            _ => return a,
        };
        let name = basename(first);
        let mut i = 1;
        while i < a.len() {
            let w = a[i].as_str();
            if w == "--" {
                i += 1;
                break;
            }
            if w.starts_with('-') && w.len() > 1 {
                i += if value_opts.contains(&w) { 2 } else { 1 };
                continue;
            }
            if name == "env" && is_assignment(w) {
                i += 1;
                continue;
            }
            break;
        }
        if name == "timeout" && i < a.len() {
            i += 1; // the duration
        }
        a = &a[i.min(a.len())..];
    }
    a
}

/// Operands of a command: non-option words (all words after `--`), skipping
/// the value of options listed in `value_opts`.
fn operands<'s>(args: &'s [String], value_opts: &[&str]) -> Vec<&'s str> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut only_operands = false;
    while i < args.len() {
        let w = args[i].as_str();
        if only_operands {
            out.push(w);
        } else if w == "--" {
            only_operands = true;
        } else if w.starts_with('-') && w.len() > 1 {
            if value_opts.contains(&w) {
                i += 1;
            }
        } else {
            out.push(w);
        }
        i += 1;
    }
    out
}

/// File effects of one simple command (wrappers already removed).
fn command_effects(argv: &[String], cwd: &Cwd, effects: &mut Vec<FileEffect>) {
    let Some(first) = argv.first() else { return };
    let args = &argv[1..];
    let mut push = |e: FileEffect| effects.push(e);
    let r = |p: &str| cwd.resolve(p);
    match basename(first) {
        "rm" | "unlink" | "rmdir" | "shred" => {
            for p in operands(args, &[]) {
                push(FileEffect::Delete { path: r(p) });
            }
        }
        "mv" => {
            let (sources, dest) = sources_and_dest(args, &["-S", "--suffix"]);
            if let Some(dest) = dest {
                let many = sources.len() > 1 || has_target_dir(args);
                for s in sources {
                    let to = if many {
                        join(dest, basename(s))
                    } else {
                        dest.to_string()
                    };
                    push(FileEffect::Rename {
                        from: r(s),
                        to: r(&to),
                    });
                }
            }
        }
        "cp" => {
            let (sources, dest) = sources_and_dest(args, &["-S", "--suffix"]);
            if let Some(dest) = dest {
                let many = sources.len() > 1 || has_target_dir(args);
                for s in sources {
                    push(FileEffect::Read { path: r(s) });
                    let to = if many {
                        join(dest, basename(s))
                    } else {
                        dest.to_string()
                    };
                    push(FileEffect::Write { path: r(&to) });
                }
            }
        }
        "tee" => {
            for p in operands(args, &[]) {
                if !is_special_file(p) {
                    push(FileEffect::Write { path: r(p) });
                }
            }
        }
        "touch" => {
            for p in operands(args, &["-d", "-t", "-r", "--date", "--reference"]) {
                push(FileEffect::Write { path: r(p) });
            }
        }
        "cat" | "head" | "tail" | "less" | "more" | "nl" | "bat" | "batcat" | "tac" => {
            for p in operands(args, &["-n", "-c", "--lines", "--bytes", "-s"]) {
                if p != "-" && !is_special_file(p) {
                    push(FileEffect::Read { path: r(p) });
                }
            }
        }
        "sed" | "gsed" => sed_effects(args, cwd, effects),
        "perl" => perl_effects(args, cwd, effects),
        "apply_patch" | "applypatch" => {
            // the patch as an argument (Codex argv form)
            if let Some(p) = args
                .iter()
                .find(|a| a.trim_start().starts_with("*** Begin Patch"))
            {
                effects.extend(
                    patch::parse_apply_patch(p)
                        .into_iter()
                        .map(|e| resolve_effect(e, cwd)),
                );
            }
        }
        "git" => git_file_effects(argv, cwd, effects),
        _ => {}
    }
}

fn has_target_dir(args: &[String]) -> bool {
    args.iter()
        .any(|a| a == "-t" || a.starts_with("--target-directory"))
}

/// `mv`/`cp` operands: (sources, destination), honouring `-t DIR`.
fn sources_and_dest<'s>(
    args: &'s [String],
    value_opts: &[&str],
) -> (Vec<&'s str>, Option<&'s str>) {
    let mut target: Option<&str> = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "--" {
            break;
        }
        if a == "-t" || a == "--target-directory" {
            target = args.get(i + 1).map(String::as_str);
            i += 1;
        } else if let Some(t) = a.strip_prefix("--target-directory=") {
            target = Some(t);
        }
        i += 1;
    }
    let mut vo: Vec<&str> = value_opts.to_vec();
    vo.extend(["-t", "--target-directory"]);
    let mut ops = operands(args, &vo);
    match target {
        Some(t) => (ops, Some(t)),
        None => {
            let dest = ops.pop();
            if ops.is_empty() {
                (ops, None)
            } else {
                (ops, dest)
            }
        }
    }
}

fn sed_effects(args: &[String], cwd: &Cwd, effects: &mut Vec<FileEffect>) {
    let mut in_place = false;
    let mut have_script = false;
    let mut files = Vec::new();
    let mut i = 0;
    let mut only_operands = false;
    while i < args.len() {
        let a = args[i].as_str();
        if only_operands || !a.starts_with('-') || a == "-" {
            if have_script {
                files.push(a);
            } else {
                have_script = true;
            }
        } else if a == "--" {
            only_operands = true;
        } else if a.starts_with("--") {
            if a == "--in-place" || a.starts_with("--in-place=") {
                in_place = true;
            } else if a == "--expression" || a == "--file" {
                have_script = true;
                i += 1;
            } else if a.starts_with("--expression=") || a.starts_with("--file=") {
                have_script = true;
            } else if a == "--line-length" {
                i += 1;
            }
        } else {
            // short cluster: `-i` / `-i.bak` (suffix runs to the end), `-e script`, `-n`, `-E`
            for (k, ch) in a[1..].char_indices() {
                match ch {
                    'i' => {
                        in_place = true;
                        break;
                    }
                    'e' | 'f' => {
                        have_script = true;
                        if k + 2 == a.len() {
                            i += 1; // value in the next word
                        }
                        break;
                    }
                    'l' => {
                        if k + 2 == a.len() {
                            i += 1;
                        }
                        break;
                    }
                    _ => {}
                }
            }
        }
        i += 1;
    }
    for f in files {
        let path = cwd.resolve(f);
        effects.push(if in_place {
            FileEffect::Edit { path }
        } else {
            FileEffect::Read { path }
        });
    }
}

fn perl_effects(args: &[String], cwd: &Cwd, effects: &mut Vec<FileEffect>) {
    let mut in_place = false;
    let mut have_script = false;
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "--" {
            files.extend(args[i + 1..].iter().map(String::as_str));
            break;
        }
        if a.starts_with('-') && a.len() > 1 {
            for (k, ch) in a[1..].char_indices() {
                match ch {
                    'i' => {
                        in_place = true;
                        break; // rest is the backup suffix
                    }
                    'e' | 'E' => {
                        have_script = true;
                        if k + 2 == a.len() {
                            i += 1;
                        }
                        break;
                    }
                    'I' | 'M' | 'm' | 'x' | 'C' | 'd' | 'D' | '0' | 'l' => break, // rest is a value
                    _ => {}
                }
            }
        } else if have_script {
            files.push(a);
        } else {
            have_script = true; // a script file
        }
        i += 1;
    }
    if in_place {
        for f in files {
            effects.push(FileEffect::Edit {
                path: cwd.resolve(f),
            });
        }
    }
}

/// `git rm` deletes, `git mv` renames (in the work tree too).
fn git_file_effects(argv: &[String], cwd: &Cwd, effects: &mut Vec<FileEffect>) {
    let op = parse_git(argv, cwd);
    let base = match &op.dir {
        Some(d) => Cwd::Dir(d.clone()),
        None => cwd.clone(),
    };
    match op.subcommand.as_str() {
        "rm" if !op.flags.iter().any(|f| f == "--cached") => {
            for a in &op.args {
                effects.push(FileEffect::Delete {
                    path: base.resolve(a),
                });
            }
        }
        "mv" if op.args.len() >= 2 => {
            let dest = &op.args[op.args.len() - 1];
            let sources = &op.args[..op.args.len() - 1];
            for s in sources {
                let to = if sources.len() > 1 {
                    join(dest, basename(s))
                } else {
                    dest.clone()
                };
                effects.push(FileEffect::Rename {
                    from: base.resolve(s),
                    to: base.resolve(&to),
                });
            }
        }
        _ => {}
    }
}

fn resolve_effect(e: FileEffect, cwd: &Cwd) -> FileEffect {
    match e {
        FileEffect::Read { path } => FileEffect::Read {
            path: cwd.resolve(&path),
        },
        FileEffect::Write { path } => FileEffect::Write {
            path: cwd.resolve(&path),
        },
        FileEffect::Edit { path } => FileEffect::Edit {
            path: cwd.resolve(&path),
        },
        FileEffect::Delete { path } => FileEffect::Delete {
            path: cwd.resolve(&path),
        },
        FileEffect::Rename { from, to } => FileEffect::Rename {
            from: cwd.resolve(&from),
            to: cwd.resolve(&to),
        },
    }
}

/// A heredoc body is data, except for the commands that read a patch or a script.
fn heredoc_effects(h: &PendingHeredoc, body: &str, out: &mut Out) {
    let Some(first) = h.argv.first() else { return };
    let name = basename(first);
    let is_git_apply = name == "git" && {
        let op = parse_git(&h.argv, &h.cwd);
        op.subcommand == "apply" && !op.flags.iter().any(|f| f == "--check" || f == "--stat")
    };
    if name == "apply_patch" || name == "applypatch" {
        let effects = patch::parse_apply_patch(body);
        out.effects
            .extend(effects.into_iter().map(|e| resolve_effect(e, &h.cwd)));
    } else if name == "patch" || is_git_apply {
        let effects = patch::parse_unified_diff(body);
        out.effects
            .extend(effects.into_iter().map(|e| resolve_effect(e, &h.cwd)));
    } else if is_shell(first)
        && h.argv[1..]
            .iter()
            .all(|a| a.starts_with('-') && !a.contains('c'))
    {
        // `bash <<EOF … EOF`: the body is a script
        if h.depth < MAX_DEPTH {
            let mut cwd = h.cwd.clone();
            let mut sub = Parser {
                s: body.as_bytes(),
                i: 0,
                depth: h.depth + 1,
            };
            sub.parse_list(false, &mut cwd, out);
            sub.read_heredoc_bodies(out);
        }
    }
}

/// Short options of a git subcommand: (short, long form or "" to keep, takes a value).
fn git_short_opts(sub: &str) -> Option<&'static [(char, &'static str, bool)]> {
    Some(match sub {
        "push" => &[
            ('f', "--force", false),
            ('u', "--set-upstream", false),
            ('n', "--dry-run", false),
            ('q', "--quiet", false),
            ('v', "--verbose", false),
            ('d', "--delete", false),
            ('o', "--push-option", true),
        ],
        "commit" => &[
            ('a', "--all", false),
            ('m', "--message", true),
            ('F', "--file", true),
            ('C', "--reuse-message", true),
            ('c', "--reedit-message", true),
            ('t', "--template", true),
            ('s', "--signoff", false),
            ('n', "--no-verify", false),
            ('e', "--edit", false),
            ('p', "--patch", false),
            ('q', "--quiet", false),
            ('v', "--verbose", false),
            ('i', "--include", false),
            ('o', "--only", false),
            ('z', "--null", false),
            ('u', "--untracked-files", false),
            ('S', "--gpg-sign", false),
        ],
        "add" => &[
            ('A', "--all", false),
            ('u', "--update", false),
            ('f', "--force", false),
            ('n', "--dry-run", false),
            ('v', "--verbose", false),
            ('p', "--patch", false),
            ('i', "--interactive", false),
            ('N', "--intent-to-add", false),
            ('e', "--edit", false),
        ],
        "branch" => &[
            ('d', "", false),
            ('D', "", false),
            ('m', "", false),
            ('M', "", false),
            ('c', "", false),
            ('C', "", false),
            ('f', "--force", false),
            ('a', "--all", false),
            ('r', "--remotes", false),
            ('v', "--verbose", false),
            ('q', "--quiet", false),
            ('l', "--list", false),
            ('t', "--track", false),
            ('u', "--set-upstream-to", true),
        ],
        "checkout" => &[
            ('b', "", true),
            ('B', "", true),
            ('f', "--force", false),
            ('q', "--quiet", false),
            ('p', "--patch", false),
            ('t', "--track", false),
            ('m', "--merge", false),
        ],
        "switch" => &[
            ('c', "--create", true),
            ('C', "--force-create", true),
            ('d', "--detach", false),
            ('f', "--force", false),
            ('q', "--quiet", false),
            ('m', "--merge", false),
            ('t', "--track", false),
        ],
        "reset" => &[
            ('q', "--quiet", false),
            ('p', "--patch", false),
            ('N', "--intent-to-add", false),
        ],
        "rebase" => &[
            ('i', "--interactive", false),
            ('f', "--force-rebase", false),
            ('x', "--exec", true),
            ('s', "--strategy", true),
            ('X', "--strategy-option", true),
            ('q', "--quiet", false),
            ('v', "--verbose", false),
            ('m', "--merge", false),
            ('r', "--rebase-merges", false),
            ('n', "--no-stat", false),
        ],
        "merge" => &[
            ('m', "--message", true),
            ('F', "--file", true),
            ('s', "--strategy", true),
            ('X', "--strategy-option", true),
            ('q', "--quiet", false),
            ('v', "--verbose", false),
            ('n', "--no-stat", false),
            ('e', "--edit", false),
            ('S', "--gpg-sign", false),
        ],
        "clean" => &[
            ('f', "--force", false),
            ('d', "", false),
            ('x', "", false),
            ('X', "", false),
            ('n', "--dry-run", false),
            ('i', "--interactive", false),
            ('q', "--quiet", false),
            ('e', "--exclude", true),
        ],
        "tag" => &[
            ('a', "--annotate", false),
            ('s', "--sign", false),
            ('d', "--delete", false),
            ('f', "--force", false),
            ('m', "--message", true),
            ('F', "--file", true),
            ('l', "--list", false),
            ('u', "--local-user", true),
            ('v', "--verify", false),
        ],
        "fetch" => &[
            ('a', "--append", false),
            ('f', "--force", false),
            ('p', "--prune", false),
            ('P', "--prune-tags", false),
            ('t', "--tags", false),
            ('q', "--quiet", false),
            ('v', "--verbose", false),
            ('j', "--jobs", true),
        ],
        "pull" => &[
            ('r', "--rebase", false),
            ('f', "--force", false),
            ('q', "--quiet", false),
            ('v', "--verbose", false),
            ('n', "--no-stat", false),
            ('t', "--tags", false),
            ('p', "--prune", false),
            ('s', "--strategy", true),
            ('X', "--strategy-option", true),
        ],
        "rm" => &[
            ('r', "", false),
            ('f', "--force", false),
            ('n', "--dry-run", false),
            ('q', "--quiet", false),
        ],
        "mv" => &[
            ('f', "--force", false),
            ('n', "--dry-run", false),
            ('k', "", false),
            ('v', "--verbose", false),
        ],
        "clone" => &[
            ('b', "--branch", true),
            ('o', "--origin", true),
            ('q', "--quiet", false),
            ('v', "--verbose", false),
            ('n', "--no-checkout", false),
            ('l', "--local", false),
            ('s', "--shared", false),
            ('j', "--jobs", true),
            ('c', "--config", true),
        ],
        "log" => &[
            ('n', "--max-count", true),
            ('p', "--patch", false),
            ('q', "--quiet", false),
        ],
        "restore" => &[
            ('s', "--source", true),
            ('S', "--staged", false),
            ('W', "--worktree", false),
            ('p', "--patch", false),
            ('q', "--quiet", false),
        ],
        "stash" => &[
            ('m', "--message", true),
            ('u', "--include-untracked", false),
            ('a', "--all", false),
            ('k', "--keep-index", false),
            ('p', "--patch", false),
            ('q', "--quiet", false),
        ],
        "cherry-pick" | "revert" => &[
            ('n', "--no-commit", false),
            ('e', "--edit", false),
            ('x', "", false),
            ('m', "--mainline", true),
            ('s', "--signoff", false),
            ('S', "--gpg-sign", false),
        ],
        "worktree" => &[
            ('b', "", true),
            ('B', "", true),
            ('f', "--force", false),
            ('q', "--quiet", false),
        ],
        "remote" => &[('v', "--verbose", false)],
        "status" => &[
            ('s', "--short", false),
            ('b', "--branch", false),
            ('u', "--untracked-files", false),
            ('v', "--verbose", false),
            ('z', "", false),
        ],
        "diff" | "show" => &[
            ('p', "--patch", false),
            ('R', "", false),
            ('w', "--ignore-all-space", false),
        ],
        _ => return None,
    })
}

/// Long options that take their value in the next word (`--message msg`).
const GIT_LONG_VALUE: &[&str] = &[
    "--message",
    "--file",
    "--author",
    "--date",
    "--template",
    "--reuse-message",
    "--reedit-message",
    "--fixup",
    "--squash",
    "--cleanup",
    "--push-option",
    "--repo",
    "--receive-pack",
    "--onto",
    "--exec",
    "--strategy",
    "--strategy-option",
    "--depth",
    "--branch",
    "--origin",
    "--source",
    "--max-count",
    "--since",
    "--until",
    "--after",
    "--before",
    "--grep",
    "--set-upstream-to",
    "--create",
    "--force-create",
    "--orphan",
    "--exclude",
    "--local-user",
    "--mainline",
    "--jobs",
    "--config",
    "--pathspec-from-file",
    "--reference",
    "--separate-git-dir",
];

/// Parse `git [global options] <subcommand> …` (argv[0] is git).
fn parse_git(argv: &[String], cwd: &Cwd) -> GitOp {
    let mut op = GitOp::default();
    let mut dir: Option<String> = None;
    let mut i = 1;
    while i < argv.len() {
        let a = argv[i].as_str();
        match a {
            "-C" => {
                if let Some(d) = argv.get(i + 1) {
                    dir = Some(match &dir {
                        Some(prev) if !d.starts_with('/') => join(prev, d),
                        _ => d.clone(),
                    });
                }
                i += 2;
            }
            "-c" => {
                if let Some(kv) = argv.get(i + 1) {
                    op.config.push(kv.clone());
                }
                i += 2;
            }
            "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix" | "--config-env" => {
                i += 2
            }
            "--version" | "-v" => {
                op.subcommand = "version".into();
                return op;
            }
            "--help" | "-h" => {
                op.subcommand = "help".into();
                return op;
            }
            _ if a.starts_with('-') => i += 1,
            _ => break,
        }
    }
    // `cd repo && git …` runs git in repo: record it like `-C`.
    op.dir = match (dir, cwd) {
        (Some(d), _) => Some(cwd.resolve(&d)),
        (None, Cwd::Dir(d)) => Some(d.clone()),
        (None, _) => None,
    };
    let Some(sub) = argv.get(i) else { return op };
    op.subcommand = sub.clone();
    let table = git_short_opts(sub);
    let rest = &argv[i + 1..];
    let mut k = 0;
    let mut only_args = false;
    while k < rest.len() {
        let a = rest[k].as_str();
        k += 1;
        if only_args {
            op.args.push(a.to_string());
            continue;
        }
        if a == "--" {
            only_args = true;
            continue;
        }
        if let Some(long) = a.strip_prefix("--") {
            if long.is_empty() {
                continue;
            }
            if !a.contains('=') && GIT_LONG_VALUE.contains(&a) && k < rest.len() {
                op.flags.push(format!("{a}={}", rest[k]));
                k += 1;
            } else {
                op.flags.push(a.to_string());
            }
            continue;
        }
        if a.len() > 1 && a.starts_with('-') && !a[1..].bytes().all(|b| b.is_ascii_digit()) {
            let Some(table) = table else {
                op.flags.push(a.to_string());
                continue;
            };
            let cluster = &a[1..];
            for (pos, ch) in cluster.char_indices() {
                match table.iter().find(|(c, _, _)| *c == ch) {
                    Some((c, long, takes_value)) => {
                        let name = if long.is_empty() {
                            format!("-{c}")
                        } else {
                            long.to_string()
                        };
                        if *takes_value {
                            let attached = &cluster[pos + ch.len_utf8()..];
                            let value = if !attached.is_empty() {
                                Some(attached.to_string())
                            } else if k < rest.len() {
                                k += 1;
                                Some(rest[k - 1].clone())
                            } else {
                                None
                            };
                            op.flags.push(match value {
                                Some(v) => format!("{name}={v}"),
                                None => name,
                            });
                            break;
                        }
                        op.flags.push(name);
                    }
                    None => op.flags.push(format!("-{ch}")),
                }
            }
            continue;
        }
        op.args.push(a.to_string());
    }
    op
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmds(line: &str) -> Vec<String> {
        parse_line(line)
            .commands
            .into_iter()
            .map(|c| c.text)
            .collect()
    }
    fn gits(line: &str) -> Vec<GitOp> {
        parse_line(line)
            .commands
            .into_iter()
            .filter_map(|c| c.git)
            .collect()
    }
    fn effects(line: &str) -> Vec<FileEffect> {
        parse_line(line).effects
    }
    fn subs(line: &str) -> Vec<String> {
        gits(line).into_iter().map(|g| g.subcommand).collect()
    }
    fn w(p: &str) -> FileEffect {
        FileEffect::Write { path: p.into() }
    }
    fn r(p: &str) -> FileEffect {
        FileEffect::Read { path: p.into() }
    }
    fn e(p: &str) -> FileEffect {
        FileEffect::Edit { path: p.into() }
    }
    fn d(p: &str) -> FileEffect {
        FileEffect::Delete { path: p.into() }
    }

    #[test]
    fn lists_split_into_simple_commands() {
        assert_eq!(
            cmds("git add -A && git commit -m x || echo no; ls | wc -l & sleep 1"),
            [
                "git add -A",
                "git commit -m x",
                "echo no",
                "ls",
                "wc -l",
                "sleep 1"
            ]
        );
        assert_eq!(
            subs("git add -A && git commit -m x; git push"),
            ["add", "commit", "push"]
        );
    }

    #[test]
    fn quoted_text_is_never_split_or_executed() {
        assert!(gits(r#"echo "git push -f""#).is_empty());
        assert!(gits("echo 'git push -f; rm -rf /'").is_empty());
        assert!(effects("echo 'rm -rf / > x'").is_empty());
        let g = gits(r#"git commit -m "never git push -f""#);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].subcommand, "commit");
        assert_eq!(g[0].flags, ["--message=never git push -f"]);
        assert!(g[0].args.is_empty());
        assert_eq!(cmds(r#"echo "a && b" 'c;d'"#), [r"echo 'a && b' 'c;d'"]);
        assert!(gits(r"echo git\ push").is_empty());
    }

    #[test]
    fn bash_lc_is_unwrapped() {
        let a = parse_line("bash -lc 'git status && git push -f origin main'");
        assert_eq!(a.line, "git status && git push -f origin main");
        assert_eq!(a.commands.len(), 2);
        let push = a.commands[1].git.clone().unwrap();
        assert_eq!(push.subcommand, "push");
        assert_eq!(push.flags, ["--force"]);
        assert_eq!(push.args, ["origin", "main"]);
        let a = parse_argv(&["bash".into(), "-lc".into(), "sh -c \"git push\"".into()]);
        assert_eq!(a.line, "sh -c \"git push\"");
        assert_eq!(subs_of(&a), ["push"]);
        let a = parse_argv(&["/bin/zsh".into(), "-c".into(), "ls".into()]);
        assert_eq!(a.commands[0].argv, ["ls"]);
        let a = parse_argv(&["ls".into(), "-la".into(), "my dir".into()]);
        assert_eq!(a.commands[0].argv, ["ls", "-la", "my dir"]);
    }

    fn subs_of(a: &ShellAction) -> Vec<String> {
        a.commands
            .iter()
            .filter_map(|c| c.git.as_ref().map(|g| g.subcommand.clone()))
            .collect()
    }

    #[test]
    fn pipes_subshells_and_groups() {
        assert_eq!(
            cmds("(cd sub && make) | tee log.txt"),
            ["cd sub", "make", "tee log.txt"]
        );
        assert_eq!(cmds("{ echo a; echo b; } > out"), ["echo a", "echo b"]);
        assert_eq!(effects("{ echo a; echo b; } > out"), [w("out")]);
        assert_eq!(
            subs("(git fetch) && (git rebase origin/main)"),
            ["fetch", "rebase"]
        );
        assert_eq!(cmds("if [ -f x ]; then rm x; fi"), ["[ -f x ]", "rm x"]);
        assert_eq!(cmds("for f in a b; do git add $f; done"), ["git add '$f'"]);
        assert_eq!(cmds("while true; do sleep 1; done"), ["true", "sleep 1"]);
        assert_eq!(
            cmds("case $x in a|b) echo ab ;; *) git push ;; esac"),
            ["echo ab", "git push"]
        );
    }

    #[test]
    fn command_substitution_runs() {
        assert_eq!(subs("echo $(git rev-parse HEAD)"), ["rev-parse"]);
        assert_eq!(subs("echo \"$(git push)\""), ["push"]);
        assert_eq!(subs("echo `git log -1`"), ["log"]);
        assert_eq!(cmds("x=$(( 1 + 2 )) && echo $x"), ["echo '$x'"]);
        assert_eq!(
            cmds("diff <(sort a) <(sort b)"),
            ["sort a", "sort b", "diff '<(…)' '<(…)'"]
        );
        let a = parse_line("VAR=$(git branch --show-current)");
        assert_eq!(subs_of(&a), ["branch"]);
    }

    #[test]
    fn heredoc_body_is_data() {
        let line = "git commit -m \"$(cat <<'EOF'\nfeat: x\n\ngit push -f\nEOF\n)\" && git push";
        let a = parse_line(line);
        assert_eq!(subs_of(&a), ["commit", "push"]);
        assert_eq!(a.commands[0].text, "cat <<'EOF'");
        assert_eq!(
            a.commands[1].git.as_ref().unwrap().flags,
            ["--message=$(…)"]
        );
        let a = parse_line("cat > notes.md <<EOF\nrm -rf /\ngit push\nEOF\necho done");
        assert_eq!(a.effects, [w("notes.md")]);
        assert_eq!(
            cmds("cat > notes.md <<EOF\nrm -rf /\ngit push\nEOF\necho done"),
            ["cat >notes.md <<EOF", "echo done"]
        );
        assert_eq!(
            cmds("cat <<-\tEND\n\tgit push\n\tEND\nls"),
            ["cat <<-END", "ls"]
        );
        // unterminated heredoc: the rest is the body
        assert!(gits("cat <<EOF\ngit push").is_empty());
        // here-string is data
        assert!(gits("cat <<< 'git push'").is_empty());
    }

    #[test]
    fn heredoc_scripts_and_patches_have_effects() {
        let a = parse_line("bash <<'EOF'\ngit push --force\nEOF");
        assert_eq!(subs_of(&a), ["push"]);
        let line = "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: b.txt\n+hi\n*** Delete File: c.txt\n*** End Patch\nPATCH";
        assert_eq!(effects(line), [e("src/a.ts"), w("b.txt"), d("c.txt")]);
        let a = parse_argv(&["bash".into(), "-lc".into(), line.into()]);
        assert_eq!(a.effects, [e("src/a.ts"), w("b.txt"), d("c.txt")]);
        let diff = "git apply <<'EOF'\ndiff --git a/x.rs b/x.rs\n--- a/x.rs\n+++ b/x.rs\n@@ -1 +1 @@\n-a\n+b\nEOF";
        assert_eq!(effects(diff), [e("x.rs")]);
        let a = parse_argv(&[
            "apply_patch".into(),
            "*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch".into(),
        ]);
        assert_eq!(a.effects, [w("n.txt")]);
    }

    #[test]
    fn redirections() {
        assert_eq!(effects("echo hi > a.txt"), [w("a.txt")]);
        assert_eq!(effects("echo hi >> a.txt"), [w("a.txt")]);
        assert_eq!(effects("wc -l < in.txt"), [r("in.txt")]);
        assert_eq!(effects("make 2>&1 | tail"), []);
        assert_eq!(effects("make > /dev/null 2>&1"), []);
        assert_eq!(effects("make &> build.log"), [w("build.log")]);
        assert_eq!(effects("cmd 2> err.log"), [w("err.log")]);
        assert_eq!(effects("echo x >|forced.txt"), [w("forced.txt")]);
        assert_eq!(cmds("make >out 2>&1"), ["make >out 2>&1"]);
    }

    #[test]
    fn file_commands() {
        assert_eq!(effects("sed -i 's/a/b/' x.rs y.rs"), [e("x.rs"), e("y.rs")]);
        assert_eq!(effects("sed -i.bak -e 's/a/b/' x.rs"), [e("x.rs")]);
        assert_eq!(effects("sed -n '1,200p' lib/a.ts"), [r("lib/a.ts")]);
        assert_eq!(effects("sed --in-place -E 's/a/b/' f"), [e("f")]);
        assert_eq!(effects("perl -pi -e 's/a/b/g' f.txt"), [e("f.txt")]);
        assert_eq!(
            effects("perl -i.orig -pe 's/a/b/' f.txt g.txt"),
            [e("f.txt"), e("g.txt")]
        );
        assert_eq!(effects("perl script.pl f.txt"), []);
        assert_eq!(effects("rm -rf build dist"), [d("build"), d("dist")]);
        assert_eq!(effects("rm -- -weird"), [d("-weird")]);
        assert_eq!(
            effects("mv a.txt b.txt"),
            [FileEffect::Rename {
                from: "a.txt".into(),
                to: "b.txt".into()
            }]
        );
        assert_eq!(
            effects("mv a b dir"),
            [
                FileEffect::Rename {
                    from: "a".into(),
                    to: "dir/a".into()
                },
                FileEffect::Rename {
                    from: "b".into(),
                    to: "dir/b".into()
                }
            ]
        );
        assert_eq!(effects("cp -r src dst"), [r("src"), w("dst")]);
        assert_eq!(effects("echo x | tee -a log1 log2"), [w("log1"), w("log2")]);
        assert_eq!(effects("touch new.txt"), [w("new.txt")]);
        assert_eq!(effects("mkdir -p out"), []);
        assert_eq!(effects("cat README.md | head -n 5"), [r("README.md")]);
        assert_eq!(effects("head -n 20 a.txt"), [r("a.txt")]);
        assert_eq!(effects("git rm --cached x"), []);
        assert_eq!(effects("git rm old.txt"), [d("old.txt")]);
        assert_eq!(
            effects("git mv a b"),
            [FileEffect::Rename {
                from: "a".into(),
                to: "b".into()
            }]
        );
    }

    #[test]
    fn cd_changes_paths_and_git_dir() {
        assert_eq!(
            effects("cd web && sed -i 's/a/b/' src/app.ts"),
            [e("web/src/app.ts")]
        );
        assert_eq!(effects("cd /repo && rm x"), [d("/repo/x")]);
        assert_eq!(effects("cd web && rm /abs/x"), [d("/abs/x")]);
        assert_eq!(effects("cd $DIR && rm x"), [d("x")]);
        assert_eq!(effects("(cd web && rm x) && rm y"), [d("web/x"), d("y")]);
        let g = gits("cd repo && git status");
        assert_eq!(g[0].dir.as_deref(), Some("repo"));
        let g = gits("git -C /tmp/r -c user.name=bot commit -am wip");
        assert_eq!(g[0].dir.as_deref(), Some("/tmp/r"));
        assert_eq!(g[0].config, ["user.name=bot"]);
        assert_eq!(g[0].flags, ["--all", "--message=wip"]);
        let g = gits("cd a && git -C b log");
        assert_eq!(g[0].dir.as_deref(), Some("a/b"));
    }

    #[test]
    fn env_prefixes_and_wrappers() {
        let a = parse_line("FOO=1 BAR=\"x y\" git push");
        assert_eq!(a.commands[0].text, "git push");
        assert_eq!(a.commands[0].argv, ["git", "push"]);
        assert_eq!(subs("sudo -u bob git pull"), ["pull"]);
        assert_eq!(subs("env GIT_DIR=x git status"), ["status"]);
        assert_eq!(subs("timeout 30 git fetch"), ["fetch"]);
        assert_eq!(subs("git ls-files | xargs -0 git add"), ["ls-files", "add"]);
        assert_eq!(subs("/usr/bin/git --no-pager log"), ["log"]);
        assert_eq!(subs("nohup git gc &"), ["gc"]);
        assert_eq!(effects("sudo rm -f /etc/x"), [d("/etc/x")]);
        assert!(parse_line("A=1").commands.is_empty());
        assert_eq!(subs("eval \"git push\""), ["push"]);
    }

    #[test]
    fn git_flag_normalization() {
        let g = &gits("git push -fu origin HEAD")[0];
        assert_eq!(g.flags, ["--force", "--set-upstream"]);
        assert_eq!(g.args, ["origin", "HEAD"]);
        let g = &gits("git push --force-with-lease origin +main")[0];
        assert_eq!(g.flags, ["--force-with-lease"]);
        assert_eq!(g.args, ["origin", "+main"]);
        let g = &gits("git branch -D old")[0];
        assert_eq!(g.flags, ["-D"]);
        assert_eq!(g.args, ["old"]);
        let g = &gits("git checkout -b feat/x main")[0];
        assert_eq!(g.flags, ["-b=feat/x"]);
        assert_eq!(g.args, ["main"]);
        let g = &gits("git commit --amend --no-edit -m 'a b'")[0];
        assert_eq!(g.flags, ["--amend", "--no-edit", "--message=a b"]);
        let g = &gits("git commit --message 'x'")[0];
        assert_eq!(g.flags, ["--message=x"]);
        let g = &gits("git add -A .")[0];
        assert_eq!(g.flags, ["--all"]);
        assert_eq!(g.args, ["."]);
        let g = &gits("git log -5 --oneline")[0];
        assert_eq!(g.flags, ["--oneline"]);
        assert_eq!(g.args, ["-5"]);
        let g = &gits("git reset --hard HEAD~1")[0];
        assert_eq!(g.flags, ["--hard"]);
        let g = &gits("git clean -fdx")[0];
        assert_eq!(g.flags, ["--force", "-d", "-x"]);
        let g = &gits("git frobnicate -xyz a")[0];
        assert_eq!(g.flags, ["-xyz"]);
        assert_eq!(g.args, ["a"]);
        let g = &gits("git checkout -- a.txt")[0];
        assert_eq!(g.args, ["a.txt"]);
        assert_eq!(gits("git --version")[0].subcommand, "version");
        assert_eq!(gits("git")[0].subcommand, "");
    }

    #[test]
    fn comments_and_continuations() {
        assert_eq!(cmds("ls # git push\ngit status"), ["ls", "git status"]);
        assert_eq!(cmds("git \\\n  push"), ["git push"]);
        assert_eq!(cmds("echo a#b"), ["echo 'a#b'"]);
    }

    #[test]
    fn odd_input_does_not_panic() {
        for s in [
            "",
            "'",
            "\"",
            "$(",
            "`",
            "((",
            "))",
            "<<",
            ">",
            "$((1",
            "${",
            "a |",
            "&& ||",
            "cat <<",
            "\\",
            "$'\\",
            "((((((((((",
        ] {
            let _ = parse_line(s);
        }
        let deep = "$(".repeat(200);
        let _ = parse_line(&deep);
        let deep = "(".repeat(500);
        let _ = parse_line(&deep);
        let deep = "bash -c ".repeat(50) + "ls";
        let _ = parse_line(&deep);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,200}") {
            let _ = parse_line(&s);
        }
        #[test]
        fn never_panics_on_shell_alphabet(s in "[a-z \"'`$(){}|&;<>\\\\\n#=*-]{0,120}") {
            let _ = parse_line(&s);
        }
    }
}
