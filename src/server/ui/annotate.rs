//! The Annotate page: the next example for the viewer (claimed, as `arbiter annotate`
//! claims it), each answer written by its own form post, the skip and the undo. What the
//! flow remembers (examples skipped, answers given, the last answer) travels in the page's
//! URL and forms; the store holds the rest.

use super::pages::render;
use super::{FormBody, UiError, UiResult, Viewer, see_other};
use crate::core::access::{self, ModelService as _, OnModel};
use crate::core::requests::{AnnotateRequest, ClaimNext};
use crate::core::tokens::Scope;
use crate::error::Error;
use crate::ids::ExampleId;
use crate::server::AppState;
use crate::server::admission::OneAtATime;
use crate::store::Chosen;
use crate::ui::app::{ModelNav, Tab, model_url, with_query};
use crate::ui::pages::annotate::{AnnotatePage, Flow};
use crate::wire::claims::NextToAnnotate;
use crate::wire::to_annotate::ToAnnotateQuery;
use axum::extract::{Path, RawQuery, State};
use axum::response::Response;

/// The candidates a page ranks: the newest unannotated examples, as `examples next
/// --pool` takes them (its default, 1,000, would read a thousand states a page).
const POOL: usize = 200;

/// How long from its request a page spends deciding candidates whose answers are not
/// cached (after the first, which it always decides): those decided
/// in time are ranked with the cached ones, and the rest are decided in the background
/// ([`warm`]) for the next pages, so a page is ready in a moment however cold the cache.
const RANKING: std::time::Duration = std::time::Duration::from_millis(100);

/// Examples a flow remembers skipping, at most (the oldest are forgotten first).
const SKIPS_KEPT: usize = 200;

/// The flow and the page's own fields, from a query or a form's fields.
struct Asked {
    flow: Flow,
    current: Option<String>,
    notice: Option<String>,
}

fn asked(pairs: &[(String, String)]) -> Asked {
    let one = |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .filter(|value| !value.is_empty())
    };
    let mut skipped: Vec<String> = pairs
        .iter()
        .filter(|(key, _)| key == "skip")
        .map(|(_, value)| value.clone())
        .collect();
    let excess = skipped.len().saturating_sub(SKIPS_KEPT);
    skipped.drain(..excess);
    let last = one("last_example").zip(one("last_question"));
    Asked {
        flow: Flow {
            skipped,
            done: one("done").and_then(|n| n.parse().ok()).unwrap_or(0),
            last,
        },
        current: one("current"),
        notice: one("notice"),
    }
}

/// The annotate page's URL for `flow`, on `current`, with `notice`.
fn page_url(model: &str, flow: &Flow, current: Option<&str>, notice: Option<&str>) -> String {
    let done = flow.done.to_string();
    let mut pairs: Vec<(&str, &str)> = flow
        .skipped
        .iter()
        .map(|id| ("skip", id.as_str()))
        .collect();
    pairs.push(("done", &done));
    if let Some((example, question)) = &flow.last {
        pairs.push(("last_example", example));
        pairs.push(("last_question", question));
    }
    if let Some(current) = current {
        pairs.push(("current", current));
    }
    if let Some(notice) = notice {
        pairs.push(("notice", notice));
    }
    with_query(&model_url(model, "annotate"), pairs)
}

pub(super) async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(model): Path<String>,
    RawQuery(query): RawQuery,
) -> UiResult<Response> {
    let started = std::time::Instant::now();
    let pairs: Vec<(String, String)> =
        url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let Asked {
        flow,
        current,
        notice,
    } = asked(&pairs);
    let principal = viewer.principal();
    let authorized = state
        .authorize(principal, &model, access::CLAIM_NEXT)
        .await?;
    let path = authorized.path();
    let on = authorized.on(&state.ctx);
    let gate = OneAtATime::new(&state.decisions);
    let on = on.gated(&gate);
    let next = claim(&on, current.as_deref(), &flow.skipped, started + RANKING).await?;
    warm(&state, principal, &model).await;
    let agreement = if principal.has_scope(Scope::ExamplesRead) {
        let readable = state
            .authorize(principal, &model, access::ANNOTATION_AGREEMENT)
            .await?;
        Some(readable.on(&state.ctx).annotation_agreement(None).await?)
    } else {
        None
    };
    let view = AnnotatePage {
        model_id: &model,
        next: &next,
        flow: &flow,
        agreement: agreement.as_ref(),
        notice: notice.as_deref(),
    };
    let nav = ModelNav {
        id: &model,
        path: &path,
    };
    Ok(render(
        &viewer,
        &format!("arbiter: annotate {path}"),
        Tab::Annotate,
        Some(nav),
        None,
        &crate::ui::pages::annotate::page(&view, viewer.csrf()),
    ))
}

/// The example to show: `current` while a question of it is open (it stays on screen until
/// its every question is answered), else the next one claimed, passing over `skipped`.
async fn claim(
    on: &OnModel<'_>,
    current: Option<&str>,
    skipped: &[String],
    deadline: std::time::Instant,
) -> Result<NextToAnnotate, Error> {
    let query = ToAnnotateQuery {
        pool: POOL,
        ..ToAnnotateQuery::default()
    };
    if let Some(current) = current {
        let only = [current.to_owned()];
        let held = on
            .claim_next(ClaimNext {
                query: &query,
                skip: &[],
                chosen: Chosen {
                    only: Some(&only),
                    except: &[],
                },
                annotator: None,
                // One example, decided when it was first shown.
                deadline: None,
            })
            .await?;
        if held.example.is_some() {
            return Ok(held);
        }
        on.release_claim(&current.to_owned().into(), None).await?;
    }
    let skip: Vec<ExampleId> = skipped.iter().cloned().map(Into::into).collect();
    on.claim_next(ClaimNext {
        query: &query,
        skip: &skip,
        chosen: Chosen {
            only: None,
            except: &[],
        },
        annotator: None,
        deadline: Some(deadline),
    })
    .await
}

/// Decide the rest of the page's pool in the background (once per model at a time, in the
/// server's decision slots like any decision), so that the next pages rank it whole from
/// the answers cache. Only for a viewer who may rank examples (`examples:read`).
async fn warm(state: &AppState, principal: &crate::core::tokens::Principal, model: &str) {
    let Ok(home) = super::session::home(state).cloned() else {
        return;
    };
    let Ok(authorized) = state
        .authorize(principal, model, access::EXAMPLES_TO_ANNOTATE)
        .await
    else {
        return;
    };
    let started = home
        .warming
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(model.to_owned());
    if !started {
        return;
    }
    let (ctx, decisions, model) = (state.ctx.clone(), state.decisions.clone(), model.to_owned());
    let permitted = authorized.into_permitted();
    tokio::spawn(async move {
        let gate = OneAtATime::new(&decisions);
        let query = ToAnnotateQuery {
            pool: POOL,
            ..ToAnnotateQuery::default()
        };
        let ranked = OnModel::new(&ctx, permitted)
            .gated(&gate)
            .examples_to_annotate(&query, None)
            .await;
        if let Err(error) = ranked {
            tracing::warn!(%error, "deciding the Annotate page's candidates failed");
        }
        home.warming
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&model);
    });
}

/// The form's fields as the flow reads them.
fn flow_of(form: &FormBody) -> Flow {
    asked(form.fields()).flow
}

pub(super) async fn answer(
    State(state): State<AppState>,
    Path(model): Path<String>,
    form: FormBody,
) -> UiResult<Response> {
    let example = form.required("example")?.to_owned();
    let question = form.required("question")?.to_owned();
    let answer: serde_json::Value =
        serde_json::from_str(form.required("answer")?).map_err(|_| {
            Error::invalid(
                crate::wire::Loc::body().key("answer"),
                "the answer is not JSON: `true`, `\"billing\"`, `2`",
                "json",
            )
        })?;
    let reasoning = form
        .get("reasoning")
        .map(str::trim)
        .filter(|reason| !reason.is_empty())
        .map(str::to_owned);
    let mut flow = flow_of(&form);
    let authorized = state
        .authorize(form.viewer.principal(), &model, access::ANNOTATE)
        .await?;
    let example_id: ExampleId = example.clone().into();
    let written = authorized
        .on(&state.ctx)
        .annotate(AnnotateRequest {
            example_id: &example_id,
            question_id: question.clone(),
            answer,
            reasoning,
            annotator: None,
        })
        .await;
    match written {
        Ok(_) => {
            flow.done += 1;
            flow.last = Some((example.clone(), question));
            Ok(see_other(&page_url(&model, &flow, Some(&example), None)))
        }
        // A refused answer is said on the page, and the question asked again.
        Err(error @ Error::Validation(_)) => {
            let notice = format!("Not written: {}", UiError(error).detail());
            Ok(see_other(&page_url(
                &model,
                &flow,
                Some(&example),
                Some(&notice),
            )))
        }
        Err(error) => Err(error.into()),
    }
}

pub(super) async fn skip(
    State(state): State<AppState>,
    Path(model): Path<String>,
    form: FormBody,
) -> UiResult<Response> {
    let example = form.required("example")?.to_owned();
    let mut flow = flow_of(&form);
    let authorized = state
        .authorize(form.viewer.principal(), &model, access::RELEASE_CLAIM)
        .await?;
    authorized
        .on(&state.ctx)
        .release_claim(&example.clone().into(), None)
        .await?;
    flow.skipped.push(example);
    Ok(see_other(&page_url(&model, &flow, None, None)))
}

pub(super) async fn undo(
    State(state): State<AppState>,
    Path(model): Path<String>,
    form: FormBody,
) -> UiResult<Response> {
    let example = form.required("example")?.to_owned();
    let question = form.required("question")?.to_owned();
    let mut flow = flow_of(&form);
    let authorized = state
        .authorize(form.viewer.principal(), &model, access::UNANNOTATE)
        .await?;
    authorized
        .on(&state.ctx)
        .unannotate(&example.clone().into(), &question, None)
        .await?;
    flow.done = flow.done.saturating_sub(1);
    flow.skipped.retain(|id| *id != example);
    let notice = format!("Undone: your answer to {question} of {example}.");
    Ok(see_other(&page_url(
        &model,
        &flow,
        Some(&example),
        Some(&notice),
    )))
}
