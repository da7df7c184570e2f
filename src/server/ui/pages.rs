//! The pages that read: models, jobs (with cancel), a job (an evaluation's is the
//! Evaluation page), a model (with its diff and promote), examples and one example. Each
//! is a core operation as the API's route for it calls it, drawn by [`crate::ui`].

use super::{FormBody, UiResult, Viewer, see_other};
use crate::core::access::{self, JobListing, ModelService as _};
use crate::core::requests::{ExamplesQuery, LogQuery};
use crate::core::tokens::{Role, Scope};
use crate::error::Error;
use crate::server::AppState;
use crate::server::admission::OneAtATime;
use crate::store::ExampleFilter;
use crate::ui::app::{Frame, ModelNav, Tab, document, model_url, with_query};
use crate::ui::pages::{examples, home as home_page, jobs as jobs_page, model as model_page};
use axum::extract::{Path, Query, State};
use axum::response::{Html, IntoResponse, Response};
use maud::Markup;
use serde::Deserialize;

/// Jobs a page lists at most, and examples a page shows.
const LISTED: usize = 100;
const EXAMPLES_PER_PAGE: usize = 50;

/// How long a page of examples the model disagrees with scans (and decides what the
/// answers cache lacks); the rest is on its next page.
const DISAGREEMENTS_SCAN: std::time::Duration = std::time::Duration::from_millis(200);

/// A page of the app around `body`.
pub(super) fn render(
    viewer: &Viewer,
    title: &str,
    tab: Tab,
    model: Option<ModelNav<'_>>,
    refresh: Option<u32>,
    body: &Markup,
) -> Response {
    let frame = Frame {
        title,
        tab,
        viewer: viewer.name(),
        csrf: viewer.csrf(),
        model,
        refresh,
    };
    Html(document(&frame, body)).into_response()
}

pub(super) async fn home(State(state): State<AppState>, viewer: Viewer) -> UiResult<Response> {
    let list = state.session(viewer.principal()).list_models().await?;
    Ok(render(
        &viewer,
        "arbiter: models",
        Tab::Models,
        None,
        None,
        &home_page::page(&list),
    ))
}

pub(super) async fn jobs(State(state): State<AppState>, viewer: Viewer) -> UiResult<Response> {
    let listing = JobListing {
        limit: LISTED,
        ..JobListing::default()
    };
    let jobs = state.session(viewer.principal()).jobs(listing).await?;
    let paths = model_paths(&state).await?;
    let named: Vec<jobs_page::Named<'_>> = jobs
        .iter()
        .map(|job| jobs_page::Named {
            job,
            model_path: paths.get(&job.model_id).map(String::as_str),
        })
        .collect();
    let refresh = jobs_page::any_open(&jobs).then_some(5);
    Ok(render(
        &viewer,
        "arbiter: jobs",
        Tab::Jobs,
        None,
        refresh,
        &jobs_page::list(&named, viewer.csrf()),
    ))
}

/// Every repository model's path by its ID, read off the async runtime.
async fn model_paths(
    state: &AppState,
) -> crate::error::Result<std::collections::HashMap<crate::ids::ModelId, String>> {
    let ctx = state.ctx.clone();
    crate::core::blocking(move || access::model_paths(&ctx)).await
}

fn job_id(text: &str) -> Result<crate::ids::JobId, Error> {
    text.parse()
        .map_err(|_| Error::JobNotFound(text.to_owned()))
}

pub(super) async fn job(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(job): Path<String>,
) -> UiResult<Response> {
    let job = state
        .session(viewer.principal())
        .job(&job_id(&job)?)
        .await?;
    let paths = model_paths(&state).await?;
    let path = paths.get(&job.model_id).map(String::as_str);
    let model_id = job.model_id.to_string();
    let nav = path.map(|path| ModelNav {
        id: &model_id,
        path,
    });
    if let Some(crate::wire::jobs::JobResult::Evaluation(report)) = &job.result {
        let model = path.unwrap_or("");
        // Judged as `arbiter eval` judges the gates file the evaluation was asked with.
        let judged =
            crate::wire::align::gates::judge(report, &crate::wire::align::gates::Flags::default());
        let gates = crate::ui::evaluation::gates_shown(&judged);
        let body = crate::ui::evaluation::page(model, report, &gates);
        let title = crate::ui::evaluation::title(model, report);
        return Ok(render(&viewer, &title, Tab::Jobs, nav, None, &body));
    }
    let refresh = jobs_page::any_open(std::slice::from_ref(&job)).then_some(3);
    let named = jobs_page::Named {
        job: &job,
        model_path: path,
    };
    Ok(render(
        &viewer,
        &format!("arbiter: job {}", job.job_id),
        Tab::Jobs,
        nav,
        refresh,
        &jobs_page::one(&named, viewer.csrf()),
    ))
}

pub(super) async fn cancel_job(
    State(state): State<AppState>,
    Path(job): Path<String>,
    form: FormBody,
) -> UiResult<Response> {
    let job = state
        .session(form.viewer.principal())
        .cancel_job(&job_id(&job)?)
        .await?;
    Ok(see_other(&format!("/ui/jobs/{}", job.job_id)))
}

#[derive(Debug, Deserialize)]
pub(super) struct CompareQuery {
    from: Option<String>,
    to: Option<String>,
    notice: Option<String>,
}

pub(super) async fn model(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(model): Path<String>,
    Query(query): Query<CompareQuery>,
) -> UiResult<Response> {
    let principal = viewer.principal();
    let authorized = state
        .authorize(principal, &model, access::SHOW_MODEL)
        .await?;
    let path = authorized.path();
    let can_promote = principal.has_scope(Scope::Alignments)
        && principal
            .role_on(&path)
            .is_some_and(|role| role >= Role::Writer);
    let on = authorized.on(&state.ctx);
    let detail = on.show().await?;
    let checkpoints = on
        .log(LogQuery {
            revision: None,
            limit: 20,
        })
        .await?;
    let history = on.history(20).await?;
    let from = query.from.unwrap_or_else(|| detail.default_branch.clone());
    let to = query.to.unwrap_or_default();
    let diff = if to.is_empty() {
        None
    } else {
        Some(on.diff(&from, &to).await?)
    };
    let view = model_page::ModelPage {
        model: &detail,
        checkpoints: &checkpoints,
        history: &history,
        compare: (&from, &to),
        diff: diff.as_ref(),
        can_promote,
        notice: query.notice.as_deref(),
    };
    let id = detail.model_id.to_string();
    let nav = ModelNav {
        id: &id,
        path: &detail.path,
    };
    Ok(render(
        &viewer,
        &format!("arbiter: {}", detail.path),
        Tab::Model,
        Some(nav),
        None,
        &model_page::page(&view, viewer.csrf()),
    ))
}

pub(super) async fn promote(
    State(state): State<AppState>,
    Path(model): Path<String>,
    form: FormBody,
) -> UiResult<Response> {
    let revision = form.required("revision")?;
    let authorized = state
        .authorize(form.viewer.principal(), &model, access::PROMOTE)
        .await?;
    let checkpoint = authorized.on(&state.ctx).promote(revision, None).await?;
    let notice = format!(
        "Promoted {revision}: the default branch is at {} now.",
        crate::wire::decision::short_commit(&checkpoint.checkpoint_id)
    );
    Ok(see_other(&with_query(
        &model_url(&model, ""),
        [("notice", notice.as_str())],
    )))
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct ExamplesParams {
    #[serde(default)]
    annotated: String,
    #[serde(default)]
    question: String,
    #[serde(default)]
    answer: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    disagree: Option<String>,
    after: Option<String>,
}

/// The questions of a model, for a filter, when the viewer may read the model.
async fn questions_of(state: &AppState, viewer: &Viewer, model: &str) -> Vec<String> {
    if !viewer.principal().has_scope(Scope::ModelsRead) {
        return Vec::new();
    }
    match state
        .authorize(viewer.principal(), model, access::SHOW_MODEL)
        .await
    {
        Ok(authorized) => authorized
            .on(&state.ctx)
            .show()
            .await
            .map(|detail| detail.questions)
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

impl ExamplesParams {
    /// The store's filter the form asks for: a NUL refused as the API's query parameters
    /// refuse it (no store takes one), an answer only with its question.
    fn filter(&self) -> Result<ExampleFilter, Error> {
        for (name, value) in [
            ("question", &self.question),
            ("answer", &self.answer),
            ("text", &self.text),
        ] {
            if value.contains('\0') {
                return Err(Error::invalid(
                    crate::wire::Loc::query().key(name),
                    format!("{name} holds a NUL character"),
                    "nul",
                ));
            }
        }
        let non_empty = |text: &str| (!text.trim().is_empty()).then(|| text.trim().to_owned());
        let question = non_empty(&self.question);
        if question.is_none() && non_empty(&self.answer).is_some() {
            return Err(Error::invalid(
                crate::wire::Loc::query().key("answer"),
                "an answer is looked for in a question: pick the question too",
                "missing",
            ));
        }
        Ok(ExampleFilter {
            annotated: match self.annotated.as_str() {
                "yes" => Some(true),
                "no" => Some(false),
                _ => None,
            },
            answer: non_empty(&self.answer)
                .map(|answer| crate::wire::examples::typed_answer(&answer)),
            question,
            text: non_empty(&self.text),
        })
    }
}

pub(super) async fn examples(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(model): Path<String>,
    Query(params): Query<ExamplesParams>,
) -> UiResult<Response> {
    let authorized = state
        .authorize(viewer.principal(), &model, access::LIST_EXAMPLES)
        .await?;
    let path = authorized.path();
    let filter_shown = examples::Filter {
        annotated: params.annotated.clone(),
        question: params.question.clone(),
        answer: params.answer.clone(),
        disagree: params.disagree.is_some(),
        text: params.text.clone(),
    };
    let filter = params.filter()?;
    let page = if params.disagree.is_some() {
        let authorized = state
            .authorize(viewer.principal(), &model, access::DISAGREEMENTS)
            .await?;
        let gate = OneAtATime::new(&state.decisions);
        let deadline = std::time::Instant::now() + DISAGREEMENTS_SCAN;
        authorized
            .on(&state.ctx)
            .gated(&gate)
            .disagreeing_examples(
                &filter,
                params.after.as_deref(),
                EXAMPLES_PER_PAGE,
                deadline,
            )
            .await?
    } else {
        authorized
            .on(&state.ctx)
            .list_examples(ExamplesQuery {
                filter: &filter,
                after: params.after.as_deref(),
                limit: EXAMPLES_PER_PAGE,
            })
            .await?
    };
    let questions = questions_of(&state, &viewer, &model).await;
    let nav = ModelNav {
        id: &model,
        path: &path,
    };
    Ok(render(
        &viewer,
        &format!("arbiter: {path} examples"),
        Tab::Examples,
        Some(nav),
        None,
        &examples::list(&model, &questions, &filter_shown, &page),
    ))
}

#[derive(Debug, Deserialize)]
pub(super) struct ExampleParams {
    id: String,
}

pub(super) async fn example(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(model): Path<String>,
    Query(params): Query<ExampleParams>,
) -> UiResult<Response> {
    let authorized = state
        .authorize(viewer.principal(), &model, access::SHOW_EXAMPLE)
        .await?;
    let path = authorized.path();
    let detail = authorized
        .on(&state.ctx)
        .show_example(&params.id.clone().into())
        .await?;
    let nav = ModelNav {
        id: &model,
        path: &path,
    };
    Ok(render(
        &viewer,
        &format!("arbiter: example {}", params.id),
        Tab::Examples,
        Some(nav),
        None,
        &examples::one(&detail),
    ))
}
