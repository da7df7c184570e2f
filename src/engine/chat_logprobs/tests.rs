use super::*;
use crate::wire::question::parse_questions;
use serde_json::json;

fn question(value: &Value) -> Question {
    let mut errors = Vec::new();
    let mut parsed = parse_questions(&json!({ "q": value }), &Loc::body(), &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    parsed.swap_remove("q").unwrap()
}

/// A sampled token, its logprob, and the alternatives at its position.
type Token<'a> = (&'a str, f64, &'a [(&'a str, f64)]);

fn completion(tokens: &[Token<'_>]) -> Value {
    json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "x"},
            "logprobs": {"content": tokens.iter().map(|(t, lp, top)| json!({
                "token": t, "logprob": lp,
                "top_logprobs": top.iter().map(|(t, lp)| json!({"token": t, "logprob": lp})).collect::<Vec<_>>()
            })).collect::<Vec<_>>()}}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 1, "total_tokens": 51}
    })
}

fn loc() -> Loc {
    response_loc().key("q")
}

#[test]
fn the_distribution_is_the_softmax_over_the_offered_letters() {
    let lp = |p: f64| p.ln();
    let response = completion(&[(
        "B",
        lp(0.6),
        &[
            ("B", lp(0.6)),
            ("A", lp(0.2)),
            (" B", lp(0.1)),
            ("The", lp(0.05)),
        ],
    )]);
    let read = read_completion(&response, 3, false, &loc()).unwrap();
    // A = 0.2, B = 0.6 + 0.1, C missing: the floor, 0.05.
    let total = 0.2 + 0.7 + 0.05;
    let expected = [0.2 / total, 0.7 / total, 0.05 / total];
    for (p, e) in read.probabilities.iter().zip(expected) {
        assert!((p - e).abs() < 1e-12, "{:?}", read.probabilities);
    }
    assert!((read.option_mass - 0.9).abs() < 1e-12);
    assert_eq!(read.usage.input_tokens, 50);
    assert_eq!(read.usage.output_tokens, 1);
}

#[test]
fn no_offered_letter_is_uniform_with_no_mass() {
    let response = completion(&[("I", -0.1, &[("I", -0.1), ("Sorry", -3.0)])]);
    let read = read_completion(&response, 2, false, &loc()).unwrap();
    assert_eq!(read.probabilities, [0.5, 0.5]);
    assert!(read.option_mass.abs() < f64::EPSILON);
}

#[test]
fn reasoning_reads_the_letter_after_the_last_answer_line() {
    let response = completion(&[
        ("A", -0.5, &[("A", -0.5)]),
        (" looks", -0.1, &[]),
        (" right", -0.1, &[]),
        ("\nAnswer", -0.1, &[]),
        (":", -0.1, &[]),
        (" B", -0.3, &[(" B", -0.3), (" A", -1.5)]),
    ]);
    let read = read_completion(&response, 2, true, &loc()).unwrap();
    let (a, b) = ((-1.5f64).exp(), (-0.3f64).exp());
    assert!((read.probabilities[1] - b / (a + b)).abs() < 1e-12);
    // Without the Answer line there is nothing to read.
    let missing = completion(&[("A", -0.5, &[("A", -0.5)])]);
    let errors = read_completion(&missing, 2, true, &loc()).unwrap_err();
    assert_eq!(errors[0].kind, "no_answer");
}

#[test]
fn a_response_without_logprobs_is_located() {
    let response = json!({"choices": [{"message": {"content": "A"}, "logprobs": null}]});
    let errors = read_completion(&response, 2, false, &loc()).unwrap_err();
    assert_eq!(
        serde_json::to_value(&errors[0].loc).unwrap(),
        json!([
            "provider_response",
            "q",
            "choices",
            0,
            "logprobs",
            "content"
        ])
    );
    let bad = completion(&[("A", -0.1, &[("A", 0.5)])]);
    let errors = read_completion(&bad, 2, false, &loc()).unwrap_err();
    assert_eq!(errors[0].kind, "bad_logprob");
    assert!(read_completion(&json!("text"), 2, false, &loc()).is_err());
    assert!(read_completion(&json!({"choices": []}), 2, false, &loc()).is_err());
}

#[test]
fn prompts_letter_the_options_in_order() {
    let choice = question(&json!({"type": "choice", "instructions": {"ask": "intent"},
        "criteria": {"refund": "Money back", "other": null}}));
    let prompt = render_prompt("{\"a\": 1}", &choice);
    assert!(
        prompt.contains("Question: {\"ask\":\"intent\"}"),
        "{prompt}"
    );
    assert!(
        prompt.contains("A. refund: Money back\nB. other\n"),
        "{prompt}"
    );
    let score = question(&json!({"type": "score", "criteria": ["low", {"k": 1}]}));
    assert!(render_prompt("1", &score).contains("A. Level 0: low\nB. Level 1: {\"k\":1}\n"));
    let noul = question(&json!({"type": "noul", "instructions": "Urgent.",
        "criteria": {"false": "Not urgent"}}));
    let prompt = render_prompt("1", &noul);
    assert!(
        prompt.contains("A. True\nB. False: Not urgent\n"),
        "{prompt}"
    );
}

#[test]
fn letters_are_recognised_with_spacing_and_punctuation() {
    assert_eq!(letter_index(" B", 3), Some(1));
    assert_eq!(letter_index("C.", 3), Some(2));
    assert_eq!(letter_index("D", 3), None);
    assert_eq!(letter_index("AB", 3), None);
    assert_eq!(letter_index("a", 3), None);
    assert_eq!(letter_index("É", 3), None);
}
