//! Jobs: running and finished, with their progress, and cancel for those still going; one
//! job's page, whose evaluation is the Evaluation page.

use super::commit;
use crate::ui::app::{ROOT, csrf_field, model_url, when};
use crate::wire::jobs::{Job, JobResult};
use maud::{Markup, html};

/// How a job is named to people: its model and kind.
pub struct Named<'a> {
    pub job: &'a Job,
    /// The model's path, when the viewer can see it.
    pub model_path: Option<&'a str>,
}

/// Whether any of `jobs` may still move: the page then refreshes itself.
pub fn any_open(jobs: &[Job]) -> bool {
    jobs.iter().any(|job| !job.status.is_finished())
}

fn job_url(job: &Job) -> String {
    format!("{ROOT}/jobs/{}", job.job_id)
}

fn progress(job: &Job) -> Markup {
    let p = &job.progress;
    html! {
        progress max=(p.total.max(1)) value=(p.done) {}
        " " span.num { (p.done) "/" (p.total) }
        @if p.failed > 0 { " " span.fail { (p.failed) " failed" } }
    }
}

fn cancel(job: &Job, csrf: &str) -> Markup {
    html! {
        @if !job.status.is_finished() && !job.cancel_requested {
            form.inline method="post" action={ (job_url(job)) "/cancel" } {
                (csrf_field(csrf))
                button type="submit" { "Cancel" }
            }
        } @else if job.cancel_requested && !job.status.is_finished() {
            span.muted { "cancelling" }
        }
    }
}

/// The jobs page.
pub fn list(jobs: &[Named<'_>], csrf: &str) -> Markup {
    html! {
        h1 { "Jobs" }
        @if jobs.is_empty() {
            p.muted { "No job yet: " code { "arbiter batch" } ", " code { "arbiter align" } " and " code { "arbiter eval" } " start them." }
        } @else {
            table #jobs {
                thead { tr { th { "Job" } th { "Kind" } th { "Model" } th { "Status" } th { "Progress" } th { "Created" } th {} } }
                tbody {
                    @for named in jobs {
                        @let job = named.job;
                        tr data-status=(job.status.as_str()) data-kind=(job.kind.as_str()) {
                            td { a href=(job_url(job)) { code { (job.job_id) } } }
                            td { (job.kind.as_str()) }
                            td {
                                @match named.model_path {
                                    Some(path) => a href=(model_url(&job.model_id.to_string(), "")) { (path) },
                                    None => code { (job.model_id) },
                                }
                            }
                            td.status { (job.status.as_str()) }
                            td { (progress(job)) }
                            td.muted { (when(job.created_at)) }
                            td { (cancel(job, csrf)) }
                        }
                    }
                }
            }
        }
    }
}

/// One job's page, when it is not a completed evaluation (that is the Evaluation page).
pub fn one(named: &Named<'_>, csrf: &str) -> Markup {
    let job = named.job;
    html! {
        h1 { (job.kind.as_str()) " " code { (job.job_id) } }
        dl.fields {
            dt { "Model" } dd { (named.model_path.unwrap_or("")) }
            dt { "Status" } dd.status { (job.status.as_str()) " " (cancel(job, csrf)) }
            dt { "Progress" } dd { (progress(job)) }
            dt { "Created" } dd { (when(job.created_at)) }
            @if let Some(at) = job.finished_at { dt { "Finished" } dd { (when(at)) } }
        }
        @if let Some(problem) = &job.error {
            p.fail { (problem.title) ": " (problem.detail) }
        }
        @match &job.result {
            Some(JobResult::Batch(summary)) => {
                p { (summary.succeeded) " of " (summary.items) " items answered, " (summary.failed) " failed; "
                    (format!("{:.1}", summary.mean_latency_ms)) " ms a decision." }
            }
            Some(JobResult::Alignment(result)) => {
                @if result.improved {
                    p.pass { "A new checkpoint: "
                        @if let Some(checkpoint) = &result.checkpoint { (commit(&checkpoint.checkpoint_id)) }
                        @if let Some(branch) = &result.branch { " on " code { (branch) } } }
                } @else {
                    p { "No checkpoint committed: nothing beat " (commit(&result.base_checkpoint)) " on the held-out examples." }
                }
            }
            Some(JobResult::Evaluation(_)) | None => {}
        }
    }
}
