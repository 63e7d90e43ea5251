//! `skillgate github report`: publish a gate run (the JSON of
//! `skillgate gate --format json`) to GitHub — a check run with annotations
//! and one upserted PR comment — and append the Markdown summary to
//! `$GITHUB_STEP_SUMMARY`. Also the I/O half of `gate --format github`.
//!
//! Exit codes: 0 reported (also when the token is read-only — HTTP 403 on a
//! fork's pull request — or missing: annotations and the job summary are
//! written instead, and the gate's verdict is never changed by it); 2 bad
//! input (verdicts file, repository, flags) or an API failure other than 403.

use anyhow::Context as _;
use skillgate::exit::Exit;
use skillgate::release::github::{self as gh, CommentAction, Overrides, Plan};
use skillgate::render::github::{truncate_markdown, GithubAnnotations, GithubSummary};
use skillgate::render::Renderer;
use skillgate::score::SkillVerdict;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// GitHub's limit on one step's summary (1 MiB).
const STEP_SUMMARY_LIMIT: usize = 1024 * 1024;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: GithubCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum GithubCommand {
    /// Create a check run and upsert the PR comment from a gate run's JSON.
    Report(ReportArgs),
}

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The JSON of `skillgate gate --format json` (a file, or `-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub verdicts: PathBuf,
    /// OWNER/NAME (default: GITHUB_REPOSITORY).
    #[arg(long, value_name = "OWNER/NAME")]
    pub repo: Option<String>,
    /// Commit of the check run (default: the pull request's head sha from
    /// GITHUB_EVENT_PATH, else GITHUB_SHA).
    #[arg(long)]
    pub sha: Option<String>,
    /// Pull request number (default: from GITHUB_EVENT_PATH).
    #[arg(long, value_name = "N")]
    pub pr: Option<u64>,
    /// API base URL, for GitHub Enterprise (default: GITHUB_API_URL, else https://api.github.com).
    #[arg(long, value_name = "URL")]
    pub api_url: Option<String>,
    /// Name of the check run.
    #[arg(long, default_value = gh::CHECK_NAME)]
    pub name: String,
    /// Do not create a check run.
    #[arg(long)]
    pub no_check_run: bool,
    /// Do not create or edit the PR comment.
    #[arg(long)]
    pub no_comment: bool,
    /// Also print workflow-command annotations (always printed when the API cannot be written).
    #[arg(long)]
    pub annotations: bool,
    /// Repository root that annotation paths are relative to (default: the
    /// git root of the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    match args.command {
        GithubCommand::Report(a) => report(a),
    }
}

fn env(k: &str) -> Option<String> {
    std::env::var(k).ok().filter(|v| !v.trim().is_empty())
}

/// Append the Markdown summary to `$GITHUB_STEP_SUMMARY` when it is set.
pub fn append_step_summary(verdicts: &[SkillVerdict]) -> anyhow::Result<()> {
    let Some(path) = env("GITHUB_STEP_SUMMARY") else {
        return Ok(());
    };
    let text = truncate_markdown(&GithubSummary.render(verdicts), STEP_SUMMARY_LIMIT);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("{path}: cannot open GITHUB_STEP_SUMMARY"))?;
    f.write_all(text.as_bytes())
        .and_then(|_| f.write_all(b"\n"))
        .with_context(|| format!("{path}: cannot append to GITHUB_STEP_SUMMARY"))?;
    Ok(())
}

/// `gate --format github`: the annotations (returned, for stdout) and the
/// job summary (appended when `$GITHUB_STEP_SUMMARY` is set).
pub fn github_format(verdicts: &[SkillVerdict]) -> anyhow::Result<String> {
    append_step_summary(verdicts)?;
    Ok(GithubAnnotations.render(verdicts))
}

fn read_verdicts(path: &Path) -> anyhow::Result<Vec<SkillVerdict>> {
    use skillgate::fsutil;
    let text = if path.as_os_str() == "-" {
        fsutil::read_stdin_bounded(fsutil::MAX_DOCUMENT_BYTES)
            .and_then(fsutil::bytes_to_text)
            .context("reading the verdicts on stdin")?
    } else {
        fsutil::read_text(path, fsutil::MAX_DOCUMENT_BYTES)
            .with_context(|| format!("{}: cannot read the verdicts", path.display()))?
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}: not JSON ({e}); pass the output of `skillgate gate --format json`",
            path.display(),
            e.line()
        )
    })?;
    // The envelope of `gate --format json` (schemas/gate.schema.json); a bare
    // object or array (the shape before the envelope) is still read.
    let list = match value {
        serde_json::Value::Object(mut o) if o.contains_key("skills") => {
            match o.get("version").and_then(serde_json::Value::as_u64) {
                Some(v) if v == u64::from(skillgate::render::json::JSON_VERSION) => {}
                other => anyhow::bail!(
                    "{}: envelope version {} is not supported (this skillgate reads version {}); use the same skillgate for `gate` and `github report`",
                    path.display(),
                    other.map_or("missing".to_string(), |v| v.to_string()),
                    skillgate::render::json::JSON_VERSION
                ),
            }
            match o.remove("skills") {
                Some(serde_json::Value::Array(a)) => a,
                _ => anyhow::bail!("{}: `skills` is not an array", path.display()),
            }
        }
        serde_json::Value::Array(a) => a,
        o @ serde_json::Value::Object(_) => vec![o],
        _ => anyhow::bail!(
            "{}: expected the JSON of `skillgate gate --format json` ({{\"version\": 1, \"skills\": [...]}})",
            path.display()
        ),
    };
    list.into_iter()
        .enumerate()
        .map(|(i, v)| {
            serde_json::from_value(v).map_err(|e| {
                anyhow::anyhow!(
                    "{}: skills[{i}] is not a skillgate verdict: {e}",
                    path.display()
                )
            })
        })
        .collect()
}

fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// A displayed path (relative to `cwd`, or absolute) as a path relative to
/// the repository root, with `/` separators.
fn repo_path(shown: &str, cwd: &Path, root: &Path) -> String {
    let abs = normalize(&cwd.join(shown));
    let root = normalize(root);
    let rel = abs
        .strip_prefix(&root)
        .map(Path::to_path_buf)
        .unwrap_or(abs);
    rel.to_string_lossy().replace('\\', "/")
}

fn report(args: ReportArgs) -> anyhow::Result<Exit> {
    let cwd = std::env::current_dir()?;
    let verdicts = read_verdicts(&args.verdicts)?;
    let summary = GithubSummary.render(&verdicts);
    append_step_summary(&verdicts)?;

    let fallback = |why: &str| -> anyhow::Result<()> {
        print!("{}", GithubAnnotations.render(&verdicts));
        println!(
            "::warning title=skillgate report::{}",
            skillgate::render::github::escape_data(why)
        );
        eprintln!("skillgate: {why}");
        Ok(())
    };

    if args.no_check_run && args.no_comment {
        // Nothing to send: the annotations (when asked) and the job summary only.
        if args.annotations {
            print!("{}", GithubAnnotations.render(&verdicts));
        }
        return Ok(Exit::Ok);
    }
    let Some(token) = env("GITHUB_TOKEN") else {
        fallback("GITHUB_TOKEN is not set: no check run and no PR comment; the results are in these annotations and the job summary")?;
        return Ok(Exit::Ok);
    };
    let event = match env("GITHUB_EVENT_PATH") {
        Some(p) => {
            let text =
                skillgate::fsutil::read_text(Path::new(&p), skillgate::fsutil::MAX_DOCUMENT_BYTES)
                    .with_context(|| format!("{p}: cannot read GITHUB_EVENT_PATH"))?;
            Some(
                serde_json::from_str::<serde_json::Value>(&text)
                    .with_context(|| format!("{p}: GITHUB_EVENT_PATH is not JSON"))?,
            )
        }
        None => None,
    };
    let flags = Overrides {
        api_url: args.api_url.clone(),
        repo: args.repo.clone(),
        sha: args.sha.clone(),
        pr: args.pr,
    };
    let ctx = gh::context(&flags, &|k| env(k), event.as_ref())?;
    let root = args
        .root
        .clone()
        .map(|r| cwd.join(r))
        .or_else(|| skillgate::gate::repo_root(&cwd))
        .unwrap_or_else(|| cwd.clone());
    let annotations = gh::check_annotations(&verdicts, &|p| repo_path(p, &cwd, &root));
    let plan = Plan {
        check_run: !args.no_check_run,
        comment: !args.no_comment,
        name: args.name.clone(),
    };

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let outcome = rt.block_on(async {
        let crab = gh::client(&ctx.api_url, &token)?;
        Ok::<_, anyhow::Error>(
            gh::report(&crab, &ctx, &plan, &verdicts, &summary, &annotations).await,
        )
    })?;

    if let Some(c) = &outcome.check_run {
        eprintln!(
            "skillgate: check run {} `{}` on {} — {} ({} annotation(s) in {} request(s))",
            c.id,
            plan.name,
            ctx.sha,
            gh::conclusion(&verdicts).as_str(),
            c.annotations,
            c.requests
        );
    }
    if let Some(a) = &outcome.comment {
        let pr = ctx.pr.unwrap_or(0);
        match a {
            CommentAction::Created(id) => eprintln!("skillgate: PR #{pr}: comment {id} created"),
            CommentAction::Updated(id) => {
                eprintln!("skillgate: PR #{pr}: comment {id} updated in place")
            }
            CommentAction::Unchanged(id) => {
                eprintln!("skillgate: PR #{pr}: comment {id} already up to date")
            }
            CommentAction::NotNeeded => eprintln!(
                "skillgate: PR #{pr}: no skill changed and no earlier comment: none posted"
            ),
        }
    }
    for n in &outcome.notes {
        eprintln!("skillgate: {n}");
    }
    let mut printed = false;
    if outcome.read_only {
        fallback("the GitHub token is read-only here (HTTP 403; a pull request from a fork gets a read-only GITHUB_TOKEN): the results are in these annotations and the job summary instead. This does not change the gate's verdict.")?;
        printed = true;
    }
    if !outcome.errors.is_empty() {
        for e in &outcome.errors {
            eprintln!("error: {e}");
        }
        if !printed {
            print!("{}", GithubAnnotations.render(&verdicts));
        }
        return Ok(Exit::Error);
    }
    if args.annotations && !printed {
        print!("{}", GithubAnnotations.render(&verdicts));
    }
    Ok(Exit::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displayed_paths_become_repository_paths() {
        let root = Path::new("/r");
        assert_eq!(
            repo_path("skills/a/SKILL.md", Path::new("/r"), root),
            "skills/a/SKILL.md"
        );
        assert_eq!(
            repo_path("a/SKILL.md", Path::new("/r/skills"), root),
            "skills/a/SKILL.md"
        );
        assert_eq!(
            repo_path("../x/SKILL.md", Path::new("/r/skills"), root),
            "x/SKILL.md"
        );
        assert_eq!(
            repo_path("/r/y/SKILL.md", Path::new("/elsewhere"), root),
            "y/SKILL.md"
        );
    }
}
