use super::*;

fn r(v: &'static str) -> CriterionResult {
    CriterionResult {
        id: "c".into(),
        text: "t".into(),
        source: serde_json::Value::Null,
        check: "none".into(),
        verdict: v,
        evidence: vec![],
        evidence_records: vec![],
        reason: String::new(),
        events: vec![],
    }
}

#[test]
fn reducer_edge_cases() {
    let s = summarize(&[]);
    assert_eq!((s.total, s.pass_rate, s.verified_rate), (0, None, None));
    assert_eq!(conversation_verdict(&s), "NOT_GRADED");
    let s = summarize(&[r("UNVERIFIABLE"), r("UNVERIFIABLE")]);
    assert_eq!(conversation_verdict(&s), "UNVERIFIABLE");
    assert_eq!(s.verified_rate, Some(0.0));
    let s = summarize(&[r("PASS"), r("FAIL"), r("UNVERIFIABLE")]);
    assert_eq!(conversation_verdict(&s), "FAIL");
    assert_eq!(s.pass_rate, Some(1.0 / 3.0));
    assert_eq!(s.verified_rate, Some(2.0 / 3.0));
    assert_eq!(conversation_verdict(&summarize(&[r("PASS")])), "PASS");
}
