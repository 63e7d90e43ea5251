//! `escalate:` in .skillgate.yaml (seed 004: on fail-closed, "escalate to the
//! operator"): a configured command receives the verdict JSON on stdin, and
//! reviewers and labels are asked of the pull request through the GitHub API
//! (a local wiremock server). A passing gate escalates nothing; a failing
//! escalation never changes the exit code.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use wiremock::matchers::{body_json, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch repository: the force-push skill, one session, a config.
fn scratch(session: &str, config: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let skill = d.path().join("skills/release-helper");
    std::fs::create_dir_all(&skill).unwrap();
    for f in ["SKILL.md", "SKILL.constraints.yaml"] {
        std::fs::copy(
            root()
                .join("fixtures/gate/force-push/skills/release-helper")
                .join(f),
            skill.join(f),
        )
        .unwrap();
    }
    let sessions = d.path().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    std::fs::copy(
        root()
            .join("fixtures/gate/force-push/transcripts")
            .join(session),
        sessions.join(session),
    )
    .unwrap();
    std::fs::write(d.path().join(".skillgate.yaml"), config).unwrap();
    d
}

/// A command that stores its stdin in `received.json` beside the config.
fn recorder(dir: &Path) -> String {
    let script = dir.join("page-operator.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\ncat > \"$(dirname \"$0\")/received.json\"\necho \"paged: $SKILLGATE_ESCALATION\"\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    "escalate:\n  command: [./page-operator.sh]\n".to_string()
}

fn run(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> (i32, String, String) {
    let mut c = assert_cmd::Command::cargo_bin("skillgate").unwrap();
    c.current_dir(dir).args(args);
    for k in [
        "GITHUB_TOKEN",
        "GITHUB_EVENT_PATH",
        "GITHUB_REPOSITORY",
        "GITHUB_SHA",
        "GITHUB_API_URL",
    ] {
        c.env_remove(k);
    }
    for (k, v) in envs {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const GATE: &[&str] = &[
    "gate",
    "skills/release-helper",
    "--trajectories",
    "sessions",
    "--format",
    "json",
    "--no-report",
];

#[cfg(unix)]
#[test]
fn fail_closed_runs_the_command_with_the_verdict_on_stdin() {
    let d = tempfile::tempdir().unwrap();
    let cfg = recorder(d.path());
    let d2 = scratch("forced.jsonl", &cfg);
    std::fs::copy(
        d.path().join("page-operator.sh"),
        d2.path().join("page-operator.sh"),
    )
    .unwrap();
    let (code, out, err) = run(d2.path(), GATE, &[]);
    assert_eq!(code, 1, "{err}");
    let received: Value =
        serde_json::from_str(&std::fs::read_to_string(d2.path().join("received.json")).unwrap())
            .unwrap();
    let printed: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(received, printed, "the command gets the verdict JSON");
    assert!(received.to_string().contains("fail-closed"));
    // The command's output goes to stderr, never into the JSON on stdout.
    assert!(err.contains("paged: fail-closed"), "{err}");
    assert!(err.contains("skillgate: escalate: ran `"), "{err}");

    // ship escalates its own JSON object.
    std::fs::remove_file(d2.path().join("received.json")).unwrap();
    let (code, out, err) = run(
        d2.path(),
        &[
            "ship",
            "skills/release-helper",
            "--trajectories",
            "sessions",
            "--no-report",
        ],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    let received: Value =
        serde_json::from_str(&std::fs::read_to_string(d2.path().join("received.json")).unwrap())
            .unwrap();
    assert_eq!(received["verdict"], "fail-closed");
    assert_eq!(received, serde_json::from_str::<Value>(&out).unwrap());
}

#[cfg(unix)]
#[test]
fn a_passing_gate_escalates_nothing_and_a_failing_command_keeps_the_exit_code() {
    let d = tempfile::tempdir().unwrap();
    let cfg = recorder(d.path());
    let pass = scratch("plain.jsonl", &cfg);
    std::fs::copy(
        d.path().join("page-operator.sh"),
        pass.path().join("page-operator.sh"),
    )
    .unwrap();
    let (code, _, err) = run(pass.path(), GATE, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(!pass.path().join("received.json").exists());
    assert!(!err.contains("escalate"), "{err}");

    let broken = scratch(
        "forced.jsonl",
        "escalate:\n  command: [/nonexistent/page-me]\n",
    );
    let (code, out, err) = run(broken.path(), GATE, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(serde_json::from_str::<Value>(&out).is_ok());
    assert!(
        err.contains("skillgate: escalate: warning: `/nonexistent/page-me` could not start"),
        "{err}"
    );
}

#[test]
fn fail_closed_requests_reviewers_and_adds_labels_on_the_pull_request() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/repos/octo/skills/pulls/7/requested_reviewers"))
            .and(body_json(json!({"reviewers": ["alice"], "team_reviewers": ["skill-owners"]})))
            .respond_with(ResponseTemplate::new(201).set_body_json(json!({"number": 7})))
            .expect(1)
            .mount(&server)
            .await;
        Mock::given(method("POST"))
            .and(path("/repos/octo/skills/issues/7/labels"))
            .and(body_json(json!({"labels": ["skillgate:fail-closed"]})))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"name": "skillgate:fail-closed"}])))
            .expect(1)
            .mount(&server)
            .await;
        let d = scratch(
            "forced.jsonl",
            "escalate:\n  reviewers: [alice]\n  team-reviewers: [skill-owners]\n  labels: [\"skillgate:fail-closed\"]\n",
        );
        let event = d.path().join("event.json");
        std::fs::write(
            &event,
            json!({"number": 7, "pull_request": {"number": 7, "head": {"sha": "abc123"}}}).to_string(),
        )
        .unwrap();
        let uri = server.uri();
        let dir = d.path().to_path_buf();
        let (code, _, err) = tokio::task::spawn_blocking(move || {
            run(
                &dir,
                GATE,
                &[
                    ("GITHUB_TOKEN", "t0ken"),
                    ("GITHUB_REPOSITORY", "octo/skills"),
                    ("GITHUB_API_URL", &uri),
                    ("GITHUB_EVENT_PATH", event.to_str().unwrap()),
                ],
            )
        })
        .await
        .unwrap();
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("requested review from alice, team skill-owners on pull request #7"),
            "{err}"
        );
        assert!(err.contains("added label(s) skillgate:fail-closed to pull request #7"), "{err}");
        server.verify().await;
    });
}

#[test]
fn an_empty_escalate_command_is_a_configuration_error() {
    let d = scratch("forced.jsonl", "escalate:\n  command: []\n");
    let (code, _, err) = run(d.path(), GATE, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(".skillgate.yaml"), "{err}");
    assert!(err.contains("escalate.command needs a program"), "{err}");
}
