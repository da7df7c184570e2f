//! A batch over a base model. A base model has no repository, so nothing to pin, capture
//! into or keep a job in: each item is a decision of the caller's questions through
//! [`Service::decide`] (in client mode a `POST /v1/decision`, the spec's own route, which
//! needs only the `decisions` scope), a few at once, its result line written in input
//! order exactly as a batch job's ([`BatchResultLine`]). Nothing is recorded.

use super::batch::read_item;
use crate::core::service::{Input, Service};
use crate::error::{Error, Result};
use crate::wire::jobs::{BatchResultLine, ItemOutcome};
use crate::wire::value::derived_example_id;
use crate::wire::{DecisionRequest, Problem, Questions};
use futures_util::StreamExt;

/// A batch over a base model.
pub struct BaseBatch {
    /// The base model's name.
    pub model: String,
    pub questions: Questions,
    /// JSON Lines of `{example_id?, state}`; blank lines are skipped.
    pub input: Input,
    /// Decisions asked at once.
    pub at_once: usize,
}

/// What a base batch did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BaseTally {
    pub done: u64,
    pub failed: u64,
}

/// Decide every item of `batch`, handing each result line (with its newline) to `each` in
/// input order, with whether the item failed. An item's own fault (a line that is not an
/// item, a state the model cannot read) is its error line; a fault every item would share
/// (no such model, no access, the server out of reach or overloaded, the questions) stops
/// the batch with that error, after the lines before it.
pub async fn run(
    service: &dyn Service,
    batch: BaseBatch,
    each: &mut (dyn FnMut(&[u8], bool) + Send),
) -> Result<BaseTally> {
    let BaseBatch {
        model,
        questions,
        input,
        at_once,
    } = batch;
    let run_id = uuid::Uuid::new_v4().to_string();
    let (model, questions, run_id) = (&model, &questions, &run_id);
    let mut results = futures_util::stream::iter(Items::new(input))
        .map(|item| async move {
            let (index, line, bytes) = item?;
            decide_item(service, (model, questions, run_id), index, line, &bytes).await
        })
        .buffered(at_once.max(1));
    let mut tally = BaseTally::default();
    while let Some(result) = results.next().await {
        let (line, failed) = result?;
        tally.done += 1;
        tally.failed += u64::from(failed);
        each(&line, failed);
    }
    Ok(tally)
}

/// One item decided: its result line, and whether it failed.
async fn decide_item(
    service: &dyn Service,
    (model, questions, run_id): (&str, &Questions, &str),
    index: u64,
    input_line: u64,
    bytes: &[u8],
) -> Result<(Vec<u8>, bool)> {
    let mut example_id = None;
    let outcome = async {
        let item = read_item(bytes, index)?;
        let id = item
            .example_id
            .unwrap_or_else(|| derived_example_id(&item.state));
        example_id = Some(id);
        // The ID names the result line only: a base model records nothing under it.
        let request = DecisionRequest {
            state: item.state,
            model: model.to_owned(),
            questions: Some(questions.clone()),
            example_id: None,
            revision: None,
            capture: None,
            truncate: None,
        };
        service.decide(&request).await
    }
    .await;
    let (outcome, line) = match outcome {
        Ok(response) => (
            ItemOutcome::Answered {
                answers: response.answers,
                usage: response.usage,
            },
            None,
        ),
        Err(error) => {
            let problem = error.to_problem("/problems", run_id);
            if fails_every_item(&problem) {
                return Err(error);
            }
            (ItemOutcome::Failed { error: problem }, Some(input_line))
        }
    };
    let failed = line.is_some();
    let result = BatchResultLine {
        index,
        line,
        example_id,
        outcome,
    };
    let mut text = serde_json::to_vec(&result)
        .unwrap_or_else(|_| format!(r#"{{"index":{index},"example_id":null}}"#).into_bytes());
    text.push(b'\n');
    Ok((text, failed))
}

/// A fault no item of the batch would escape: who may ask, what is asked of, whether the
/// server takes it now, or the questions every item is asked.
fn fails_every_item(problem: &Problem) -> bool {
    let at_the_request = problem.details.iter().any(|detail| {
        matches!(detail.loc.0.get(1), Some(crate::wire::validate::Segment::Key(key))
            if key == "questions" || key == "model")
    });
    matches!(
        problem.status,
        401 | 403 | 404 | 408 | 413 | 415 | 429 | 503
    ) || at_the_request
}

/// The items of a JSON Lines input: `(index, line, bytes)`, the index counting items
/// from 0 and the line counting lines from 1, blank lines skipped.
struct Items {
    input: Input,
    index: u64,
    line: u64,
}

impl Items {
    fn new(input: Input) -> Self {
        Self {
            input,
            index: 0,
            line: 0,
        }
    }
}

impl Iterator for Items {
    type Item = Result<(u64, u64, Vec<u8>)>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match self.input.read_until(b'\n', &mut bytes) {
                Ok(0) => return None,
                Ok(_) => self.line += 1,
                Err(e) => return Some(Err(Error::BadRequest(format!("reading the input: {e}")))),
            }
            if !bytes.trim_ascii().is_empty() {
                let index = self.index;
                self.index += 1;
                return Some(Ok((index, self.line, bytes.trim_ascii().to_vec())));
            }
        }
    }
}
