use super::{QuestionFigures, Unscored};
use std::collections::HashMap;

fn unscored(annotated: u64, fitted: u64, unreadable: u64, failed: u64) -> QuestionFigures {
    QuestionFigures {
        metrics: None,
        out_of_fold: None,
        fresh: None,
        scored: HashMap::new(),
        counts: Unscored {
            annotated,
            fitted,
            unreadable,
        },
        failed,
    }
}

#[test]
fn a_question_with_nothing_scored_says_why() {
    assert_eq!(unscored(0, 0, 0, 0).why_unscored(), "no annotated examples");
    assert_eq!(
        unscored(12, 12, 0, 0).why_unscored(),
        "none of its 12 annotated examples could be scored: 12 fitted on by an alignment \
         (--include-fitted scores them)"
    );
    assert_eq!(
        unscored(5, 2, 1, 2).why_unscored(),
        "none of its 5 annotated examples could be scored: 2 fitted on by an alignment \
         (--include-fitted scores them), 2 failed to be decided, 1 annotated with an answer \
         the question does not have here"
    );
}
