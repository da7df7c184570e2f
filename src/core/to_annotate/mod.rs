//! Which examples to annotate next (`arbiter examples next`, `GET
//! …/examples-to-annotate`): the candidates are the most recently created examples still
//! missing ground truth (at most `pool` of them, which bounds a request's work), decided at
//! a revision and ranked by uncertainty, lowest margin first; a seeded random share of the
//! picks is drawn from the rest, so the annotated examples stay a fair sample for `eval`.
//! Questions still learning come first: a question whose checkpoint recorded a learning
//! curve (`align --curve`) that has flattened (under
//! [`RISING_GAIN`](crate::wire::to_annotate::RISING_GAIN) accuracy per doubling
//! of the annotations) is asked about only where no question still learning is open.
//!
//! Each candidate is decided as `arbiter decide` would at the revision (every question at
//! once, the state read as far as the model reads it), through the answers cache
//! evaluations use: asking again, or evaluating those questions later, costs no engine
//! call. Engine calls pass a [`Gate`], which on a server is its decision slots.

use super::answer_cache::{self, Asking, Gate};
use super::models::{self, Loaded};
use super::{Context, blocking};
use crate::error::{Error, Result};
use crate::ids::{ExampleId, ModelId, ModelRef};
use crate::store::{Candidate, Chosen};
use crate::wire::answer::{Answer, Distribution};
use crate::wire::to_annotate::{Learning, ToAnnotate, ToAnnotateItem, ToAnnotateQuery, Why};
use crate::wire::{Loc, Questions};
use futures_util::StreamExt;
use indexmap::IndexMap;
use std::cmp::Ordering;

/// Pick the examples of `model` to annotate next, as `query` asks. `gate` lets each engine
/// call start (an uncached candidate's); a candidate the engine cannot answer is left out
/// and counted, unless none could be answered.
///
/// With `working`, the candidates are decided by that questions document as a working
/// copy on top of the revision ([`super::working`]), and the answer says so.
pub async fn pick(
    ctx: &Context,
    model: &ModelRef,
    query: &ToAnnotateQuery,
    working: Option<&Questions>,
    gate: &dyn Gate,
) -> Result<ToAnnotate> {
    let Ranking {
        model_id,
        revision,
        questions,
        unannotated,
        scored,
        cached,
        failed,
        learning,
        working_copy,
        picks,
        cut: _,
    } = rank(ctx, model, query, Chosen::default(), working, gate, None).await?;
    let examples = with_states(ctx, &model_id, picks).await?;
    Ok(ToAnnotate {
        revision,
        questions,
        unannotated,
        scored,
        cached,
        failed,
        audit: query.audit,
        seed: query.seed,
        learning,
        examples,
        working_copy,
    })
}

/// The picks of [`pick`] before their states are read, and what they were picked from.
pub(crate) struct Ranking {
    pub(crate) model_id: ModelId,
    pub(crate) revision: crate::wire::decision::Revision,
    pub(crate) questions: Vec<String>,
    pub(crate) unannotated: u64,
    scored: u64,
    cached: u64,
    failed: u64,
    pub(crate) learning: IndexMap<String, Learning>,
    working_copy: Option<crate::wire::align::WorkingCopy>,
    /// In order: the lowest margins with the audit share spread among them.
    pub(crate) picks: Vec<(Ranked, Why)>,
    /// The deadline passed with candidates left unscored.
    pub(crate) cut: bool,
}

/// The candidates of `model` among those `chosen`, decided and ranked as `query` asks,
/// the picks chosen ([`pick`] without the states). With a `deadline`, only the candidates
/// decided by then (from the cache, or the engine in time) are ranked, and at least one.
pub(crate) async fn rank(
    ctx: &Context,
    model: &ModelRef,
    query: &ToAnnotateQuery,
    chosen: Chosen<'_>,
    working: Option<&Questions>,
    gate: &dyn Gate,
    deadline: Option<std::time::Instant>,
) -> Result<Ranking> {
    let (loaded, working_copy, questions, candidates, unannotated) = {
        let (ctx, model, query) = (ctx.clone(), model.to_owned(), query.clone());
        let working = working.cloned();
        let (only, except) = (chosen.only.map(<[String]>::to_vec), chosen.except.to_vec());
        blocking(move || {
            let mut loaded = models::load(&ctx, &model, query.revision.as_deref())?;
            let mut working_copy = None;
            if let Some(draft) = &working {
                let (copy, said) = super::working::apply(&ctx, loaded, draft)?;
                (loaded, working_copy) = (copy, Some(said));
            }
            let questions = considered(&loaded, query.question.as_deref())?;
            let chosen = Chosen {
                only: only.as_deref(),
                except: &except,
            };
            let (candidates, unannotated) =
                ctx.store()?
                    .unannotated(&loaded.model_id, &questions, chosen, query.pool)?;
            Ok((loaded, working_copy, questions, candidates, unannotated))
        })
        .await?
    };
    let learning = learning(&loaded, &questions);
    let rising = still_learning(&questions, &learning);
    let ready = answer_cache::Ready::of(ctx, &loaded).await?;
    let asking = ready.asking(&loaded);
    let asked = Asked {
        questions: &questions,
        rising: &rising,
    };
    let Scored {
        ranked,
        cached,
        failed,
        cut,
    } = score_all(
        ctx,
        &asking,
        Scoring {
            model_id: &loaded.model_id,
            asked,
            gate,
            deadline,
        },
        candidates,
    )
    .await?;
    let scored = ranked.len() as u64;
    let picks = select(ranked, query.n, query.audit, query.seed);
    Ok(Ranking {
        model_id: loaded.model_id,
        revision: loaded.revision,
        questions,
        unannotated,
        scored,
        cached,
        failed,
        learning,
        working_copy,
        picks,
        cut,
    })
}

/// The candidates scored, and how many were answered from the cache or failed.
struct Scored {
    ranked: Vec<Ranked>,
    cached: u64,
    failed: u64,
    /// The deadline passed with candidates left.
    cut: bool,
}

/// How candidates are scored: for which model and questions, through which gate, until
/// when.
struct Scoring<'a> {
    model_id: &'a ModelId,
    asked: Asked<'a>,
    gate: &'a dyn Gate,
    deadline: Option<std::time::Instant>,
}

/// Score every candidate, as many at once as the engine takes, in the candidates' order,
/// until the deadline if there is one. A candidate the engine cannot answer is left out and
/// counted, unless none could be answered.
async fn score_all(
    ctx: &Context,
    asking: &Asking<'_>,
    scoring: Scoring<'_>,
    candidates: Vec<Candidate>,
) -> Result<Scored> {
    let Scoring {
        model_id,
        asked,
        gate,
        deadline,
    } = scoring;
    let mut ranked = Vec::with_capacity(candidates.len());
    let (mut cached, mut failed, mut first_failure, mut cut) = (0, 0, None, false);
    let meter = progress::current();
    if let Some(meter) = &meter {
        meter.planned(candidates.len());
    }
    // A window of candidates at a time: only their states are held.
    let scoring = candidates
        .into_iter()
        .map(|candidate| score(ctx, asking, model_id, asked, candidate, gate));
    let mut decided =
        futures_util::stream::iter(scoring).buffer_unordered(asking.engine.max_in_flight().max(1));
    loop {
        // Past the deadline (with one candidate ranked at least: something to show), what
        // is being decided is dropped; the next ranking decides it again.
        let next = match deadline.filter(|_| !ranked.is_empty()) {
            Some(at) => {
                let Ok(next) = tokio::time::timeout_at(at.into(), decided.next()).await else {
                    cut = true;
                    break;
                };
                next
            }
            None => decided.next().await,
        };
        let Some(one) = next else { break };
        if let Some(meter) = &meter {
            meter.decided();
        }
        match one {
            Ok(Some((one, from_cache))) => {
                cached += u64::from(from_cache);
                ranked.push(one);
            }
            // Gone since it was listed.
            Ok(None) => {}
            Err(error) if about_the_example(&error) => {
                tracing::warn!(%error, "a candidate to annotate could not be decided");
                failed += 1;
                first_failure.get_or_insert(error);
            }
            Err(error) => return Err(error),
        }
    }
    drop(decided);
    if ranked.is_empty()
        && let Some(error) = first_failure
    {
        return Err(error);
    }
    Ok(Scored {
        ranked,
        cached,
        failed,
        cut,
    })
}

/// The questions whose curve still rises, or that have none.
fn still_learning(questions: &[String], learning: &IndexMap<String, Learning>) -> Vec<String> {
    questions
        .iter()
        .filter(|id| learning.get(*id).is_none_or(|l| l.rising))
        .cloned()
        .collect()
}

/// What the learning curves recorded at the revision say of `questions`' (those with one).
fn learning(loaded: &Loaded, questions: &[String]) -> IndexMap<String, Learning> {
    questions
        .iter()
        .filter_map(|id| {
            let learned = loaded.heads.get(id)?;
            Some((id.clone(), Learning::of(learned.entry.curve.as_deref()?)?))
        })
        .collect()
}

/// The questions a candidate is ranked on, and of those the ones still learning.
#[derive(Clone, Copy)]
struct Asked<'a> {
    questions: &'a [String],
    rising: &'a [String],
}

/// The questions asked about: `question` (one of the revision's), else all of them.
fn considered(loaded: &Loaded, question: Option<&str>) -> Result<Vec<String>> {
    let (path, revision) = (&loaded.path, &loaded.revision.name);
    match question {
        Some(id) if loaded.questions.contains_key(id) => Ok(vec![id.to_owned()]),
        Some(id) => Err(Error::invalid(
            Loc::query().key("question"),
            format!("{path} has no question `{id}` at {revision}"),
            "unknown_question",
        )),
        None if loaded.questions.is_empty() => Err(Error::invalid(
            Loc::query().key("question"),
            format!("{path} has no saved questions at {revision} to annotate"),
            "missing",
        )),
        None => Ok(loaded.questions.keys().cloned().collect()),
    }
}

/// A failure that is this example's (its answer refused or unreadable), not the
/// request's: the example is left out and the others go on.
fn about_the_example(error: &Error) -> bool {
    matches!(
        error,
        Error::UpstreamFailed(_) | Error::ProviderResponse { .. } | Error::StateTooLarge { .. }
    )
}

/// A candidate as ranked: its least certain unannotated question still learning (else its
/// least certain unannotated one).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ranked {
    pub(crate) example_id: ExampleId,
    created_at: crate::wire::time::Recorded,
    question: String,
    /// Whether `question` is still learning: such candidates come first.
    rising: bool,
    margin: f64,
    entropy: f64,
    answer: Answer,
    /// The model's answers to every question asked about that the example is not yet
    /// annotated for, in question order (`question`'s among them).
    pub(crate) open: Vec<(String, Answer)>,
}

/// Decide one candidate (from the cache when it can) and rank it by its least certain
/// unannotated question; `None` when it is gone. The flag: whether the answers were cached.
async fn score(
    ctx: &Context,
    asking: &Asking<'_>,
    model_id: &ModelId,
    asked: Asked<'_>,
    candidate: Candidate,
    gate: &dyn Gate,
) -> Result<Option<(Ranked, bool)>> {
    let id = candidate.example_id.clone();
    let state = {
        let (ctx, model_id, id) = (ctx.clone(), *model_id, id.clone());
        blocking(move || Ok(ctx.store()?.example_state(&model_id, &id)?)).await?
    };
    let Some(state) = state else {
        return Ok(None);
    };
    let answered = answer_cache::answers(ctx, asking, &id, &state, gate).await?;
    let open = |among: &[String]| -> Option<(String, Answer)> {
        let unannotated = among.iter().filter(|id| !candidate.annotated.contains(id));
        least_certain(&answered.answers, unannotated).map(|(q, a)| (q.to_owned(), a.clone()))
    };
    let (rising, (question, answer)) = match open(asked.rising) {
        Some(found) => (true, found),
        None => match open(asked.questions) {
            Some(found) => (false, found),
            None => return Ok(None),
        },
    };
    let (margin, entropy) = uncertainty(&answer);
    let open = asked
        .questions
        .iter()
        .filter(|id| !candidate.annotated.contains(id))
        .filter_map(|id| Some((id.clone(), answered.answers.get(id)?.clone())))
        .collect();
    Ok(Some((
        Ranked {
            example_id: candidate.example_id,
            created_at: candidate.created_at,
            question,
            rising,
            margin,
            entropy,
            answer,
            open,
        },
        answered.cached,
    )))
}

/// The least certain of `open`'s answers: lowest margin, then highest entropy, then the
/// first in question order.
fn least_certain<'a>(
    answers: &'a crate::wire::Answers,
    open: impl Iterator<Item = &'a String>,
) -> Option<(&'a str, &'a Answer)> {
    let mut best: Option<(&str, &Answer, (f64, f64))> = None;
    for id in open {
        let Some(answer) = answers.get(id) else {
            continue;
        };
        let u = uncertainty(answer);
        if best.is_none_or(|(_, _, b)| less_certain(u, b) == Ordering::Less) {
            best = Some((id, answer, u));
        }
    }
    best.map(|(id, answer, _)| (id, answer))
}

/// `Less` when `(margin, entropy)` `a` is less certain than `b`.
fn less_certain(a: (f64, f64), b: (f64, f64)) -> Ordering {
    a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1))
}

/// An answer's margin (top probability minus the second; noul `|2p − 1|`) and entropy in
/// bits. An answer of fewer than two outcomes has nothing to doubt: margin 1, entropy 0.
fn uncertainty(answer: &Answer) -> (f64, f64) {
    let ps = match answer.distribution() {
        Distribution::Noul(p) => vec![p, 1.0 - p],
        Distribution::Outcomes(ps) => ps,
    };
    let ps: Vec<f64> = ps
        .into_iter()
        .map(|p| {
            if p.is_finite() {
                p.clamp(0.0, 1.0)
            } else {
                0.0
            }
        })
        .collect();
    if ps.len() < 2 {
        return (1.0, 0.0);
    }
    let (mut top, mut second) = (0.0f64, 0.0f64);
    for &p in &ps {
        if p > top {
            (top, second) = (p, top);
        } else if p > second {
            second = p;
        }
    }
    let entropy = ps
        .iter()
        .filter(|p| **p > 0.0)
        .map(|p| -p * p.log2())
        .sum::<f64>();
    ((top - second).clamp(0.0, 1.0), entropy.max(0.0))
}

/// The picks: of `min(n, candidates)`, `round(picks × audit)` drawn by `seed` from the
/// candidates the lowest margins leave, the others the lowest margins (those asked about a
/// question still learning first). The audit ones are
/// spread evenly through the list (the k-th pick is one when `⌊k·a/p⌋` steps up), so
/// any first k of it hold their share of the audit.
fn select(mut ranked: Vec<Ranked>, n: usize, audit: f64, seed: u64) -> Vec<(Ranked, Why)> {
    ranked.sort_by(|a, b| {
        b.rising
            .cmp(&a.rising)
            .then_with(|| less_certain((a.margin, a.entropy), (b.margin, b.entropy)))
            .then_with(|| a.example_id.cmp(&b.example_id))
    });
    let picks = n.min(ranked.len());
    #[allow(clippy::cast_precision_loss, clippy::cast_sign_loss)] // picks ≤ 5000; audit in 0..=1
    let audits = ((picks as f64 * audit).round() as usize).min(picks);
    let mut rest: Vec<Option<Ranked>> = ranked
        .split_off(picks - audits)
        .into_iter()
        .map(Some)
        .collect();
    let indexes: Vec<usize> = (0..rest.len()).collect();
    let drawn = super::align::folds::draw(&indexes, audits, seed, "audit", |i| {
        rest[i]
            .as_ref()
            .map(|r| r.example_id.to_string())
            .unwrap_or_default()
    });
    let mut drawn = drawn.into_iter().filter_map(|i| rest[i].take());
    let mut uncertain = ranked.into_iter();
    (0..picks)
        .filter_map(|k| {
            if (k + 1) * audits / picks > k * audits / picks {
                drawn.next().map(|r| (r, Why::Audit))
            } else {
                uncertain.next().map(|r| (r, Why::Uncertain))
            }
        })
        .collect()
}

/// The picks as served, with their states (read now: only the picks' are ever held
/// together). A pick gone since it was scored is left out.
async fn with_states(
    ctx: &Context,
    model_id: &ModelId,
    picks: Vec<(Ranked, Why)>,
) -> Result<Vec<ToAnnotateItem>> {
    let (ctx, model_id) = (ctx.clone(), *model_id);
    blocking(move || {
        let store = ctx.store()?;
        let mut items = Vec::with_capacity(picks.len());
        for (ranked, why) in picks {
            let Some(state) = store.example_state(&model_id, &ranked.example_id)? else {
                continue;
            };
            items.push(ToAnnotateItem {
                example_id: ranked.example_id,
                question: ranked.question,
                why,
                margin: ranked.margin,
                entropy: ranked.entropy,
                answer: ranked.answer,
                created_at: ranked.created_at,
                state,
            });
        }
        Ok(items)
    })
    .await
}

pub mod progress;
#[cfg(test)]
mod tests;
