//! `skillgate github report` against a local HTTP server (wiremock on
//! 127.0.0.1) standing in for GitHub's REST API: request paths, methods and
//! bodies asserted; annotations in batches of 50; comment pagination; the
//! upsert (edit in place, never a second comment); the HTTP 403 fallback of a
//! fork's read-only token; a GitHub Enterprise base URL.

mod release_common;

use release_common::*;
use serde_json::{json, Value};
use skillgate::release::github::{self as gh, CheckAnnotation, Context, MARKER};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const SKILL: &str = "fixtures/release/demo/skills/tidy-branches";
const FORCED: &str = "fixtures/release/demo/sessions/forced.jsonl";

/// The gate's JSON for the demo's violating session, in a file.
fn verdicts_file(dir: &Path) -> PathBuf {
    let r = run(
        &repo_root(),
        &[
            "gate",
            SKILL,
            "--trajectories",
            FORCED,
            "--format",
            "json",
            "--no-report",
        ],
        "",
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let p = dir.join("verdicts.json");
    std::fs::write(&p, &r.stdout).unwrap();
    p
}

fn demo_verdicts() -> Vec<skillgate::score::SkillVerdict> {
    let options = skillgate::gate::GateOptions {
        trajectories: vec![PathBuf::from(FORCED)],
        cwd: repo_root(),
    };
    skillgate::gate::run_gate(
        &[repo_root().join(SKILL)],
        &options,
        &skillgate::config::Config::default(),
    )
    .unwrap()
}

/// A small stateful fake of the endpoints `github report` uses.
#[derive(Default)]
struct Fake {
    comments: Vec<(u64, String)>,
    next_id: u64,
    per_page: usize,
    /// Status to answer on every write (POST/PATCH), e.g. 403.
    refuse_writes: Option<u16>,
    /// Status to answer on every read.
    refuse_reads: Option<u16>,
}

fn fake_github(
    server_uri: String,
    state: Arc<Mutex<Fake>>,
) -> impl Fn(&Request) -> ResponseTemplate {
    move |req: &Request| {
        let mut s = state.lock().unwrap();
        let path = req.url.path().to_string();
        let method = req.method.as_str().to_string();
        let write = method != "GET";
        if let Some(code) = if write {
            s.refuse_writes
        } else {
            s.refuse_reads
        } {
            return ResponseTemplate::new(code).set_body_json(json!({
                "message": "Resource not accessible by integration",
                "documentation_url": "https://docs.github.com/rest"
            }));
        }
        let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        let comments_of_pr = path.ends_with("/issues/7/comments");
        match (method.as_str(), path.as_str()) {
            ("POST", p) if p.ends_with("/check-runs") => {
                ResponseTemplate::new(201).set_body_json(json!({"id": 4242, "name": body["name"]}))
            }
            ("PATCH", p) if p.ends_with("/check-runs/4242") => {
                ResponseTemplate::new(200).set_body_json(json!({"id": 4242}))
            }
            ("GET", _) if comments_of_pr => {
                let page: usize = req
                    .url
                    .query_pairs()
                    .find(|(k, _)| k == "page")
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(1);
                let per = s.per_page.max(1);
                let items: Vec<Value> = s
                    .comments
                    .iter()
                    .skip((page - 1) * per)
                    .take(per)
                    .map(|(id, b)| json!({"id": id, "body": b, "user": {"login": "github-actions[bot]"}}))
                    .collect();
                let mut t = ResponseTemplate::new(200).set_body_json(Value::Array(items));
                if page * per < s.comments.len() {
                    t = t.append_header(
                        "link",
                        format!(
                            "<{server_uri}{path}?per_page=100&page={}>; rel=\"next\"",
                            page + 1
                        )
                        .as_str(),
                    );
                }
                t
            }
            ("POST", _) if comments_of_pr => {
                s.next_id += 1;
                let id = 9000 + s.next_id;
                s.comments
                    .push((id, body["body"].as_str().unwrap_or("").to_string()));
                ResponseTemplate::new(201).set_body_json(json!({"id": id}))
            }
            ("PATCH", p) if p.contains("/issues/comments/") => {
                let id: u64 = p.rsplit('/').next().unwrap().parse().unwrap();
                match s.comments.iter_mut().find(|(i, _)| *i == id) {
                    Some(c) => {
                        c.1 = body["body"].as_str().unwrap_or("").to_string();
                        ResponseTemplate::new(200).set_body_json(json!({"id": id}))
                    }
                    None => {
                        ResponseTemplate::new(404).set_body_json(json!({"message": "Not Found"}))
                    }
                }
            }
            _ => ResponseTemplate::new(404)
                .set_body_json(json!({"message": format!("no route {method} {path}")})),
        }
    }
}

async fn server(state: Arc<Mutex<Fake>>) -> MockServer {
    let s = MockServer::start().await;
    Mock::given(any())
        .respond_with(fake_github(s.uri(), state))
        .mount(&s)
        .await;
    s
}

fn ctx(api: &str) -> Context {
    Context {
        api_url: api.to_string(),
        owner: "octo".into(),
        repo: "skills".into(),
        sha: "0123456789abcdef0123456789abcdef01234567".into(),
        pr: Some(7),
    }
}

async fn requests(s: &MockServer) -> Vec<(String, String, Value)> {
    s.received_requests()
        .await
        .unwrap()
        .into_iter()
        .map(|r| {
            (
                r.method.as_str().to_string(),
                match r.url.query() {
                    Some(q) => format!("{}?{q}", r.url.path()),
                    None => r.url.path().to_string(),
                },
                serde_json::from_slice(&r.body).unwrap_or(Value::Null),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_check_run_with_few_annotations_is_one_completed_post() {
    let state = Arc::new(Mutex::new(Fake::default()));
    let s = server(state.clone()).await;
    let verdicts = demo_verdicts();
    let annotations = gh::check_annotations(&verdicts, &|p| p.to_string());
    assert_eq!(annotations.len(), 3);
    let crab = gh::client(&s.uri(), "t0ken").unwrap();
    let sent = gh::publish_check_run(
        &crab,
        &ctx(&s.uri()),
        "skillgate",
        &verdicts,
        "summary",
        &annotations,
    )
    .await
    .unwrap();
    assert_eq!(
        sent,
        gh::CheckRunSent {
            id: 4242,
            requests: 1,
            annotations: 3
        }
    );
    let reqs = requests(&s).await;
    assert_eq!(reqs.len(), 1);
    let (method, path, body) = &reqs[0];
    assert_eq!(
        (method.as_str(), path.as_str()),
        ("POST", "/repos/octo/skills/check-runs")
    );
    assert_eq!(body["name"], "skillgate");
    assert_eq!(body["head_sha"], "0123456789abcdef0123456789abcdef01234567");
    assert_eq!(body["status"], "completed");
    assert_eq!(body["conclusion"], "failure");
    assert_eq!(
        body["output"]["title"],
        "fail-closed: 1 blocking rule in 1 skill"
    );
    assert_eq!(body["output"]["summary"], "summary");
    let a = &body["output"]["annotations"][0];
    assert_eq!(a["path"], format!("{SKILL}/SKILL.md"));
    assert_eq!(a["start_line"], 11);
    assert_eq!(a["end_line"], 11);
    assert_eq!(a["annotation_level"], "failure");
    assert_eq!(
        a["title"],
        "tidy-branches: no-force-push (violated, fail-closed)"
    );
    assert!(a["message"]
        .as_str()
        .unwrap()
        .contains("Evidence: fixtures/release/demo/sessions/forced.jsonl event 3 (line 7)"));
    assert_eq!(
        body["output"]["annotations"][1]["annotation_level"],
        "warning"
    );
    assert_eq!(
        body["output"]["annotations"][2]["annotation_level"],
        "notice"
    );
    let auth = s.received_requests().await.unwrap()[0]
        .headers
        .get("authorization")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(auth, "Bearer t0ken");
}

#[tokio::test]
async fn annotations_go_in_batches_of_fifty_and_the_last_request_completes_the_run() {
    let state = Arc::new(Mutex::new(Fake::default()));
    let s = server(state).await;
    let verdicts = demo_verdicts();
    let annotations: Vec<CheckAnnotation> = (1..=120)
        .map(|i| CheckAnnotation {
            path: "skills/x/SKILL.md".into(),
            start_line: i,
            end_line: i,
            annotation_level: "warning".into(),
            title: format!("t{i}"),
            message: "m".into(),
        })
        .collect();
    let crab = gh::client(&s.uri(), "t").unwrap();
    let sent = gh::publish_check_run(
        &crab,
        &ctx(&s.uri()),
        "skillgate",
        &verdicts,
        "sum",
        &annotations,
    )
    .await
    .unwrap();
    assert_eq!(sent.requests, 3);
    let reqs = requests(&s).await;
    let shape: Vec<(String, String, usize, Value, Value)> = reqs
        .iter()
        .map(|(m, p, b)| {
            (
                m.clone(),
                p.clone(),
                b["output"]["annotations"].as_array().unwrap().len(),
                b["status"].clone(),
                b["conclusion"].clone(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        vec![
            (
                "POST".into(),
                "/repos/octo/skills/check-runs".into(),
                50,
                json!("in_progress"),
                Value::Null
            ),
            (
                "PATCH".into(),
                "/repos/octo/skills/check-runs/4242".into(),
                50,
                Value::Null,
                Value::Null
            ),
            (
                "PATCH".into(),
                "/repos/octo/skills/check-runs/4242".into(),
                20,
                json!("completed"),
                json!("failure")
            ),
        ]
    );
    assert_eq!(reqs[1].2["output"]["annotations"][0]["start_line"], 51);
    assert_eq!(reqs[2].2["output"]["annotations"][19]["start_line"], 120);
    for (_, _, b) in &reqs {
        assert_eq!(
            b["output"]["title"],
            "fail-closed: 1 blocking rule in 1 skill"
        );
        assert_eq!(b["output"]["summary"], "sum");
    }
}

#[tokio::test]
async fn the_comment_is_found_across_pages_and_edited_in_place() {
    let mut fake = Fake {
        per_page: 100,
        ..Fake::default()
    };
    for i in 0..150u64 {
        fake.comments.push((i + 1, format!("comment {i}")));
    }
    fake.comments.push((777, format!("{MARKER}\nold report")));
    let state = Arc::new(Mutex::new(fake));
    let s = server(state.clone()).await;
    let crab = gh::client(&s.uri(), "t").unwrap();
    let action = gh::upsert_comment(
        &crab,
        &ctx(&s.uri()),
        7,
        &format!("{MARKER}\nnew report"),
        true,
    )
    .await
    .unwrap();
    assert_eq!(action, gh::CommentAction::Updated(777));
    let reqs = requests(&s).await;
    let calls: Vec<(String, String)> = reqs
        .iter()
        .map(|(m, p, _)| (m.clone(), p.clone()))
        .collect();
    assert_eq!(
        calls,
        vec![
            (
                "GET".into(),
                "/repos/octo/skills/issues/7/comments?per_page=100".into()
            ),
            (
                "GET".into(),
                "/repos/octo/skills/issues/7/comments?per_page=100&page=2".into()
            ),
            (
                "PATCH".into(),
                "/repos/octo/skills/issues/comments/777".into()
            ),
        ]
    );
    assert_eq!(reqs[2].2, json!({"body": format!("{MARKER}\nnew report")}));
    let st = state.lock().unwrap();
    assert_eq!(st.comments.len(), 151, "no second comment");
    assert_eq!(st.comments[150].1, format!("{MARKER}\nnew report"));
}

#[tokio::test]
async fn a_missing_comment_is_created_once_then_edited_and_an_empty_run_starts_none() {
    let state = Arc::new(Mutex::new(Fake {
        per_page: 100,
        ..Fake::default()
    }));
    let s = server(state.clone()).await;
    let crab = gh::client(&s.uri(), "t").unwrap();
    let c = ctx(&s.uri());
    assert_eq!(
        gh::upsert_comment(&crab, &c, 7, "x", false).await.unwrap(),
        gh::CommentAction::NotNeeded
    );
    let first = gh::upsert_comment(&crab, &c, 7, &gh::comment_body("one"), true)
        .await
        .unwrap();
    assert_eq!(first, gh::CommentAction::Created(9001));
    let again = gh::upsert_comment(&crab, &c, 7, &gh::comment_body("one"), true)
        .await
        .unwrap();
    assert_eq!(again, gh::CommentAction::Unchanged(9001));
    let second = gh::upsert_comment(&crab, &c, 7, &gh::comment_body("two"), true)
        .await
        .unwrap();
    assert_eq!(second, gh::CommentAction::Updated(9001));
    let reqs = requests(&s).await;
    let posts: Vec<_> = reqs.iter().filter(|(m, _, _)| m == "POST").collect();
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0].1, "/repos/octo/skills/issues/7/comments");
    assert_eq!(posts[0].2, json!({"body": format!("{MARKER}\none")}));
    assert_eq!(
        state.lock().unwrap().comments,
        vec![(9001, format!("{MARKER}\ntwo"))]
    );
}

fn event_file(dir: &Path) -> PathBuf {
    let p = dir.join("event.json");
    std::fs::write(
        &p,
        json!({"action": "synchronize", "number": 7, "pull_request": {"number": 7, "head": {"sha": "feedfacefeedfacefeedfacefeedfacefeedface"}}}).to_string(),
    )
    .unwrap();
    p
}

async fn report_cli(dir: PathBuf, args: Vec<String>, env: Vec<(String, String)>) -> Run {
    tokio::task::spawn_blocking(move || {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let e: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        run(&dir, &a, "", &e)
    })
    .await
    .unwrap()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[tokio::test]
async fn the_report_command_posts_a_check_and_upserts_one_comment_on_enterprise_urls() {
    let state = Arc::new(Mutex::new(Fake {
        per_page: 100,
        ..Fake::default()
    }));
    let s = server(state.clone()).await;
    let d = tempfile::tempdir().unwrap();
    let verdicts = verdicts_file(d.path());
    let summary = d.path().join("summary.md");
    let env = vec![
        ("GITHUB_TOKEN".to_string(), "t0ken".to_string()),
        ("GITHUB_REPOSITORY".into(), "octo/skills".into()),
        ("GITHUB_SHA".into(), "merge0000".into()),
        ("GITHUB_API_URL".into(), format!("{}/api/v3", s.uri())),
        (
            "GITHUB_EVENT_PATH".into(),
            event_file(d.path()).display().to_string(),
        ),
        ("GITHUB_STEP_SUMMARY".into(), summary.display().to_string()),
    ];
    let args = strings(&["github", "report", "--verdicts", verdicts.to_str().unwrap()]);
    for round in 0..2 {
        let r = report_cli(repo_root(), args.clone(), env.clone()).await;
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(
            r.stdout, "",
            "no annotations on stdout when the API took them"
        );
        assert!(r.stderr.contains("skillgate: check run 4242 `skillgate` on feedfacefeedfacefeedfacefeedfacefeedface — failure (3 annotation(s) in 1 request(s))"), "{}", r.stderr);
        let expected = if round == 0 {
            "comment 9001 created"
        } else {
            "comment 9001 already up to date"
        };
        assert!(
            r.stderr.contains(&format!("skillgate: PR #7: {expected}")),
            "{}",
            r.stderr
        );
    }
    let reqs = requests(&s).await;
    assert!(
        reqs.iter()
            .all(|(_, p, _)| p.starts_with("/api/v3/repos/octo/skills/")),
        "{reqs:#?}"
    );
    let check = reqs
        .iter()
        .find(|(m, p, _)| m == "POST" && p.ends_with("/check-runs"))
        .unwrap();
    assert_eq!(
        check.2["head_sha"], "feedfacefeedfacefeedfacefeedfacefeedface",
        "the PR head, not GITHUB_SHA"
    );
    let comments = state.lock().unwrap().comments.clone();
    assert_eq!(comments.len(), 1, "exactly one comment after two runs");
    assert!(
        comments[0]
            .1
            .starts_with(&format!("{MARKER}\n### skillgate — fail-closed\n")),
        "{}",
        comments[0].1
    );
    assert!(
        !comments[0].1.contains("Tidy the release branch"),
        "no session content"
    );
    let sum = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(
        sum.matches("### skillgate — fail-closed").count(),
        2,
        "appended by each run"
    );
}

#[tokio::test]
async fn a_read_only_token_falls_back_to_annotations_and_summary_without_failing() {
    let state = Arc::new(Mutex::new(Fake {
        per_page: 100,
        refuse_writes: Some(403),
        refuse_reads: Some(403),
        ..Fake::default()
    }));
    let s = server(state).await;
    let d = tempfile::tempdir().unwrap();
    let verdicts = verdicts_file(d.path());
    let summary = d.path().join("summary.md");
    let env = vec![
        ("GITHUB_TOKEN".to_string(), "read-only".to_string()),
        ("GITHUB_REPOSITORY".into(), "fork/skills".into()),
        ("GITHUB_SHA".into(), "abc".into()),
        ("GITHUB_API_URL".into(), s.uri()),
        (
            "GITHUB_EVENT_PATH".into(),
            event_file(d.path()).display().to_string(),
        ),
        ("GITHUB_STEP_SUMMARY".into(), summary.display().to_string()),
    ];
    let r = report_cli(
        repo_root(),
        strings(&["github", "report", "--verdicts", verdicts.to_str().unwrap()]),
        env,
    )
    .await;
    assert_eq!(r.code, 0, "a 403 never becomes a failure: {}", r.stderr);
    assert!(
        r.stdout.starts_with(&format!(
            "::error file={SKILL}/SKILL.md,line=11,endLine=11,"
        )),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(
            "::warning title=skillgate report::the GitHub token is read-only here (HTTP 403"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr
            .contains("creating the check run: HTTP 403 Resource not accessible by integration"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("listing the pull request's comments: HTTP 403"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("This does not change the gate's verdict."),
        "{}",
        r.stderr
    );
    assert!(std::fs::read_to_string(&summary)
        .unwrap()
        .contains("### skillgate — fail-closed"));
    let reqs = requests(&s).await;
    assert_eq!(reqs.len(), 2, "one try each, no retry on 403: {reqs:#?}");
}

#[tokio::test]
async fn other_api_errors_are_exit_2_and_no_token_is_a_plain_fallback() {
    let state = Arc::new(Mutex::new(Fake {
        per_page: 100,
        refuse_writes: Some(422),
        ..Fake::default()
    }));
    let s = server(state).await;
    let d = tempfile::tempdir().unwrap();
    let verdicts = verdicts_file(d.path());
    let base = vec![
        ("GITHUB_REPOSITORY".to_string(), "octo/skills".to_string()),
        ("GITHUB_SHA".into(), "abc".into()),
        ("GITHUB_API_URL".into(), s.uri()),
    ];
    let mut env = base.clone();
    env.push(("GITHUB_TOKEN".into(), "t".into()));
    let args = strings(&[
        "github",
        "report",
        "--verdicts",
        verdicts.to_str().unwrap(),
        "--pr",
        "7",
    ]);
    let r = report_cli(repo_root(), args.clone(), env).await;
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("error: creating the check run: HTTP 422"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout.starts_with("::error file="),
        "annotations still reach the log: {}",
        r.stdout
    );

    let before = requests(&s).await.len();
    let r = report_cli(repo_root(), args, base).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("GITHUB_TOKEN is not set"), "{}", r.stderr);
    assert!(r.stdout.contains("::error file="), "{}", r.stdout);
    assert_eq!(
        requests(&s).await.len(),
        before,
        "no request without a token"
    );
}

#[test]
fn bad_verdicts_and_repository_are_input_errors() {
    let d = tempfile::tempdir().unwrap();
    let bad = d.path().join("bad.json");
    std::fs::write(&bad, "{\"skill\": 1}").unwrap();
    let r = run(
        &repo_root(),
        &["github", "report", "--verdicts", bad.to_str().unwrap()],
        "",
        &[("GITHUB_TOKEN", "t")],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("skills[0] is not a skillgate verdict"),
        "{}",
        r.stderr
    );
    // An envelope of another version is refused, naming both versions.
    std::fs::write(&bad, "{\"version\": 2, \"exit_code\": 0, \"skills\": []}").unwrap();
    let r = run(
        &repo_root(),
        &["github", "report", "--verdicts", bad.to_str().unwrap()],
        "",
        &[("GITHUB_TOKEN", "t")],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("envelope version 2 is not supported")
            && r.stderr.contains("reads version 1"),
        "{}",
        r.stderr
    );
    let good = verdicts_file(d.path());
    let r = run(
        &repo_root(),
        &["github", "report", "--verdicts", good.to_str().unwrap()],
        "",
        &[("GITHUB_TOKEN", "t"), ("GITHUB_SHA", "abc")],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("no repository: pass --repo OWNER/NAME or set GITHUB_REPOSITORY"),
        "{}",
        r.stderr
    );
}
