//! The gate keeps what the report prints per trajectory (each rule's rows
//! and cited locations, the valid list, the loads) in an anonymous temporary
//! file rather than in memory. Spilled or not, every output must be the same
//! bytes: run the gate over the fixtures and the real corpus with the lists
//! in memory, written out record by record (every record its own chunk), and
//! written out as in a normal run, and compare every renderer's output.

use skillgate::config::Config;
use skillgate::gate::{run_gate_with, GateOptions};
use skillgate::render::github::{GithubAnnotations, GithubSummary};
use skillgate::render::json::Json;
use skillgate::render::junit::Junit;
use skillgate::render::markdown::MarkdownTable;
use skillgate::render::report::Report;
use skillgate::render::sarif::Sarif;
use skillgate::render::Renderer;
use skillgate::score::spill::SpillFile;
use skillgate::score::SkillVerdict;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every output format of the verdicts, as bytes.
fn outputs(verdicts: &[SkillVerdict]) -> Vec<String> {
    let renderers: Vec<Box<dyn Renderer>> = vec![
        Box::new(Json),
        Box::new(MarkdownTable),
        Box::new(Sarif),
        Box::new(GithubAnnotations),
        Box::new(GithubSummary),
        Box::new(Junit { seconds: 1.5 }),
        Box::new(Report {
            generated_at: "2026-12-05T00:00:00Z".into(),
        }),
    ];
    let mut out = Vec::new();
    for r in &renderers {
        let mut streamed = Vec::new();
        r.write_to(verdicts, &mut streamed).unwrap();
        let streamed = String::from_utf8(streamed).unwrap();
        assert_eq!(streamed, r.render(verdicts));
        out.push(streamed);
    }
    out
}

fn gate(
    skills: &[PathBuf],
    trajectories: &Path,
    spill: Option<std::sync::Arc<SpillFile>>,
) -> Vec<SkillVerdict> {
    let options = GateOptions {
        trajectories: vec![trajectories.to_path_buf()],
        cwd: repo(),
    };
    let config = Config::default();
    let mut v = run_gate_with(skills, &options, &config, spill).unwrap();
    skillgate::propose::attach(&mut v, &repo(), &config).unwrap();
    v
}

fn same_either_way(skills: &[PathBuf], trajectories: &Path) -> Vec<SkillVerdict> {
    let memory = gate(skills, trajectories, None);
    let every_record = gate(
        skills,
        trajectories,
        Some(SpillFile::with_chunk(1).expect("a temporary file")),
    );
    let normal = gate(
        skills,
        trajectories,
        Some(SpillFile::create().expect("a temporary file")),
    );
    assert_eq!(every_record, memory);
    assert_eq!(normal, memory);
    let want = outputs(&memory);
    assert_eq!(outputs(&every_record), want);
    assert_eq!(outputs(&normal), want);
    // Read back from JSON (the lists then in memory), the lists are the same
    // (proposals keep a text JSON leaves out).
    for v in &every_record {
        let back: SkillVerdict = serde_json::from_str(&serde_json::to_string(v).unwrap()).unwrap();
        assert_eq!(back.trajectories, v.trajectories);
        assert_eq!(back.constraints, v.constraints);
    }
    memory
}

#[test]
fn spilled_lists_render_the_same_bytes_on_the_gate_fixture() {
    let root = repo().join("fixtures/gate/force-push");
    let v = same_either_way(
        &[root.join("skills")],
        Path::new("fixtures/gate/force-push/transcripts"),
    );
    assert!(v.iter().any(|v| v.trajectories.valid.len() >= 2));
    assert!(v
        .iter()
        .flat_map(|v| &v.constraints)
        .any(|c| !c.evidence.is_empty()));
}

#[test]
fn spilled_lists_render_the_same_bytes_on_the_real_corpus() {
    let real = repo().join("../shared/realdata");
    let skills = vec![real.join("skills"), real.join("skills-for-sessions")];
    let v = same_either_way(&skills, Path::new("../shared/realdata/transcripts"));
    let valid: usize = v.iter().map(|v| v.trajectories.valid.len()).sum();
    let cited: usize = v
        .iter()
        .flat_map(|v| &v.constraints)
        .map(|c| c.evidence.len())
        .sum();
    assert!(valid >= 10, "{valid} valid trajectories");
    assert!(cited >= 100, "{cited} cited locations");
}
