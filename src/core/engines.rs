//! The configured remote engines: list them, and check that each answers.

use super::Context;
use crate::engine::{Configured, EngineRequest};
use crate::error::{Error, Result};
use crate::wire::Questions;
use crate::wire::engines::{EngineCheck, EngineChecks, EngineInfo, EngineList};
use crate::wire::question::parse_questions;
use crate::wire::validate::Loc;
use serde_json::{Value, json};
use std::time::Instant;

/// The engines of `config.yaml`, in file order, with the base models routed to each.
pub fn list(ctx: &Context) -> EngineList {
    EngineList {
        engines: ctx.engines().configured().map(info).collect(),
    }
}

fn info(configured: &Configured) -> EngineInfo {
    let settings = &configured.settings;
    EngineInfo {
        name: settings.name.clone(),
        kind: settings.kind.as_str().to_owned(),
        url: settings.url.clone(),
        model: settings.model.clone(),
        api_key_env: settings.api_key_env.clone(),
        api_key_set: settings.api_key.is_some(),
        max_in_flight: settings.limits.max_in_flight,
        timeout_secs: settings.limits.timeout.as_secs_f64(),
        retries: settings.limits.retries,
        models: configured.models.iter().map(|m| (*m).to_owned()).collect(),
    }
}

/// The check's decision: one state, one choice question, so a chat engine makes one call.
fn probe() -> Result<(Value, Questions)> {
    let state = json!({"messages": [{"role": "user",
        "content": "I was charged twice for the same order. Please refund one of the charges."}]});
    let mut errors = Vec::new();
    let questions = parse_questions(
        &json!({"intent": {"type": "choice", "instructions": "What does the customer want?",
            "criteria": {"refund": "Their money back.", "other": "Something else."}}}),
        &Loc::body().key("questions"),
        &mut errors,
    );
    if errors.is_empty() {
        Ok((state, questions))
    } else {
        Err(Error::Validation(errors))
    }
}

/// Call each engine named (all when `names` is empty) once, at the same time, and report
/// whether it answered with a valid response and how long that took.
pub async fn check(ctx: &Context, names: &[String]) -> Result<EngineChecks> {
    let configured: Vec<&Configured> = ctx.engines().configured().collect();
    if let Some(unknown) = names
        .iter()
        .find(|name| !configured.iter().any(|c| &c.settings.name == *name))
    {
        return Err(Error::NotFound(format!(
            "no engine `{unknown}` in config.yaml"
        )));
    }
    let (state, questions) = probe()?;
    let chosen = configured
        .into_iter()
        .filter(|c| names.is_empty() || names.contains(&c.settings.name));
    let engines =
        futures_util::future::join_all(chosen.map(|c| check_one(c, &state, &questions))).await;
    Ok(EngineChecks {
        ok: engines.iter().all(|e| e.ok),
        engines,
    })
}

async fn check_one(configured: &Configured, state: &Value, questions: &Questions) -> EngineCheck {
    let settings = &configured.settings;
    // The first base model routed here, so a `-reasoning` route is checked as it is used.
    let model = configured
        .models
        .first()
        .copied()
        .unwrap_or(settings.model.as_str());
    let started = Instant::now();
    let outcome = configured
        .engine
        .decide(EngineRequest {
            model,
            state,
            questions,
            heads: &crate::engine::builtin::learned::NONE,
            truncate: false,
        })
        .await;
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut check = EngineCheck {
        name: settings.name.clone(),
        kind: settings.kind.as_str().to_owned(),
        url: settings.url.clone(),
        model: settings.model.clone(),
        ok: outcome.is_ok(),
        latency_ms,
        code: None,
        detail: None,
        details: Vec::new(),
        answers: None,
        usage: None,
    };
    match outcome {
        Ok(output) => {
            check.answers = Some(output.answers);
            check.usage = Some(output.usage);
        }
        Err(error) => {
            check.code = Some(error.code().to_owned());
            check.detail = Some(error.to_string());
            check.details = error.details().to_vec();
        }
    }
    check
}

/// Make the built-in engine ready for each repository model of the home: one decision on
/// an empty state at its default branch loads the encoder's weights and embeds its
/// questions' statements, which a process otherwise does at its first decision. The web
/// app does it at start, in the background, so that its first page is ready in a moment.
/// Returns the models made ready; a model that cannot be loaded is passed over (it answers
/// for itself when asked).
pub fn ready_builtin(ctx: &Context) -> usize {
    let Ok(repos) = ctx.repos().list() else {
        return 0;
    };
    let mut ready = 0;
    for repo in repos {
        let model = crate::ids::ModelRef::Path(repo.path().clone());
        let Ok(loaded) = super::models::load(ctx, &model, None) else {
            continue;
        };
        let Ok(engine) = loaded.engine(ctx) else {
            continue;
        };
        if let Some(builtin) = engine.as_builtin()
            && builtin
                .decide_blocking(&json!({}), &loaded.questions, &loaded.heads)
                .is_ok()
        {
            ready += 1;
        }
    }
    ready
}
