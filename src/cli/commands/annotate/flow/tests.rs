use super::*;
use crate::wire::decision::{Revision, RevisionKind};
use serde_json::json;

fn noul(p: f64) -> Answer {
    Answer::Noul {
        noul: p,
        x_option_mass: None,
        x_abstain: None,
    }
}

fn choice(ps: &[(&str, f64)]) -> Answer {
    Answer::Choice {
        choice: Some(ps[0].0.to_owned()),
        probabilities: ps.iter().map(|(k, p)| ((*k).to_owned(), *p)).collect(),
        confidence: 0.0,
        x_option_mass: None,
        x_abstain: None,
    }
}

fn score(ps: &[f64]) -> Answer {
    Answer::Score {
        score: 0.0,
        legend: (0..ps.len())
            .map(|i| (i.to_string(), json!(format!("level {i}"))))
            .collect(),
        probabilities: ps
            .iter()
            .enumerate()
            .map(|(i, p)| (i.to_string(), *p))
            .collect(),
        confidence: 0.0,
        x_option_mass: None,
        x_abstain: None,
    }
}

fn example(id: &str, why: Why) -> ClaimedExample {
    ClaimedExample {
        example_id: id.into(),
        why,
        annotator: "ann".to_owned(),
        expires_at: None,
        answers: [
            (
                "intent".to_owned(),
                choice(&[("refund", 0.3), ("billing", 0.6), ("other", 0.1)]),
            ),
            ("urgency".to_owned(), score(&[0.1, 0.2, 0.5, 0.2])),
            ("escalate".to_owned(), noul(0.7)),
        ]
        .into_iter()
        .collect(),
        state: json!({"id": id}),
    }
}

fn next(example: Option<ClaimedExample>) -> Outcome {
    Outcome::Next(Box::new(NextToAnnotate {
        revision: Revision {
            name: "main".into(),
            kind: RevisionKind::Branch,
            commit: "0".repeat(40),
        },
        questions: vec!["intent".into(), "urgency".into(), "escalate".into()],
        unannotated: 5,
        claimed_by_others: 0,
        learning: IndexMap::new(),
        example,
    }))
}

/// A flow showing `e1`.
fn started() -> Flow {
    let (mut flow, first) = Flow::start();
    assert_eq!(first, Effect::Next { release: None });
    assert_eq!(
        flow.done(&first, next(Some(example("e1", Why::Uncertain)))),
        None
    );
    flow
}

/// Press `key`, expect an effect, and report it carried out.
fn carry(flow: &mut Flow, key: Key, outcome: Outcome) -> (Effect, Option<Effect>) {
    let effect = flow.key(key).expect("an effect");
    let then = flow.done(&effect, outcome);
    (effect, then)
}

fn write(id: &str, question: &str, answer: Value) -> Effect {
    Effect::Write {
        example_id: id.into(),
        question: question.to_owned(),
        answer,
        reasoning: None,
    }
}

#[test]
fn enter_accepts_each_guess_and_the_last_answer_claims_the_next_example() {
    let mut flow = started();
    let said = || Outcome::Written("ok".into());
    let (effect, then) = carry(&mut flow, Key::Enter, said());
    assert_eq!(effect, write("e1", "intent", json!("billing")));
    assert_eq!(then, None);
    let (effect, _) = carry(&mut flow, Key::Char('a'), said());
    assert_eq!(effect, write("e1", "urgency", json!(2)));
    let (effect, then) = carry(&mut flow, Key::Enter, said());
    assert_eq!(effect, write("e1", "escalate", json!(true)));
    assert_eq!(
        then,
        Some(Effect::Next {
            release: Some("e1".into())
        })
    );
    assert_eq!(flow.seen, ["e1"]);
    assert_eq!(flow.answered, 3);
}

#[test]
fn number_keys_pick_options_from_1_and_levels_from_0_and_y_n_answer_a_noul() {
    let mut flow = started();
    let said = || Outcome::Written("ok".into());
    assert_eq!(
        carry(&mut flow, Key::Char('3'), said()).0,
        write("e1", "intent", json!("other"))
    );
    assert_eq!(
        carry(&mut flow, Key::Char('0'), said()).0,
        write("e1", "urgency", json!(0))
    );
    assert_eq!(
        carry(&mut flow, Key::Char('n'), said()).0,
        write("e1", "escalate", json!(false))
    );
}

#[test]
fn a_key_that_fits_no_answer_is_refused_on_the_spot_and_nothing_is_written() {
    let mut flow = started();
    for key in ['0', '4', 'y', 'x'] {
        assert_eq!(flow.key(Key::Char(key)), None, "{key}");
        assert!(matches!(flow.message, Some(Message::Error(_))), "{key}");
    }
    // Still on the first question.
    assert_eq!(flow.current.as_ref().unwrap().question().0, "intent");
    flow.key(Key::Char('s'));
    assert_eq!(flow.key(Key::Char('4')), None, "urgency has levels 0 to 3");
    assert_eq!(
        flow.key(Key::Char('3')),
        Some(write("e1", "urgency", json!(3)))
    );
}

#[test]
fn a_write_the_store_refuses_leaves_the_question_asked_with_the_reason() {
    let mut flow = started();
    let effect = flow.key(Key::Enter).unwrap();
    flow.failed(&effect, "answer: not an option");
    assert_eq!(
        flow.message,
        Some(Message::Error(
            "intent: not written: answer: not an option".into()
        ))
    );
    assert_eq!(flow.answered, 0);
    assert_eq!(flow.current.as_ref().unwrap().question().0, "intent");
    assert_eq!(
        flow.key(Key::Char('u')),
        None,
        "nothing was written to undo"
    );
}

#[test]
fn skip_moves_on_without_writing_and_skipping_the_last_question_leaves_the_example() {
    let mut flow = started();
    assert_eq!(flow.key(Key::Char('s')), None);
    assert_eq!(flow.key(Key::Char('s')), None);
    assert_eq!(
        flow.key(Key::Char('s')),
        Some(Effect::Next {
            release: Some("e1".into())
        })
    );
    assert_eq!(flow.skipped, 3);
    assert_eq!(flow.answered, 0);
    assert_eq!(flow.seen, ["e1"], "not offered again");
}

#[test]
fn shift_s_skips_the_rest_of_the_example_in_one_key_keeping_what_was_answered() {
    let mut flow = started();
    let (_, then) = carry(&mut flow, Key::Char('2'), Outcome::Written("ok".into()));
    assert_eq!(then, None);
    assert_eq!(
        flow.key(Key::Char('S')),
        Some(Effect::Next {
            release: Some("e1".into())
        })
    );
    assert_eq!(
        flow.message,
        Some(Message::Info(
            "skipped example e1 (2 questions unasked)".into()
        ))
    );
    assert_eq!((flow.answered, flow.skipped), (1, 2));
    assert_eq!(flow.seen, ["e1"], "not offered again");
    assert!(flow.current.is_none());
    // The next example; `u` still goes back to e1's answer.
    flow.done(
        &Effect::Next { release: None },
        next(Some(example("e2", Why::Uncertain))),
    );
    assert_eq!(
        flow.key(Key::Char('u')),
        Some(Effect::Undo {
            example_id: "e1".into(),
            question: "intent".into(),
            release: Some("e2".into())
        })
    );
    // With nothing shown, it does nothing but say so.
    let mut empty = Flow::default();
    assert_eq!(empty.key(Key::Char('S')), None);
}

#[test]
fn undo_deletes_the_last_answer_and_asks_its_question_again_even_on_an_earlier_example() {
    let mut flow = started();
    let said = || Outcome::Written("ok".into());
    carry(&mut flow, Key::Char('2'), said());
    flow.key(Key::Char('s'));
    let (_, then) = carry(&mut flow, Key::Char('y'), said());
    let then = then.unwrap();
    flow.done(&then, next(Some(example("e2", Why::Uncertain))));
    assert_eq!(flow.current.as_ref().unwrap().example.example_id, "e2");
    // Back to e1's escalate, releasing e2.
    let (effect, _) = carry(&mut flow, Key::Char('u'), Outcome::Undone);
    assert_eq!(
        effect,
        Effect::Undo {
            example_id: "e1".into(),
            question: "escalate".into(),
            release: Some("e2".into()),
        }
    );
    let at = flow.current.as_ref().unwrap();
    assert_eq!(
        (at.example.example_id.as_str(), at.question().0),
        ("e1", "escalate")
    );
    assert_eq!(flow.answered, 1);
    // Then intent (urgency was skipped, not written), then nothing.
    let (effect, _) = carry(&mut flow, Key::Char('u'), Outcome::Undone);
    assert!(
        matches!(effect, Effect::Undo { ref question, release: None, .. } if question == "intent")
    );
    assert_eq!(flow.current.as_ref().unwrap().question().0, "intent");
    assert_eq!(flow.key(Key::Char('u')), None);
    assert_eq!(flow.answered, 0);
}

#[test]
fn a_reason_goes_with_the_next_answer_only() {
    let mut flow = started();
    assert_eq!(flow.key(Key::Char('r')), None);
    for c in "asks twice".chars() {
        assert_eq!(flow.key(Key::Char(c)), None, "typing is not answering");
    }
    flow.key(Key::Backspace);
    flow.key(Key::Char('e'));
    assert_eq!(flow.key(Key::Enter), None);
    let effect = flow.key(Key::Enter).unwrap();
    assert_eq!(
        effect,
        Effect::Write {
            example_id: "e1".into(),
            question: "intent".into(),
            answer: json!("billing"),
            reasoning: Some("asks twice".into()),
        }
    );
    flow.done(&effect, Outcome::Written("ok".into()));
    let Some(Effect::Write { reasoning, .. }) = flow.key(Key::Enter) else {
        panic!("a write")
    };
    assert_eq!(reasoning, None);
}

#[test]
fn quit_and_ctrl_c_release_the_example_shown_and_end() {
    let mut flow = started();
    let quit = Effect::Quit {
        release: Some("e1".into()),
    };
    assert_eq!(flow.key(Key::Char('q')), Some(quit.clone()));
    assert_eq!(flow.key(Key::Interrupt), Some(quit.clone()));
    flow.done(&quit, Outcome::Quit);
    assert!(flow.finished);
}

#[test]
fn nothing_left_says_so_and_enter_looks_again() {
    let (mut flow, first) = Flow::start();
    flow.done(&first, next(None));
    assert!(flow.exhausted && flow.current.is_none());
    assert_eq!(flow.key(Key::Enter), Some(Effect::Next { release: None }));
    assert_eq!(flow.key(Key::Char('1')), None);
    assert_eq!(
        flow.key(Key::Char('q')),
        Some(Effect::Quit { release: None })
    );
}

#[test]
fn an_audit_example_is_said_so_and_the_curve_verdict_reads_the_learning() {
    assert_eq!(why(&example("e", Why::Audit)), "audit (agreement)");
    let mut learning = IndexMap::new();
    assert!(curve_verdict(&learning).ends_with("none recorded yet"));
    learning.insert(
        "intent".to_owned(),
        Learning {
            examples: 40,
            gain: 0.0,
            rising: false,
        },
    );
    assert!(curve_verdict(&learning).contains("flat"));
    learning.insert(
        "urgency".to_owned(),
        Learning {
            examples: 40,
            gain: 0.05,
            rising: true,
        },
    );
    assert_eq!(
        curve_verdict(&learning),
        "last align --curve: more labels pay (urgency)"
    );
}
