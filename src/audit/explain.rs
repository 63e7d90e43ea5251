//! `explain`: a SKILL.md-style markdown block for one tool (seed 001
//! `skill.explain`), combining the catalog with live usage.

use super::catalog::{self, CatalogTool};
use super::names;
use super::stats::{aggregate, ToolFilter};
use super::Window;
use rusqlite::{Connection, OptionalExtension};
use std::collections::BTreeMap;

/// What a user-given tool name refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The dot names it covers (one for a tool; several for a category such as `mcp.github`).
    pub dot_names: Vec<String>,
    /// When the name is a raw harness name (`Bash`): only calls with exactly this raw name.
    pub raw: Option<String>,
    /// The catalog entry, when the (single) tool is in the catalog.
    pub catalog: Option<&'static CatalogTool>,
    /// The name was read as a category (`shell` → `shell.*`).
    pub category: bool,
    /// A category name that is also a raw harness name (`shell` is Codex's
    /// shell tool): reports say both.
    pub also_raw: bool,
}

impl Resolved {
    /// The name for JSON: the raw name asked for, else the single dot name, else the query.
    pub fn name(&self, query: &str) -> String {
        match (&self.raw, self.dot_names.as_slice()) {
            (Some(r), _) => r.clone(),
            (None, [one]) => one.clone(),
            _ => query.to_string(),
        }
    }

    /// The markdown title: `Bash (shell.exec)` for a raw name, `shell
    /// (category: shell.exec, shell.kill)` for a category, else as [`Resolved::name`].
    pub fn title(&self, query: &str) -> String {
        match (&self.raw, self.dot_names.as_slice()) {
            (Some(r), [one]) => format!("{r} ({one})"),
            _ if self.category => format!("{query} (category: {})", self.dot_names.join(", ")),
            _ => self.name(query),
        }
    }

    /// Whether a call (dot name, raw name) is covered.
    pub fn covers(&self, dot: &str, raw: &str) -> bool {
        self.dot_names.iter().any(|d| d == dot) && self.raw.as_deref().is_none_or(|r| r == raw)
    }

    /// The stats filter for the covered calls.
    pub fn filter(&self) -> ToolFilter {
        match &self.raw {
            Some(r) => ToolFilter::RawName(r.clone()),
            None => ToolFilter::DotNames(self.dot_names.clone()),
        }
    }
}

/// Resolve a tool name given by a user: a dot name (`shell.exec`), a raw
/// harness name (`Bash`: then only the calls with exactly that raw name), or
/// a category prefix (`file`, `mcp.github`).
///
/// Order: a catalog dot name; a dot name seen in the database; a category
/// (a name without a dot that is the first segment of dot names seen in the
/// database, or of the mapping table without a database) — before a raw name
/// of the same spelling, so `shell` is every `shell.*` call, not only Codex's
/// raw `shell` ones ([`Resolved::also_raw`] says so); a raw name seen in the
/// database (exact); a raw name of the mapping table (exact); a dot or raw
/// name in the database, ignoring case (all its calls); the mapping table,
/// ignoring case; a category prefix of names seen in the database; else the
/// name itself.
pub fn resolve(conn: Option<&Connection>, name: &str) -> rusqlite::Result<Resolved> {
    let dot = |dot: String| Resolved {
        catalog: catalog::lookup(&dot),
        dot_names: vec![dot],
        raw: None,
        category: false,
        also_raw: false,
    };
    let raw = |dots: Vec<String>| Resolved {
        catalog: match dots.as_slice() {
            [one] => catalog::lookup(one),
            _ => None,
        },
        dot_names: dots,
        raw: Some(name.to_string()),
        category: false,
        also_raw: false,
    };
    if catalog::lookup(name).is_some() {
        return Ok(dot(name.to_string()));
    }
    if let Some(conn) = conn {
        let seen: Option<String> = conn
            .query_row(
                "SELECT tool FROM tool_calls WHERE tool = ?1 LIMIT 1",
                [name],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(d) = seen {
            return Ok(dot(d));
        }
    }
    if !name.is_empty() && !name.contains('.') {
        let prefix = format!("{name}.");
        let mut dots: Vec<String> = match conn {
            Some(conn) => distinct(
                conn,
                "SELECT DISTINCT tool FROM tool_calls WHERE substr(tool, 1, length(?1)) = ?1 ORDER BY tool",
                &prefix,
            )?,
            None => Vec::new(),
        };
        if dots.is_empty() && conn.is_none() {
            dots = names::MAPPING
                .iter()
                .map(|(_, d)| d.to_string())
                .filter(|d| d.starts_with(&prefix))
                .collect();
            dots.sort();
            dots.dedup();
        }
        if !dots.is_empty() {
            let raw_in_db = match conn {
                Some(conn) => conn
                    .query_row(
                        "SELECT 1 FROM tool_calls WHERE raw_tool = ?1 LIMIT 1",
                        [name],
                        |_| Ok(()),
                    )
                    .optional()?
                    .is_some(),
                None => false,
            };
            let also_raw = raw_in_db || names::MAPPING.iter().any(|(r, _)| *r == name);
            return Ok(Resolved {
                catalog: match dots.as_slice() {
                    [one] => catalog::lookup(one),
                    _ => None,
                },
                dot_names: dots,
                raw: None,
                category: true,
                also_raw,
            });
        }
    }
    if let Some(conn) = conn {
        let dots = distinct(
            conn,
            "SELECT DISTINCT tool FROM tool_calls WHERE raw_tool = ?1 ORDER BY tool",
            name,
        )?;
        if !dots.is_empty() {
            return Ok(raw(dots));
        }
    }
    let mapped = names::dot_name(name, &crate::decode::Action::Other);
    let known_raw = name.starts_with("mcp__") && mapped.starts_with("mcp.")
        || names::MAPPING.iter().any(|(r, _)| *r == name);
    if known_raw {
        return Ok(raw(vec![mapped]));
    }
    if let Some(conn) = conn {
        let dots = distinct(
            conn,
            "SELECT DISTINCT tool FROM tool_calls WHERE lower(raw_tool) = lower(?1) OR lower(tool) = lower(?1) ORDER BY tool",
            name,
        )?;
        if !dots.is_empty() {
            return Ok(Resolved {
                catalog: match dots.as_slice() {
                    [one] => catalog::lookup(one),
                    _ => None,
                },
                dot_names: dots,
                raw: None,
                category: false,
                also_raw: false,
            });
        }
    }
    if !mapped.starts_with("other.") {
        return Ok(dot(mapped));
    }
    if let Some(conn) = conn {
        let prefix = format!("{name}.");
        let dots = distinct(
            conn,
            "SELECT DISTINCT tool FROM tool_calls WHERE substr(lower(tool), 1, length(?1)) = lower(?1) ORDER BY tool",
            &prefix,
        )?;
        if !dots.is_empty() {
            return Ok(Resolved {
                dot_names: dots,
                raw: None,
                catalog: None,
                category: true,
                also_raw: false,
            });
        }
    }
    Ok(dot(name.to_string()))
}

fn distinct(conn: &Connection, sql: &str, arg: &str) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare_cached(sql)?;
    let rows = st.query_map([arg], |r| r.get(0))?;
    rows.collect()
}

/// Input key → (JSON types seen, calls that had it).
pub type ObservedParams = BTreeMap<String, (Vec<String>, u64)>;

/// Observed parameters of the resolved calls (all time): key → (types, calls with it), and the call count.
pub fn observed_params(
    conn: &Connection,
    resolved: &Resolved,
) -> rusqlite::Result<(ObservedParams, u64)> {
    let mut out: ObservedParams = BTreeMap::new();
    let mut calls = 0u64;
    let mut st =
        conn.prepare_cached("SELECT raw_tool, input_keys FROM tool_calls WHERE tool = ?1")?;
    for dot in &resolved.dot_names {
        let mut rows = st.query([dot])?;
        while let Some(r) = rows.next()? {
            let raw: String = r.get(0)?;
            if !resolved.covers(dot, &raw) {
                continue;
            }
            let keys: String = r.get(1)?;
            let Ok(serde_json::Value::Object(map)) =
                serde_json::from_str::<serde_json::Value>(&keys)
            else {
                continue;
            };
            if map.is_empty() {
                continue;
            }
            calls += 1;
            for (k, t) in map {
                let e = out.entry(k).or_default();
                let t = t.as_str().unwrap_or("unknown").to_string();
                if !e.0.contains(&t) {
                    e.0.push(t);
                }
                e.1 += 1;
            }
        }
    }
    for v in out.values_mut() {
        v.0.sort();
    }
    Ok((out, calls))
}

/// The markdown block. With no database: 0 calls, 0% success (fail open).
pub fn explain(conn: Option<&Connection>, name: &str, window: Window) -> rusqlite::Result<String> {
    let resolved = resolve(conn, name)?;
    let title = resolved.title(name);
    let mut md = format!("## {title}\n\n");
    let description = match (resolved.catalog, resolved.category) {
        (Some(c), _) => c.description.to_string(),
        (None, true) => format!(
            "A category of {} tool(s): {}.",
            resolved.dot_names.len(),
            resolved.dot_names.join(", ")
        ),
        (None, false) => "(Tool not found in active registry)".to_string(),
    };
    md.push_str(&format!("**Description:** {description}\n\n"));

    let stats = match conn {
        Some(c) => aggregate(c, &resolved.filter(), window)?,
        None => Vec::new(),
    };
    let total: u64 = stats.iter().map(|s| s.total_calls).sum();
    let ok: u64 = stats.iter().map(|s| s.success_count).sum();

    md.push_str("**Parameters:**\n");
    let (observed, observed_calls) = match conn {
        Some(c) => observed_params(c, &resolved)?,
        None => (BTreeMap::new(), 0),
    };
    let catalog_params = resolved.catalog.map(|c| c.params).unwrap_or(&[]);
    if observed.is_empty() && catalog_params.is_empty() {
        md.push_str("- (none known)\n");
    } else if observed.is_empty() {
        for p in catalog_params {
            md.push_str(&format!(
                "- `{}` ({}, {}): {}\n",
                p.name,
                p.ty,
                if p.required { "required" } else { "optional" },
                p.description
            ));
        }
    } else {
        for (key, (types, n)) in &observed {
            let cat = catalog_params.iter().find(|p| p.name == key);
            let required = match cat {
                Some(p) => p.required,
                None => *n == observed_calls,
            };
            let seen = format!("seen in {n} of {observed_calls} calls");
            let desc = match cat {
                Some(p) => format!("{} ({seen})", p.description),
                None => seen,
            };
            md.push_str(&format!(
                "- `{key}` ({}, {}): {desc}\n",
                types.join(" | "),
                if required { "required" } else { "optional" }
            ));
        }
    }
    md.push('\n');

    let span = if window.days == 0 {
        "all time".to_string()
    } else {
        format!("last {}d", window.days)
    };
    md.push_str(&format!(
        "**Usage ({span}):** {total} calls, {} success\n",
        percent(ok, total)
    ));
    let mut raw: BTreeMap<String, u64> = BTreeMap::new();
    for s in &stats {
        for (r, n) in &s.raw_names {
            *raw.entry(r.clone()).or_default() += n;
        }
    }
    if raw.len() > 1 {
        let list: Vec<String> = raw.iter().map(|(r, n)| format!("`{r}` ({n})")).collect();
        md.push_str(&format!("**Seen as:** {}\n", list.join(", ")));
    }
    if resolved.also_raw {
        let n = raw.get(name).copied().unwrap_or(0);
        md.push_str(&format!(
            "**Note:** `{name}` is read as the category (all {total} calls above); it is also a raw harness tool name, under which {n} of these calls were made.\n"
        ));
    }
    md.push('\n');

    md.push_str("**Common failures:**\n");
    let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
    for s in &stats {
        for (k, n) in &s.error_kinds {
            *kinds.entry(k.clone()).or_default() += n;
        }
    }
    let mut kinds: Vec<(String, u64)> = kinds.into_iter().collect();
    // Ties in the order of the error-kind table, as in `stats`.
    let rank = |k: &str| {
        super::ErrorKind::parse(k)
            .map(|k| k as usize)
            .unwrap_or(usize::MAX)
    };
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| rank(&a.0).cmp(&rank(&b.0))));
    if kinds.is_empty() {
        md.push_str("- none observed\n");
    }
    for (k, _) in kinds.iter().take(3) {
        md.push_str(&format!("- {k}\n"));
    }
    Ok(md)
}

/// `90.5%`, `100%`, `0%`.
fn percent(ok: u64, total: u64) -> String {
    if total == 0 {
        return "0%".into();
    }
    let p = super::round_to(ok as f64 * 100.0 / total as f64, 1);
    if p.fract() == 0.0 {
        format!("{}%", p as i64)
    } else {
        format!("{p:.1}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_read_like_the_seed() {
        assert_eq!(percent(38, 42), "90.5%");
        assert_eq!(percent(0, 0), "0%");
        assert_eq!(percent(5, 5), "100%");
        assert_eq!(percent(1, 3), "33.3%");
    }

    #[test]
    fn without_a_database_the_seed_fail_open_block() {
        let md = explain(
            None,
            "browser.navigate",
            Window::new(7, time::OffsetDateTime::UNIX_EPOCH),
        )
        .unwrap();
        assert_eq!(
            md,
            "## browser.navigate\n\n**Description:** Navigate a browser to a URL.\n\n**Parameters:**\n\
             - `url` (string, required): The URL to navigate to.\n\n**Usage (last 7d):** 0 calls, 0% success\n\n\
             **Common failures:**\n- none observed\n"
        );
        let md = explain(None, "acme.frobnicate", Window::all_time()).unwrap();
        assert!(
            md.starts_with(
                "## acme.frobnicate\n\n**Description:** (Tool not found in active registry)\n"
            ),
            "{md}"
        );
        assert!(md.contains("**Usage (all time):** 0 calls, 0% success"));
    }

    #[test]
    fn raw_names_resolve_through_the_mapping_without_a_database() {
        let r = resolve(None, "Bash").unwrap();
        assert_eq!(r.dot_names, vec!["shell.exec".to_string()]);
        assert_eq!(r.raw.as_deref(), Some("Bash"));
        assert_eq!(r.catalog.unwrap().name, "shell.exec");
        assert_eq!(r.title("Bash"), "Bash (shell.exec)");
        assert_eq!(r.name("Bash"), "Bash");
        assert!(r.covers("shell.exec", "Bash") && !r.covers("shell.exec", "shell"));
        let r = resolve(None, "mcp__exa__search").unwrap();
        assert_eq!(r.dot_names, vec!["mcp.exa.search".to_string()]);
        assert!(r.catalog.is_none());
        // Case-insensitive: the whole dot name.
        let r = resolve(None, "BASH").unwrap();
        assert_eq!(
            (r.dot_names[0].as_str(), r.raw.as_deref()),
            ("shell.exec", None)
        );
    }
}
