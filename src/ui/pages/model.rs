//! A model: its branches, tags, checkpoints and history, the diff of two revisions
//! (questions and learned heads, as `models diff` shows them), and promote for a writer.

use super::commit;
use crate::ui::app::{csrf_field, model_url, when};
use crate::wire::decision::Checkpoint;
use crate::wire::models::ModelDetail;
use crate::wire::registry::{Change, DiffStatus, FileDiff, ModelDiff, RegistryEvent};
use maud::{Markup, html};

/// What the model page shows.
pub struct ModelPage<'a> {
    pub model: &'a ModelDetail,
    pub checkpoints: &'a [Checkpoint],
    pub history: &'a [RegistryEvent],
    /// The two revisions asked to compare, and their diff once computed.
    pub compare: (&'a str, &'a str),
    pub diff: Option<&'a ModelDiff>,
    /// Whether the viewer may promote (a writer with the `alignments` scope).
    pub can_promote: bool,
    /// What the last write did.
    pub notice: Option<&'a str>,
}

/// The page.
pub fn page(view: &ModelPage<'_>, csrf: &str) -> Markup {
    let model = view.model;
    let id = model.model_id.to_string();
    let refs: Vec<&str> = model
        .branches
        .iter()
        .chain(&model.tags)
        .map(|r| r.name.as_str())
        .collect();
    html! {
        h1 { (model.path) }
        p.muted {
            "Base " code { (model.base) } " · default branch " code { (model.default_branch) }
            " at " (commit(&model.latest_checkpoint.checkpoint_id))
            " · capture " (if model.capture.enabled { "on" } else { "off" })
            " · questions: " @for (i, q) in model.questions.iter().enumerate() { @if i > 0 { ", " } code { (q) } }
        }
        @if let Some(notice) = view.notice { p.note #notice { (notice) } }
        div.columns { (branches_and_tags(view, csrf)) (checkpoints(view)) }
        h2 { "Compare" }
        form.inline #compare method="get" action=(model_url(&id, "")) {
            label { "from " input name="from" value=(view.compare.0) list="refs" required; }
            label { " to " input name="to" value=(view.compare.1) list="refs" required; }
            datalist #refs { @for name in &refs { option value=(name) {} } }
            " " button type="submit" { "Diff" }
        }
        @if let Some(diff) = view.diff { (diff_of(diff)) }
        h2 { "History" }
        @if view.history.is_empty() {
            p.muted { "No promotion, tag or deletion yet." }
        } @else {
            table #history {
                thead { tr { th { "When" } th { "Action" } th { "Ref" } th { "From" } th { "To" } th { "By" } th { "Evaluation" } } }
                tbody {
                    @for event in view.history {
                        tr {
                            td.muted { (when(event.at)) }
                            td { (event.action.to_string()) }
                            td { code { (event.ref_name) } }
                            td { @if let Some(from) = &event.from { (commit(from)) } }
                            td { (commit(&event.to)) }
                            td { (event.actor) }
                            td { @if let Some(e) = &event.evaluation { code { (e.job_id) } } }
                        }
                    }
                }
            }
        }
    }
}

/// The branches (each with its diff against the default branch, and promote) and tags.
fn branches_and_tags(view: &ModelPage<'_>, csrf: &str) -> Markup {
    let model = view.model;
    let id = model.model_id.to_string();
    html! {
            section {
                h2 { "Branches" }
                table #branches {
                    thead { tr { th { "Branch" } th { "Commit" } th {} } }
                    tbody {
                        @for branch in &model.branches {
                            tr {
                                td { code { (branch.name) } @if branch.name == model.default_branch { " " span.muted { "default" } } }
                                td { (commit(&branch.commit)) }
                                td {
                                    @if branch.name != model.default_branch {
                                        a href=(compare_url(&id, &model.default_branch, &branch.name)) { "diff" }
                                        @if view.can_promote {
                                            " "
                                            form.inline method="post" action=(model_url(&id, "promote")) {
                                                (csrf_field(csrf))
                                                input type="hidden" name="revision" value=(branch.name);
                                                button type="submit" { "Promote" }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                @if !model.tags.is_empty() {
                    h2 { "Tags" }
                    table #tags {
                        tbody { @for tag in &model.tags { tr { td { code { (tag.name) } } td { (commit(&tag.commit)) } } } }
                    }
                }
            }
    }
}

/// The latest checkpoints, each with its diff against the one before.
fn checkpoints(view: &ModelPage<'_>) -> Markup {
    let id = view.model.model_id.to_string();
    html! {
            section {
                h2 { "Checkpoints" }
                table #checkpoints {
                    thead { tr { th { "Commit" } th { "When" } th { "Message" } th {} } }
                    tbody {
                        @for (i, checkpoint) in view.checkpoints.iter().enumerate() {
                            tr {
                                td { (commit(&checkpoint.checkpoint_id)) }
                                td.muted { (when(checkpoint.created_at)) }
                                td { (checkpoint.message.lines().next().unwrap_or("")) }
                                td {
                                    @if let Some(parent) = view.checkpoints.get(i + 1) {
                                        a href=(compare_url(&id, &parent.checkpoint_id, &checkpoint.checkpoint_id)) { "diff" }
                                    }
                                }
                            }
                        }
                    }
                }
            }
    }
}

fn compare_url(model_id: &str, from: &str, to: &str) -> String {
    crate::ui::app::with_query(&model_url(model_id, ""), [("from", from), ("to", to)]) + "#diff"
}

fn diff_of(diff: &ModelDiff) -> Markup {
    html! {
        section #diff {
            p.muted {
                code { (diff.from.name) } " (" (commit(&diff.from.commit)) ") → "
                code { (diff.to.name) } " (" (commit(&diff.to.commit)) ")"
            }
            @if diff.is_empty() {
                p { "The two revisions are the same." }
            }
            @if !diff.model_yaml.is_empty() { h3 { "model.yaml" } (changes(&diff.model_yaml)) }
            (files("questions.yaml", &diff.questions))
            (files("aligned", &diff.learned))
            (files("learned heads", &diff.heads))
            @if !diff.encoder.is_empty() { h3 { "fine-tuned encoder" } (changes(&diff.encoder)) }
        }
    }
}

fn files(title: &str, files: &[FileDiff]) -> Markup {
    html! {
        @if !files.is_empty() {
            h3 { (title) }
            @for file in files {
                div.file {
                    p { code { (file.id) } " " span class={ "status " (status(file.status)) } { (status(file.status)) } }
                    (changes(&file.changes))
                }
            }
        }
    }
}

fn status(status: DiffStatus) -> &'static str {
    match status {
        DiffStatus::Added => "added",
        DiffStatus::Removed => "removed",
        DiffStatus::Changed => "changed",
    }
}

fn changes(changes: &[Change]) -> Markup {
    let shown = |value: &Option<serde_json::Value>| {
        value.as_ref().map(|v| match v {
            serde_json::Value::String(text) => text.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        })
    };
    html! {
        table.diff {
            @for change in changes {
                tr {
                    td { code { (change.path.join(".")) } }
                    td.removed { @if let Some(from) = shown(&change.from) { pre { (from) } } }
                    td.added { @if let Some(to) = shown(&change.to) { pre { (to) } } }
                }
            }
        }
    }
}
