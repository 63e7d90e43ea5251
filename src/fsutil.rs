//! File-system helpers used at the edges: bounded, type-checked reads of every
//! input (docs/reliability.md lists the limits), pre-parse checks of YAML, and
//! atomic writes.
//!
//! Every input skillgate reads whole goes through [`read_bounded`] (or
//! [`read_text`]): the path must name a regular file (a FIFO would block for
//! ever, `/dev/zero` never ends, a folder is a mistake), and at most its limit
//! plus one byte is ever read, so a huge file costs no memory. Streaming
//! readers (transcripts) open through [`open_regular`].

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// `.skillgate.yaml` / `.skillgate.toml`.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;
/// `SKILL.constraints.yaml`.
pub const MAX_LOCKFILE_BYTES: u64 = 8 << 20;
/// A `grade` contract.
pub const MAX_CONTRACT_BYTES: u64 = 8 << 20;
/// Small side files: `*.retro.yaml`, `*.meta.json`, `stack.json`, a calibration file.
pub const MAX_SIDE_FILE_BYTES: u64 = 1 << 20;
/// Documents read whole: `evaluation.md`, a `file_contains` target, an event payload.
pub const MAX_DOCUMENT_BYTES: u64 = 16 << 20;
/// A one-object JSON transcript (SWE-agent, OpenHands, Inspect, Gemini…), parsed whole.
pub const MAX_JSON_TRANSCRIPT_BYTES: u64 = 512 << 20;
/// Standard input of the pre-push hook (one line per pushed ref).
pub const MAX_STDIN_BYTES: u64 = 1 << 20;
/// `[` / `{` nesting allowed in a YAML input, checked before parsing (libyaml
/// is quadratic in it; yaml_serde refuses more than 128 levels anyway).
pub const MAX_YAML_DEPTH: usize = 64;

/// Why an input could not be read. The message never quotes the input.
#[derive(Debug)]
pub enum InputError {
    /// Not there, no permission, a symlink loop, a read error.
    Io(std::io::Error),
    /// A FIFO, a device, a socket or a folder.
    NotRegular(&'static str),
    /// More than `limit` bytes.
    TooLarge { limit: u64 },
    /// Not UTF-8 (1-based line of the first bad byte).
    NotUtf8 { line: usize },
}

impl InputError {
    /// The 1-based line the error is at, where there is one.
    pub fn line(&self) -> Option<usize> {
        match self {
            InputError::NotUtf8 { line } => Some(*line),
            _ => None,
        }
    }
    /// The error is "no such file".
    pub fn is_not_found(&self) -> bool {
        matches!(self, InputError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::Io(e) => write!(f, "cannot read: {e}"),
            InputError::NotRegular(kind) => {
                write!(f, "not a regular file ({kind}); refusing to read it")
            }
            InputError::TooLarge { limit } => {
                write!(f, "larger than the {} limit for this input", human(*limit))
            }
            InputError::NotUtf8 { line } => write!(f, "not valid UTF-8 (line {line})"),
        }
    }
}

impl std::error::Error for InputError {}

impl From<std::io::Error> for InputError {
    fn from(e: std::io::Error) -> Self {
        InputError::Io(e)
    }
}

/// `1 MiB`, `512 MiB`, `4096 bytes`.
pub fn human(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes % (1 << 10) == 0 {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// What kind of non-regular file `ft` is.
fn kind_of(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_char_device() || ft.is_block_device() {
            return "a device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Open `path` for reading when it is a regular file (symlinks followed);
/// anything else is refused before `open`, which would block on a FIFO.
pub fn open_regular(path: &Path) -> Result<std::fs::File, InputError> {
    open_regular_len(path).map(|(file, _)| file)
}

/// [`open_regular`], with the file's length when opened.
fn open_regular_len(path: &Path) -> Result<(std::fs::File, u64), InputError> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(InputError::NotRegular(kind_of(&meta.file_type())));
    }
    let file = std::fs::File::open(path)?;
    // the path may have been swapped between the two calls
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(InputError::NotRegular(kind_of(&meta.file_type())));
    }
    Ok((file, meta.len()))
}

/// Read a whole regular file of at most `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let (file, len) = open_regular_len(path)?;
    read_len_bounded(file, len, limit)
}

/// [`read_bounded`] of an open file `len` bytes long when opened.
fn read_len_bounded(file: std::fs::File, len: u64, limit: u64) -> Result<Vec<u8>, InputError> {
    if len > limit {
        return Err(InputError::TooLarge { limit });
    }
    // room for the whole file at once (the buffer grown by doubling copied
    // a large file several times over); a file that grew meanwhile still
    // reads to its end, up to the limit
    read_into(file, limit, Vec::with_capacity(len as usize + 1))
}

/// Read a stream to its end, refusing more than `limit` bytes.
pub fn read_all_bounded(r: impl Read, limit: u64) -> Result<Vec<u8>, InputError> {
    read_into(r, limit, Vec::new())
}

fn read_into(r: impl Read, limit: u64, mut bytes: Vec<u8>) -> Result<Vec<u8>, InputError> {
    r.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge { limit });
    }
    Ok(bytes)
}

/// [`read_bounded`] as UTF-8 text, a leading byte-order mark removed.
pub fn read_text(path: &Path, limit: u64) -> Result<String, InputError> {
    bytes_to_text(read_bounded(path, limit)?)
}

/// Bytes as UTF-8 text, a leading byte-order mark removed.
pub fn bytes_to_text(mut bytes: Vec<u8>) -> Result<String, InputError> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        InputError::NotUtf8 {
            line: memchr::memchr_iter(b'\n', upto).count() + 1,
        }
    })
}

/// Whether anything is at `path`, a dangling or looping symlink included
/// (`Path::exists` says no for those, which would turn a broken lockfile or
/// configuration into a silent fallback).
pub fn entry_exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Where `[` / `{` nest deeper than `max` in YAML text: `(line, column)`, 1-based.
/// Counted lexically, skipping comments and quoted strings, before any parser
/// runs: libyaml takes quadratic time in flow nesting (100,000 levels: minutes).
pub fn yaml_too_deep(text: &str, max: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    for (i, line) in text.lines().enumerate() {
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        let mut chars = line.chars().enumerate().peekable();
        while let Some((col, c)) = chars.next() {
            match quote {
                Some('"') => {
                    if c == '\\' {
                        chars.next();
                    } else if c == '"' {
                        quote = None;
                    }
                }
                Some(_) => {
                    if c == '\'' {
                        quote = None;
                    }
                }
                None => match c {
                    '#' if prev == ' ' || prev == '\t' || col == 0 => break,
                    '"' | '\''
                        if matches!(prev, ' ' | '\t' | '[' | '{' | ',' | ':' | '-') || col == 0 =>
                    {
                        quote = Some(c)
                    }
                    '[' | '{' => {
                        depth += 1;
                        if depth > max {
                            return Some((i + 1, col + 1));
                        }
                    }
                    ']' | '}' => depth = depth.saturating_sub(1),
                    _ => {}
                },
            }
            prev = c;
        }
        // a double-quoted string may go on on the next line; a single-quoted too
    }
    None
}

/// A parser's error message made safe to print: quoted excerpts of the input
/// (`invalid type: string "OPENAI_API_KEY=sk-…"`, ``unknown field `…` ``) are
/// kept only when short and plainly a name; anything else is replaced by its
/// length. Errors name file and line; they never echo the input.
pub fn redact_quotes(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(start) = rest.find(['"', '`']) {
        let q = rest[start..].chars().next().unwrap_or('"');
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = if q == '"' {
            // serde's Debug-quoted strings escape inner quotes
            let b = after.as_bytes();
            let mut k = 0;
            let mut found = None;
            while k < b.len() {
                match b[k] {
                    b'\\' => k += 2,
                    b'"' => {
                        found = Some(k);
                        break;
                    }
                    _ => k += 1,
                }
            }
            found
        } else {
            after.find('`')
        };
        let Some(end) = end else {
            // unbalanced: drop the tail, it may be the input itself
            out.push_str(&format!("{q}…{q}"));
            return out;
        };
        let inner = &after[..end];
        let plain = inner.len() <= 40
            && !looks_secret(inner)
            && inner.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(
                        c,
                        '-' | '_'
                            | '.'
                            | '/'
                            | ' '
                            | ','
                            | '*'
                            | '?'
                            | ':'
                            | '['
                            | ']'
                            | '{'
                            | '}'
                            | '('
                            | ')'
                            | '!'
                            | '^'
                            | '$'
                            | '|'
                            | '\\'
                    )
            });
        if plain {
            out.push(q);
            out.push_str(inner);
            out.push(q);
        } else {
            out.push_str(&format!(
                "{q}…{q} ({} characters, not shown)",
                inner.chars().count()
            ));
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A token that could be a key or a password: 16 or more letters and digits
/// in a row, digits and letters mixed.
fn looks_secret(s: &str) -> bool {
    s.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        w.len() >= 16
            && w.chars().any(|c| c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_alphabetic())
    })
}

/// Read standard input to its end, refusing more than `limit` bytes.
pub fn read_stdin_bounded(limit: u64) -> Result<Vec<u8>, InputError> {
    read_all_bounded(std::io::stdin().lock(), limit)
}

/// A temporary name beside `path` no other process or thread uses:
/// `.<name>.tmp-<pid>-<n>`.
pub fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()))
}

/// Write `bytes` to `path` atomically: a temporary file in the same folder
/// (a name unique to this process and call, created exclusively), fsync, then
/// rename. Nothing partial is ever left at `path`.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A path as the bytes the operating system holds (lossy off Unix), for
/// compact stores that keep paths in byte arenas; `bytes_path` reads one back.
#[cfg(unix)]
pub(crate) fn path_bytes(p: &Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    std::borrow::Cow::Borrowed(p.as_os_str().as_bytes())
}
#[cfg(not(unix))]
pub(crate) fn path_bytes(p: &Path) -> std::borrow::Cow<'_, [u8]> {
    match p.to_string_lossy() {
        std::borrow::Cow::Borrowed(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
        std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s.into_bytes()),
    }
}
#[cfg(unix)]
pub(crate) fn bytes_path(b: &[u8]) -> &Path {
    use std::os::unix::ffi::OsStrExt;
    Path::new(std::ffi::OsStr::from_bytes(b))
}
#[cfg(not(unix))]
pub(crate) fn bytes_path(b: &[u8]) -> &Path {
    Path::new(std::str::from_utf8(b).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_reads_refuse_non_regular_and_large_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.yaml");
        std::fs::write(&p, b"\xEF\xBB\xBFkey: 1\n").unwrap();
        assert_eq!(read_text(&p, 100).unwrap(), "key: 1\n");
        assert!(matches!(
            read_bounded(&p, 3),
            Err(InputError::TooLarge { limit: 3 })
        ));
        let e = read_bounded(dir.path(), 100).unwrap_err();
        assert_eq!(
            e.to_string(),
            "not a regular file (a folder); refusing to read it"
        );
        let e = read_bounded(Path::new("/dev/zero"), 100).unwrap_err();
        assert!(matches!(e, InputError::NotRegular("a device")), "{e}");
        assert!(read_bounded(&dir.path().join("missing"), 1)
            .unwrap_err()
            .is_not_found());
        std::fs::write(&p, b"ok\n\xff").unwrap();
        assert_eq!(read_text(&p, 100).unwrap_err().line(), Some(2));
    }

    #[test]
    fn yaml_depth_is_counted_outside_strings_and_comments() {
        assert_eq!(yaml_too_deep("a: [[[1]]]\n", 3), None);
        assert_eq!(yaml_too_deep("a: [[[[1]]]]\n", 3), Some((1, 7)));
        assert_eq!(yaml_too_deep("a: \"[[[[[\" # {{{{{\nb: '[[[[['\n", 3), None);
        assert_eq!(yaml_too_deep("a: don't [[[[\n", 3), Some((1, 13)));
        let deep = "[".repeat(100_000);
        assert!(yaml_too_deep(&deep, MAX_YAML_DEPTH).is_some());
    }

    #[test]
    fn parser_errors_lose_their_quoted_input() {
        let m = redact_quotes(
            "invalid type: string \"OPENAI_API_KEY=sk-abc DB_PASSWORD=hunter2\", expected struct Contract",
        );
        assert!(!m.contains("sk-abc") && !m.contains("hunter2"), "{m}");
        assert!(m.contains("characters, not shown"), "{m}");
        assert_eq!(
            redact_quotes("unknown field `bogus`, expected one of `id`, `text`"),
            "unknown field `bogus`, expected one of `id`, `text`"
        );
        assert!(!redact_quotes("x \"unterminated secret").contains("secret"));
        assert!(redact_quotes("bad glob `git push*`").contains("`git push*`"));
        assert!(!redact_quotes("unknown field `ghp_a1b2c3d4e5f6g7h8i9`").contains("ghp_"));
    }

    #[test]
    fn temporary_names_are_unique() {
        let p = Path::new("d/f.json");
        assert_ne!(temp_path(p), temp_path(p));
    }

    #[test]
    fn writes_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        atomic_write(&p, b"one").unwrap();
        atomic_write(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn fails_cleanly_in_a_missing_folder() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("missing").join("a.txt");
        assert!(atomic_write(&p, b"x").is_err());
        assert!(!p.exists());
    }
}
