//! The failed items of a batch job, in words on stderr: `item 3 (line 5): what failed`,
//! read from its result lines as they reach the command (`batch`, `jobs poll --wait`).

use crate::cli::output::Printer;
use crate::wire::jobs::{BatchResultLine, ItemOutcome, Job};
use crate::wire::problem::Problem;
use crate::wire::validate::{Loc, Segment};

/// The failed items seen in the results, the first few described.
#[derive(Default)]
pub(crate) struct Failures {
    shown: Vec<String>,
    more: u64,
}

impl Failures {
    /// How many failed items are described; the rest are counted.
    const SHOWN: usize = 5;

    /// Note `line` if it is a failed item's result.
    pub(crate) fn note(&mut self, line: &[u8]) {
        // Only a line that names `error` can be one: answers are not parsed again.
        if !line.windows(7).any(|w| w == b"\"error\"") {
            return;
        }
        let Ok(result) = serde_json::from_slice::<BatchResultLine>(line) else {
            return;
        };
        let ItemOutcome::Failed { error } = &result.outcome else {
            return;
        };
        if self.shown.len() < Self::SHOWN {
            self.shown.push(failed_item(&result, error));
        } else {
            self.more += 1;
        }
    }

    /// On stderr, before the job's outcome: each failed item described, with its line.
    pub(crate) fn report(&self, job: &Job, printer: &Printer) {
        self.report_to(printer, &format!("arbiter jobs results {}", job.job_id));
    }

    /// [`Self::report`], the rest of the failed items to be read `elsewhere`.
    pub(crate) fn report_to(&self, printer: &Printer, elsewhere: &str) {
        for text in &self.shown {
            printer.status(text);
        }
        if self.more > 0 {
            printer.status(&format!(
                "… and {} more failed items: {elsewhere}",
                self.more
            ));
        }
    }
}

/// `item 3 (line 5): what failed`: the item by its index and, for a JSON Lines input, the
/// line it was read from.
fn failed_item(result: &BatchResultLine, error: &Problem) -> String {
    let line = result
        .line
        .map_or_else(String::new, |line| format!(" (line {line})"));
    // Each located problem, where in the item (`state.x`) rather than where in a body.
    let within = |loc: &Loc| match loc.0.as_slice() {
        [
            Segment::Key(body),
            Segment::Key(items),
            Segment::Index(_),
            rest @ ..,
        ] if body == "body" && items == "items" => {
            (!rest.is_empty()).then(|| Loc(rest.to_vec()).to_string())
        }
        _ => Some(loc.to_string()),
    };
    let what = if error.details.is_empty() {
        error.detail.clone()
    } else {
        error
            .details
            .iter()
            .map(|detail| match within(&detail.loc) {
                Some(at) => format!("{at}: {}", detail.msg),
                None => detail.msg.clone(),
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    format!("item {}{line}: {what}", result.index)
}
