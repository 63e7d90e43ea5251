//! `skillgate federate`: publish refinement events to, or fetch peer events
//! from, a federation endpoint (seed 001 `skill.federate`; docs/audit.md).
//! Fails open: an unset endpoint or an unreachable peer is an `ok: false`
//! answer with exit code 0; only bad flags are errors.

use anyhow::bail;
use skillgate::audit::federate::{self, Request, DEFAULT_EVENT_TYPE};
use skillgate::audit::{format_timestamp, FEDERATION_URL_ENV};
use skillgate::config::Config;
use skillgate::exit::Exit;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// publish or fetch.
    #[arg(long, value_enum)]
    pub action: Action,
    /// Event type tag.
    #[arg(long, default_value = DEFAULT_EVENT_TYPE, value_name = "T")]
    pub event_type: String,
    /// The event's data, a JSON object (publish).
    #[arg(long, value_name = "JSON")]
    pub payload: Option<String>,
    /// fetch: only this peer's events. publish: this instance's peer name
    /// (default: `audit.federation-peer`, else the host name).
    #[arg(long, value_name = "NAME")]
    pub peer: Option<String>,
    /// The federation endpoint (base URL; `/events` is appended).
    #[arg(long, value_name = "URL", env = FEDERATION_URL_ENV)]
    pub url: Option<String>,
    /// Configuration file (its `audit.federation-url` is used when --url and the env are unset).
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Give up on the peer after this many seconds.
    #[arg(long, default_value_t = 10, value_name = "SECS")]
    pub timeout_secs: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Action {
    Publish,
    Fetch,
}

/// The host name, for the default peer name of published events.
fn host_name() -> Option<String> {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty() && h.len() <= 200 && !h.chars().any(char::is_control))
}

pub fn run(args: Args) -> anyhow::Result<Exit> {
    // The configuration is read only when a flag does not answer.
    let needs_cfg = args.url.is_none() || (args.action == Action::Publish && args.peer.is_none());
    let cfg = if needs_cfg {
        match &args.config {
            Some(p) => Config::load(p)?,
            None => Config::discover_and_load(&std::env::current_dir()?)?,
        }
    } else {
        Config::default()
    };
    let req = match args.action {
        Action::Publish => {
            let Some(raw) = args.payload.as_deref() else {
                bail!("--action publish needs --payload JSON (a JSON object)");
            };
            let payload = match serde_json::from_str::<serde_json::Value>(raw) {
                Ok(serde_json::Value::Object(o)) => o,
                Ok(_) => bail!("--payload: must be a JSON object"),
                Err(e) => bail!("--payload: not valid JSON: {e}"),
            };
            let peer = args
                .peer
                .clone()
                .or_else(|| cfg.audit.federation_peer.clone())
                .or_else(host_name)
                .unwrap_or_else(|| "skillgate".to_string());
            if peer.trim().is_empty() || peer.len() > 200 || peer.chars().any(char::is_control) {
                bail!("--peer: a peer name is 1-200 printable characters");
            }
            Request::Publish {
                event_type: args.event_type.clone(),
                peer,
                payload,
                published_at: format_timestamp(time::OffsetDateTime::now_utc()),
                source: format!("skillgate/{}", env!("CARGO_PKG_VERSION")),
            }
        }
        Action::Fetch => Request::Fetch {
            event_type: args.event_type.clone(),
            peer: args.peer.clone(),
        },
    };
    let url = args.url.clone().or(cfg.audit.federation_url);
    let answer = federate::run(
        url.as_deref(),
        Duration::from_secs(args.timeout_secs.max(1)),
        &req,
    );
    super::stats::print_out(&format!("{}\n", serde_json::to_string_pretty(&answer)?))?;
    Ok(Exit::Ok)
}
