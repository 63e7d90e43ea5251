//! The composite action (action.yml), the workflows and .pre-commit-hooks.yaml.
//!
//! The action's own shell steps (Gate, Report, Verdict) are executed here with
//! bash the way a GitHub runner does (`bash --noprofile --norc -eo pipefail`,
//! `${{ }}` expressions substituted, `$GITHUB_OUTPUT` read back) on a
//! throwaway repository, with the binary under test on PATH.

mod release_common;

use release_common::*;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

fn yaml(rel: &str) -> Value {
    let text = std::fs::read_to_string(repo_root().join(rel)).unwrap();
    yaml_serde::from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn steps() -> Vec<Value> {
    yaml("action.yml")["runs"]["steps"]
        .as_array()
        .unwrap()
        .clone()
}

fn step(name: &str) -> Value {
    steps()
        .into_iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no step {name}"))
}

/// Replace every `${{ expr }}` by its value (unknown expressions are empty, as on GitHub).
fn substitute(text: &str, ctx: &HashMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("${{") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("}}").expect("closed expression") + i;
        let expr = rest[i + 3..end].trim();
        out.push_str(ctx.get(expr).map(String::as_str).unwrap_or(""));
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

struct Runner {
    ctx: HashMap<String, String>,
    temp: tempfile::TempDir,
}

struct StepRun {
    code: i32,
    stdout: String,
    outputs: HashMap<String, String>,
}

impl Runner {
    fn new(inputs: &[(&str, &str)], github: &[(&str, &str)]) -> Runner {
        let mut ctx = HashMap::new();
        for (k, v) in yaml("action.yml")["inputs"].as_object().unwrap() {
            let d = v["default"].as_str().unwrap_or("").to_string();
            ctx.insert(format!("inputs.{k}"), d);
        }
        for (k, v) in inputs {
            ctx.insert(format!("inputs.{k}"), v.to_string());
        }
        for (k, v) in github {
            ctx.insert(k.to_string(), v.to_string());
        }
        ctx.insert(
            "github.action_path".into(),
            repo_root().display().to_string(),
        );
        Runner {
            ctx,
            temp: tempfile::tempdir().unwrap(),
        }
    }

    fn run(&mut self, name: &str, cwd: &Path) -> StepRun {
        let s = step(name);
        assert_eq!(s["shell"], "bash", "{name}: every run step names its shell");
        let script = substitute(s["run"].as_str().unwrap(), &self.ctx);
        let output_file = self.temp.path().join(format!("output-{name}"));
        std::fs::write(&output_file, "").unwrap();
        let bin = assert_cmd::cargo::cargo_bin("skillgate");
        let mut cmd = std::process::Command::new("bash");
        cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
            .current_dir(cwd)
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    bin.parent().unwrap().display(),
                    std::env::var("PATH").unwrap()
                ),
            )
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_STEP_SUMMARY", self.temp.path().join("summary.md"))
            .env("RUNNER_TEMP", self.temp.path())
            .env_remove("GITHUB_TOKEN")
            .env_remove("GITHUB_EVENT_PATH")
            .env_remove("RUST_LOG");
        if let Some(env) = s["env"].as_object() {
            for (k, v) in env {
                cmd.env(k, substitute(v.as_str().unwrap_or(""), &self.ctx));
            }
        }
        let out = cmd.output().unwrap();
        let outputs: HashMap<String, String> = std::fs::read_to_string(&output_file)
            .unwrap()
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        if let Some(id) = s["id"].as_str() {
            for (k, v) in &outputs {
                self.ctx
                    .insert(format!("steps.{id}.outputs.{k}"), v.clone());
            }
        }
        StepRun {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
            outputs,
        }
    }
}

/// A repository whose branch adds the demo skill with a violating session.
fn pull_request(violating: bool) -> (TestRepo, String, String) {
    let t = TestRepo::new();
    t.write("README.md", "x\n");
    let base = t.commit("base");
    if violating {
        t.add_skill();
        t.add_session("forced", "forced");
    } else {
        t.write("docs.md", "y\n");
    }
    let head = t.commit("pull request");
    (t, base.to_string(), head.to_string())
}

#[test]
fn on_a_violating_pull_request_the_action_fails_closed_with_annotations() {
    let (t, base, head) = pull_request(true);
    let mut r = Runner::new(
        &[("report", "false"), ("sarif", "true")],
        &[
            ("github.event.pull_request.base.sha", &base),
            ("github.event.pull_request.head.sha", &head),
        ],
    );
    let gate = r.run("Gate", &t.work());
    assert_eq!(gate.code, 0, "{}", gate.stdout);
    assert_eq!(gate.outputs["exit-code"], "1", "{}", gate.stdout);
    let verdicts: Value =
        serde_json::from_str(&std::fs::read_to_string(&gate.outputs["verdicts-file"]).unwrap())
            .unwrap();
    assert_eq!(verdicts["version"], 1);
    assert_eq!(verdicts["exit_code"], 1);
    assert_eq!(
        verdicts["skills"][0]["skill"]["path"],
        "skills/tidy-branches/SKILL.md"
    );
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(&gate.outputs["sarif-file"]).unwrap())
            .unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(
        gate.stdout.contains("1 skill(s) changed since"),
        "{}",
        gate.stdout
    );

    let report = r.run("Report", &t.work());
    assert_eq!(report.code, 0, "{}", report.stdout);
    assert!(
        report
            .stdout
            .contains("::error file=skills/tidy-branches/SKILL.md,line=11,endLine=11,"),
        "{}",
        report.stdout
    );
    let summary = std::fs::read_to_string(r.temp.path().join("summary.md")).unwrap();
    assert!(
        summary.starts_with("### skillgate — fail-closed"),
        "{summary}"
    );

    let verdict = r.run("Verdict", &t.work());
    assert_eq!(verdict.code, 1, "{}", verdict.stdout);
    assert!(
        verdict
            .stdout
            .contains("::error title=skillgate::a skill failed closed (exit 1)"),
        "{}",
        verdict.stdout
    );
}

#[test]
fn a_pull_request_touching_no_skill_passes() {
    let (t, base, head) = pull_request(false);
    let mut r = Runner::new(
        &[("report", "false")],
        &[
            ("github.event.pull_request.base.sha", &base),
            ("github.event.pull_request.head.sha", &head),
        ],
    );
    let gate = r.run("Gate", &t.work());
    assert_eq!(gate.outputs["exit-code"], "0", "{}", gate.stdout);
    assert!(
        gate.stdout.contains("no skill changed since"),
        "{}",
        gate.stdout
    );
    assert!(!gate.outputs.contains_key("sarif-file"));
    let report = r.run("Report", &t.work());
    assert_eq!(report.code, 0, "{}", report.stdout);
    assert_eq!(
        report.stdout,
        "skillgate: no skill changed: nothing to gate\n"
    );
    let verdict = r.run("Verdict", &t.work());
    assert_eq!(verdict.code, 0, "{}", verdict.stdout);
}

#[test]
fn a_shallow_checkout_without_the_base_is_an_error_and_a_wrong_head_a_warning() {
    let (t, _base, _head) = pull_request(true);
    let mut r = Runner::new(
        &[],
        &[
            (
                "github.event.pull_request.base.sha",
                "1234567890123456789012345678901234567890",
            ),
            (
                "github.event.pull_request.head.sha",
                "abcdefabcdefabcdefabcdefabcdefabcdefabcd",
            ),
        ],
    );
    let gate = r.run("Gate", &t.work());
    assert_eq!(gate.outputs["exit-code"], "2", "{}", gate.stdout);
    assert!(
        gate.stdout.contains("check out with fetch-depth: 0"),
        "{}",
        gate.stdout
    );
    let verdict = r.run("Verdict", &t.work());
    assert_eq!(verdict.code, 2, "{}", verdict.stdout);

    let mut r = Runner::new(
        &[("changed-only", "false"), ("report", "false")],
        &[(
            "github.event.pull_request.head.sha",
            "abcdefabcdefabcdefabcdefabcdefabcdefabcd",
        )],
    );
    let gate = r.run("Gate", &t.work());
    assert_eq!(gate.outputs["exit-code"], "1", "{}", gate.stdout);
    assert!(
        gate.stdout.contains("::warning title=skillgate::HEAD is "),
        "{}",
        gate.stdout
    );
}

#[test]
fn nothing_to_measure_warns_unless_asked_to_fail() {
    let t = TestRepo::new();
    t.add_skill();
    t.commit("a skill without sessions");
    for (fail, code) in [("false", 0), ("true", 3)] {
        let mut r = Runner::new(
            &[
                ("changed-only", "false"),
                ("fail-on-nothing-to-measure", fail),
            ],
            &[],
        );
        let gate = r.run("Gate", &t.work());
        assert_eq!(gate.outputs["exit-code"], "3", "{}", gate.stdout);
        let verdict = r.run("Verdict", &t.work());
        assert_eq!(verdict.code, code, "{}", verdict.stdout);
        assert!(
            verdict.stdout.contains("nothing to measure (exit 3)"),
            "{}",
            verdict.stdout
        );
    }
}

#[test]
fn the_action_is_a_cached_composite_that_never_expands_inputs_in_scripts() {
    let a = yaml("action.yml");
    assert_eq!(a["runs"]["using"], "composite");
    let steps = steps();
    for s in &steps {
        if let Some(run) = s["run"].as_str() {
            assert!(s["shell"].is_string(), "every run step needs shell: {s}");
            assert!(
                !run.contains("${{"),
                "inputs reach scripts through env only: {run}"
            );
        }
    }
    let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
    // Current majors (node24 runtimes).
    assert_eq!(
        uses,
        vec!["actions/cache@v5", "github/codeql-action/upload-sarif@v4"]
    );
    let release = step("Install the skillgate release binary");
    assert_eq!(
        release["env"]["SKILLGATE_VERSION"],
        "${{ github.action_ref }}"
    );
    assert_eq!(
        release["env"]["SKILLGATE_REPOSITORY"],
        "${{ github.action_repository }}"
    );
    let install = step("Install skillgate from the action's checkout");
    assert_eq!(
        install["if"],
        "steps.release.outputs.installed != 'true' && steps.cache.outputs.cache-hit != 'true'"
    );
    assert!(install["run"]
        .as_str()
        .unwrap()
        .contains("cargo install --locked --path \"$ACTION_PATH\""));
    for input in [
        "skills",
        "changed-only",
        "base",
        "trajectories",
        "config",
        "sarif",
        "report",
        "fail-on-nothing-to-measure",
        "token",
    ] {
        assert!(a["inputs"][input]["description"].is_string(), "{input}");
    }
}

#[test]
fn the_workflows_and_the_pre_commit_hook() {
    let example = yaml(".github/workflows/skills-example.yml");
    let steps = example["jobs"]["skillgate"]["steps"].as_array().unwrap();
    assert_eq!(steps[0]["uses"], "actions/checkout@v6");
    // Docs and examples name no tag that does not exist.
    for f in [
        ".github/workflows/skills-example.yml",
        ".pre-commit-hooks.yaml",
        "docs/integrations.md",
        "README.md",
    ] {
        let text = std::fs::read_to_string(repo_root().join(f)).unwrap();
        assert!(
            !text.contains("v0.1.0"),
            "{f} names a tag that does not exist"
        );
    }
    for f in std::fs::read_dir(repo_root().join(".github/workflows")).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        for old in [
            "actions/checkout@v4",
            "actions/cache@v4",
            "upload-sarif@v3",
            "upload-artifact@v4",
            "download-artifact@v4",
        ] {
            assert!(!text.contains(old), "{old}");
        }
    }
    let release = yaml(".github/workflows/release.yml");
    assert_eq!(release["on"]["push"]["tags"], serde_json::json!(["v*"]));
    let targets: Vec<&str> = release["jobs"]["binaries"]["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["target"].as_str().unwrap())
        .collect();
    for t in [
        "x86_64-unknown-linux-gnu",
        "aarch64-unknown-linux-gnu",
        "x86_64-unknown-linux-musl",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(targets.contains(&t), "{t}");
    }
    let pyproject = std::fs::read_to_string(repo_root().join("pyproject.toml")).unwrap();
    let pyproject: toml::Value = toml::from_str(&pyproject).unwrap();
    assert_eq!(
        pyproject["tool"]["maturin"]["bindings"].as_str(),
        Some("bin")
    );
    assert_eq!(
        pyproject["build-system"]["build-backend"].as_str(),
        Some("maturin")
    );
    assert_eq!(steps[0]["with"]["fetch-depth"], 0);
    assert!(steps[0]["with"]["ref"]
        .as_str()
        .unwrap()
        .contains("github.event.pull_request.head.sha"));
    assert_eq!(example["permissions"]["checks"], "write");
    assert_eq!(example["permissions"]["security-events"], "write");

    let own = yaml(".github/workflows/skillgate-action.yml");
    let jobs = own["jobs"].as_object().unwrap();
    assert_eq!(jobs.len(), 2);
    for job in jobs.values() {
        let steps = job["steps"].as_array().unwrap();
        assert!(steps.iter().any(|s| s["uses"] == "./"), "{job}");
    }

    let hooks = yaml(".pre-commit-hooks.yaml");
    let c = &hooks[1];
    assert_eq!(c["id"], "skillgate-commit");
    assert_eq!(c["entry"], "skillgate hook pre-commit");
    assert_eq!(c["pass_filenames"], true);
    assert_eq!(c["stages"], serde_json::json!(["pre-commit", "manual"]));
    let h = &hooks[0];
    assert_eq!(h["id"], "skillgate");
    assert_eq!(h["entry"], "skillgate hook pre-push");
    assert_eq!(h["language"], "rust");
    assert_eq!(h["pass_filenames"], false);
    assert_eq!(h["stages"], serde_json::json!(["pre-push"]));
    let cargo = std::fs::read_to_string(repo_root().join("Cargo.toml")).unwrap();
    assert!(
        cargo.starts_with("[package]"),
        "language: rust needs a real package at the root"
    );
}

#[test]
fn a_force_push_falls_back_to_the_merge_base_with_the_default_branch() {
    // main: the base; topic: a skill with a violating session; the push's
    // `before` was overwritten by a force-push (not in any clone).
    let t = TestRepo::new();
    t.write("README.md", "x\n");
    let base = t.commit("base");
    t.add_skill();
    t.add_session("forced", "forced");
    t.commit("topic");
    // The default branch as the checkout would have fetched it.
    t.set_remote_ref("main", base);
    let gone = "1234567890123456789012345678901234567890";
    let github = [
        ("github.event.before", gone),
        ("github.event.forced", "true"),
        ("github.ref", "refs/heads/topic"),
        ("github.event.repository.default_branch", "main"),
    ];
    let mut r = Runner::new(&[("report", "false")], &github);
    let gate = r.run("Gate", &t.work());
    assert_eq!(gate.outputs["exit-code"], "1", "{}", gate.stdout);
    assert!(
        gate.stdout.contains(&format!(
            "::notice title=skillgate::a force-push overwrote {gone}: gating the skills changed since the merge base with main ({base})"
        )),
        "{}",
        gate.stdout
    );
    assert!(!gate.stdout.contains("fetch-depth"), "{}", gate.stdout);

    // A force-push to the default branch itself: the whole tree.
    let github = [
        ("github.event.before", gone),
        ("github.event.forced", "true"),
        ("github.ref", "refs/heads/main"),
        ("github.event.repository.default_branch", "main"),
    ];
    let mut r = Runner::new(&[("report", "false")], &github);
    let gate = r.run("Gate", &t.work());
    assert_eq!(gate.outputs["exit-code"], "1", "{}", gate.stdout);
    assert!(
        gate.stdout.contains("gating every skill of the tree"),
        "{}",
        gate.stdout
    );

    // A pull request whose base is missing is still the fetch-depth error.
    let mut r = Runner::new(&[], &[("github.event.pull_request.base.sha", gone)]);
    let gate = r.run("Gate", &t.work());
    assert_eq!(gate.outputs["exit-code"], "2", "{}", gate.stdout);
}

/// A one-thread HTTP server for `files` (path → bytes); 404 for anything else.
fn serve(files: HashMap<String, Vec<u8>>) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut first = String::new();
            if reader.read_line(&mut first).is_err() {
                continue;
            }
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = first.split_whitespace().nth(1).unwrap_or("").to_string();
            let mut out = stream;
            match files.get(&path) {
                Some(body) => {
                    let _ = write!(
                        out,
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        body.len()
                    );
                    let _ = out.write_all(body);
                }
                None => {
                    let _ = write!(
                        out,
                        "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    );
                }
            }
        }
    });
    format!("http://{addr}")
}

#[test]
fn the_action_downloads_its_own_release_and_verifies_the_checksum() {
    use sha2::{Digest, Sha256};
    // A release archive holding the binary under test, as release.yml packs it.
    let d = tempfile::tempdir().unwrap();
    let target = "x86_64-unknown-linux-gnu";
    let folder = d.path().join(format!("skillgate-{target}"));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(
        assert_cmd::cargo::cargo_bin("skillgate"),
        folder.join("skillgate"),
    )
    .unwrap();
    let archive = d.path().join("a.tar.gz");
    let tar = std::process::Command::new("tar")
        .arg("-czf")
        .arg(&archive)
        .arg("-C")
        .arg(d.path())
        .arg(format!("skillgate-{target}"))
        .status()
        .unwrap();
    assert!(tar.success());
    let bytes = std::fs::read(&archive).unwrap();
    let sum: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let name = format!("skillgate-{target}.tar.gz");
    let prefix = "/OWNER/skillgate/releases/download";
    let mut files = HashMap::new();
    files.insert(format!("{prefix}/v9.9.9/{name}"), bytes.clone());
    files.insert(
        format!("{prefix}/v9.9.9/{name}.sha256"),
        format!("{sum}  {name}\n").into_bytes(),
    );
    files.insert(format!("{prefix}/v6.6.6/{name}"), bytes);
    files.insert(
        format!("{prefix}/v6.6.6/{name}.sha256"),
        format!("{}  {name}\n", "0".repeat(64)).into_bytes(),
    );
    let base = serve(files);

    let install = |version: &str| {
        let home = tempfile::tempdir().unwrap();
        let r = Runner::new(
            &[],
            &[
                ("github.action_ref", version),
                ("github.action_repository", "OWNER/skillgate"),
            ],
        );
        let s = step("Install the skillgate release binary");
        let script = substitute(s["run"].as_str().unwrap(), &r.ctx);
        let out_file = r.temp.path().join("out");
        std::fs::write(&out_file, "").unwrap();
        let mut cmd = std::process::Command::new("bash");
        cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
            .env("HOME", home.path())
            .env("GITHUB_OUTPUT", &out_file)
            .env("SKILLGATE_DOWNLOAD", &base)
            .env("SKILLGATE_TARGET", target);
        for (k, v) in s["env"].as_object().unwrap() {
            cmd.env(k, substitute(v.as_str().unwrap(), &r.ctx));
        }
        let out = cmd.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        let outputs = std::fs::read_to_string(&out_file).unwrap();
        let bin = home.path().join(".skillgate-action/bin/skillgate");
        let version_out = std::process::Command::new(&bin)
            .arg("--version")
            .output()
            .ok();
        (
            out.status.code(),
            text,
            outputs,
            version_out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()),
        )
    };

    // The action's own tag: downloaded, verified, on PATH.
    let (code, text, outputs, version) = install("v9.9.9");
    assert_eq!(code, Some(0), "{text}");
    assert!(outputs.contains("installed=true"), "{outputs}");
    assert!(text.contains(&format!("sha256 {sum}")), "{text}");
    assert!(
        version.unwrap().starts_with("skillgate "),
        "the installed binary runs"
    );

    // A wrong checksum is an error, never a silent fallback.
    let (code, text, _, version) = install("v6.6.6");
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("checksum mismatch") && text.contains("refusing to install"),
        "{text}"
    );
    assert!(version.is_none(), "nothing installed");

    // No such release, or not a tag (a branch, a sha): build from source.
    for v in ["v1.0.0", "main", ""] {
        let (code, text, outputs, _) = install(v);
        assert_eq!(code, Some(0), "{v}: {text}");
        assert!(outputs.contains("installed=false"), "{v}: {outputs}");
        assert!(
            text.contains("building from the action's checkout instead"),
            "{text}"
        );
    }
}

/// A matrix of two shard jobs and one merge job (docs/shards.md): each shard
/// job writes its result and passes; the merge job's verdict file is the
/// unsharded gate's, byte for byte, and its Verdict step fails closed.
#[test]
fn shard_jobs_and_a_merge_job_give_the_unsharded_verdict() {
    let (t, base, head) = pull_request(true);
    let github = [
        ("github.event.pull_request.base.sha", base.as_str()),
        ("github.event.pull_request.head.sha", head.as_str()),
    ];
    let mut whole = Runner::new(&[("report", "false")], &github);
    let one = whole.run("Gate", &t.work());
    assert_eq!(one.outputs["exit-code"], "1", "{}", one.stdout);

    let shards = tempfile::tempdir().unwrap();
    for k in 1..=2 {
        let spec = format!("{k}/2");
        let mut r = Runner::new(&[("shard", spec.as_str())], &github);
        let gate = r.run("Gate", &t.work());
        assert_eq!(gate.code, 0, "{}", gate.stdout);
        assert_eq!(gate.outputs["exit-code"], "0", "{}", gate.stdout);
        assert!(
            !gate.outputs.contains_key("verdicts-file"),
            "a shard gives no verdict"
        );
        std::fs::copy(
            &gate.outputs["shard-file"],
            shards.path().join(format!("shard-{k}.json")),
        )
        .unwrap();
        let verdict = r.run("Verdict", &t.work());
        assert_eq!(verdict.code, 0, "{}", verdict.stdout);
        assert!(
            verdict.stdout.contains("the merge job gives the verdict"),
            "{}",
            verdict.stdout
        );
    }

    let glob = format!("{}/*.json", shards.path().display());
    let mut m = Runner::new(&[("merge", glob.as_str()), ("report", "false")], &github);
    let merged = m.run("Gate", &t.work());
    assert_eq!(merged.outputs["exit-code"], "1", "{}", merged.stdout);
    assert_eq!(
        std::fs::read(&merged.outputs["verdicts-file"]).unwrap(),
        std::fs::read(&one.outputs["verdicts-file"]).unwrap(),
        "the merge job's verdicts are the unsharded run's"
    );
    let verdict = m.run("Verdict", &t.work());
    assert_eq!(verdict.code, 1, "{}", verdict.stdout);
}
