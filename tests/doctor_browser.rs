//! report.html in a real browser: headless Chromium (Debian's `chromium`,
//! which `.ci/run` installs) renders every kind of report; the test asserts
//! the sections are in the rendered DOM, the screenshot is not blank, and the
//! page requested nothing from the network (Chromium's NetLog: requests the
//! page starts carry the page's origin as initiator, the browser's own
//! background requests carry "not an origin"; a canary page proves the
//! detector sees page requests). A static check of the HTML backs it up: no
//! script, no element that loads anything, no src/href, no CSS import or url().
//!
//! Without Chromium the tests fail under CI=true and are skipped locally.
//! Set DOCTOR_SCREENSHOTS=DIR to keep the screenshots for a look.

mod doctor_support;

use assert_cmd::Command;
use doctor_support::S;
use skillgate::doctor::{self, html, DoctorOptions, Report, SessionInput};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn find_chromium() -> Option<PathBuf> {
    let names = [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ];
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Chromium, or None when the test may be skipped (locally, not in CI).
fn chromium() -> Option<PathBuf> {
    match find_chromium() {
        Some(p) => Some(p),
        None if std::env::var("CI").as_deref() == Ok("true") => panic!(
            "chromium is not installed: the doctor's browser tests need headless Chromium \
             (.ci/run installs Debian's `chromium` with apt-get; install it and re-run)"
        ),
        None => {
            eprintln!("skipping: chromium is not installed (set CI=true to make this a failure)");
            None
        }
    }
}

struct Rendered {
    dom: String,
    screenshot: Vec<u8>,
    /// Requests the page itself started (initiator is an origin).
    page_requests: Vec<String>,
    /// Every URL request the NetLog recorded (browser background included).
    all_requests: usize,
}

/// Render `page` headless: DOM, screenshot and NetLog in one run.
fn render(chromium: &Path, page: &Path) -> Rendered {
    let work = tempfile::tempdir().unwrap();
    let shot = work.path().join("shot.png");
    let netlog = work.path().join("netlog.json");
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let mut child = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-extensions",
            "--hide-scrollbars",
            "--window-size=1200,1600",
            // Keep the test offline: host names resolve nowhere (IP literals
            // are still attempted, and the NetLog still records every try).
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!(
            "--user-data-dir={}",
            work.path().join("profile").display()
        ))
        .arg(format!("--log-net-log={}", netlog.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--dump-dom")
        .arg(&url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).unwrap();
        s
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "chromium exited with {status}");
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish rendering {url} in 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let dom = reader.join().unwrap();
    let screenshot = fs::read(&shot).expect("chromium wrote no screenshot");
    let (page_requests, all_requests) = requests(&fs::read_to_string(&netlog).expect("no NetLog"));
    if let Some(dir) = std::env::var_os("DOCTOR_SCREENSHOTS") {
        let name = page
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        fs::create_dir_all(&dir).unwrap();
        fs::copy(&shot, Path::new(&dir).join(format!("{name}.png"))).unwrap();
        fs::copy(page, Path::new(&dir).join(format!("{name}.html"))).unwrap();
    }
    Rendered {
        dom,
        screenshot,
        page_requests,
        all_requests,
    }
}

/// URL requests in a NetLog: (the page's own, count of all).
fn requests(netlog: &str) -> (Vec<String>, usize) {
    // Chromium may leave the file without its closing brackets when it exits.
    let v: serde_json::Value = serde_json::from_str(netlog)
        .or_else(|_| {
            serde_json::from_str(&format!("{}]}}", netlog.trim_end().trim_end_matches(',')))
        })
        .expect("NetLog is JSON");
    let start = v["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
        .as_u64()
        .expect("event type");
    let mut page = Vec::new();
    let mut all = 0;
    for e in v["events"].as_array().unwrap() {
        if e["type"].as_u64() != Some(start) {
            continue;
        }
        let Some(url) = e["params"]["url"].as_str() else {
            continue;
        };
        all += 1;
        let initiator = e["params"]["initiator"].as_str().unwrap_or("");
        if initiator != "not an origin" {
            page.push(format!("{url} (initiator {initiator})"));
        }
    }
    (page, all)
}

/// Not blank: decoded, the right size, and enough non-white pixels in more
/// than a handful of colours.
fn assert_not_blank(png_bytes: &[u8], what: &str) {
    let decoder = png::Decoder::new(png_bytes);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(
        (info.width, info.height),
        (1200, 1600),
        "{what}: screenshot size"
    );
    let channels = info.color_type.samples();
    let pixels = &buf[..info.buffer_size()];
    let mut non_white = 0usize;
    let mut colours = std::collections::HashSet::new();
    for px in pixels.chunks(channels) {
        let rgb = (px[0], px[1], px[2]);
        if rgb != (255, 255, 255) {
            non_white += 1;
        }
        if colours.len() < 1000 {
            colours.insert(rgb);
        }
    }
    let total = (info.width * info.height) as usize;
    assert!(
        non_white * 200 > total,
        "{what}: blank screenshot ({non_white} of {total} pixels not white)"
    );
    assert!(colours.len() > 8, "{what}: only {} colours", colours.len());
    // White background: the corner is white.
    assert_eq!(
        &pixels[..3],
        &[255, 255, 255],
        "{what}: background is not white"
    );
}

/// Every tag in the page, as (name, raw attribute text). Session text is
/// escaped, so every raw `<` starts a real tag.
fn tags(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').expect("unclosed tag");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') || tag.starts_with('/') {
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        out.push((name.to_ascii_lowercase(), tag[name.len()..].to_string()));
        if name.eq_ignore_ascii_case("style") {
            let close = rest.find("</style>").expect("unclosed style");
            let css = &rest[..close];
            assert!(
                !css.contains("@import") && !css.contains("url(") && !css.contains("@font-face"),
                "CSS loads something"
            );
            rest = &rest[close..];
        }
    }
    out
}

/// The static half of "no network": only inert elements, no attribute that
/// names a resource, inline styles only set bar widths.
fn static_check(page: &str, what: &str) {
    const ALLOWED: &[&str] = &[
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "div",
        "header",
        "main",
        "footer",
        "section",
        "article",
        "figure",
        "figcaption",
        "h1",
        "h2",
        "h3",
        "p",
        "span",
        "strong",
        "code",
        "dl",
        "dt",
        "dd",
        "ul",
        "ol",
        "li",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "blockquote",
    ];
    let found = tags(page);
    assert!(found.len() > 10, "{what}: too few tags");
    for (name, attrs) in &found {
        assert!(
            ALLOWED.contains(&name.as_str()),
            "{what}: element <{name}> is not allowed"
        );
        let lower = attrs.to_ascii_lowercase();
        for bad in [
            "src=",
            "href=",
            "srcset=",
            "action=",
            "formaction=",
            "poster=",
            "data=",
            "background=",
            "on",
        ] {
            if bad == "on" {
                assert!(
                    !lower.split_whitespace().any(|a| a.starts_with("on")),
                    "{what}: event handler attribute in <{name}{attrs}>"
                );
            } else {
                assert!(
                    !lower.contains(bad),
                    "{what}: <{name}{attrs}> names a resource"
                );
            }
        }
        if let Some(i) = lower.find("style=\"") {
            let v = &lower[i + 7..];
            let v = &v[..v.find('"').unwrap()];
            assert!(
                v.starts_with("width:") && v.ends_with('%') && !v.contains("url"),
                "{what}: inline style {v}"
            );
        }
    }
    assert!(
        page.contains("default-src 'none'"),
        "{what}: no Content-Security-Policy"
    );
}

fn write_page(dir: &Path, name: &str, report: &Report) -> PathBuf {
    let d = dir.join(name);
    fs::create_dir_all(&d).unwrap();
    let page = html::render(
        report,
        &html::RenderContext {
            generated_at: "2025-06-10T13:00:00Z",
            version: "test",
        },
    );
    html::verify(&page, report).unwrap();
    let p = d.join("report.html");
    fs::write(&p, page).unwrap();
    p
}

/// A report through the binary; returns report.html.
fn via_binary(dir: &Path, name: &str, input: &Path, code: i32) -> PathBuf {
    let out = dir.join(name);
    Command::cargo_bin("skillgate")
        .unwrap()
        .arg("doctor")
        .arg(input)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(code);
    out.join("report.html")
}

/// A scored session with findings in both areas (hand-built; Claude Code shapes).
fn messy() -> Report {
    let mut s = S::new();
    s.user("Fix the parser in src/parse.py and keep the tests green <script>alert(1)</script>")
        .glob("**/*.js", "No files found")
        .glob("**/*.ts", "No files found")
        .read("/repo/src/util.py", "def util(): pass")
        .read("/repo/src/parse.py", "def parse(x):\n    return int(x)")
        .edit("/repo/src/parse.py", "def parse(y)", "def parse(z)", true)
        .edit(
            "/repo/src/parse.py",
            "    return int(x)",
            "    return float(x)",
            false,
        )
        .bash(
            "pytest -q",
            "FAILED tests/test_parse.py::test_int - token=abcdefghijkl1234",
            true,
        )
        .bash(
            "pytest -q",
            "FAILED tests/test_parse.py::test_int - token=abcdefghijkl1234",
            true,
        )
        .say("The parser now returns floats; one test still fails.");
    s.report()
}

fn clean() -> Report {
    let mut s = S::new();
    s.user("Rename the helper in src/lib.rs")
        .read("/repo/src/lib.rs", "fn helper() {}")
        .edit(
            "/repo/src/lib.rs",
            "fn helper() {}",
            "fn assist() {}",
            false,
        )
        .bash("cargo fmt --check", "", false)
        .bash("cargo test", "ok", false)
        .say("Renamed.");
    s.report()
}

fn no_code() -> Report {
    let mut s = S::new();
    s.user("What does src/lib.rs do?")
        .read("/repo/src/lib.rs", "fn main() {}")
        .say("It defines main in src/lib.rs.");
    s.report()
}

fn check(chromium: &Path, page: &Path, what: &str, must: &[&str]) {
    let html_text = fs::read_to_string(page).unwrap();
    static_check(&html_text, what);
    let r = render(chromium, page);
    assert!(
        r.dom.contains("<h1>Skill Doctor Report</h1>"),
        "{what}: no header in the DOM"
    );
    for m in must {
        assert!(
            r.dom.contains(m),
            "{what}: `{m}` is not in the rendered DOM"
        );
    }
    assert!(
        !r.dom.contains("<script"),
        "{what}: a script element in the DOM"
    );
    assert_not_blank(&r.screenshot, what);
    assert!(
        r.page_requests.is_empty(),
        "{what}: the page requested {:?}",
        r.page_requests
    );
    eprintln!(
        "{what}: rendered; {} browser background request(s), none from the page",
        r.all_requests
    );
}

#[test]
fn the_request_detector_sees_a_page_that_loads_something() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("canary");
    fs::create_dir_all(&d).unwrap();
    let page = d.join("report.html");
    fs::write(
        &page,
        "<!DOCTYPE html><html><head><title>canary</title></head><body>\
         <h1>canary</h1><p>a page that loads an image</p><img src=\"http://127.0.0.1:9/canary.png\"></body></html>",
    )
    .unwrap();
    let r = render(&chromium, &page);
    assert!(
        r.page_requests
            .iter()
            .any(|u| u.starts_with("http://127.0.0.1:9/canary.png")),
        "the NetLog detector missed the canary request: {:?}",
        r.page_requests
    );
}

#[test]
fn every_kind_of_report_renders_offline_with_its_sections() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    // Through the binary: the three failure classes that need no decoder.
    let missing = via_binary(d, "no-history", &d.join("no-such-session.jsonl"), 3);
    check(
        &chromium,
        &missing,
        "no-history",
        &["No conversation history found"],
    );
    let empty = d.join("empty.jsonl");
    fs::write(&empty, "").unwrap();
    let short = via_binary(d, "too-short", &empty, 3);
    check(
        &chromium,
        &short,
        "too-short",
        &["Session too short to assess"],
    );
    // JSON that no decoder reads (a plain-text log is scored instead, so the
    // parse-error page needs a broken JSON record); the role-marked lines
    // after it are the recovered turns.
    let log = d.join("session.jsonl");
    fs::write(
        &log,
        "{\"type\": \"user\", broken\nUser: fix the bug <script>alert(1)</script>\nAssistant: Looking at it.\nTool: ls\nREADME.md\n",
    )
    .unwrap();
    let parse = via_binary(d, "parse-error", &log, 2);
    check(
        &chromium,
        &parse,
        "parse-error",
        &[
            "id=\"parse-error\"",
            "id=\"turns\"",
            "id=\"score-summary\"",
            "Not assessed",
            "&lt;script&gt;",
        ],
    );

    // Scored reports (hand-built sessions).
    let scored = write_page(d, "scored", &messy());
    check(
        &chromium,
        &scored,
        "scored",
        &[
            "id=\"chart-efficiency\"",
            "id=\"chart-code-quality\"",
            "class=\"finding sev-",
            "<blockquote class=\"evidence\">",
            "<li class=\"suggestion\">",
            "class=\"fill ",
            "[REDACTED:secret-pair]",
        ],
    );
    let all_max = write_page(d, "all-max", &clean());
    check(
        &chromium,
        &all_max,
        "all-max",
        &[
            "No findings: every scored sub-score is at its maximum.",
            "No suggestions.",
            "10/10",
        ],
    );
    let na = write_page(d, "code-quality-na", &no_code());
    check(
        &chromium,
        &na,
        "code-quality-na",
        &["<strong>N/A</strong> The session changed no code"],
    );

    // The minimal no-history page built by the library as well.
    let r = doctor::diagnose(
        &SessionInput::NoHistory { searched: vec![] },
        &DoctorOptions::default(),
    );
    let lib_missing = write_page(d, "no-history-lib", &r);
    check(
        &chromium,
        &lib_missing,
        "no-history-lib",
        &["No conversation history found"],
    );
}

#[test]
fn real_claude_and_codex_reports_render_offline() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realdata/transcripts");
    let claude = via_binary(
        d,
        "claude-real",
        &root.join("claude-code/sniffly__ba79134d-b6e9-4867-af0c-6941038c9e4b.jsonl"),
        0,
    );
    check(
        &chromium,
        &claude,
        "claude-real",
        &[
            "<span class=\"total\">7/10</span>",
            "<span class=\"total\">8/10</span>",
            "id=\"finding-unnecessary-exploration\"",
            "<li class=\"suggestion\">",
        ],
    );
    let codex = via_binary(
        d,
        "codex-real",
        &root.join(
            "codex/codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
        ),
        0,
    );
    check(
        &chromium,
        &codex,
        "codex-real",
        &[
            "<span class=\"total\">5/10</span>",
            "id=\"finding-task-completion\"",
            "codex (codex-rollout)",
        ],
    );
    let injected = via_binary(
        d,
        "script-injection",
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/doctor/claude-script-injection.jsonl"),
        0,
    );
    check(
        &chromium,
        &injected,
        "script-injection",
        &["&lt;script&gt;alert(4)&lt;/script&gt;"],
    );
}
