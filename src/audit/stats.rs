//! Per-tool usage statistics (seed 001 `skill.usage-stats`).
//!
//! Calls are grouped by dot-namespaced name. `totalCalls = successCount +
//! failureCount`; a user veto is a failure, so `vetoCount <= failureCount`.
//! `avgDurationMs` averages the calls whose call and result times are both
//! recorded (null when none is); `successRate` has 3 decimals; `brierForTool`
//! (3 decimals) comes from the calibration rows whose tag matches the tool
//! (see [`super::calibration`]); `topErrorKinds` lists up to 3 kinds, most
//! frequent first. Calls without a recorded time are outside every window but
//! counted when the window is all time (`windowDays: 0`).

use super::calibration;
use super::errors::ErrorKind;
use super::{parse_timestamp, round_to, unix_ms, Window};
use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Which calls a query covers.
#[derive(Debug, Clone)]
pub enum ToolFilter {
    /// Every tool (top N by volume).
    All,
    /// Case-insensitive substring of the dot name or of the raw name.
    Substring(String),
    /// Exactly these dot names.
    DotNames(Vec<String>),
    /// Exactly this raw name.
    RawName(String),
}

impl ToolFilter {
    fn accepts(&self, dot: &str, raw: &str) -> bool {
        match self {
            ToolFilter::All => true,
            ToolFilter::Substring(s) => {
                let s = s.to_lowercase();
                dot.to_lowercase().contains(&s) || raw.to_lowercase().contains(&s)
            }
            ToolFilter::DotNames(names) => names.iter().any(|n| n == dot),
            ToolFilter::RawName(r) => r == raw,
        }
    }
}

/// One row of `stats[]`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolStats {
    pub tool_name: String,
    pub total_calls: u64,
    pub success_count: u64,
    pub failure_count: u64,
    pub veto_count: u64,
    pub avg_duration_ms: Option<i64>,
    pub success_rate: f64,
    pub brier_for_tool: Option<f64>,
    pub top_error_kinds: Vec<String>,
    /// Scope-tagged gate violations caused by this tool's calls; present only
    /// once `gate --record` has written gate results into the database.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope_violations: Option<u64>,
    /// Raw names seen for this tool with their call counts (for `explain`).
    #[serde(skip)]
    pub raw_names: Vec<(String, u64)>,
    /// Every error kind with its count, most frequent first (for `explain`, `refine`).
    #[serde(skip)]
    pub error_kinds: Vec<(String, u64)>,
}

/// The seed's `usage-stats` answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatsReport {
    pub stats: Vec<ToolStats>,
    pub window_days: u32,
    pub tool_name: Option<String>,
}

#[derive(Default)]
struct Acc {
    total: u64,
    ok: u64,
    veto: u64,
    dur_sum: i64,
    dur_n: i64,
    kinds: HashMap<String, u64>,
    raw: BTreeMap<String, u64>,
}

/// Usage statistics. `conn == None` (no database) answers empty stats: the seed's fail-open row.
pub fn usage(
    conn: Option<&Connection>,
    filter: &ToolFilter,
    window: Window,
    top_n: usize,
) -> rusqlite::Result<StatsReport> {
    let tool_name = match filter {
        ToolFilter::All => None,
        ToolFilter::Substring(s) => Some(s.clone()),
        ToolFilter::DotNames(n) => n.first().cloned(),
        ToolFilter::RawName(r) => Some(r.clone()),
    };
    let mut report = StatsReport {
        stats: Vec::new(),
        window_days: window.days,
        tool_name,
    };
    let Some(conn) = conn else { return Ok(report) };
    report.stats = aggregate(conn, filter, window)?;
    if matches!(filter, ToolFilter::All) {
        report.stats.truncate(top_n);
    }
    Ok(report)
}

/// The time of the newest recorded call (RFC 3339), if any: the CLI names it
/// when a window holds no call, so an old corpus is not mistaken for an empty one.
pub fn newest_call(conn: &Connection) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "SELECT called_at FROM tool_calls WHERE called_at_ms IS NOT NULL ORDER BY called_at_ms DESC LIMIT 1",
        [],
        |r| r.get(0),
    )
    .optional()
}

/// Every tool matching `filter` in the window, most called first.
pub fn aggregate(
    conn: &Connection,
    filter: &ToolFilter,
    window: Window,
) -> rusqlite::Result<Vec<ToolStats>> {
    let mut accs: BTreeMap<String, Acc> = BTreeMap::new();
    let mut st = conn.prepare_cached(
        "SELECT tool, raw_tool, success, vetoed, duration_ms, error_kind FROM tool_calls
         WHERE (?1 IS NULL OR called_at_ms >= ?1)",
    )?;
    let mut rows = st.query([window.since_ms])?;
    while let Some(r) = rows.next()? {
        let dot: String = r.get(0)?;
        let raw: String = r.get(1)?;
        if !filter.accepts(&dot, &raw) {
            continue;
        }
        let a = accs.entry(dot).or_default();
        a.total += 1;
        if r.get::<_, bool>(2)? {
            a.ok += 1;
        }
        if r.get::<_, bool>(3)? {
            a.veto += 1;
        }
        if let Some(d) = r.get::<_, Option<i64>>(4)? {
            a.dur_sum += d;
            a.dur_n += 1;
        }
        if let Some(k) = r.get::<_, Option<String>>(5)? {
            *a.kinds.entry(k).or_default() += 1;
        }
        *a.raw.entry(raw).or_default() += 1;
    }
    let cal = calibration::load(conn)?;
    let violations = scope_violations(conn, window)?;
    let mut out: Vec<ToolStats> = accs
        .into_iter()
        .map(|(dot, a)| {
            let mut kinds: Vec<(String, u64)> = a.kinds.into_iter().collect();
            kinds.sort_by(|x, y| {
                y.1.cmp(&x.1)
                    .then_with(|| kind_rank(&x.0).cmp(&kind_rank(&y.0)))
            });
            let raw_names: Vec<(String, u64)> = a.raw.into_iter().collect();
            let raw_only: Vec<String> = raw_names.iter().map(|r| r.0.clone()).collect();
            ToolStats {
                total_calls: a.total,
                success_count: a.ok,
                failure_count: a.total - a.ok,
                veto_count: a.veto,
                avg_duration_ms: (a.dur_n > 0)
                    .then(|| (a.dur_sum as f64 / a.dur_n as f64).round() as i64),
                success_rate: if a.total == 0 {
                    0.0
                } else {
                    round_to(a.ok as f64 / a.total as f64, 3)
                },
                brier_for_tool: calibration::brier(&cal, &dot, &raw_only).map(|b| round_to(b, 3)),
                top_error_kinds: kinds.iter().take(3).map(|k| k.0.clone()).collect(),
                scope_violations: violations
                    .as_ref()
                    .map(|v| v.get(&dot).copied().unwrap_or(0)),
                raw_names,
                error_kinds: kinds,
                tool_name: dot,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.total_calls
            .cmp(&a.total_calls)
            .then_with(|| a.tool_name.cmp(&b.tool_name))
    });
    Ok(out)
}

fn kind_rank(k: &str) -> usize {
    ErrorKind::parse(k)
        .map(|k| k as usize)
        .unwrap_or(usize::MAX)
}

/// Scope-tagged violations per tool, or `None` when no gate result was ever recorded.
fn scope_violations(
    conn: &Connection,
    window: Window,
) -> rusqlite::Result<Option<HashMap<String, u64>>> {
    let any: i64 = conn.query_row("SELECT count(*) FROM gate_results", [], |r| r.get(0))?;
    if any == 0 {
        return Ok(None);
    }
    let mut st = conn.prepare_cached(
        "SELECT COALESCE(tc.tool, g.tool), tc.called_at_ms, g.recorded_at
         FROM gate_results g
         LEFT JOIN sessions s ON s.path = g.trajectory
         LEFT JOIN tool_calls tc ON tc.session = s.id AND tc.event_index = g.event_index
         WHERE g.label = 'violated' AND g.scope != '[]'",
    )?;
    let mut rows = st.query([])?;
    let mut out: HashMap<String, u64> = HashMap::new();
    while let Some(r) = rows.next()? {
        let Some(tool) = r.get::<_, Option<String>>(0)? else {
            continue;
        };
        let at = r.get::<_, Option<i64>>(1)?.or_else(|| {
            r.get::<_, String>(2)
                .ok()
                .and_then(|s| parse_timestamp(&s))
                .map(unix_ms)
        });
        let in_window = match (window.since_ms, at) {
            (None, _) => true,
            (Some(since), Some(at)) => at >= since,
            (Some(_), None) => false,
        };
        if in_window {
            *out.entry(tool).or_default() += 1;
        }
    }
    Ok(Some(out))
}

/// A plain-text table of a report, for people (`--format table`).
pub fn render_table(r: &StatsReport) -> String {
    let mut out = String::new();
    let window = if r.window_days == 0 {
        "all time".to_string()
    } else {
        format!("last {}d", r.window_days)
    };
    out.push_str(&format!(
        "Tool usage ({window}{})\n",
        r.tool_name
            .as_ref()
            .map(|t| format!(", tool ~ {t}"))
            .unwrap_or_default()
    ));
    if r.stats.is_empty() {
        out.push_str("(no calls)\n");
        return out;
    }
    let with_viol = r.stats.iter().any(|s| s.scope_violations.is_some());
    let mut header = vec![
        "TOOL",
        "CALLS",
        "OK",
        "FAIL",
        "VETO",
        "AVG MS",
        "SUCCESS",
        "BRIER",
        "TOP ERRORS",
    ];
    if with_viol {
        header.push("SCOPE VIOL.");
    }
    let mut table: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for s in &r.stats {
        let mut row = vec![
            s.tool_name.clone(),
            s.total_calls.to_string(),
            s.success_count.to_string(),
            s.failure_count.to_string(),
            s.veto_count.to_string(),
            s.avg_duration_ms
                .map(|d| d.to_string())
                .unwrap_or_else(|| "-".into()),
            format!("{:.1}%", s.success_rate * 100.0),
            s.brier_for_tool
                .map(|b| format!("{b:.3}"))
                .unwrap_or_else(|| "-".into()),
            if s.top_error_kinds.is_empty() {
                "-".into()
            } else {
                s.top_error_kinds.join(", ")
            },
        ];
        if with_viol {
            row.push(s.scope_violations.unwrap_or(0).to_string());
        }
        table.push(row);
    }
    let cols = table[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &table {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let pad = widths[c] - cell.chars().count();
                // Numbers right-aligned, names and lists left-aligned.
                if c == 0 || c == 8 {
                    format!("{cell}{}", " ".repeat(pad))
                } else {
                    format!("{}{cell}", " ".repeat(pad))
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}
