//! `skillgate github report`: the GitHub context (repository, head commit,
//! pull request), a check run with annotations, and one upserted PR comment.
//!
//! Calls go through octocrab's HTTP layer with explicit routes and bodies
//! (GitHub REST, API version 2022-11-28), and responses are read as plain
//! JSON so that only `id` and `body` matter:
//!
//! | what | request |
//! |---|---|
//! | create the check run | `POST /repos/{owner}/{repo}/check-runs` (first 50 annotations) |
//! | more annotations | `PATCH /repos/{owner}/{repo}/check-runs/{id}` (50 per request; they append) |
//! | find the comment | `GET /repos/{owner}/{repo}/issues/{pr}/comments?per_page=100`, following `Link: rel="next"` |
//! | edit it | `PATCH /repos/{owner}/{repo}/issues/comments/{id}` |
//! | or create it | `POST /repos/{owner}/{repo}/issues/{pr}/comments` |
//!
//! The comment is found by the hidden marker [`MARKER`]; it is edited in
//! place, never posted twice. HTTP 403 (the read-only token of a pull request
//! from a fork) is reported as [`ApiError::ReadOnly`] so the caller falls back
//! to workflow annotations and the job summary.

use super::ReleaseError;
use crate::render::github::{constraint_message, truncate_markdown};
use crate::render::sarif::severity;
use crate::score::{SkillVerdict, Verdict};
use octocrab::Octocrab;
use serde::Serialize;
use serde_json::{json, Value};

/// The hidden marker of the one PR comment skillgate owns.
pub const MARKER: &str = "<!-- skillgate-report -->";
/// The check run's default name.
pub const CHECK_NAME: &str = "skillgate";
/// Annotations per Checks API request (GitHub's limit).
pub const BATCH: usize = 50;
/// GitHub's limit on a comment body and on a check run's summary (characters).
pub const BODY_LIMIT: usize = 65_000;
/// Default API base.
pub const DEFAULT_API: &str = "https://api.github.com";

/// Where to report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// API base, e.g. `https://api.github.com` or `https://ghe.example.com/api/v3`.
    pub api_url: String,
    pub owner: String,
    pub repo: String,
    /// The commit the check run is attached to (a pull request's head, not the merge commit).
    pub sha: String,
    pub pr: Option<u64>,
}

/// Values given by flags (they win over the environment).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub api_url: Option<String>,
    pub repo: Option<String>,
    pub sha: Option<String>,
    pub pr: Option<u64>,
}

/// The context from flags, then `GITHUB_API_URL`, `GITHUB_REPOSITORY`, the
/// event payload (`pull_request.head.sha`, `pull_request.number`, `number`)
/// and `GITHUB_SHA`. `env` looks a variable up; `event` is the parsed
/// `$GITHUB_EVENT_PATH` file.
pub fn context(
    flags: &Overrides,
    env: &dyn Fn(&str) -> Option<String>,
    event: Option<&Value>,
) -> Result<Context, ReleaseError> {
    let nonempty = |s: Option<String>| s.filter(|v| !v.trim().is_empty());
    let api_url = nonempty(flags.api_url.clone())
        .or_else(|| nonempty(env("GITHUB_API_URL")))
        .unwrap_or_else(|| DEFAULT_API.to_string());
    let repository = nonempty(flags.repo.clone())
        .or_else(|| nonempty(env("GITHUB_REPOSITORY")))
        .ok_or_else(|| {
            ReleaseError::Input(
                "no repository: pass --repo OWNER/NAME or set GITHUB_REPOSITORY".into(),
            )
        })?;
    let (owner, repo) = repository
        .split_once('/')
        .filter(|(o, r)| !o.is_empty() && !r.is_empty() && !r.contains('/'))
        .ok_or_else(|| {
            ReleaseError::Input(format!("repository `{repository}` is not OWNER/NAME"))
        })?;
    let pr_obj = event.and_then(|e| e.get("pull_request"));
    let sha = nonempty(flags.sha.clone())
        .or_else(|| {
            pr_obj
                .and_then(|p| p.pointer("/head/sha"))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .or_else(|| nonempty(env("GITHUB_SHA")))
        .ok_or_else(|| ReleaseError::Input("no commit: pass --sha or set GITHUB_SHA".into()))?;
    let pr = flags.pr.or_else(|| {
        pr_obj
            .and_then(|p| p.get("number"))
            .and_then(Value::as_u64)
            .or_else(|| {
                pr_obj
                    .is_some()
                    .then(|| event.and_then(|e| e.get("number")).and_then(Value::as_u64))
                    .flatten()
            })
    });
    Ok(Context {
        api_url: api_url.trim_end_matches('/').to_string(),
        owner: owner.to_string(),
        repo: repo.to_string(),
        sha,
        pr,
    })
}

/// The check run's conclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Conclusion {
    /// Every skill passed (or no skill was touched).
    Success,
    /// Nothing blocks, but a non-blocking flag was raised or a skill had nothing to measure.
    Neutral,
    /// A skill failed closed.
    Failure,
}

impl Conclusion {
    pub fn as_str(self) -> &'static str {
        match self {
            Conclusion::Success => "success",
            Conclusion::Neutral => "neutral",
            Conclusion::Failure => "failure",
        }
    }
}

/// failure when a skill failed closed; neutral when a skill has a
/// non-blocking flag or nothing to measure; success otherwise.
pub fn conclusion(verdicts: &[SkillVerdict]) -> Conclusion {
    let measured = |v: &&SkillVerdict| !v.trajectories.valid.is_empty();
    if verdicts
        .iter()
        .filter(measured)
        .any(|v| v.verdict == Verdict::FailClosed)
    {
        Conclusion::Failure
    } else if verdicts
        .iter()
        .any(|v| v.trajectories.valid.is_empty() || v.verdict != Verdict::Pass)
    {
        Conclusion::Neutral
    } else {
        Conclusion::Success
    }
}

/// One Checks API annotation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckAnnotation {
    pub path: String,
    pub start_line: u32,
    pub end_line: u32,
    /// `notice`, `warning` or `failure`.
    pub annotation_level: String,
    pub title: String,
    pub message: String,
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

/// Every annotation of the run for the check run (no cap: they are sent in
/// batches). `path_of` maps a displayed SKILL.md path to the repository-relative one.
pub fn check_annotations(
    verdicts: &[SkillVerdict],
    path_of: &dyn Fn(&str) -> String,
) -> Vec<CheckAnnotation> {
    let mut out = Vec::new();
    for v in verdicts {
        let measured = !v.trajectories.valid.is_empty();
        for c in v.constraints.iter().filter(|_| measured) {
            let Some(sev) = severity(c) else { continue };
            let start = c.lines[0].max(1);
            out.push(CheckAnnotation {
                path: path_of(&v.skill.path),
                start_line: start,
                end_line: c.lines[1].max(start),
                annotation_level: sev.check_run().to_string(),
                title: clip(
                    &format!(
                        "{}: {} ({}, {})",
                        v.skill.name,
                        c.id,
                        c.label,
                        c.outcome.as_str()
                    ),
                    255,
                ),
                message: clip(&constraint_message(v, c), 60_000),
            });
        }
        if v.trajectories.valid.is_empty() {
            out.push(CheckAnnotation {
                path: path_of(&v.skill.path),
                start_line: 1,
                end_line: 1,
                annotation_level: "warning".into(),
                title: clip(&format!("{}: nothing to measure", v.skill.name), 255),
                message: format!(
                    "No valid trajectory loads {} ({} discarded): capture a run first.",
                    v.skill.name,
                    v.trajectories.discarded.len()
                ),
            });
        }
    }
    let rank = |l: &str| match l {
        "failure" => 0,
        "warning" => 1,
        _ => 2,
    };
    out.sort_by_key(|a| rank(&a.annotation_level));
    out
}

/// The check run's title.
pub fn check_title(verdicts: &[SkillVerdict]) -> String {
    let blocking: usize = verdicts.iter().map(|v| v.blocking().count()).sum();
    let skills = verdicts.len();
    match conclusion(verdicts) {
        Conclusion::Failure => format!(
            "fail-closed: {blocking} blocking rule{} in {skills} skill{}",
            if blocking == 1 { "" } else { "s" },
            if skills == 1 { "" } else { "s" }
        ),
        _ if skills == 0 => "no skill changed".into(),
        Conclusion::Neutral => format!(
            "{} ({skills} skill{}): nothing blocks",
            crate::render::github::overall(verdicts),
            if skills == 1 { "" } else { "s" }
        ),
        Conclusion::Success => format!(
            "pass ({skills} skill{})",
            if skills == 1 { "" } else { "s" }
        ),
    }
}

/// Why a GitHub call failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// HTTP 403: the token may not write (a pull request from a fork).
    ReadOnly(String),
    /// Any other failure (network, 401, 404, 422, 5xx...).
    Other(String),
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::ReadOnly(m) | ApiError::Other(m) => f.write_str(m),
        }
    }
}

fn api_error(what: &str, e: octocrab::Error) -> ApiError {
    match &e {
        octocrab::Error::GitHub { source, .. } => {
            let m = format!(
                "{what}: HTTP {} {}",
                source.status_code.as_u16(),
                clip(&source.message, 300)
            );
            if source.status_code.as_u16() == 403 {
                ApiError::ReadOnly(m)
            } else {
                ApiError::Other(m)
            }
        }
        other => {
            let text = other.to_string();
            let first = text.lines().next().unwrap_or("").to_string();
            ApiError::Other(format!("{what}: {}", clip(&first, 300)))
        }
    }
}

/// An octocrab client for `api_url` with a token. Must be called inside a tokio runtime.
pub fn client(api_url: &str, token: &str) -> Result<Octocrab, ReleaseError> {
    let bad = |e: octocrab::Error| {
        ReleaseError::Input(format!(
            "cannot use the GitHub API at {api_url}: {}",
            e.to_string().lines().next().unwrap_or("")
        ))
    };
    Octocrab::builder()
        .base_uri(api_url)
        .map_err(bad)?
        .personal_token(token.to_string())
        .set_connect_timeout(Some(std::time::Duration::from_secs(30)))
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .build()
        .map_err(bad)
}

/// What the check run took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRunSent {
    pub id: u64,
    /// Requests made (one create, then one update per further batch).
    pub requests: usize,
    pub annotations: usize,
}

/// Create the check run, then append the annotations beyond the first
/// [`BATCH`] in further updates; the last request completes it with the conclusion.
pub async fn publish_check_run(
    crab: &Octocrab,
    ctx: &Context,
    name: &str,
    verdicts: &[SkillVerdict],
    summary: &str,
    annotations: &[CheckAnnotation],
) -> Result<CheckRunSent, ApiError> {
    let title = check_title(verdicts);
    let summary = truncate_markdown(summary, BODY_LIMIT);
    let concl = conclusion(verdicts);
    let batches: Vec<&[CheckAnnotation]> = if annotations.is_empty() {
        vec![&[]]
    } else {
        annotations.chunks(BATCH).collect()
    };
    let last = batches.len() - 1;
    let mut body = json!({
        "name": name,
        "head_sha": ctx.sha,
        "output": {"title": title, "summary": summary, "annotations": batches[0]}
    });
    if last == 0 {
        body["status"] = json!("completed");
        body["conclusion"] = json!(concl.as_str());
    } else {
        body["status"] = json!("in_progress");
    }
    let route = format!("/repos/{}/{}/check-runs", ctx.owner, ctx.repo);
    let created: Value = crab
        .post(route, Some(&body))
        .await
        .map_err(|e| api_error("creating the check run", e))?;
    let id = created
        .get("id")
        .and_then(Value::as_u64)
        .ok_or_else(|| ApiError::Other("creating the check run: the response has no id".into()))?;
    for (i, batch) in batches.iter().enumerate().skip(1) {
        let mut update = json!({
            "output": {"title": title, "summary": summary, "annotations": batch}
        });
        if i == last {
            update["status"] = json!("completed");
            update["conclusion"] = json!(concl.as_str());
        }
        let route = format!("/repos/{}/{}/check-runs/{id}", ctx.owner, ctx.repo);
        let _: Value = crab
            .patch(route, Some(&update))
            .await
            .map_err(|e| api_error("adding annotations to the check run", e))?;
    }
    Ok(CheckRunSent {
        id,
        requests: batches.len(),
        annotations: annotations.len(),
    })
}

/// What happened to the PR comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommentAction {
    Created(u64),
    Updated(u64),
    /// The comment already says exactly this.
    Unchanged(u64),
    /// No comment existed and none was needed (no skill changed).
    NotNeeded,
}

/// The comment body: the marker, then the summary (cut to GitHub's limit).
pub fn comment_body(summary: &str) -> String {
    truncate_markdown(&format!("{MARKER}\n{summary}"), BODY_LIMIT)
}

/// Find the comment holding [`MARKER`] on every page of the PR's comments.
async fn find_comment(
    crab: &Octocrab,
    ctx: &Context,
    pr: u64,
) -> Result<Option<(u64, String)>, ApiError> {
    let route = format!("/repos/{}/{}/issues/{pr}/comments", ctx.owner, ctx.repo);
    let what = "listing the pull request's comments";
    let mut page: octocrab::Page<Value> = crab
        .get(route, Some(&[("per_page", "100")]))
        .await
        .map_err(|e| api_error(what, e))?;
    loop {
        for c in &page.items {
            let body = c.get("body").and_then(Value::as_str).unwrap_or("");
            if body.contains(MARKER) {
                if let Some(id) = c.get("id").and_then(Value::as_u64) {
                    return Ok(Some((id, body.to_string())));
                }
            }
        }
        match crab
            .get_page::<Value>(&page.next)
            .await
            .map_err(|e| api_error(what, e))?
        {
            Some(next) => page = next,
            None => return Ok(None),
        }
    }
}

/// Edit the marked comment in place, or create it (only when `create` is
/// true: a run with nothing to say does not start a comment).
pub async fn upsert_comment(
    crab: &Octocrab,
    ctx: &Context,
    pr: u64,
    body: &str,
    create: bool,
) -> Result<CommentAction, ApiError> {
    match find_comment(crab, ctx, pr).await? {
        Some((id, old)) if old == body => Ok(CommentAction::Unchanged(id)),
        Some((id, _)) => {
            let route = format!("/repos/{}/{}/issues/comments/{id}", ctx.owner, ctx.repo);
            let _: Value = crab
                .patch(route, Some(&json!({"body": body})))
                .await
                .map_err(|e| api_error("editing the pull request comment", e))?;
            Ok(CommentAction::Updated(id))
        }
        None if !create => Ok(CommentAction::NotNeeded),
        None => {
            let route = format!("/repos/{}/{}/issues/{pr}/comments", ctx.owner, ctx.repo);
            let made: Value = crab
                .post(route, Some(&json!({"body": body})))
                .await
                .map_err(|e| api_error("creating the pull request comment", e))?;
            Ok(CommentAction::Created(
                made.get("id").and_then(Value::as_u64).unwrap_or(0),
            ))
        }
    }
}

/// What `report` did, for the command to print.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reported {
    pub check_run: Option<CheckRunSent>,
    pub comment: Option<CommentAction>,
    /// A call was refused with HTTP 403: fall back to annotations and the summary.
    pub read_only: bool,
    /// Failures other than 403, one line each.
    pub errors: Vec<String>,
    /// Lines for people (what was skipped and why).
    pub notes: Vec<String>,
}

/// What to send.
#[derive(Debug, Clone)]
pub struct Plan {
    pub check_run: bool,
    pub comment: bool,
    pub name: String,
}

/// Publish the check run and the PR comment. Never fails: every outcome is in [`Reported`].
pub async fn report(
    crab: &Octocrab,
    ctx: &Context,
    plan: &Plan,
    verdicts: &[SkillVerdict],
    summary: &str,
    annotations: &[CheckAnnotation],
) -> Reported {
    let mut r = Reported::default();
    let record = |r: &mut Reported, e: ApiError| match e {
        ApiError::ReadOnly(m) => {
            r.read_only = true;
            r.notes.push(m);
        }
        ApiError::Other(m) => r.errors.push(m),
    };
    if plan.check_run {
        match publish_check_run(crab, ctx, &plan.name, verdicts, summary, annotations).await {
            Ok(sent) => r.check_run = Some(sent),
            Err(e) => record(&mut r, e),
        }
    }
    if plan.comment {
        match ctx.pr {
            None => r
                .notes
                .push("no pull request in this event (pass --pr N): no comment".into()),
            Some(pr) => {
                let body = comment_body(summary);
                match upsert_comment(crab, ctx, pr, &body, !verdicts.is_empty()).await {
                    Ok(a) => r.comment = Some(a),
                    Err(e) => record(&mut r, e),
                }
            }
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn context_from_a_pull_request_event() {
        let event = json!({"number": 7, "pull_request": {"number": 7, "head": {"sha": "abc123"}}});
        let e = env(&[
            ("GITHUB_REPOSITORY", "octo/skills"),
            ("GITHUB_SHA", "merge000"),
            ("GITHUB_API_URL", "https://ghe.example.com/api/v3/"),
        ]);
        let c = context(&Overrides::default(), &e, Some(&event)).unwrap();
        assert_eq!(c.owner, "octo");
        assert_eq!(c.repo, "skills");
        assert_eq!(c.sha, "abc123", "the head sha, not the merge commit");
        assert_eq!(c.pr, Some(7));
        assert_eq!(c.api_url, "https://ghe.example.com/api/v3");
    }

    #[test]
    fn flags_win_and_push_events_have_no_pr() {
        let e = env(&[("GITHUB_REPOSITORY", "octo/skills"), ("GITHUB_SHA", "s1")]);
        let push = json!({"after": "s1", "ref": "refs/heads/main"});
        let c = context(&Overrides::default(), &e, Some(&push)).unwrap();
        assert_eq!(
            (c.sha.as_str(), c.pr, c.api_url.as_str()),
            ("s1", None, DEFAULT_API)
        );
        let flags = Overrides {
            repo: Some("a/b".into()),
            sha: Some("s2".into()),
            pr: Some(3),
            api_url: Some("http://127.0.0.1:9".into()),
        };
        let c = context(&flags, &e, None).unwrap();
        assert_eq!(
            (c.owner.as_str(), c.sha.as_str(), c.pr),
            ("a", "s2", Some(3))
        );
        assert!(context(&Overrides::default(), &env(&[]), None)
            .unwrap_err()
            .to_string()
            .contains("GITHUB_REPOSITORY"));
        assert!(context(
            &Overrides::default(),
            &env(&[("GITHUB_REPOSITORY", "nope")]),
            None
        )
        .unwrap_err()
        .to_string()
        .contains("OWNER/NAME"));
    }
}
