//! `federate`: publish refinement events to a federation endpoint, or fetch
//! peers' events from it (seed 001 `skill.federate`). Fails open: every
//! answer is a JSON object with `ok`; a missing endpoint or an unreachable
//! peer gives `ok: false` and a `reason`, never an error.
//!
//! The protocol (plain HTTP + JSON, documented in docs/audit.md):
//! - publish: `POST <url>/events` with `{"eventType", "peer", "payload",
//!   "publishedAt", "source"}` — exactly the shape fetch accepts (checked by
//!   [`validate_event`] before sending), so a peer that stores and returns
//!   events closes the round trip; any 2xx is success.
//! - fetch: `GET <url>/events?eventType=T[&peer=P]` answering `{"events": [...]}`
//!   (or a bare array); each event must be `{"eventType", "peer", "payload": {...},
//!   "publishedAt"}` and is validated before it is returned; invalid ones are
//!   listed under `rejected` by index and reason.

use serde_json::{json, Map, Value};
use std::time::Duration;

/// The seed's default event type.
pub const DEFAULT_EVENT_TYPE: &str = "skill.federate";
/// Largest response body read from a peer.
pub const MAX_RESPONSE_BYTES: u64 = 8 * 1024 * 1024;
/// Largest single event accepted from a peer (serialized).
pub const MAX_EVENT_BYTES: usize = 64 * 1024;

/// What to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Publish {
        event_type: String,
        /// This instance's name, as peers filter on it.
        peer: String,
        payload: Map<String, Value>,
        published_at: String,
        source: String,
    },
    Fetch {
        event_type: String,
        peer: Option<String>,
    },
}

/// Run one request against `url` (`None`: not configured).
pub fn run(url: Option<&str>, timeout: Duration, req: &Request) -> Value {
    let Some(base) = url.map(str::trim).filter(|u| !u.is_empty()) else {
        return json!({"ok": false, "reason": "federation not configured"});
    };
    let endpoint = format!("{}/events", base.trim_end_matches('/'));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .build()
        .into();
    match req {
        Request::Publish {
            event_type,
            peer,
            payload,
            published_at,
            source,
        } => {
            let body = json!({
                "eventType": event_type,
                "peer": peer,
                "payload": payload,
                "publishedAt": published_at,
                "source": source,
            });
            // Never publish what our own fetch would reject.
            if let Err(reason) = validate_event(&body, event_type, None) {
                return json!({"ok": false, "action": "publish", "reason": format!("invalid event: {reason}")});
            }
            match agent.post(&endpoint).send_json(&body) {
                Err(e) => unavailable("publish", &e),
                Ok(resp) => {
                    let status = resp.status().as_u16();
                    if (200..300).contains(&status) {
                        json!({"ok": true, "action": "publish", "eventType": event_type, "status": status})
                    } else {
                        http_failure("publish", status)
                    }
                }
            }
        }
        Request::Fetch { event_type, peer } => {
            let mut rb = agent.get(&endpoint).query("eventType", event_type);
            if let Some(p) = peer {
                rb = rb.query("peer", p);
            }
            match rb.call() {
                Err(e) => unavailable("fetch", &e),
                Ok(mut resp) => {
                    let status = resp.status().as_u16();
                    if !(200..300).contains(&status) {
                        return http_failure("fetch", status);
                    }
                    let text = match resp
                        .body_mut()
                        .with_config()
                        .limit(MAX_RESPONSE_BYTES)
                        .read_to_string()
                    {
                        Ok(t) => t,
                        Err(e) => {
                            return json!({"ok": false, "action": "fetch", "reason": format!("invalid response: {e}")})
                        }
                    };
                    let parsed: Value = match serde_json::from_str(&text) {
                        Ok(v) => v,
                        Err(e) => {
                            return json!({"ok": false, "action": "fetch", "reason": format!("invalid response: not JSON ({e})")})
                        }
                    };
                    let (events, rejected) = match validate_events(
                        &parsed,
                        event_type,
                        peer.as_deref(),
                    ) {
                        Ok(x) => x,
                        Err(reason) => {
                            return json!({"ok": false, "action": "fetch", "reason": format!("invalid response: {reason}")})
                        }
                    };
                    json!({
                        "ok": true,
                        "action": "fetch",
                        "eventType": event_type,
                        "peer": peer,
                        "events": events,
                        "rejected": rejected,
                    })
                }
            }
        }
    }
}

fn unavailable(action: &str, e: &ureq::Error) -> Value {
    json!({"ok": false, "action": action, "reason": format!("peer unavailable: {e}")})
}

fn http_failure(action: &str, status: u16) -> Value {
    let reason = match status {
        404 | 405 | 501 => format!("{action} not available (HTTP {status})"),
        _ => format!("peer unavailable (HTTP {status})"),
    };
    json!({"ok": false, "action": action, "reason": reason})
}

/// Split a fetch response into valid events and rejections (`{"index", "reason"}`).
pub fn validate_events(
    body: &Value,
    event_type: &str,
    peer: Option<&str>,
) -> Result<(Vec<Value>, Vec<Value>), String> {
    let list = match body {
        Value::Array(a) => a,
        Value::Object(o) => match o.get("events") {
            Some(Value::Array(a)) => a,
            _ => return Err("expected an `events` array".into()),
        },
        _ => return Err("expected an object with `events` or an array".into()),
    };
    let mut ok = Vec::new();
    let mut rejected = Vec::new();
    for (i, ev) in list.iter().enumerate() {
        match validate_event(ev, event_type, peer) {
            Ok(()) => ok.push(ev.clone()),
            Err(reason) => rejected.push(json!({"index": i, "reason": reason})),
        }
    }
    Ok((ok, rejected))
}

/// Check one event as fetch does (publish checks its own event the same way).
pub fn validate_event(ev: &Value, event_type: &str, peer: Option<&str>) -> Result<(), String> {
    let o = ev.as_object().ok_or("not an object")?;
    let size = ev.to_string().len();
    if size > MAX_EVENT_BYTES {
        return Err(format!("larger than {MAX_EVENT_BYTES} bytes"));
    }
    let et = o
        .get("eventType")
        .and_then(Value::as_str)
        .ok_or("`eventType` must be a string")?;
    let valid_name = |s: &str| {
        !s.is_empty()
            && s.len() <= 200
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._:-".contains(c))
    };
    if !valid_name(et) {
        return Err(
            "`eventType` must be 1-200 characters of letters, digits, `.`, `_`, `:`, `-`".into(),
        );
    }
    if et != event_type {
        return Err(format!("`eventType` is not `{event_type}`"));
    }
    let p = o
        .get("peer")
        .and_then(Value::as_str)
        .ok_or("`peer` must be a string")?;
    if p.is_empty() || p.len() > 200 || p.chars().any(char::is_control) {
        return Err("`peer` must be 1-200 printable characters".into());
    }
    if let Some(want) = peer {
        if p != want {
            return Err(format!("`peer` is not `{want}`"));
        }
    }
    if !o.get("payload").is_some_and(Value::is_object) {
        return Err("`payload` must be an object".into());
    }
    let at = o
        .get("publishedAt")
        .and_then(Value::as_str)
        .ok_or("`publishedAt` must be a string")?;
    if super::parse_timestamp(at).is_none() {
        return Err("`publishedAt` is not an RFC 3339 timestamp".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_configured_is_the_seed_answer() {
        let req = Request::Fetch {
            event_type: DEFAULT_EVENT_TYPE.into(),
            peer: None,
        };
        assert_eq!(
            run(None, Duration::from_secs(1), &req),
            json!({"ok": false, "reason": "federation not configured"})
        );
        assert_eq!(
            run(Some("  "), Duration::from_secs(1), &req)["reason"],
            "federation not configured"
        );
    }

    #[test]
    fn events_are_validated() {
        let good = json!({"eventType": "skill.federate", "peer": "alice", "payload": {"tool": "shell.exec"}, "publishedAt": "2026-04-13T10:00:00Z"});
        let body = json!({"events": [
            good,
            {"eventType": "skill.federate", "peer": "alice", "payload": "x", "publishedAt": "2026-04-13T10:00:00Z"},
            {"eventType": "other", "peer": "alice", "payload": {}, "publishedAt": "2026-04-13T10:00:00Z"},
            {"eventType": "skill.federate", "peer": "bob", "payload": {}, "publishedAt": "2026-04-13T10:00:00Z"},
            {"eventType": "skill.federate", "peer": "alice", "payload": {}, "publishedAt": "yesterday"},
            42
        ]});
        let (ok, rejected) = validate_events(&body, "skill.federate", Some("alice")).unwrap();
        assert_eq!(ok, vec![good]);
        let reasons: Vec<&str> = rejected
            .iter()
            .map(|r| r["reason"].as_str().unwrap())
            .collect();
        assert_eq!(
            reasons,
            vec![
                "`payload` must be an object",
                "`eventType` is not `skill.federate`",
                "`peer` is not `alice`",
                "`publishedAt` is not an RFC 3339 timestamp",
                "not an object"
            ]
        );
        assert_eq!(rejected[0]["index"], 1);
        assert!(validate_events(&json!({"nope": 1}), "skill.federate", None).is_err());
    }
}
