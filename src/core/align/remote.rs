//! Alignment over a remote engine: each annotated example's answers asked of the engine,
//! through the answer cache, as many at once as its in-flight limit; each answer's
//! probabilities are the heads' prior (where the built-in engine's are its zero-shot
//! answers). A call is made only for an example whose answers are not cached, so an
//! alignment that failed half-way (the engine down, the budget spent) asks again only
//! what it never got.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::core::answer_cache::{self, Asking, Open};
use crate::engine::Engine;
use crate::wire::align::EngineCalls;
use crate::wire::validate::{FieldError, Segment};
use crate::wire::{Answer, Answers};
use futures_util::StreamExt as _;

/// The remote answers: question ID → per example (by index in [`Examples::ids`]) its
/// outcome probabilities (empty for an example not annotated for that question).
pub(super) type Priors = HashMap<String, Vec<Vec<f64>>>;

/// The remote engine asked: its name in `config.yaml`, and the engine.
pub(super) struct Remote<'a> {
    pub(super) name: &'a str,
    pub(super) engine: &'a Arc<dyn Engine>,
}

/// The questions aligned, as the engine is asked them: as the checkpoint has them, with no
/// head (the prior is the engine's own answer).
struct Asked {
    questions: Questions,
    groups: Vec<answer_cache::Group>,
}

impl Asked {
    async fn of(remote: &Remote<'_>, loaded: &Loaded, ids: &[String]) -> Result<Self> {
        let questions: Questions = ids
            .iter()
            .filter_map(|id| Some((id.clone(), loaded.questions.get(id)?.clone())))
            .collect();
        let groups = answer_cache::groups(
            remote.engine.clone(),
            questions.clone(),
            crate::engine::builtin::learned::NONE.clone(),
        )
        .await?;
        Ok(Self { questions, groups })
    }

    fn asking<'a>(&'a self, remote: &'a Remote<'_>, loaded: &'a Loaded) -> Asking<'a> {
        Asking {
            engine: remote.engine.as_ref(),
            base: &loaded.spec.base,
            questions: &self.questions,
            heads: &crate::engine::builtin::learned::NONE,
            groups: &self.groups,
        }
    }
}

/// The engine of the model's base, checked to take heads: the built-in engine (its heads
/// read its features over its zero-shot answers), or a remote engine with the built-in
/// features beside it (the heads read them over its answers). A correction without
/// annotations corrects the built-in engine's zero-shot answers: not a remote engine's.
pub(super) fn over(
    ctx: &Context,
    loaded: &Loaded,
    unsupervised: bool,
) -> Result<Arc<dyn crate::engine::Engine>> {
    let engine = loaded.engine(ctx)?;
    let remote = match (engine.as_builtin(), engine.heads_over()) {
        (Some(_), _) => None,
        (None, Some((name, _))) => Some(name.to_owned()),
        (None, None) => {
            return Err(Error::BadRequest(format!(
                "{} is on base model `{}`, whose engine ({}) takes no learned heads",
                loaded.path,
                loaded.spec.base,
                engine.describe()
            )));
        }
    };
    if let Some(name) = remote.filter(|_| unsupervised) {
        return Err(Error::Validation(vec![
            crate::wire::validate::FieldError::new(
                Loc::body().key("unsupervised"),
                format!(
                    "a correction without annotations corrects the built-in engine's \
                     zero-shot answers; base model `{}` is routed to remote engine `{name}`: \
                     align it on annotated examples instead",
                    loaded.spec.base
                ),
                "remote_engine",
            ),
        ]));
    }
    Ok(engine)
}

/// The remote engine whose answers the heads read as their prior, when there is one.
pub(super) fn remote_of(engine: &Arc<dyn crate::engine::Engine>) -> Option<Remote<'_>> {
    engine.heads_over().map(|(name, _)| Remote { name, engine })
}

/// The built-in engine whose features the heads read.
pub(super) fn features(engine: &dyn crate::engine::Engine) -> Result<&BuiltinEngine> {
    engine
        .as_builtin()
        .or_else(|| engine.heads_over().map(|(_, builtin)| builtin))
        .ok_or_else(|| Error::bug("the engine no longer takes heads"))
}

/// What an alignment with `request` would ask of its engine, asking nothing.
pub async fn plan(
    ctx: &Context,
    model: &ModelRef,
    request: &AlignmentRequest,
) -> Result<crate::wire::align::AlignmentPlan> {
    let loaded = {
        let (ctx, model, revision) = (ctx.clone(), model.clone(), request.revision.clone());
        blocking(move || models::load(&ctx, &model, revision.as_deref())).await?
    };
    let engine = over(ctx, &loaded, request.unsupervised)?;
    let questions = crate::core::question_ids::question_ids(
        &loaded,
        request.questions.as_deref(),
        crate::core::question_ids::QuestionsFor::Align,
    )?;
    let remote = remote_of(&engine);
    if remote.is_none() && !request.instructions {
        // The built-in engine's heads ask nothing of an engine elsewhere.
        return Ok(crate::wire::align::AlignmentPlan {
            base_checkpoint: loaded.revision.commit.clone(),
            engine: engine.describe(),
            engine_calls: None,
        });
    }
    let settings = Settings {
        questions: questions.clone(),
        seed: request.seed,
        max_examples: request.max_examples,
        ..Settings::default()
    };
    let examples = {
        let (ctx, loaded, settings) = (ctx.clone(), loaded.clone(), settings.clone());
        blocking(move || read_examples(&ctx, &loaded, &settings)).await?
    };
    let engine_calls = Some(match remote {
        _ if request.instructions => {
            super::instructions::calls_of(ctx, &loaded, &engine, &examples, &settings).await?
        }
        Some(remote) => calls_of(ctx, &remote, &loaded, &questions, &examples).await?,
        None => return Err(Error::bug("a plan without calls")),
    });
    Ok(crate::wire::align::AlignmentPlan {
        base_checkpoint: loaded.revision.commit.clone(),
        engine: engine.describe(),
        engine_calls,
    })
}

/// Which of `examples` have no cached answers: the calls asking them all would make.
async fn not_cached(ctx: &Context, asking: &Asking<'_>, examples: &Examples) -> Result<Vec<usize>> {
    let mut missing = Vec::new();
    for (i, (id, state)) in examples.ids.iter().zip(&examples.states).enumerate() {
        let id = ExampleId::from(id.as_str());
        if !answer_cache::is_cached(ctx, asking, &id, state).await? {
            missing.push(i);
        }
    }
    Ok(missing)
}

/// The calls an alignment of `ids` over `examples` would make, making none.
async fn calls_of(
    ctx: &Context,
    remote: &Remote<'_>,
    loaded: &Loaded,
    ids: &[String],
    examples: &Examples,
) -> Result<EngineCalls> {
    let asked = Asked::of(remote, loaded, ids).await?;
    let missing = not_cached(ctx, &asked.asking(remote, loaded), examples).await?;
    Ok(calls(remote, examples, missing.len() as u64))
}

fn calls(remote: &Remote<'_>, examples: &Examples, calls: u64) -> EngineCalls {
    let n = examples.ids.len() as u64;
    EngineCalls {
        engine: remote.name.to_owned(),
        answers: n,
        cached: n - calls,
        calls,
    }
}

/// Ask the engine about every example (the cached ones from the cache), at most `budget`
/// calls, counting each call in `tracker`'s progress: the priors, and the calls made.
pub(super) async fn ask(
    ctx: &Context,
    remote: &Remote<'_>,
    loaded: &Loaded,
    ids: &[String],
    examples: &Examples,
    budget: Option<u64>,
    tracker: &Tracker,
) -> Result<(Priors, EngineCalls)> {
    let asked = Asked::of(remote, loaded, ids).await?;
    let asking = asked.asking(remote, loaded);
    let missing = not_cached(ctx, &asking, examples).await?;
    let to_call = missing.len() as u64;
    tracker.total.fetch_add(to_call, Ordering::Relaxed);
    tracing::info!(
        engine = remote.name,
        examples = examples.ids.len(),
        calls = to_call,
        "alignment: asking the remote engine"
    );
    // Within the budget: the cached examples, and the first `budget` of the others.
    let allowed: std::collections::HashSet<usize> = missing
        .iter()
        .copied()
        .take(usize::try_from(budget.unwrap_or(u64::MAX)).unwrap_or(usize::MAX))
        .collect();
    let missing: std::collections::HashSet<usize> = missing.into_iter().collect();
    let asking = &asking;
    let made = AtomicU64::new(0);
    let answered: Vec<(usize, Result<Answers>)> = futures_util::stream::iter(
        (0..examples.ids.len()).filter(|i| !missing.contains(i) || allowed.contains(i)),
    )
    .map(|i| {
        let made = &made;
        async move {
            if tracker.cancelled() {
                return (i, Err(Error::bug("the alignment was cancelled")));
            }
            let id = ExampleId::from(examples.ids[i].as_str());
            let answered =
                answer_cache::answers(ctx, asking, &id, &examples.states[i], &Open).await;
            if answered.as_ref().is_ok_and(|a| !a.cached) {
                made.fetch_add(1, Ordering::Relaxed);
                tracker.done.fetch_add(1, Ordering::Relaxed);
            }
            (i, answered.map(|a| a.answers))
        }
    })
    .buffer_unordered(remote.engine.max_in_flight().max(1))
    .collect()
    .await;
    tracker.check()?;
    let made = made.into_inner();
    let got = |error: Error| {
        let asked = made + (examples.ids.len() as u64 - to_call);
        failed_after(error, made, to_call, asked, examples.ids.len() as u64)
    };
    let mut by_example: Vec<Option<Answers>> = vec![None; examples.ids.len()];
    for (i, answers) in answered {
        by_example[i] = Some(answers.map_err(&got)?);
    }
    if let Some(budget) = budget.filter(|b| to_call > *b) {
        return Err(Error::BadRequest(format!(
            "the budget of {budget} engine call{} is spent: {made} of the {to_call} annotated \
             examples not cached were asked of `{}`, and nothing is committed; their answers \
             are cached, so the same alignment with a budget of {} or more asks only the rest",
            if budget == 1 { "" } else { "s" },
            remote.name,
            to_call - made
        )));
    }
    let priors = priors(remote.name, loaded, ids, examples, &by_example)?;
    Ok((priors, calls(remote, examples, made)))
}

/// An engine's failure, with how far the alignment got before it.
fn failed_after(error: Error, made: u64, to_call: u64, answered: u64, of: u64) -> Error {
    let note = format!(
        "after {made} of {to_call} engine calls ({answered} of {of} examples answered); \
         nothing is committed, and the answers received are cached: the same alignment asks \
         only the rest"
    );
    match error {
        Error::UpstreamFailed(detail) => Error::UpstreamFailed(format!("{detail}; {note}")),
        Error::UpstreamUnavailable(detail) => {
            Error::UpstreamUnavailable(format!("{detail}; {note}"))
        }
        other => {
            tracing::warn!(%other, "{note}");
            other
        }
    }
}

/// Each question's prior per example: its answer's probabilities, one per outcome. An
/// answer of another type than its question's, or without a probability for an outcome,
/// is the engine's invalid response, located at the question's answer.
fn priors(
    engine: &str,
    loaded: &Loaded,
    ids: &[String],
    examples: &Examples,
    by_example: &[Option<Answers>],
) -> Result<Priors> {
    let mut priors = Priors::new();
    let mut details = Vec::new();
    for id in ids {
        let question = &loaded.questions[id];
        let mut per_example = vec![Vec::new(); examples.ids.len()];
        let items = examples.items.get(id).map_or(&[][..], |(items, _)| items);
        for item in items {
            let answer = by_example[item.example]
                .as_ref()
                .and_then(|answers| answers.get(id));
            match outcome_probabilities(question, id, answer) {
                Ok(ps) => per_example[item.example] = ps,
                Err(detail) => {
                    details.push(detail);
                    break;
                }
            }
        }
        priors.insert(id.clone(), per_example);
    }
    if details.is_empty() {
        Ok(priors)
    } else {
        Err(Error::ProviderResponse {
            engine: engine.to_owned(),
            details,
        })
    }
}

/// A question's answer as one probability per outcome, or what is wrong with it.
pub(super) fn outcome_probabilities(
    question: &Question,
    id: &str,
    answer: Option<&Answer>,
) -> std::result::Result<Vec<f64>, FieldError> {
    let at = Loc(vec![Segment::Key("provider_response".into())])
        .key("answers")
        .key(id);
    let keys = outcome_keys(&question.kind);
    let fault = |loc: Loc, detail: String| FieldError::new(loc, detail, "invalid_answer");
    let Some(answer) = answer else {
        return Err(fault(at, format!("no answer to question `{id}`")));
    };
    let probabilities = match (&question.kind, answer) {
        (QuestionKind::Noul { .. }, Answer::Noul { .. }) => None,
        (QuestionKind::Choice { .. }, Answer::Choice { probabilities, .. })
        | (QuestionKind::Score { .. }, Answer::Score { probabilities, .. }) => Some(probabilities),
        _ => {
            return Err(fault(
                at.key("type"),
                format!(
                    "question `{id}` is a {}; the engine answered another type",
                    question.kind.type_name()
                ),
            ));
        }
    };
    let Some(probabilities) = probabilities else {
        return Ok(answer.outcome_probabilities(keys.len()));
    };
    // By key, whatever order the engine sent them in.
    let mut ps = Vec::with_capacity(keys.len());
    for key in &keys {
        let Some(p) = probabilities.get(key) else {
            return Err(fault(
                at.key("probabilities").key(key),
                format!("question `{id}`'s answer has no probability for `{key}`"),
            ));
        };
        ps.push(*p);
    }
    Ok(crate::wire::answer::normalize(&ps, keys.len()))
}
