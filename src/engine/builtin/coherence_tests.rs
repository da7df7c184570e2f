//! The laws of issue "Coherent answers", pinned on the engine itself (`mo`'s reading, the
//! real encoder): generated states and questions, each law checked on the answers.

use super::learned::NONE;
use super::*;
use crate::wire::Loc;
use crate::wire::question::parse_questions;
use proptest::prelude::*;
use serde_json::json;
use std::sync::OnceLock;

/// Within this, two probabilities are the same (they are computed once, then combined).
const EPS: f64 = 1e-9;

fn engine() -> &'static BuiltinEngine {
    static ENGINE: OnceLock<BuiltinEngine> = OnceLock::new();
    ENGINE.get_or_init(|| BuiltinEngine::new(Arc::new(Embedder::new()), Reading::FirstWindow))
}

fn decide(state: &str, questions: &Value) -> Answers {
    let mut errors = Vec::new();
    let parsed = parse_questions(questions, &Loc::body(), &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    engine()
        .decide_blocking(&json!(state), &parsed, &NONE)
        .expect("a decision")
        .answers
}

fn noul(answers: &Answers, id: &str) -> f64 {
    match &answers[id] {
        Answer::Noul { noul, .. } => *noul,
        other => panic!("{id} is not a noul: {other:?}"),
    }
}

fn outcomes(answers: &Answers, id: &str) -> IndexMap<String, f64> {
    match &answers[id] {
        Answer::Choice { probabilities, .. } | Answer::Score { probabilities, .. } => {
            probabilities.clone()
        }
        other @ Answer::Noul { .. } => panic!("{id} has no outcomes: {other:?}"),
    }
}

use indexmap::IndexMap;

const STATES: &[&str] = &[
    "I was charged twice for my subscription this month and I want my money back.",
    "The dashboard has been down for every user in our company since this morning.",
    "How do I export my invoices as PDF? Nothing urgent, just curious.",
    "Your competitor offers the same for half the price. I am cancelling unless you match it.",
    "My package was supposed to arrive last week and the tracking has not moved.",
];

const STATEMENTS: &[&str] = &[
    "Does the customer ask for a refund?",
    "Is the service down for many users?",
    "Does the customer say they may cancel or leave?",
    "Is the customer asking a how-to question?",
    "Is a delivery late?",
];

/// Two read without a clause that excludes (the first's "but not …", the second's
/// "without …"), while the nouls about them quote them whole.
const OPTIONS: &[&str] = &[
    "Handles charges, invoices and refunds, but not shipping problems",
    "Fixes broken product functionality without a workaround, or no access at all",
    "Answers how-to questions and helps with setup",
    "Handles cancellations and tries to keep the customer",
    "Tracks shipments and deliveries",
];

const LEVELS: &[&str] = &[
    "No sign of leaving",
    "Some dissatisfaction",
    "Considering leaving",
    "Has decided to cancel",
];

fn options(keys: &[String], n: usize) -> Value {
    Value::Object(
        keys.iter()
            .zip(OPTIONS.iter().take(n))
            .map(|(k, d)| (k.clone(), json!(d)))
            .collect(),
    )
}

fn keys(n: usize) -> Vec<String> {
    [
        "billing",
        "engineering",
        "success",
        "retention",
        "logistics",
    ][..n]
        .iter()
        .map(|k| (*k).to_owned())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// A noul, the same statement as a yes/no choice and as a two-level score, and its
    /// negation, wrapped or written out.
    #[test]
    fn one_statement_one_probability(state in 0..STATES.len(), s in 0..STATEMENTS.len()) {
        let statement = STATEMENTS[s];
        let answers = decide(STATES[state], &json!({
            "noul": {"type": "noul", "instructions": statement},
            "choice": {"type": "choice", "instructions": statement, "criteria": {"no": "No", "yes": "Yes"}},
            "score": {"type": "score", "instructions": statement, "criteria": ["False", "True"]},
            "not": {"type": "noul", "instructions": format!(
                "Is it false that the answer to the following question is yes? Question: {statement}")},
            "wrapped": {"type": "noul", "instructions": format!(
                "Consider this question: {statement} Would the correct answer be no?")},
        }));
        let p = noul(&answers, "noul");
        prop_assert!((outcomes(&answers, "choice")["yes"] - p).abs() < EPS);
        prop_assert!((outcomes(&answers, "score")["1"] - p).abs() < EPS);
        prop_assert!((noul(&answers, "not") + p - 1.0).abs() < EPS);
        prop_assert!((noul(&answers, "wrapped") + p - 1.0).abs() < EPS);
    }

    /// Compound statements: complement, inclusion-exclusion, Fréchet bounds, De Morgan.
    #[test]
    fn compounds_are_read_from_their_parts(state in 0..STATES.len(), a in 0..STATEMENTS.len(), b in 0..STATEMENTS.len()) {
        prop_assume!(a != b);
        let (a, b) = (STATEMENTS[a], STATEMENTS[b]);
        let answers = decide(STATES[state], &json!({
            "a": {"type": "noul", "instructions": a},
            "b": {"type": "noul", "instructions": b},
            "and": {"type": "noul", "instructions": format!("Are both of the following true? (1) {a} (2) {b}")},
            "or": {"type": "noul", "instructions": format!("Is at least one of the following true? (1) {a} (2) {b}")},
            "nand": {"type": "noul", "instructions": format!("Is it false that both of the following are true? (1) {a} (2) {b}")},
            "or_not": {"type": "noul", "instructions": format!("Is at least one of the following false? (1) {a} (2) {b}")},
            "pair": {"type": "choice", "instructions": format!("Answer two questions jointly. First question: {a} Second question: {b}"), "criteria": {
                "00": "The answer to the first question is no and the answer to the second question is no",
                "01": "The answer to the first question is no and the answer to the second question is yes",
                "10": "The answer to the first question is yes and the answer to the second question is no",
                "11": "The answer to the first question is yes and the answer to the second question is yes"}},
        }));
        let p = |id| noul(&answers, id);
        prop_assert!((p("and") + p("or") - p("a") - p("b")).abs() < EPS);
        prop_assert!(p("and") <= p("a").min(p("b")) + EPS);
        prop_assert!((p("and") + p("nand") - 1.0).abs() < EPS);
        prop_assert!((p("nand") - p("or_not")).abs() < EPS);
        let cells = outcomes(&answers, "pair");
        prop_assert!((cells["10"] + cells["11"] - p("a")).abs() < EPS);
        prop_assert!((cells["01"] + cells["11"] - p("b")).abs() < EPS);
    }

    /// A choice's options and the nouls "is it option k" / "anything other than k"; renamed
    /// keys; options merged, split and copied.
    #[test]
    fn options_are_their_descriptions(state in 0..STATES.len(), n in 3..=5usize, k in 0..5usize, j in 0..5usize) {
        let (k, j) = (k % n, j % n);
        let keys = keys(n);
        let which = "Which team should own this request?";
        let base = json!({"type": "choice", "instructions": which, "criteria": options(&keys, n)});
        let renamed_keys: Vec<String> = (1..=n).map(|i| format!("option_{i}")).collect();
        let mut merged = serde_json::Map::new();
        let mut split = serde_json::Map::new();
        let mut cloned = serde_json::Map::new();
        for (i, key) in keys.iter().enumerate() {
            let d = OPTIONS[i];
            if i == k {
                split.insert(format!("{key}_a"), json!(format!("{d}, and the text mentions a number")));
                split.insert(format!("{key}_b"), json!(format!("{d}, and the text mentions no number")));
                cloned.insert(key.clone(), json!(d));
                cloned.insert(format!("{key}_copy"), json!(d));
            } else {
                split.insert(key.clone(), json!(d));
                cloned.insert(key.clone(), json!(d));
            }
            if i == k && j != k {
                merged.insert("merged".into(), json!(format!("Either: {d}; or: {}", OPTIONS[j])));
            } else if i != j || j == k {
                merged.insert(key.clone(), json!(d));
            }
        }
        let answers = decide(STATES[state], &json!({
            "choice": base,
            "is": {"type": "noul", "instructions": format!("Question: {which} Is the correct answer the following option? Option: {}", OPTIONS[k])},
            "is_not": {"type": "noul", "instructions": format!("{which} Would it be incorrect to choose this option: {}?", OPTIONS[k])},
            "renamed": {"type": "choice", "instructions": which, "criteria": options(&renamed_keys, n)},
            "merged": {"type": "choice", "instructions": which, "criteria": merged},
            "split": {"type": "choice", "instructions": which, "criteria": split},
            "cloned": {"type": "choice", "instructions": which, "criteria": cloned},
        }));
        let base = outcomes(&answers, "choice");
        let at = |key: &str| base[key];
        prop_assert!((noul(&answers, "is") - at(&keys[k])).abs() < EPS);
        prop_assert!((noul(&answers, "is_not") + at(&keys[k]) - 1.0).abs() < EPS);
        for (i, p) in outcomes(&answers, "renamed").values().enumerate() {
            prop_assert!((p - at(&keys[i])).abs() < EPS);
        }
        let merged = outcomes(&answers, "merged");
        if j != k {
            prop_assert!((merged["merged"] - at(&keys[k]) - at(&keys[j])).abs() < EPS);
        }
        let split = outcomes(&answers, "split");
        let (part_a, part_b) = (format!("{}_a", keys[k]), format!("{}_b", keys[k]));
        prop_assert!((split[&part_a] + split[&part_b] - at(&keys[k])).abs() < EPS);
        let cloned = outcomes(&answers, "cloned");
        let copy = format!("{}_copy", keys[k]);
        prop_assert!((cloned[&keys[k]] - cloned[&copy]).abs() < EPS);
        prop_assert!((cloned[&keys[k]] * 2.0 - at(&keys[k])).abs() < EPS);
        for (i, key) in keys.iter().enumerate() {
            if i != k {
                prop_assert!((split[key] - at(key)).abs() < EPS);
                prop_assert!((cloned[key] - at(key)).abs() < EPS);
            }
        }
    }

    /// A rubric reversed mirrors; its cumulative and complement nouls, and a level beyond the
    /// top, agree with its levels.
    #[test]
    fn rubrics_mirror_and_accumulate(state in 0..STATES.len(), k in 0..LEVELS.len()) {
        let how = "How likely is this customer to leave?";
        let scale = LEVELS.iter().enumerate().map(|(i, l)| format!("{}) {l}", i + 1)).collect::<Vec<_>>().join("; ");
        let mut reversed: Vec<&str> = LEVELS.to_vec();
        reversed.reverse();
        let mut extended: Vec<String> = LEVELS.iter().map(|l| (*l).to_owned()).collect();
        extended.push(format!("Even more extreme than: {}", LEVELS[LEVELS.len() - 1]));
        let level = LEVELS[k];
        let answers = decide(STATES[state], &json!({
            "score": {"type": "score", "instructions": how, "criteria": LEVELS},
            "reversed": {"type": "score", "instructions": how, "criteria": reversed},
            "extended": {"type": "score", "instructions": how, "criteria": extended},
            "at_least": {"type": "noul", "instructions": format!("Question: {how} The levels, from lowest to highest, are: {scale}. Is the correct level '{level}' or higher?")},
            "not_level": {"type": "noul", "instructions": format!("Question: {how} The levels are: {scale}. Is the correct level anything other than '{level}'?")},
        }));
        let score: Vec<f64> = outcomes(&answers, "score").values().copied().collect();
        let reversed: Vec<f64> = outcomes(&answers, "reversed").values().copied().collect();
        let extended: Vec<f64> = outcomes(&answers, "extended").values().copied().collect();
        let n = score.len();
        for i in 0..n {
            prop_assert!((score[i] - reversed[n - 1 - i]).abs() < EPS);
        }
        let tail: f64 = score[k..].iter().sum();
        prop_assert!((noul(&answers, "at_least") - tail).abs() < EPS);
        prop_assert!((noul(&answers, "not_level") + score[k] - 1.0).abs() < EPS);
        for i in 0..n - 1 {
            prop_assert!((extended[i] - score[i]).abs() < EPS);
        }
        prop_assert!((extended[n - 1] + extended[n] - score[n - 1]).abs() < EPS);
    }
}

/// A statement and its natural negation in one request are decided once: they sum to one;
/// alone, the first is answered as it is (the pair changes nothing about it).
#[test]
fn a_natural_negation_is_decided_with_its_statement() {
    for state in STATES {
        for (statement, opposite) in [
            (
                "Does the customer have a temporary workaround that works?",
                "Does the customer lack a temporary workaround that works?",
            ),
            (
                "Did the customer order more than 3 items?",
                "Did the customer order three items or fewer?",
            ),
        ] {
            let pair = decide(
                state,
                &json!({
                    "statement": {"type": "noul", "instructions": statement},
                    "opposite": {"type": "noul", "instructions": opposite},
                }),
            );
            let alone = decide(
                state,
                &json!({"statement": {"type": "noul", "instructions": statement}}),
            );
            let p = noul(&pair, "statement");
            assert!((p - noul(&alone, "statement")).abs() < EPS);
            assert!(
                (p + noul(&pair, "opposite") - 1.0).abs() < EPS,
                "{statement} / {opposite}"
            );
        }
        // Two different statements of opposite polarity are not a pair.
        let unrelated = decide(
            state,
            &json!({
                "refund": {"type": "noul", "instructions": "Does the customer ask for a refund?"},
                "late": {"type": "noul", "instructions": "Is the delivery not late?"},
            }),
        );
        let late_alone = decide(
            state,
            &json!({"late": {"type": "noul", "instructions": "Is the delivery not late?"}}),
        );
        assert!((noul(&unrelated, "late") - noul(&late_alone, "late")).abs() < EPS);
    }
}

/// Without descriptions, the keys are the options' text: renaming them changes the answer.
#[test]
fn keys_without_descriptions_are_the_text() {
    let answers = decide(
        STATES[0],
        &json!({
            "named": {"type": "choice", "criteria": {"refund": null, "outage": null}},
            "renamed": {"type": "choice", "criteria": {"option_1": null, "option_2": null}},
        }),
    );
    let named = outcomes(&answers, "named");
    let renamed = outcomes(&answers, "renamed");
    assert!(named["refund"] > named["outage"]);
    assert!((renamed["option_1"] - named["refund"]).abs() > 1e-3);
}

/// One question answered alone (an alignment's baseline) is read as `decide` reads it.
#[test]
fn a_question_alone_is_read_as_decide_reads_it() {
    let questions = json!({
        "yes_no": {"type": "choice", "instructions": STATEMENTS[0], "criteria": {"yes": "Yes", "no": "No"}},
        "merged": {"type": "choice", "criteria": {"money": format!("Either: {}; or: {}", OPTIONS[0], OPTIONS[4]), "other": OPTIONS[1]}},
        "negated": {"type": "noul", "instructions": format!("It is not the case that {}", STATEMENTS[1])},
    });
    let mut errors = Vec::new();
    let parsed = parse_questions(&questions, &Loc::body(), &mut errors);
    let decided = decide(STATES[0], &questions);
    let state = engine().embed_state(&json!(STATES[0])).unwrap();
    for (id, question) in &parsed {
        let (alone, _) = engine().answer(&state, question).unwrap();
        assert_eq!(alone, decided[id], "{id}");
    }
}

/// The groups the answer cache keeps apart ([`Engine::answered_together`]): each group,
/// asked with only its own members, is answered exactly as within the whole request, and a
/// question read from another (its opposite, an option of a choice) is grouped with it.
#[test]
fn a_group_asked_alone_is_answered_as_in_the_whole_request() {
    let value = json!({
        "workaround": {"type": "noul", "instructions": "Does the customer have a temporary workaround that works?"},
        "intent": {"type": "choice", "instructions": "What does the customer want?",
                   "criteria": {"refund": "money back", "fix": "a fix for something broken"}},
        "angry": {"type": "noul", "instructions": "Is the customer angry?"},
        "no_workaround": {"type": "noul", "instructions": "Does the customer lack a temporary workaround that works?"},
        "wants_refund": {"type": "noul", "instructions": "What does the customer want? The answer is refund."},
        "urgency": {"type": "score", "criteria": ["no rush", "soon", "right now"]},
    });
    let mut errors = Vec::new();
    let questions = parse_questions(&value, &Loc::body(), &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    let groups = engine().answered_together(&questions).unwrap();
    let group_of = |id: &str| {
        let i = questions.get_index_of(id).unwrap();
        groups.iter().position(|g| g.contains(&i)).unwrap()
    };
    assert_eq!(
        group_of("workaround"),
        group_of("no_workaround"),
        "{groups:?}"
    );
    assert_ne!(group_of("angry"), group_of("workaround"), "{groups:?}");
    let mut covered: Vec<usize> = groups.iter().flatten().copied().collect();
    covered.sort_unstable();
    assert_eq!(covered, (0..questions.len()).collect::<Vec<_>>());
    for state in STATES {
        let whole = engine()
            .decide_blocking(&json!(state), &questions, &NONE)
            .unwrap()
            .answers;
        for group in &groups {
            let alone: Questions = group
                .iter()
                .map(|&i| questions.get_index(i).unwrap())
                .map(|(id, q)| (id.clone(), q.clone()))
                .collect();
            let answers = engine()
                .decide_blocking(&json!(state), &alone, &NONE)
                .unwrap()
                .answers;
            for (id, answer) in &answers {
                assert_eq!(answer, &whole[id], "{id} in {group:?} about {state}");
            }
        }
    }
}
