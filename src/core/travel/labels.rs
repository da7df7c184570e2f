//! Reading a model repository's labels file (`examples/annotated.jsonl`): whole or not at
//! all, every bad line located.

use crate::core::examples::read_items;
use crate::error::{Error, Result};
use crate::store::IngestItem;
use crate::wire::Questions;
use crate::wire::validate::{FieldError, Loc, Segment};

/// The most bad lines one error names; the rest are counted.
const SHOWN_FAULTS: usize = 20;

/// The lines of the labels file `text` (named `name`) as store items, each checked as an
/// ingest line is against `questions` (the model's at the commit the file is read from); an
/// annotation that names no annotator is `annotator`'s. One bad line refuses the file: the
/// error names each (up to [`SHOWN_FAULTS`]) as `<name>:<line>` with what is wrong where in
/// it (`annotations.intent.answer: …`).
pub fn items(
    text: &str,
    name: &str,
    questions: &Questions,
    annotator: &str,
) -> Result<Vec<IngestItem>> {
    let mut input = text.as_bytes();
    read_items(&mut input, questions, annotator).map_err(|rejected| {
        let mut details: Vec<FieldError> = rejected
            .iter()
            .take(SHOWN_FAULTS)
            .map(|line| {
                let at = Loc(vec![Segment::Key(format!("{name}:{}", line.line))]);
                FieldError::new(at, line.reason.clone(), "invalid_line")
            })
            .collect();
        if rejected.len() > SHOWN_FAULTS {
            details.push(FieldError::new(
                Loc(vec![Segment::Key(name.to_owned())]),
                format!("and {} more bad lines", rejected.len() - SHOWN_FAULTS),
                "invalid_line",
            ));
        }
        Error::Validation(details)
    })
}
