//! Annotate: one example at a time in `examples next`'s order (the least certain first,
//! with the audit share), claimed for the annotator; the state as a person reads it; each
//! open question with the model's guess and its probabilities. Keyboard first (`app.js`):
//! a digit or `y`/`n` answers the first open question, Enter accepts the guess, `s` skips
//! the example, `u` undoes the last answer, `r` writes a reason. Every key is a button of a
//! form, so the page works without the script too, and each answer is written when given.

use crate::ui::app::{csrf_field, model_url};
use crate::ui::pages::probability;
use crate::ui::state;
use crate::wire::agreement::AgreementReport;
use crate::wire::claims::NextToAnnotate;
use crate::wire::to_annotate::Why;
use maud::{Markup, html};

/// The flow's memory, carried from page to page in the forms (no state on the server but
/// the store's).
#[derive(Debug, Clone, Default)]
pub struct Flow {
    /// Examples passed over in this flow: not offered again.
    pub skipped: Vec<String>,
    /// Answers written in this flow.
    pub done: u64,
    /// The last answer written, as `(example, question)`: what `u` deletes.
    pub last: Option<(String, String)>,
}

impl Flow {
    /// The hidden fields that carry the flow to the next page.
    fn fields(&self) -> Markup {
        html! {
            @for id in &self.skipped { input type="hidden" name="skip" value=(id); }
            input type="hidden" name="done" value=(self.done);
        }
    }
}

/// What the annotate page shows.
pub struct AnnotatePage<'a> {
    pub model_id: &'a str,
    pub next: &'a NextToAnnotate,
    pub flow: &'a Flow,
    /// How far the annotators agree (when the viewer may read it).
    pub agreement: Option<&'a AgreementReport>,
    /// Why the last answer was refused, or what was just done.
    pub notice: Option<&'a str>,
}

/// The page.
pub fn page(view: &AnnotatePage<'_>, csrf: &str) -> Markup {
    let next = view.next;
    let url = |suffix: &str| model_url(view.model_id, suffix);
    html! {
        h1 { "Annotate" }
        p.muted #progress {
            span #left { (next.unannotated) } " examples left · "
            (next.claimed_by_others) " held by others · "
            span #done { (view.flow.done) } " answered here · at "
            code { (next.revision.name) }
        }
        @if let Some(notice) = view.notice { p.note #notice { (notice) } }
        @match &next.example {
            Some(example) => {
                section.example #example data-example=(example.example_id) data-why=(match example.why { Why::Uncertain => "uncertain", Why::Audit => "audit" }) {
                    h2 {
                        "Example " code { (example.example_id) }
                        " " span.muted { @match example.why { Why::Uncertain => "uncertain", Why::Audit => "audit (agreement)" } }
                    }
                    (state::render(&example.state))
                }
                @for (i, (question, answer)) in example.answers.iter().enumerate() {
                    form.ask.active[i == 0] method="post" action=(url("annotate/answer")) data-question=(question) {
                        (csrf_field(csrf))
                        (view.flow.fields())
                        input type="hidden" name="example" value=(example.example_id);
                        input type="hidden" name="question" value=(question);
                        h3 { code { (question) } " · " (answer.type_name()) }
                        div.outcomes {
                            @for outcome in answer.outcomes() {
                                button.outcome.guess[outcome.guess] type="submit" name="answer"
                                    value=(outcome.value.to_string())
                                    data-key=[outcome.key.as_deref()] {
                                    kbd { (outcome.key.as_deref().unwrap_or(" ")) }
                                    span.label { (answer_label(&outcome.label, &outcome.value)) }
                                    (probability(outcome.probability))
                                }
                            }
                        }
                        textarea name="reasoning" rows="1" placeholder="reason (r), optional" {}
                    }
                }
                div.actions {
                    form #skip method="post" action=(url("annotate/skip")) {
                        (csrf_field(csrf))
                        (view.flow.fields())
                        input type="hidden" name="example" value=(example.example_id);
                        button type="submit" { kbd { "s" } " Skip" }
                    }
                    (undo(view, csrf))
                }
            }
            None => {
                p #nothing-left { "Nothing left to annotate for you at " code { (next.revision.name) } "." }
                div.actions { (undo(view, csrf)) }
            }
        }
        p.keys.muted { "Keys: " kbd { "1" } "–" kbd { "9" } " or " kbd { "0" } "–" kbd { "9" } " pick · "
            kbd { "y" } "/" kbd { "n" } " yes or no · " kbd { "Enter" } " accept the model's guess · "
            kbd { "s" } " skip · " kbd { "u" } " undo · " kbd { "r" } " reason" }
        @if let Some(report) = view.agreement { (agreement(report)) }
    }
}

fn answer_label(label: &str, value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Number(level) if !label.is_empty() => format!("{level}: {label}"),
        serde_json::Value::Number(level) => level.to_string(),
        _ => label.to_owned(),
    }
}

fn undo(view: &AnnotatePage<'_>, csrf: &str) -> Markup {
    html! {
        @if let Some((example, question)) = &view.flow.last {
            form #undo method="post" action=(model_url(view.model_id, "annotate/undo")) {
                (csrf_field(csrf))
                (view.flow.fields())
                input type="hidden" name="example" value=(example);
                input type="hidden" name="question" value=(question);
                button type="submit" { kbd { "u" } " Undo " code { (question) } " of " code { (example) } }
            }
        }
    }
}

fn agreement(report: &AgreementReport) -> Markup {
    html! {
        h2 { "Agreement so far" }
        table #agreement {
            thead { tr { th { "Question" } th.num { "Annotated" } th.num { "Shared" } th.num { "Kappa" } th { "Annotators" } } }
            tbody {
                @for (question, q) in &report.questions {
                    tr {
                        td { code { (question) } }
                        td.num { (q.examples) }
                        td.num { (q.shared_examples) }
                        td.num {
                            @match q.kappa {
                                Some(kappa) => (format!("{kappa:.3}")),
                                None => span.muted title=(q.reason.as_deref().unwrap_or("")) { "–" },
                            }
                        }
                        td { @for (i, a) in q.annotators.iter().enumerate() { @if i > 0 { ", " } (a.annotator) " (" (a.examples) ")" } }
                    }
                }
            }
        }
    }
}
