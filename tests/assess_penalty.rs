//! Property tests of the penalty score (seed 002 step 4): always in [0, 1],
//! never rising when any count rises, and equal to the formula.

use proptest::prelude::*;
use skillgate::assess::{penalty_score, SeverityCounts};

fn counts() -> impl Strategy<Value = SeverityCounts> {
    // Mostly small counts (where the score moves), sometimes huge ones.
    let n = prop_oneof![8 => 0u64..12, 1 => any::<u64>()];
    (n.clone(), n.clone(), n.clone(), n.clone(), n).prop_map(
        |(critical, high, medium, low, info)| SeverityCounts {
            critical,
            high,
            medium,
            low,
            info,
        },
    )
}

fn with(c: SeverityCounts, level: usize, add: u64) -> SeverityCounts {
    let mut c = c;
    let f = match level {
        0 => &mut c.critical,
        1 => &mut c.high,
        2 => &mut c.medium,
        3 => &mut c.low,
        _ => &mut c.info,
    };
    *f = f.saturating_add(add);
    c
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn stays_in_the_unit_interval(c in counts()) {
        let p = penalty_score(&c);
        prop_assert!((0.0..=1.0).contains(&p), "{p} for {c:?}");
        // Rounded to 4 places.
        prop_assert_eq!((p * 10_000.0).round() / 10_000.0, p);
    }

    #[test]
    fn never_rises_when_a_count_rises(c in counts(), level in 0usize..5, add in 1u64..50) {
        let before = penalty_score(&c);
        let after = penalty_score(&with(c, level, add));
        prop_assert!(after <= before, "{before} -> {after} adding {add} at level {level} to {c:?}");
        if level == 4 {
            prop_assert_eq!(after, before, "info costs nothing");
        }
    }

    #[test]
    fn matches_the_formula(critical in 0u64..6, high in 0u64..12, medium in 0u64..40, low in 0u64..120, info in 0u64..5) {
        let c = SeverityCounts { critical, high, medium, low, info };
        let raw = 1.0 - (0.25 * critical as f64 + 0.10 * high as f64 + 0.03 * medium as f64 + 0.01 * low as f64);
        let expected = (raw.clamp(0.0, 1.0) * 10_000.0).round() / 10_000.0;
        prop_assert!((penalty_score(&c) - expected).abs() < 1e-9, "{c:?}");
    }
}

#[test]
fn strictly_lower_for_each_costed_level_while_above_zero() {
    let zero = SeverityCounts::default();
    for level in 0..4 {
        assert!(penalty_score(&with(zero, level, 1)) < 1.0, "level {level}");
    }
    assert_eq!(penalty_score(&with(zero, 4, 1)), 1.0);
}
