use super::*;
use indexmap::IndexMap;

fn noul(p: f64) -> Answer {
    Answer::Noul {
        noul: p,
        x_option_mass: None,
        x_abstain: None,
    }
}

fn choice(ps: &[f64]) -> Answer {
    let probabilities: IndexMap<String, f64> = ps
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("o{i}"), *p))
        .collect();
    Answer::Choice {
        choice: Some("o0".into()),
        probabilities,
        confidence: 0.0,
        x_option_mass: None,
        x_abstain: None,
    }
}

fn ranked(id: &str, margin: f64) -> Ranked {
    Ranked {
        example_id: id.into(),
        created_at: crate::wire::time::Recorded(chrono::DateTime::UNIX_EPOCH),
        question: "q".into(),
        rising: true,
        margin,
        entropy: 0.0,
        answer: noul(0.5),
        open: Vec::new(),
    }
}

fn pool(n: usize) -> Vec<Ranked> {
    // Margins descending with the ID, so the ranking must reorder them.
    #[allow(clippy::cast_precision_loss)]
    (0..n)
        .map(|i| ranked(&format!("ex-{i:03}"), 1.0 - i as f64 / n as f64))
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn margin_is_top_minus_second_and_entropy_is_in_bits() {
    let (m, h) = uncertainty(&noul(0.5));
    assert!(close(m, 0.0) && close(h, 1.0), "{m} {h}");
    let (m, _) = uncertainty(&noul(0.9));
    assert!(close(m, 0.8), "{m}");
    let (m, _) = uncertainty(&noul(0.1));
    assert!(close(m, 0.8), "|2p − 1| either side: {m}");
    let (m, h) = uncertainty(&choice(&[0.2, 0.5, 0.3]));
    assert!(close(m, 0.2), "{m}");
    let expected = -(0.2f64 * 0.2f64.log2() + 0.5 * 0.5f64.log2() + 0.3 * 0.3f64.log2());
    assert!(close(h, expected), "{h}");
    let (m, h) = uncertainty(&choice(&[0.25; 4]));
    assert!(close(m, 0.0) && close(h, 2.0), "{m} {h}");
    // Nothing to doubt with fewer than two outcomes.
    assert_eq!(uncertainty(&choice(&[1.0])), (1.0, 0.0));
    assert_eq!(uncertainty(&choice(&[])), (1.0, 0.0));
}

#[test]
fn the_least_certain_open_question_is_the_examples() {
    let answers: crate::wire::Answers = [
        ("a".to_owned(), noul(0.95)),
        ("b".to_owned(), choice(&[0.4, 0.35, 0.25])),
        ("c".to_owned(), noul(0.52)),
    ]
    .into_iter()
    .collect();
    let all = ["a".to_owned(), "b".to_owned(), "c".to_owned()];
    assert_eq!(least_certain(&answers, all.iter()).unwrap().0, "c");
    // `c` is annotated already: `b` is next.
    assert_eq!(least_certain(&answers, all[..2].iter()).unwrap().0, "b");
    assert!(least_certain(&answers, std::iter::empty()).is_none());
}

#[test]
fn uncertain_picks_are_the_lowest_margins_in_order() {
    let picks = select(pool(10), 4, 0.0, 0);
    let ids: Vec<&str> = picks.iter().map(|(r, _)| r.example_id.as_str()).collect();
    assert_eq!(ids, ["ex-009", "ex-008", "ex-007", "ex-006"]);
    assert!(picks.iter().all(|(_, why)| *why == Why::Uncertain));
    // Ties in margin: higher entropy first, then the example ID.
    let mut tied = vec![ranked("b", 0.1), ranked("a", 0.1), ranked("c", 0.1)];
    tied[2].entropy = 0.9;
    let ids: Vec<String> = select(tied, 3, 0.0, 0)
        .into_iter()
        .map(|(r, _)| r.example_id.into_string())
        .collect();
    assert_eq!(ids, ["c", "a", "b"]);
}

#[test]
fn candidates_asked_about_a_question_still_learning_come_first() {
    let mut flat = ranked("flat", 0.0);
    flat.rising = false;
    let picks = select(vec![flat, ranked("a", 0.6), ranked("b", 0.3)], 3, 0.0, 0);
    let ids: Vec<&str> = picks.iter().map(|(r, _)| r.example_id.as_str()).collect();
    assert_eq!(ids, ["b", "a", "flat"], "a flat curve's coin toss waits");
}

#[test]
fn the_audit_share_is_drawn_from_the_rest_spread_through_the_list() {
    let picks = select(pool(100), 20, 0.2, 7);
    assert_eq!(picks.len(), 20);
    let whys: Vec<Why> = picks.iter().map(|(_, why)| *why).collect();
    // Four of twenty, one in every five places.
    for (k, why) in whys.iter().enumerate() {
        let expected = if k % 5 == 4 {
            Why::Audit
        } else {
            Why::Uncertain
        };
        assert_eq!(*why, expected, "place {k}");
    }
    let uncertain: Vec<&Ranked> = picks
        .iter()
        .filter(|(_, why)| *why == Why::Uncertain)
        .map(|(r, _)| r)
        .collect();
    let lowest: Vec<String> = (84..100).rev().map(|i| format!("ex-{i:03}")).collect();
    let uncertain_ids: Vec<&str> = uncertain.iter().map(|r| r.example_id.as_str()).collect();
    assert_eq!(uncertain_ids, lowest);
    for (r, why) in &picks {
        if *why == Why::Audit {
            assert!(
                r.margin > uncertain[15].margin,
                "{} was picked twice",
                r.example_id
            );
        }
    }
    // The same seed draws the same; another draws others.
    assert_eq!(select(pool(100), 20, 0.2, 7), picks);
    let audited = |seed| -> Vec<String> {
        select(pool(100), 20, 0.2, seed)
            .into_iter()
            .filter(|(_, why)| *why == Why::Audit)
            .map(|(r, _)| r.example_id.into_string())
            .collect()
    };
    assert_ne!(audited(7), audited(8));
}

#[test]
fn rounding_and_small_pools() {
    let count = |picks: &[(Ranked, Why)]| picks.iter().filter(|(_, w)| *w == Why::Audit).count();
    // round(n × audit): 0.25 × 10 = 2.5 rounds up to 3.
    assert_eq!(count(&select(pool(50), 10, 0.25, 0)), 3);
    assert_eq!(count(&select(pool(50), 10, 1.0, 0)), 10);
    // n past the pool: every candidate once, the share taken of what is picked.
    let all = select(pool(6), 20, 0.5, 0);
    assert_eq!(all.len(), 6);
    assert_eq!(count(&all), 3);
    let mut ids: Vec<String> = all
        .into_iter()
        .map(|(r, _)| r.example_id.into_string())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 6);
    assert!(select(Vec::new(), 20, 0.2, 0).is_empty());
}
