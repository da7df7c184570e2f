//! Examples: filtered and searched, a page at a time; one example's state, annotations (each
//! annotator's vote and reason) and the decisions recorded on it.

use super::commit;
use crate::ui::app::{model_url, when, with_query};
use crate::ui::state;
use crate::wire::examples::{Example, ExampleDetail, ExamplePage, answer_text};
use maud::{Markup, html};
use serde_json::Value;

/// The filter of the examples page, as its form sends it.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// `yes`, `no`, or empty: either.
    pub annotated: String,
    /// A question ID, or empty.
    pub question: String,
    /// An answer to `question` (as its annotation reads: `true`, an option, a level).
    pub answer: String,
    /// Only examples whose annotation of `question` differs from the model's last recorded
    /// answer.
    pub disagree: bool,
    /// Text the state must contain.
    pub text: String,
}

impl Filter {
    /// The filter as query pairs (empty values left out), for links that keep it.
    pub fn pairs(&self) -> Vec<(&'static str, &str)> {
        let mut pairs = Vec::new();
        for (key, value) in [
            ("annotated", self.annotated.as_str()),
            ("question", self.question.as_str()),
            ("answer", self.answer.as_str()),
            ("text", self.text.as_str()),
        ] {
            if !value.is_empty() {
                pairs.push((key, value));
            }
        }
        if self.disagree {
            pairs.push(("disagree", "on"));
        }
        pairs
    }
}

/// The examples page.
pub fn list(model_id: &str, questions: &[String], filter: &Filter, page: &ExamplePage) -> Markup {
    let base = model_url(model_id, "examples");
    let next = page.next_cursor.as_ref().map(|cursor| {
        let mut pairs = filter.pairs();
        pairs.push(("after", cursor.as_str()));
        with_query(&base, pairs)
    });
    html! {
        h1 { "Examples" }
        form.filters #filter method="get" action=(base) {
            label { "Annotated "
                select name="annotated" {
                    @for (value, label) in [("", "either"), ("yes", "yes"), ("no", "no")] {
                        option value=(value) selected[filter.annotated == value] { (label) }
                    }
                }
            }
            label { " Question "
                select name="question" {
                    option value="" selected[filter.question.is_empty()] { "any" }
                    @for q in questions { option value=(q) selected[filter.question == *q] { (q) } }
                }
            }
            label { " Answer " input name="answer" value=(filter.answer) size="10"; }
            label { " " input type="checkbox" name="disagree" checked[filter.disagree]; " disagrees with the model" }
            label { " Text " input type="search" name="text" value=(filter.text); }
            " " button type="submit" { "Filter" }
        }
        @if page.examples.is_empty() && page.next_cursor.is_some() {
            p.muted #no-examples { "None among the examples scanned so far." }
        } @else if page.examples.is_empty() {
            p.muted #no-examples { "No example matches." }
        } @else {
            table #examples {
                thead { tr { th { "Example" } th { "State" } th { "Annotations" } th { "Recorded" } } }
                tbody { @for example in &page.examples { (row(model_id, example)) } }
            }
        }
        @if let Some(next) = next {
            p { a #next href=(next) { "Next page →" } }
        }
    }
}

fn row(model_id: &str, example: &Example) -> Markup {
    let id = example.example_id.to_string();
    let preview: String = example.state.to_string().chars().take(140).collect();
    html! {
        tr {
            td { a href=(with_query(&model_url(model_id, "example"), [("id", id.as_str())])) { code { (id) } } }
            td.preview { (preview) }
            td {
                @for (question, annotation) in &example.annotations {
                    span.tag { code { (question) } " " (answer_text(&annotation.answer)) }
                }
            }
            td.muted { (when(example.created_at)) }
        }
    }
}

/// One example.
pub fn one(detail: &ExampleDetail) -> Markup {
    let example = &detail.example;
    html! {
        h1 { "Example " code { (example.example_id) } }
        p.muted { "Recorded " (when(example.created_at)) }
        h2 { "State" }
        (state::render(&example.state))
        h2 { "Annotations" }
        @if example.annotations.is_empty() {
            p.muted { "Not annotated yet." }
        } @else {
            table #annotations {
                thead { tr { th { "Question" } th { "Ground truth" } th { "Annotator" } th { "Answer" } th { "Reason" } th { "When" } } }
                tbody {
                    @for (question, annotation) in &example.annotations {
                        @for (i, vote) in annotation.votes.iter().enumerate() {
                            tr {
                                td { @if i == 0 { code { (question) } } }
                                td { @if i == 0 { strong { (answer_text(&annotation.answer)) } } }
                                td { (vote.annotator) }
                                td { (answer_text(&vote.answer)) }
                                td.reason { (vote.reasoning.as_deref().unwrap_or("")) }
                                td.muted { (when(vote.annotated_at)) }
                            }
                        }
                    }
                }
            }
        }
        h2 { "Decisions" }
        @if detail.decisions.is_empty() {
            p.muted { "No decision recorded on it." }
        } @else {
            table #decisions {
                thead { tr { th { "When" } th { "Revision" } th { "Answers" } } }
                tbody {
                    @for decision in &detail.decisions {
                        tr {
                            td.muted { (when(decision.created_at)) }
                            td { code { (decision.revision_name) } " " (commit(&decision.checkpoint)) }
                            td { (answers(&decision.answers)) }
                        }
                    }
                }
            }
        }
    }
}

/// A decision's answers, one line per question: its most likely outcome.
fn answers(answers: &Value) -> Markup {
    let parsed: Option<indexmap::IndexMap<String, crate::wire::answer::Answer>> =
        serde_json::from_value(answers.clone()).ok();
    html! {
        @match parsed {
            Some(parsed) => {
                @for (question, answer) in &parsed {
                    @let best = answer.outcomes().into_iter().find(|o| o.guess);
                    div {
                        code { (question) } " "
                        @if let Some(best) = best {
                            (answer_text(&best.value)) " " span.muted { (format!("{:.3}", best.probability)) }
                        }
                    }
                }
            }
            None => code { (answers.to_string()) },
        }
    }
}
