//! shard: split the gate's trajectories across CI jobs (`gate --shard K/N`)
//! and check the pieces before `skillgate merge` turns them into the verdict
//! one unsharded run gives (docs/shards.md).
//!
//! A file belongs to shard `K` of `N` when the FNV-1a 64-bit hash of its path
//! relative to the repository root (`/`-separated), modulo `N`, is `K - 1`:
//! every job computes the same split without talking to the others. A shard
//! result carries, per skill, what the gate judged of each of its files (the
//! discard reason, or the load and the per-constraint labels) with the file's
//! position in the unsharded order, plus the hashes that must agree across
//! shards: the skill, its lockfile, the configuration and skillgate's version.
//! The merge reads only these results; its cost grows with constraints ×
//! trajectories, never with transcript bytes.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The format version of a shard result.
pub const SHARD_VERSION: u32 = 1;
/// The `kind` field of a shard result.
pub const SHARD_KIND: &str = "skillgate-shard";
/// The largest `N` accepted (a CI matrix is far smaller).
pub const MAX_SHARDS: u32 = 1024;

/// `K/N`: this job's share, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || {
            format!("`{s}` is not a shard: write K/N with 1 <= K <= N <= {MAX_SHARDS} (e.g. 2/4)")
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || n == 0 || k > n || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// Does this shard judge the file whose repository-relative key is `key`?
    pub fn owns(&self, key: &str) -> bool {
        fnv1a64(key.as_bytes()) % u64::from(self.n) == u64::from(self.k - 1)
    }
}

/// FNV-1a, 64 bits: stable across platforms, versions and runs.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The key a file is sharded by: its path relative to `root` (the
/// repository root, else the working directory), `/`-separated; a path
/// outside `root` keeps its absolute form.
pub fn key(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The hashes every shard of one run must share, per skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillKey {
    pub name: String,
    /// The SKILL.md as displayed by the gate (relative to the working directory).
    pub path: String,
    pub skill_sha256: String,
    /// Of `SKILL.constraints.yaml`; null when the skill has none (extracted).
    pub lockfile_sha256: Option<String>,
}

/// Why a set of shard results cannot be merged (exit 2, naming a file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct MergeError {
    pub path: PathBuf,
    pub message: String,
}

/// The header fields of a shard result that must agree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header<'a> {
    pub path: &'a Path,
    pub version: u32,
    pub kind: &'a str,
    pub skillgate_version: &'a str,
    pub config_sha256: &'a str,
    pub shard: Shard,
    pub skills: Vec<SkillKey>,
}

/// Check that shard results belong to one run and are complete: same
/// format, skillgate version, configuration, N, skills and their hashes;
/// no duplicate K; every K of N present. Returns the order to merge them in
/// (by K).
pub fn check(headers: &[Header<'_>]) -> Result<Vec<usize>, MergeError> {
    let Some(first) = headers.first() else {
        return Err(MergeError {
            path: PathBuf::from("<arguments>"),
            message: "no shard results given".into(),
        });
    };
    for h in headers {
        let fail = |message: String| {
            Err(MergeError {
                path: h.path.to_path_buf(),
                message,
            })
        };
        if h.kind != SHARD_KIND || h.version != SHARD_VERSION {
            return fail(format!(
                "not a skillgate shard result of version {SHARD_VERSION} (kind `{}`, version {}); write one with `skillgate gate --shard K/N --format json`",
                h.kind, h.version
            ));
        }
        if h.skillgate_version != first.skillgate_version {
            return fail(format!(
                "written by skillgate {}, but {} was written by {}: run every shard with one version",
                h.skillgate_version,
                first.path.display(),
                first.skillgate_version
            ));
        }
        if h.config_sha256 != first.config_sha256 {
            return fail(format!(
                "its configuration (sha256 {}) differs from {}'s ({})",
                short(h.config_sha256),
                first.path.display(),
                short(first.config_sha256)
            ));
        }
        if h.shard.n != first.shard.n {
            return fail(format!(
                "shard {} is of a split into {}, but {} is shard {}",
                h.shard,
                h.shard.n,
                first.path.display(),
                first.shard
            ));
        }
        if h.skills.len() != first.skills.len()
            || h.skills
                .iter()
                .zip(&first.skills)
                .any(|(a, b)| a.path != b.path || a.name != b.name)
        {
            return fail(format!(
                "judges other skills than {} ({} vs {})",
                first.path.display(),
                names(&h.skills),
                names(&first.skills)
            ));
        }
        for (a, b) in h.skills.iter().zip(&first.skills) {
            if a.skill_sha256 != b.skill_sha256 {
                return fail(format!(
                    "skill `{}` ({}) has sha256 {} here and {} in {}: every shard must judge the same SKILL.md",
                    a.name,
                    a.path,
                    short(&a.skill_sha256),
                    short(&b.skill_sha256),
                    first.path.display()
                ));
            }
            if a.lockfile_sha256 != b.lockfile_sha256 {
                return fail(format!(
                    "skill `{}` has lockfile sha256 {} here and {} in {}: every shard must judge the same lockfile",
                    a.name,
                    a.lockfile_sha256.as_deref().map_or("(none)".into(), short),
                    b.lockfile_sha256.as_deref().map_or("(none)".into(), short),
                    first.path.display()
                ));
            }
        }
    }
    let n = first.shard.n as usize;
    let mut by_k: Vec<Option<usize>> = vec![None; n];
    for (i, h) in headers.iter().enumerate() {
        let slot = &mut by_k[(h.shard.k - 1) as usize];
        if let Some(j) = slot {
            return Err(MergeError {
                path: h.path.to_path_buf(),
                message: format!(
                    "shard {} is given twice (also {})",
                    h.shard,
                    headers[*j].path.display()
                ),
            });
        }
        *slot = Some(i);
    }
    let missing: Vec<String> = by_k
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(k, _)| format!("{}/{n}", k + 1))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError {
            path: first.path.to_path_buf(),
            message: format!(
                "incomplete: shard(s) {} of this run are missing",
                missing.join(", ")
            ),
        });
    }
    Ok(by_k.into_iter().flatten().collect())
}

fn short(s: &str) -> String {
    s.chars().take(12).collect()
}

fn names(skills: &[SkillKey]) -> String {
    skills
        .iter()
        .map(|s| s.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_split_every_key_once() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { k: 2, n: 4 }));
        for bad in ["0/3", "4/3", "1/0", "x/2", "2", "1/2000", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        for n in [1u32, 2, 3, 7] {
            for i in 0..200 {
                let key = format!(".planning/patterns/s{i}.jsonl");
                let owners = (1..=n).filter(|&k| Shard { k, n }.owns(&key)).count();
                assert_eq!(owners, 1, "{key} in {n} shards");
            }
        }
        // The hash is fixed: a published split never moves between versions.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn keys_are_repository_relative_with_slashes() {
        assert_eq!(
            key(Path::new("/r/.planning/patterns/a.jsonl"), Path::new("/r")),
            ".planning/patterns/a.jsonl"
        );
    }

    fn skills(sha: &str) -> Vec<SkillKey> {
        vec![SkillKey {
            name: "s".into(),
            path: "skills/s/SKILL.md".into(),
            skill_sha256: sha.into(),
            lockfile_sha256: None,
        }]
    }

    #[test]
    fn mismatched_duplicate_and_missing_shards_are_refused() {
        let a = skills("aa");
        let b = skills("bb");
        let h =
            |p: &'static str, k: u32, n: u32, sk: &'static [SkillKey], cfg: &'static str| Header {
                path: Path::new(p),
                version: SHARD_VERSION,
                kind: SHARD_KIND,
                skillgate_version: "0.1.0",
                config_sha256: cfg,
                shard: Shard { k, n },
                skills: sk.to_vec(),
            };
        let a: &'static [SkillKey] = Box::leak(a.into_boxed_slice());
        let b: &'static [SkillKey] = Box::leak(b.into_boxed_slice());
        assert_eq!(
            check(&[h("2.json", 2, 2, a, "c"), h("1.json", 1, 2, a, "c")]),
            Ok(vec![1, 0])
        );
        let e = check(&[h("1.json", 1, 2, a, "c"), h("2.json", 2, 2, b, "c")]).unwrap_err();
        assert_eq!(e.path, Path::new("2.json"));
        assert!(e.message.contains("same SKILL.md"), "{e}");
        let e = check(&[h("1.json", 1, 2, a, "c"), h("2.json", 2, 2, a, "d")]).unwrap_err();
        assert!(e.message.contains("configuration"), "{e}");
        let e = check(&[h("1.json", 1, 2, a, "c"), h("x.json", 1, 2, a, "c")]).unwrap_err();
        assert!(e.message.contains("given twice"), "{e}");
        let e = check(&[h("1.json", 1, 3, a, "c"), h("3.json", 3, 3, a, "c")]).unwrap_err();
        assert!(e.message.contains("2/3"), "{e}");
        let e = check(&[h("1.json", 1, 2, a, "c"), h("2.json", 2, 3, a, "c")]).unwrap_err();
        assert!(e.message.contains("split into 3"), "{e}");
    }
}
