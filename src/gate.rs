//! The gate end to end, for every caller (`skillgate gate`, the pre-push hook,
//! `ship`): skills → constraints, transcripts → trajectories → labels →
//! verdicts. This orchestrator reads files, but never prints, never reads the
//! clock or the environment: the caller passes the working directory (and the
//! time, to [`write_report`]).

use crate::config::{Config, ConfigError, StalePolicy, DEFAULT_REPORT_DIR, DEFAULT_TRAJECTORIES};
use crate::decode::{self, Action, DecodeError, DecodeOptions, LoadVia, Trajectory};
use crate::extract::lexicon::Scope;
use crate::extract::{self, Lexicon, LockfileError};
use crate::label::{self, CompiledSet, Label, ScopeStart};
use crate::parse::{ParseError, Skill};
use crate::score::spill::SpillFile;
use crate::score::{
    self, Discarded, LoadInfo, ScoreInput, SkillRef, SkillVerdict, SourceInfo, TrajectorySet,
};
use crate::shard::{MergeError, Shard, SkillKey};
use rayon::prelude::*;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// What the caller decides.
#[derive(Debug, Clone, Default)]
pub struct GateOptions {
    /// Trajectory files or folders named by the user (`--trajectories`);
    /// when non-empty they replace the configured roots. A named file that
    /// cannot be decoded is an error (exit 2), unlike a discovered one.
    pub trajectories: Vec<PathBuf>,
    /// The working directory: base of relative paths, of the default roots
    /// of a skill outside any git repository, and of the displayed paths.
    pub cwd: PathBuf,
}

/// Why the gate could not run. Every variant maps to exit code 2 and names a file.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    #[error(transparent)]
    Skill(#[from] ParseError),
    #[error(transparent)]
    Lockfile(#[from] LockfileError),
    #[error(transparent)]
    Trajectory(#[from] DecodeError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A predicate that does not compile.
    #[error("{path}: {message}")]
    Predicate { path: PathBuf, message: String },
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },
}

/// Where a skill's scope starts in a trajectory, and how the load was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Load {
    /// Position of the first load event; `None` when only a sidecar says so.
    pub index: Option<usize>,
    pub via: LoadVia,
    /// The only evidence is a read of the SKILL.md.
    pub weak: bool,
}

/// The skill's first load in a trajectory (SPEC §5), from
/// [`decode::skills::first_load`]: a session-retro sidecar's `loaded_skills`
/// is authoritative; otherwise the first load event, weak or not. `index` is
/// `None` when only the sidecar says the skill was loaded.
pub fn first_load(traj: &Trajectory, skill: &str) -> Option<Load> {
    first_load_in(traj, &decode::skills::load_events(traj), skill)
}

/// [`first_load`] from the trajectory's [`decode::skills::load_events`]
/// (listed once for every skill that judges the trajectory).
fn first_load_in(traj: &Trajectory, loads: &[(usize, &str, LoadVia)], skill: &str) -> Option<Load> {
    decode::skills::first_load_in(traj, loads, skill).map(|lp| Load {
        index: (lp.via != LoadVia::Retro && lp.index < traj.events.len()).then_some(lp.index),
        via: lp.via,
        weak: lp.weak,
    })
}

/// Did the session run an older text of the skill (SPEC §5 `stale`)? True
/// when a load of the skill carries the injected body's hash and it differs
/// from SKILL.md's body (`skill_md` is the whole file). Loads without a hash
/// (no body in the transcript, arguments substituted) say nothing.
pub fn is_stale(traj: &Trajectory, skill: &str, skill_md: &str) -> bool {
    traj.events.iter().any(|e| match &e.action {
        Action::SkillLoad {
            name,
            body_sha256: Some(h),
            ..
        } if decode::skills::names_match(name, skill) => {
            !decode::skills::skill_md_matches(skill_md, h)
        }
        _ => false,
    })
}

/// The root of the git repository holding `dir` (walking up to a `.git`).
pub fn repo_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

fn absolute(p: &Path, cwd: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}

/// Lexically normalise (`a/./b/../c` → `a/c`).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// A path as shown in outputs: relative to `cwd` when it lies under it.
pub fn display_path(p: &Path, cwd: &Path) -> String {
    if p.is_absolute() {
        if let Ok(rest) = p.strip_prefix(cwd) {
            if !rest.as_os_str().is_empty() {
                return rest.display().to_string();
            }
        }
    }
    p.display().to_string()
}

/// The base of a skill's default folders: its git repository's root, else the working directory.
pub fn default_base(skill_path: &Path, cwd: &Path) -> PathBuf {
    let abs = normalize(&absolute(skill_path, cwd));
    abs.parent()
        .and_then(repo_root)
        .unwrap_or_else(|| cwd.to_path_buf())
}

/// The report folder for a skill: `report_dir` (already resolved), else the
/// configured one, else `.planning/patterns/skill-coverage` of its repository.
pub fn report_dir_for(skill_path: &Path, config: &Config, cwd: &Path) -> PathBuf {
    match &config.report_dir {
        Some(d) => absolute(d, cwd),
        None => default_base(skill_path, cwd).join(DEFAULT_REPORT_DIR),
    }
}

/// A trajectory root and whether the user named it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Root {
    path: PathBuf,
    named: bool,
}

fn roots_for(skill_path: &Path, options: &GateOptions, config: &Config) -> Vec<Root> {
    if !options.trajectories.is_empty() {
        return options
            .trajectories
            .iter()
            .map(|p| Root {
                path: p.clone(),
                named: true,
            })
            .collect();
    }
    match &config.trajectories {
        Some(v) => v
            .iter()
            .map(|p| Root {
                path: p.clone(),
                named: false,
            })
            .collect(),
        None => {
            let base = default_base(skill_path, &options.cwd);
            let p = base.join(DEFAULT_TRAJECTORIES);
            vec![Root {
                path: p,
                named: false,
            }]
        }
    }
}

/// Files under a root: the file itself, or the transcripts discovered below a
/// folder, with what discovery left out (and why).
fn files_of(root: &Root, cwd: &Path) -> Result<Found, GateError> {
    let abs = absolute(&root.path, cwd);
    let meta = match std::fs::metadata(&abs) {
        Ok(m) => m,
        Err(e) if !root.named && e.kind() == std::io::ErrorKind::NotFound => {
            // A default or configured root that does not exist holds nothing;
            // say so rather than stay silent.
            return Ok(Found {
                files: Vec::new(),
                skipped: vec![(root.path.clone(), "no such trajectory folder".to_string())],
            });
        }
        Err(e) => {
            return Err(GateError::Io {
                path: root.path.clone(),
                message: format!("cannot read trajectories: {e}"),
            })
        }
    };
    if meta.is_file() {
        return Ok(Found {
            files: vec![root.path.clone()],
            skipped: Vec::new(),
        });
    }
    let found = decode::discover::discover_all(&root.path).map_err(|e| GateError::Io {
        path: root.path.clone(),
        message: format!("cannot list trajectories: {e}"),
    })?;
    Ok(Found {
        files: found.files,
        skipped: found.skipped,
    })
}

/// What a root holds.
#[derive(Debug, Clone, Default)]
struct Found {
    files: Vec<PathBuf>,
    skipped: Vec<(PathBuf, String)>,
}

/// A skill ready to judge: parsed, constraints loaded and compiled, roots known.
struct Prepared {
    skill: Skill,
    name: String,
    loaded: extract::Loaded,
    set: CompiledSet,
    roots: Vec<Root>,
    /// `stale: discard` in the configuration.
    discard_stale: bool,
}

/// What one skill makes of one trajectory file. Small: the decoded trajectory
/// is dropped as soon as every skill has judged it, so memory is bounded by
/// the largest single session, not by the corpus.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Judged {
    Discarded(Discarded),
    Valid {
        path: String,
        load: LoadInfo,
        /// One label per constraint, compact (serialized as the list of
        /// `label::TrajectoryLabel` it holds).
        labels: label::compact::Labels,
    },
}

/// Judge one decoded trajectory for several skills (`skills`, indices in
/// `prepared`): each skill's first load (else why the file is discarded),
/// then the labels of every constraint over it, with the event facts shared
/// between skills that match the same patterns ([`label::label_many`]).
/// `parallel`: spread the skills over the thread pool.
fn judge_all(
    prepared: &[Prepared],
    skills: &[usize],
    shown: &str,
    decoded: &Result<Trajectory, DecodeError>,
    parallel: bool,
) -> Vec<Judged> {
    let events = match decoded {
        Ok(t) => decode::skills::load_events(t),
        Err(_) => Vec::new(),
    };
    let loads: Vec<Result<(LoadInfo, ScopeStart), Discarded>> = skills
        .iter()
        .map(|&si| judge_load(&prepared[si], shown.to_string(), decoded, &events))
        .collect();
    let Ok(t) = decoded else {
        return loads
            .into_iter()
            .filter_map(Result::err)
            .map(Judged::Discarded)
            .collect();
    };
    let pairs: Vec<(&CompiledSet, ScopeStart)> = skills
        .iter()
        .zip(&loads)
        .filter_map(|(&si, l)| l.as_ref().ok().map(|(_, s)| (&prepared[si].set, *s)))
        .collect();
    let labels: Vec<label::compact::Labels> = if parallel && pairs.len() > 1 {
        let per = pairs.len().div_ceil(rayon::current_num_threads().max(1));
        pairs
            .par_chunks(per)
            .flat_map_iter(|c| label::label_many_compact(c, t))
            .collect()
    } else {
        label::label_many_compact(&pairs, t)
    };
    let mut labels = labels.into_iter();
    loads
        .into_iter()
        .map(|l| match l {
            Err(d) => Judged::Discarded(d),
            Ok((load, _)) => Judged::Valid {
                path: load.path.to_string(),
                load,
                labels: labels.next().unwrap_or_default(),
            },
        })
        .collect()
}

/// A skill's first load in a decoded trajectory, with where its scope starts;
/// else why the file is discarded for it.
fn judge_load(
    p: &Prepared,
    shown: String,
    decoded: &Result<Trajectory, DecodeError>,
    events: &[(usize, &str, LoadVia)],
) -> Result<(LoadInfo, ScopeStart), Discarded> {
    let name = &p.name;
    let t = match decoded {
        Err(e) => {
            return Err(Discarded {
                path: shown,
                reason: format!("not decodable: {}", e.message),
            })
        }
        Ok(t) => t,
    };
    match first_load_in(t, events, name) {
        None => Err(Discarded {
            path: shown,
            reason: match t.retro.as_ref().and_then(|r| r.loaded_skills.as_ref()) {
                Some(_) => {
                    format!("skill `{name}` is not in the session-retro sidecar's loaded_skills")
                }
                None => format!("skill `{name}` is not loaded in this trajectory"),
            },
        }),
        Some(load) => {
            let stale = is_stale(t, name, &p.skill.source);
            if stale && p.discard_stale {
                return Err(Discarded {
                    path: shown,
                    reason: format!("stale: the session ran an older text of skill `{name}` (discarded by `stale: discard` in the configuration)"),
                });
            }
            let ev = load.index.map(|i| &t.events[i]);
            let info = LoadInfo {
                path: shown.as_str().into(),
                format: t.format.as_str().into(),
                event: ev.map(|e| e.index),
                line: ev.and_then(|e| e.location.line),
                via: via_name(load.via).into(),
                weak: load.weak,
                complete: t.complete && !t.truncated,
                undecodable: t.undecodable_count(),
                stale,
            };
            Ok((info, ScopeStart { load: load.index }))
        }
    }
}

/// Run the gate over skills (SKILL.md files, skill folders or trees).
///
/// Every trajectory file is decoded once, in parallel, and judged by every
/// skill whose roots hold it (in parallel over skills) before the next one is
/// read; only the small per-skill judgements are kept. Results are merged in
/// input order, so the output does not depend on the thread count.
///
/// What the report prints once per trajectory (each rule's rows and cited
/// locations) is written to an anonymous temporary file as it comes and read
/// back when the verdicts are rendered, so memory does not grow with the
/// corpus ([`score::spill`]; kept in memory when no such file can be made).
pub fn run_gate(
    skill_paths: &[PathBuf],
    options: &GateOptions,
    config: &Config,
) -> Result<Vec<SkillVerdict>, GateError> {
    run_gate_with(skill_paths, options, config, SpillFile::create())
}

/// [`run_gate`], keeping the per-trajectory lists in `spill` (in memory when
/// `None`): the verdicts read, compare and render the same either way.
pub fn run_gate_with(
    skill_paths: &[PathBuf],
    options: &GateOptions,
    config: &Config,
    spill: Option<Arc<SpillFile>>,
) -> Result<Vec<SkillVerdict>, GateError> {
    match run(skill_paths, options, config, None, spill)? {
        Run::Verdicts(v) => Ok(v),
        Run::Shard(_) => unreachable!("no shard was asked for"),
    }
}

/// Run the gate's share `shard` of the trajectories (`gate --shard K/N`):
/// what every skill judged of each file this shard owns, with the file's
/// position in the unsharded order, for [`merge_shards`].
pub fn run_shard(
    skill_paths: &[PathBuf],
    options: &GateOptions,
    config: &Config,
    shard: Shard,
) -> Result<ShardResult, GateError> {
    match run(skill_paths, options, config, Some(shard), None)? {
        Run::Shard(r) => Ok(r),
        Run::Verdicts(_) => unreachable!("a shard was asked for"),
    }
}

enum Run {
    Verdicts(Vec<SkillVerdict>),
    Shard(ShardResult),
}

/// A shard's result (docs/shards.md): per skill, the judged files it owns.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardResult {
    pub version: u32,
    pub kind: String,
    pub skillgate_version: String,
    /// sha256 of the configuration file's bytes; `none` without one.
    pub config_sha256: String,
    pub shard: Shard,
    pub skills: Vec<ShardSkill>,
}

/// One skill in a shard result.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardSkill {
    pub skill: SkillKey,
    /// How many files (and unreadable entries) the skill has in the whole run.
    pub total: usize,
    pub entries: Vec<ShardEntry>,
}

/// One judged file: its position among the skill's files in the unsharded run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardEntry {
    pub pos: usize,
    pub judged: Judged,
}

/// The configuration's identity for shards: sha256 of its file, or `none`.
pub fn config_sha256(config: &Config) -> Result<String, GateError> {
    use sha2::Digest;
    match &config.file {
        None => Ok("none".into()),
        Some(f) => {
            let bytes =
                crate::fsutil::read_bounded(f, crate::fsutil::MAX_CONFIG_BYTES).map_err(|e| {
                    GateError::Io {
                        path: f.clone(),
                        message: e.to_string(),
                    }
                })?;
            Ok(format!("{:x}", sha2::Sha256::digest(&bytes)))
        }
    }
}

fn lockfile_sha256(loaded: &extract::Loaded) -> Result<Option<String>, GateError> {
    use sha2::Digest;
    match &loaded.source {
        extract::ConstraintSource::Lockfile { path, .. } => {
            let bytes = crate::fsutil::read_bounded(path, crate::fsutil::MAX_LOCKFILE_BYTES)
                .map_err(|e| GateError::Io {
                    path: path.clone(),
                    message: e.to_string(),
                })?;
            Ok(Some(format!("{:x}", sha2::Sha256::digest(&bytes))))
        }
        extract::ConstraintSource::Extracted => Ok(None),
    }
}

fn prepare(
    skill_paths: &[PathBuf],
    options: &GateOptions,
    config: &Config,
) -> Result<Vec<Prepared>, GateError> {
    let skill_files = crate::parse::walk::find_skills(skill_paths)?;
    let lexicon_error = |message: String| match &config.file {
        Some(f) => GateError::Config(ConfigError {
            path: f.clone(),
            line: None,
            message: format!("invalid lexicon: {message}"),
        }),
        None => GateError::Io {
            path: PathBuf::from("<lexicon>"),
            message,
        },
    };
    // The scopes serve every skill; the whole lexicon (its phrases'
    // patterns and predicates) only a skill without a lockfile, so it is
    // compiled when the first such skill asks, once for all threads. The
    // configured entries are checked here either way.
    let scopes = Lexicon::scopes_with_overrides(&config.lexicon).map_err(lexicon_error)?;
    let full: OnceLock<Result<Lexicon, String>> = OnceLock::new();
    let lexicon = || {
        full.get_or_init(|| Lexicon::with_overrides(&config.lexicon))
            .as_ref()
            .map_err(|m| lexicon_error(m.clone()))
    };

    // Parse every skill and compile its constraints first: a bad skill or
    // lockfile is an input error before any trajectory is read.
    // On every thread (32 skills' lockfiles and patterns add up); the first
    // error in skill order is the one reported.
    let prepared: Vec<Result<Prepared, GateError>> = skill_files
        .par_iter()
        .map(|path| prepare_one(path, &scopes, lexicon, options, config))
        .collect();
    prepared.into_iter().collect()
}

fn prepare_one<'a>(
    path: &Path,
    scopes: &[Scope],
    lexicon: impl FnOnce() -> Result<&'a Lexicon, GateError>,
    options: &GateOptions,
    config: &Config,
) -> Result<Prepared, GateError> {
    let skill = Skill::read(path)?;
    if let Some(w) = skill.recovered_warning() {
        tracing::warn!("{w}");
    }
    let loaded = extract::load_constraints_with(&skill, lexicon)?;
    let set = CompiledSet::compile_with_scopes(&loaded.constraints, scopes).map_err(|e| {
        GateError::Predicate {
            path: match &loaded.source {
                extract::ConstraintSource::Lockfile { path, .. } => path.clone(),
                extract::ConstraintSource::Extracted => path.to_path_buf(),
            },
            message: e.to_string(),
        }
    })?;
    let roots = roots_for(path, options, config);
    Ok(Prepared {
        name: skill.name(),
        skill,
        loaded,
        set,
        roots,
        discard_stale: config.stale == StalePolicy::Discard,
    })
}

fn run(
    skill_paths: &[PathBuf],
    options: &GateOptions,
    config: &Config,
    shard: Option<Shard>,
    spill: Option<Arc<SpillFile>>,
) -> Result<Run, GateError> {
    let cwd = &options.cwd;
    let prepared = prepare(skill_paths, options, config)?;
    let shard_root = repo_root(cwd).unwrap_or_else(|| cwd.clone());
    let owns =
        |p: &Path| shard.is_none_or(|s| s.owns(&crate::shard::key(&absolute(p, cwd), &shard_root)));

    // Every trajectory file once, in a fixed order (linear in the number of
    // files: one hash lookup per file, never a scan of the list).
    let mut files_by_root: BTreeMap<Root, Found> = BTreeMap::new();
    for p in &prepared {
        for r in &p.roots {
            if !files_by_root.contains_key(r) {
                files_by_root.insert(r.clone(), files_of(r, cwd)?);
            }
        }
    }
    // Each distinct file's number, per root (built while the paths are
    // borrowed; the index is dropped before any file is read).
    let roots: Vec<Root> = files_by_root.keys().cloned().collect();
    let mut origin: Vec<(usize, usize)> = Vec::new();
    let mut named: Vec<bool> = Vec::new();
    let mut files_of_root: Vec<Vec<usize>> = Vec::with_capacity(roots.len());
    {
        let mut position: HashMap<&PathBuf, usize> = HashMap::new();
        for (ri, (root, found)) in files_by_root.iter().enumerate() {
            let root_norm = root.named.then(|| normalize(&root.path));
            let mut mine = Vec::with_capacity(found.files.len());
            for (k, f) in found.files.iter().enumerate() {
                let is_named = root_norm.as_ref().is_some_and(|r| normalize(f) == *r);
                let i = match position.entry(f) {
                    Entry::Occupied(e) => {
                        named[*e.get()] |= is_named;
                        *e.get()
                    }
                    Entry::Vacant(e) => {
                        e.insert(origin.len());
                        origin.push((ri, k));
                        named.push(is_named);
                        origin.len() - 1
                    }
                };
                mine.push(i);
            }
            files_of_root.push(mine);
        }
    }
    // Which files each skill reads (in its roots' order), and which skills
    // read each file (in skill order).
    let root_no = |r: &Root| {
        roots
            .binary_search(r)
            .expect("every root of a skill was walked")
    };
    // Skills reading the same files share one list (32 skills over one
    // root: one list, not 32).
    let mut files_of_skill: Vec<Arc<[usize]>> = Vec::with_capacity(prepared.len());
    let mut lists: HashSet<Arc<[usize]>> = HashSet::new();
    for p in &prepared {
        let mut seen: HashSet<usize> = HashSet::new();
        let mut mine = Vec::new();
        for r in &p.roots {
            for &i in &files_of_root[root_no(r)] {
                if seen.insert(i) {
                    mine.push(i);
                }
            }
        }
        let mine = match lists.get(mine.as_slice()) {
            Some(l) => l.clone(),
            None => {
                let l: Arc<[usize]> = mine.into();
                lists.insert(l.clone());
                l
            }
        };
        files_of_skill.push(mine);
    }
    drop(lists);
    drop(files_of_root);
    let skills_of_file = SkillsOfFile::new(origin.len(), &files_of_skill);
    // Every trajectory file once, in a fixed order; a file's path is moved
    // out of its root's list (one copy of it) and freed once the file is
    // judged: the memory kept for the whole run is what the report prints.
    let mut walked: Vec<Vec<PathBuf>> = files_by_root
        .values_mut()
        .map(|f| std::mem::take(&mut f.files))
        .collect();
    let all: Vec<(std::sync::Mutex<PathBuf>, bool)> = origin
        .iter()
        .zip(&named)
        .map(|(&(ri, k), &n)| (std::sync::Mutex::new(std::mem::take(&mut walked[ri][k])), n))
        .collect();
    drop((walked, origin, named, roots));

    // Decode each file once and let every skill judge it; the trajectory is
    // dropped before the worker takes the next file.
    let opts = DecodeOptions::default();
    let few_files = all.len() < 4 * rayon::current_num_threads();
    let work = |i: usize| -> Result<Vec<Option<Judged>>, DecodeError> {
        let ((slot, named), skills) = (&all[i], skills_of_file.get(i));
        // Each file is worked once: its path leaves the list here.
        let path = std::mem::take(&mut *slot.lock().unwrap_or_else(|e| e.into_inner()));
        let path = &path;
        if !owns(path) {
            // Another shard's file: not read here.
            return Ok(vec![None; skills.len()]);
        }
        let decoded = decode::decode_path(&absolute(path, cwd), None, &opts);
        match decoded {
            // A bad session-retro sidecar is an input error wherever it is:
            // ignoring it would change which trajectories count.
            Err(e) if decode::retro::is_sidecar(&e.path) => return Err(e),
            Err(mut e) if *named => {
                e.path = path.to_path_buf();
                return Err(e);
            }
            // A discovered file that cannot be decoded could be a session
            // that broke a rule: dropping it could turn a block into a pass
            // (fail-open). The gate refuses instead (exit 2, docs/gate.md).
            Err(mut e) => {
                e.path = path.to_path_buf();
                e.message = format!(
                    "{} — a file under the trajectory roots that cannot be decoded could hide a violation; repair it or move it out of the roots",
                    e.message.replace(" (use --input-format to name one)", "")
                );
                return Err(e);
            }
            Ok(_) => {}
        }
        let shown = display_path(path, cwd);
        // With enough files to keep every thread busy: no nested
        // parallelism, so a thread never holds one trajectory while stealing
        // the decoding of another (memory stays at one trajectory per thread).
        Ok(judge_all(&prepared, skills, &shown, &decoded, few_files)
            .into_iter()
            .map(Some)
            .collect())
    };
    // The skipped (unreadable) entries of a skill's roots, first among its entries.
    let skipped_of = |p: &Prepared| -> Vec<Option<Judged>> {
        let mut entries = Vec::new();
        for r in &p.roots {
            for (path, why) in &files_by_root[r].skipped {
                entries.push(owns(path).then(|| {
                    Judged::Discarded(Discarded {
                        path: display_path(path, cwd),
                        reason: format!("not read: {why}"),
                    })
                }));
            }
        }
        entries
    };

    if shard.is_none() {
        let verdicts = judge_streaming(
            &prepared,
            &files_of_skill,
            &skills_of_file,
            &work,
            &skipped_of,
            &spill,
        )
        .map_err(GateError::Trajectory)?
        .finish()
        .into_par_iter()
        .zip(&prepared)
        .map(|(acc, p)| acc.verdict(p, config, cwd))
        .collect();
        return Ok(Run::Verdicts(verdicts));
    }

    let judged: Vec<Result<Vec<Option<Judged>>, DecodeError>> =
        (0..all.len()).into_par_iter().map(work).collect();
    // The first error in file order stops the gate.
    let mut judged: Vec<Vec<Option<Judged>>> = judged
        .into_iter()
        .collect::<Result<_, _>>()
        .map_err(GateError::Trajectory)?;

    // Per skill, its entries in the unsharded order: unreadable files of its
    // roots first, then every file it reads.
    let mut verdicts = Vec::with_capacity(prepared.len());
    let mut shard_skills = Vec::new();
    for (si, p) in prepared.iter().enumerate() {
        let mut entries: Vec<Option<Judged>> = skipped_of(p);
        for &i in files_of_skill[si].iter() {
            let k = skills_of_file
                .get(i)
                .binary_search(&si)
                .expect("every file a skill reads lists the skill");
            entries.push(judged[i][k].take());
        }
        match shard {
            None => {
                let all = entries
                    .into_iter()
                    .map(|e| e.expect("an unsharded run judges every file"));
                verdicts.push(verdict_of(p, all, config, cwd, spill.clone()));
            }
            Some(_) => shard_skills.push(ShardSkill {
                skill: SkillKey {
                    name: p.name.clone(),
                    path: display_path(&p.skill.path, cwd),
                    skill_sha256: p.skill.sha256.clone(),
                    lockfile_sha256: lockfile_sha256(&p.loaded)?,
                },
                total: entries.len(),
                entries: entries
                    .into_iter()
                    .enumerate()
                    .filter_map(|(pos, e)| e.map(|judged| ShardEntry { pos, judged }))
                    .collect(),
            }),
        }
    }
    Ok(match shard {
        None => Run::Verdicts(verdicts),
        Some(shard) => Run::Shard(ShardResult {
            version: crate::shard::SHARD_VERSION,
            kind: crate::shard::SHARD_KIND.into(),
            skillgate_version: env!("CARGO_PKG_VERSION").into(),
            config_sha256: config_sha256(config)?,
            shard,
            skills: shard_skills,
        }),
    })
}

/// Which skills read each file, in skill order: per file, the number of
/// its set of skills (files read by the same skills — all of them, when
/// every skill reads one root — share one set), not a list per file.
struct SkillsOfFile {
    of_file: Vec<u32>,
    skills: Vec<Vec<usize>>,
}

impl SkillsOfFile {
    /// `files_of_skill`: per skill its files; skills reading the same files
    /// share one list.
    fn new(files: usize, files_of_skill: &[Arc<[usize]>]) -> SkillsOfFile {
        // The distinct lists, each with the skills reading it.
        let mut distinct: Vec<(&Arc<[usize]>, Vec<usize>)> = Vec::new();
        for (si, list) in files_of_skill.iter().enumerate() {
            match distinct.iter_mut().find(|(l, _)| Arc::ptr_eq(l, list)) {
                Some((_, members)) => members.push(si),
                None => distinct.push((list, vec![si])),
            }
        }
        // A file's set: the distinct lists holding it, in order (set 0: none).
        let mut of_file = vec![0u32; files];
        let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
        let mut next: HashMap<(u32, usize), u32> = HashMap::new();
        for (j, (list, _)) in distinct.iter().enumerate() {
            for &f in list.iter() {
                let from = of_file[f];
                of_file[f] = match next.entry((from, j)) {
                    Entry::Occupied(e) => *e.get(),
                    Entry::Vacant(e) => {
                        let mut set = sets[from as usize].clone();
                        set.push(j);
                        sets.push(set);
                        let n =
                            u32::try_from(sets.len() - 1).expect("fewer than 4G sets of skills");
                        *e.insert(n)
                    }
                };
            }
        }
        let skills = sets
            .into_iter()
            .map(|set| {
                let mut skills: Vec<usize> = set
                    .iter()
                    .flat_map(|&j| distinct[j].1.iter().copied())
                    .collect();
                skills.sort_unstable();
                skills
            })
            .collect();
        SkillsOfFile { of_file, skills }
    }
    fn len(&self) -> usize {
        self.of_file.len()
    }
    fn get(&self, i: usize) -> &[usize] {
        &self.skills[self.of_file[i] as usize]
    }
}

/// Judge every file (`work(i)` decodes file `i` and lets each of its skills
/// judge it) and hand each skill its judged files in its own order, as soon
/// as they are ready: memory holds the compact verdicts being built and the
/// few files judged ahead of an earlier one still in progress, never every
/// file's judgement at once. Workers take files in order (one shared
/// counter), so that queue stays short. The first error in file order stops
/// the gate, as in the sharded path: later files are not started.
fn judge_streaming(
    prepared: &[Prepared],
    files_of_skill: &[Arc<[usize]>],
    skills_of_file: &SkillsOfFile,
    work: &(dyn Fn(usize) -> Result<Vec<Option<Judged>>, DecodeError> + Sync),
    skipped_of: &dyn Fn(&Prepared) -> Vec<Option<Judged>>,
    spill: &Option<Arc<SpillFile>>,
) -> Result<Accs, DecodeError> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let n = skills_of_file.len();
    let mut accs = Accs::new(prepared, files_of_skill, spill);
    for (si, p) in prepared.iter().enumerate() {
        for e in skipped_of(p).into_iter().flatten() {
            accs.push_one(si, e);
        }
    }
    // Per class: how many of its files were handed over, and the ones judged
    // ahead of their turn (a skill's roots may list files in another order),
    // each with its members' judgements in skill order.
    let classes = accs.classes.len();
    let mut cursor = vec![0usize; classes];
    let mut ahead: Vec<HashMap<usize, Vec<Judged>>> = vec![HashMap::new(); classes];
    let mut pending: BTreeMap<usize, Result<Vec<Option<Judged>>, DecodeError>> = BTreeMap::new();
    let mut expect = 0usize;
    let mut failure = None;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let threads = rayon::current_num_threads().clamp(1, n.max(1));
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        // The calling thread decodes too, so `threads - 1` more are started
        // (with one thread, none): it takes what the others finished between
        // its own files instead of sleeping on the channel and being woken
        // for every file (a wake-up and a switch per file, in both threads).
        for _ in 1..threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n || tx.send((i, work(i))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // File `i`'s result; every result due is handed over in file order.
        // `false`: a file failed, and the run stops.
        let mut take = |i: usize, r: Result<Vec<Option<Judged>>, DecodeError>| -> bool {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&expect) {
                let judged = match r {
                    Ok(j) => j,
                    Err(e) => {
                        failure = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        return false;
                    }
                };
                let skills = skills_of_file.get(expect);
                for (&si, j) in skills.iter().zip(judged) {
                    if let Some(j) = j {
                        let c = accs.class_of[si];
                        ahead[c].entry(expect).or_default().push(j);
                    }
                }
                // Every member of a class reads this file: its entry is whole.
                for &si in skills {
                    let c = accs.class_of[si];
                    if accs.classes[c][0] != si {
                        continue;
                    }
                    let mine = &files_of_skill[si];
                    while let Some(js) = mine.get(cursor[c]).and_then(|f| ahead[c].remove(f)) {
                        accs.push_class(c, js);
                        cursor[c] += 1;
                    }
                }
                expect += 1;
            }
            true
        };
        let mut going = true;
        while going {
            while going {
                match rx.try_recv() {
                    Ok((i, r)) => going = take(i, r),
                    Err(_) => break,
                }
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if !going || i >= n {
                break;
            }
            going = take(i, work(i));
        }
        if going {
            for (i, r) in rx {
                if !take(i, r) {
                    break;
                }
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(accs),
    }
}

/// A skill's verdict from its judged files, in the unsharded order: the one
/// place both a whole run and a merge of shards score a skill.
fn verdict_of(
    p: &Prepared,
    entries: impl Iterator<Item = Judged>,
    config: &Config,
    cwd: &Path,
    spill: Option<Arc<SpillFile>>,
) -> SkillVerdict {
    let mut accs = Accs::new(std::slice::from_ref(p), &[Arc::from([])], &spill);
    for e in entries {
        accs.push_one(0, e);
    }
    let done = accs.finish().pop().expect("one skill");
    done.verdict(p, config, cwd)
}

/// Every skill's judged files so far, in the unsharded order. Each
/// trajectory's labels go into compact columns as they come and are
/// dropped; its path is stored once, shared by every list that names it.
///
/// Skills that read the same files in the same order and have as many
/// constraints with the same starting labels form a class. While every
/// file gives the members of a class the same load and labels, one
/// [`score::ColumnsBuilder`] holds their columns (32 copies of a skill over
/// the same trajectories build, write out and print one set of lists, not
/// 32); members that part ways take a clone of it, which keeps what was
/// written before and goes on alone.
struct Accs {
    /// Per skill: discarded and stale trajectories.
    sets: Vec<TrajectorySet>,
    /// Per skill: which builder holds its columns.
    builder_of: Vec<usize>,
    builders: Vec<score::ColumnsBuilder>,
    /// Per skill: its class; per class: its members, in skill order.
    class_of: Vec<usize>,
    classes: Vec<Vec<usize>>,
}

/// A skill's judged files, once every file is in.
struct Done {
    set: TrajectorySet,
    columns: (
        score::StrList,
        score::LoadList,
        Vec<score::ConstraintColumn>,
    ),
}

impl Accs {
    /// `files_of_skill`: per skill, the files it reads (classes are made of
    /// skills with the same list); `spill`: where the per-trajectory lists
    /// go (in memory when `None`).
    fn new(
        prepared: &[Prepared],
        files_of_skill: &[Arc<[usize]>],
        spill: &Option<Arc<SpillFile>>,
    ) -> Accs {
        let mut index: HashMap<(&[usize], Vec<Label>), usize> = HashMap::new();
        let mut accs = Accs {
            sets: Vec::with_capacity(prepared.len()),
            builder_of: Vec::with_capacity(prepared.len()),
            builders: Vec::new(),
            class_of: Vec::with_capacity(prepared.len()),
            classes: Vec::new(),
        };
        for (si, (p, files)) in prepared.iter().zip(files_of_skill).enumerate() {
            let start = label::start_labels(&p.set);
            let c = *index.entry((&**files, start.clone())).or_insert_with(|| {
                accs.classes.push(Vec::new());
                accs.builders
                    .push(score::ColumnsBuilder::new(start, spill.clone()));
                accs.classes.len() - 1
            });
            accs.classes[c].push(si);
            accs.class_of.push(c);
            accs.builder_of.push(c);
            accs.sets.push(TrajectorySet::default());
        }
        accs
    }

    /// Skill `si`'s next entry, on its own (skipped files, merged shards):
    /// a valid one takes its columns out of a builder they shared.
    fn push_one(&mut self, si: usize, e: Judged) {
        let b = self.builder_of[si];
        let valid = matches!(e, Judged::Valid { .. });
        if valid && self.builder_of.iter().filter(|&&x| x == b).count() > 1 {
            self.builders.push(self.builders[b].clone());
            self.builder_of[si] = self.builders.len() - 1;
        }
        self.push_to(si, e);
    }

    fn push_to(&mut self, si: usize, e: Judged) {
        match e {
            Judged::Discarded(d) => self.sets[si].discarded.push(d),
            Judged::Valid { path, load, labels } => {
                self.builders[self.builder_of[si]].push(&path, &load, &labels);
                if load.stale {
                    self.sets[si].stale.push(path.into());
                }
            }
        }
    }

    /// One file's entries for every member of class `c`, in skill order.
    fn push_class(&mut self, c: usize, judged: Vec<Judged>) {
        let members = std::mem::take(&mut self.classes[c]);
        if members.len() == 1 {
            if let Some(e) = judged.into_iter().next() {
                self.push_to(members[0], e);
            }
            self.classes[c] = members;
            return;
        }
        // What each member would push: nothing (discarded), or its load and labels.
        fn value(j: &Judged) -> Option<(&LoadInfo, &label::compact::Labels)> {
            match j {
                Judged::Discarded(_) => None,
                Judged::Valid { load, labels, .. } => Some((load, labels)),
            }
        }
        // Members sharing a builder and pushing the same: one push. The
        // first value seen keeps the builder, any other takes a clone of it
        // as it is before this file.
        let mut pushes: Vec<(usize, usize)> = Vec::new(); // (builder, member position)
        let mut moved: Vec<(usize, usize)> = Vec::new(); // (member position, new builder)
        let mut parts: Vec<(usize, usize, usize)> = Vec::new(); // (old builder, first member position, builder)
        for (k, (&si, j)) in members.iter().zip(&judged).enumerate() {
            let old = self.builder_of[si];
            let same = parts
                .iter()
                .find(|&&(b, first, _)| b == old && value(&judged[first]) == value(j));
            let to = match same {
                Some(&(_, _, to)) => to,
                None => {
                    let to = if parts.iter().any(|&(b, _, _)| b == old) {
                        self.builders.push(self.builders[old].clone());
                        self.builders.len() - 1
                    } else {
                        old
                    };
                    parts.push((old, k, to));
                    pushes.push((to, k));
                    to
                }
            };
            if to != old {
                moved.push((k, to));
            }
        }
        for (k, to) in moved {
            self.builder_of[members[k]] = to;
        }
        for (b, k) in pushes {
            if let Judged::Valid { path, load, labels } = &judged[k] {
                self.builders[b].push(path, load, labels);
            }
        }
        for (&si, j) in members.iter().zip(judged) {
            match j {
                Judged::Discarded(d) => self.sets[si].discarded.push(d),
                Judged::Valid { path, load, .. } => {
                    if load.stale {
                        self.sets[si].stale.push(path.into());
                    }
                }
            }
        }
        self.classes[c] = members;
    }

    /// Every skill's judged files, in skill order (skills that shared a
    /// builder to the end get clones of the same lists).
    fn finish(self) -> Vec<Done> {
        let mut built: Vec<Option<_>> = self
            .builders
            .into_iter()
            .map(|b| Some(b.finish()))
            .collect();
        let mut users = vec![0usize; built.len()];
        for &b in &self.builder_of {
            users[b] += 1;
        }
        self.sets
            .into_iter()
            .zip(self.builder_of)
            .map(|(set, b)| {
                users[b] -= 1;
                let columns = if users[b] == 0 {
                    built[b].take()
                } else {
                    built[b].clone()
                };
                Done {
                    set,
                    columns: columns.expect("a builder is taken by its last user"),
                }
            })
            .collect()
    }
}

impl Done {
    fn verdict(self, p: &Prepared, config: &Config, cwd: &Path) -> SkillVerdict {
        let mut set = self.set;
        let (valid, loads, columns) = self.columns;
        (set.valid, set.loads) = (valid, loads);
        let source = match &p.loaded.source {
            extract::ConstraintSource::Lockfile { path, drift } => SourceInfo {
                kind: "lockfile".into(),
                lockfile: Some(display_path(&absolute(path, cwd), cwd)),
                drift: *drift,
            },
            extract::ConstraintSource::Extracted => SourceInfo {
                kind: "extracted".into(),
                lockfile: None,
                drift: false,
            },
        };
        score::score(ScoreInput {
            skill: SkillRef {
                name: p.name.clone(),
                path: display_path(&p.skill.path, cwd),
            },
            constraints: &p.loaded.constraints,
            columns,
            trajectories: set,
            source,
            waivers: &config.waivers,
            thresholds: config.thresholds,
        })
    }
}

/// The verdicts one unsharded run gives, from every shard's result
/// (`skillgate merge`). The skills are read again from their paths (relative
/// to `options.cwd`, as in the shard jobs) and must hash as the shards say;
/// the configuration must be the shards'. No transcript is read.
pub fn merge_shards(
    shards: &[(PathBuf, ShardResult)],
    options: &GateOptions,
    config: &Config,
) -> Result<Vec<SkillVerdict>, MergeError> {
    let headers: Vec<crate::shard::Header<'_>> = shards
        .iter()
        .map(|(path, r)| crate::shard::Header {
            path,
            version: r.version,
            kind: &r.kind,
            skillgate_version: &r.skillgate_version,
            config_sha256: &r.config_sha256,
            shard: r.shard,
            skills: r.skills.iter().map(|s| s.skill.clone()).collect(),
        })
        .collect();
    let order = crate::shard::check(&headers)?;
    let first = &shards[order[0]];
    let err = |path: &Path, message: String| MergeError {
        path: path.to_path_buf(),
        message,
    };
    if first.1.skillgate_version != env!("CARGO_PKG_VERSION") {
        return Err(err(
            &first.0,
            format!(
                "written by skillgate {}, but this is {}: merge with the version that gated",
                first.1.skillgate_version,
                env!("CARGO_PKG_VERSION")
            ),
        ));
    }
    let here = config_sha256(config).map_err(|e| err(&first.0, e.to_string()))?;
    if here != first.1.config_sha256 {
        return Err(err(
            &first.0,
            format!(
                "the shards were judged with another configuration (sha256 {}) than this merge's ({})",
                first.1.config_sha256.chars().take(12).collect::<String>(),
                here.chars().take(12).collect::<String>()
            ),
        ));
    }
    let cwd = &options.cwd;
    let paths: Vec<PathBuf> = first
        .1
        .skills
        .iter()
        .map(|s| cwd.join(&s.skill.path))
        .collect();
    let prepared = prepare(&paths, options, config).map_err(|e| err(&first.0, e.to_string()))?;
    if prepared.len() != first.1.skills.len() {
        return Err(err(
            &first.0,
            "the skills named in the shards are not all found again here".into(),
        ));
    }
    let mut verdicts = Vec::with_capacity(prepared.len());
    for (si, p) in prepared.iter().enumerate() {
        let key = &first.1.skills[si];
        if p.skill.sha256 != key.skill.skill_sha256
            || lockfile_sha256(&p.loaded).map_err(|e| err(&first.0, e.to_string()))?
                != key.skill.lockfile_sha256
        {
            return Err(err(
                &first.0,
                format!(
                    "skill `{}` ({}) or its lockfile changed since the shards were judged",
                    key.skill.name, key.skill.path
                ),
            ));
        }
        let mut slots: Vec<Option<Judged>> = vec![None; key.total];
        for &i in &order {
            let (path, r) = &shards[i];
            let s = &r.skills[si];
            if s.total != key.total {
                return Err(err(
                    path,
                    format!(
                        "skill `{}` has {} files here but {} in {}",
                        key.skill.name,
                        s.total,
                        key.total,
                        first.0.display()
                    ),
                ));
            }
            for e in &s.entries {
                match slots.get_mut(e.pos) {
                    Some(slot @ None) => *slot = Some(e.judged.clone()),
                    _ => {
                        return Err(err(
                            path,
                            format!(
                            "skill `{}`: file position {} is out of range or given by two shards",
                            key.skill.name, e.pos
                        ),
                        ))
                    }
                }
            }
        }
        if let Some(missing) = slots.iter().position(|s| s.is_none()) {
            return Err(err(
                &first.0,
                format!(
                    "skill `{}`: file position {missing} is in no shard (were the shards run over the same files?)",
                    key.skill.name
                ),
            ));
        }
        verdicts.push(verdict_of(
            p,
            slots.into_iter().flatten(),
            config,
            cwd,
            None,
        ));
    }
    Ok(verdicts)
}

/// The kebab-case name of a load kind (its serde name, so new kinds need no edit here).
pub fn via_name(v: LoadVia) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|x| x.as_str().map(str::to_string))
        .unwrap_or_else(|| "unknown".to_string())
}

/// A skill name made safe as a file name: `[A-Za-z0-9_-]` kept, runs of
/// anything else become one `-`, edges trimmed; never empty, at most 80 bytes.
pub fn sanitize_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-');
    let mut out: String = out.chars().take(80).collect();
    if out.is_empty() {
        out = "skill".into();
    }
    out
}

/// Write a report as `<dir>/<skill>-<stamp>.md` atomically, never replacing a
/// report written the same second (`-2`, `-3`… are added). Creates `dir`.
/// Returns the path written.
pub fn write_report(dir: &Path, skill: &str, stamp: &str, text: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let base = format!("{}-{}", sanitize_name(skill), stamp);
    let staging = dir.join(format!(".{base}.staging-{}", std::process::id()));
    crate::fsutil::atomic_write(&staging, text.as_bytes())?;
    let result = (|| {
        for n in 1..10_000u32 {
            let name = if n == 1 {
                format!("{base}.md")
            } else {
                format!("{base}-{n}.md")
            };
            let target = dir.join(name);
            // A hard link never replaces an existing file: the name is taken atomically.
            match std::fs::hard_link(&staging, &target) {
                Ok(()) => return Ok(target),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(_) => {
                    // File systems without hard links: check, then rename.
                    if target.exists() {
                        continue;
                    }
                    std::fs::rename(&staging, &target)?;
                    return Ok(target);
                }
            }
        }
        Err(std::io::Error::other("too many reports with the same name"))
    })();
    let _ = std::fs::remove_file(&staging);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_names_cannot_escape_the_report_folder() {
        assert_eq!(sanitize_name("../../x"), "x");
        assert_eq!(sanitize_name("file-run-issues"), "file-run-issues");
        assert_eq!(sanitize_name("a/b c"), "a-b-c");
        assert_eq!(sanitize_name(".."), "skill");
        assert_eq!(sanitize_name("/etc/passwd"), "etc-passwd");
    }

    #[test]
    fn reports_are_never_clobbered() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("out");
        let a = write_report(&dir, "../../x", "20260101T000000Z", "one").unwrap();
        let b = write_report(&dir, "../../x", "20260101T000000Z", "two").unwrap();
        assert_eq!(a, dir.join("x-20260101T000000Z.md"));
        assert_eq!(b, dir.join("x-20260101T000000Z-2.md"));
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "one");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    }

    #[test]
    fn sidecar_only_loads_put_every_event_in_scope() {
        use crate::decode::{Action, Event, Harness, Location, Retro, Role};
        let mut t = Trajectory::new("t".into(), Harness::ClaudeCode, "x");
        t.events.push(Event::new(
            Location::line(1),
            Role::Assistant,
            Action::Other,
        ));
        t.events.push(Event::new(
            Location::line(2),
            Role::Assistant,
            Action::SkillLoad {
                name: "plugin:s".into(),
                via: LoadVia::SkillTool,
                body_sha256: None,
            },
        ));
        assert_eq!(first_load(&t, "s").map(|l| l.index), Some(Some(1)));
        assert_eq!(first_load(&t, "other"), None);
        t.retro = Some(Retro {
            loaded_skills: Some(vec!["other".into()]),
            ..Default::default()
        });
        assert_eq!(
            first_load(&t, "other").map(|l| (l.index, l.via)),
            Some((None, LoadVia::Retro))
        );
        assert_eq!(first_load(&t, "s"), None);
    }
}
