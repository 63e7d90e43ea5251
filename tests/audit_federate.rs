//! `skillgate federate` against a local HTTP peer (wiremock on 127.0.0.1):
//! publish, fetch with validation, and the fail-open rows of seed 001's
//! decision table (peer unavailable, endpoint without the operation).

use serde_json::{json, Value};
use wiremock::matchers::{body_partial_json, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Run the binary off the runtime's thread so the mock server keeps serving.
async fn federate(url: &str, args: &[&str]) -> (i32, Value) {
    let url = url.to_string();
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let out = assert_cmd::Command::cargo_bin("skillgate")
            .unwrap()
            .arg("federate")
            .args(&args)
            .env("SKILLGATE_FEDERATION_URL", &url)
            .env("CI", "1")
            .output()
            .unwrap();
        let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (out.status.code().unwrap_or(-1), v)
    })
    .await
    .unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn publish_posts_the_event() {
    runtime().block_on(async {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/fed/events"))
            .and(body_partial_json(json!({"eventType": "skill.federate", "payload": {"tool": "shell.exec", "issues": 2}})))
            .respond_with(ResponseTemplate::new(201))
            .expect(1)
            .mount(&server)
            .await;
        let url = format!("{}/fed/", server.uri());
        let (code, v) =
            federate(&url, &["--action", "publish", "--payload", r#"{"tool": "shell.exec", "issues": 2}"#]).await;
        assert_eq!(code, 0);
        assert_eq!(v, json!({"ok": true, "action": "publish", "eventType": "skill.federate", "status": 201}));
        let received = server.received_requests().await.unwrap();
        let body: Value = serde_json::from_slice(&received[0].body).unwrap();
        assert!(body["publishedAt"].as_str().unwrap().ends_with('Z'));
        assert!(body["source"].as_str().unwrap().starts_with("skillgate/"));
    });
}

#[test]
fn fetch_validates_peer_events() {
    runtime().block_on(async {
        let server = MockServer::start().await;
        let good = json!({"eventType": "skill.federate", "peer": "alice", "payload": {"tool": "file.edit"},
                          "publishedAt": "2026-04-13T10:00:00Z"});
        Mock::given(method("GET"))
            .and(path("/events"))
            .and(query_param("eventType", "skill.federate"))
            .and(query_param("peer", "alice"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"events": [
                good,
                {"eventType": "skill.federate", "peer": "mallory", "payload": {}, "publishedAt": "2026-04-13T10:00:00Z"},
                {"eventType": "skill.federate", "peer": "alice", "payload": [1, 2]},
                "not an event"
            ]})))
            .mount(&server)
            .await;
        let (code, v) = federate(&server.uri(), &["--action", "fetch", "--peer", "alice"]).await;
        assert_eq!(code, 0);
        assert_eq!(
            v,
            json!({
                "ok": true, "action": "fetch", "eventType": "skill.federate", "peer": "alice",
                "events": [good],
                "rejected": [
                    {"index": 1, "reason": "`peer` is not `alice`"},
                    {"index": 2, "reason": "`payload` must be an object"},
                    {"index": 3, "reason": "not an object"}
                ]
            })
        );
    });
}

#[test]
fn peer_unavailable_fails_open() {
    // A port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    runtime().block_on(async {
        let (code, v) = federate(&format!("http://127.0.0.1:{port}"), &["--action", "fetch"]).await;
        assert_eq!(code, 0);
        assert_eq!(v["ok"], false);
        assert_eq!(v["action"], "fetch");
        assert!(
            v["reason"]
                .as_str()
                .unwrap()
                .starts_with("peer unavailable: "),
            "{v}"
        );
    });
}

#[test]
fn http_errors_and_bad_bodies_fail_open() {
    runtime().block_on(async {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(503))
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(query_param("eventType", "missing.op"))
            .respond_with(ResponseTemplate::new(404))
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(query_param("eventType", "garbage"))
            .respond_with(ResponseTemplate::new(200).set_body_string("<html>"))
            .mount(&server)
            .await;
        let (code, v) = federate(&server.uri(), &["--action", "publish", "--payload", "{}"]).await;
        assert_eq!(
            (code, v),
            (
                0,
                json!({"ok": false, "action": "publish", "reason": "peer unavailable (HTTP 503)"})
            )
        );
        let (_, v) = federate(
            &server.uri(),
            &["--action", "fetch", "--event-type", "missing.op"],
        )
        .await;
        assert_eq!(
            v,
            json!({"ok": false, "action": "fetch", "reason": "fetch not available (HTTP 404)"})
        );
        let (_, v) = federate(
            &server.uri(),
            &["--action", "fetch", "--event-type", "garbage"],
        )
        .await;
        assert_eq!(v["ok"], false);
        assert!(
            v["reason"]
                .as_str()
                .unwrap()
                .starts_with("invalid response: not JSON"),
            "{v}"
        );
    });
}

/// A federation peer that stores what is published and returns it on fetch
/// (filtered by `eventType` and `peer`), as a real relay would.
struct Relay(std::sync::Arc<std::sync::Mutex<Vec<Value>>>);

impl wiremock::Respond for Relay {
    fn respond(&self, req: &wiremock::Request) -> ResponseTemplate {
        let mut store = self.0.lock().unwrap();
        match req.method.as_str() {
            "POST" => match serde_json::from_slice::<Value>(&req.body) {
                Ok(ev) => {
                    store.push(ev);
                    ResponseTemplate::new(201)
                }
                Err(_) => ResponseTemplate::new(400),
            },
            _ => {
                let q: std::collections::HashMap<String, String> =
                    req.url.query_pairs().into_owned().collect();
                let events: Vec<Value> = store
                    .iter()
                    .filter(|e| q.get("eventType").is_none_or(|t| e["eventType"] == **t))
                    .filter(|e| q.get("peer").is_none_or(|p| e["peer"] == **p))
                    .cloned()
                    .collect();
                ResponseTemplate::new(200).set_body_json(json!({ "events": events }))
            }
        }
    }
}

#[test]
fn published_events_round_trip_through_a_storing_peer() {
    runtime().block_on(async {
        let server = MockServer::start().await;
        let store = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        Mock::given(path("/events"))
            .respond_with(Relay(store.clone()))
            .mount(&server)
            .await;
        let url = server.uri();
        let (code, v) = federate(
            &url,
            &[
                "--action",
                "publish",
                "--peer",
                "ci-runner-1",
                "--payload",
                r#"{"tool": "shell.exec", "issues": 2}"#,
            ],
        )
        .await;
        assert_eq!((code, v["ok"].clone()), (0, json!(true)), "{v}");
        // The default peer name (no --peer): still a valid event.
        let (code, v) = federate(
            &url,
            &[
                "--action",
                "publish",
                "--payload",
                r#"{"tool": "file.edit"}"#,
            ],
        )
        .await;
        assert_eq!((code, v["ok"].clone()), (0, json!(true)), "{v}");
        assert_eq!(store.lock().unwrap().len(), 2);

        let (code, v) = federate(&url, &["--action", "fetch"]).await;
        assert_eq!(code, 0);
        assert_eq!(v["ok"], true, "{v}");
        assert_eq!(
            v["rejected"],
            json!([]),
            "our own events must pass our own fetch: {v}"
        );
        assert_eq!(v["events"].as_array().unwrap().len(), 2);

        let (_, v) = federate(&url, &["--action", "fetch", "--peer", "ci-runner-1"]).await;
        let events = v["events"].as_array().unwrap();
        assert_eq!(events.len(), 1, "{v}");
        assert_eq!(events[0]["peer"], "ci-runner-1");
        assert_eq!(
            events[0]["payload"],
            json!({"tool": "shell.exec", "issues": 2})
        );
        assert!(events[0]["source"]
            .as_str()
            .unwrap()
            .starts_with("skillgate/"));
    });
}

#[test]
fn an_invalid_peer_name_or_event_type_is_never_published() {
    runtime().block_on(async {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(201))
            .expect(0)
            .mount(&server)
            .await;
        let (code, v) = federate(
            &server.uri(),
            &[
                "--action",
                "publish",
                "--event-type",
                "bad type!",
                "--peer",
                "p",
                "--payload",
                "{}",
            ],
        )
        .await;
        assert_eq!(code, 0);
        assert_eq!(v["ok"], false);
        assert!(
            v["reason"]
                .as_str()
                .unwrap()
                .starts_with("invalid event: `eventType`"),
            "{v}"
        );
    });
}
