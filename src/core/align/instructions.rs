//! `align --instructions`: each question's instructions improved with demonstrations chosen
//! from its annotated examples ([`crate::wire::question::demonstrations`]), as `DSPy`'s
//! few-shot random search chooses them: seeded candidate sets (1 to 4 examples of each
//! answer), each scored through the engine itself on annotated examples it leaves out,
//! against the question as it answers now on the same examples. The set that gains the most
//! accuracy (then log loss) is written, when it gains at no worse a loss; otherwise the
//! question stays. The question as it is answers as it does at the checkpoint: with its
//! learned head, when it has one (which the new instructions replace).
//!
//! Every score is an engine call (through the answer cache: a run again costs nothing for
//! what was asked), counted against the budget; past it nothing is committed.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::core::answer_cache::{self, Asking, Open};
use crate::engine::Engine;
use crate::engine::builtin::learned::Heads;
use crate::wire::align::EngineCalls;
use crate::wire::question::demonstrations::{DEMONSTRATIONS, TASK};
use futures_util::StreamExt as _;
use serde_json::json;

/// Candidate sets per question.
pub(super) const TRIALS: usize = 8;
/// Examples of each answer in a candidate set, trial after trial.
const PER_OUTCOME: [usize; 4] = [1, 2, 3, 4];
/// Annotated examples each candidate is scored on, at most (a seeded sample of those it
/// leaves out).
pub(super) const SCORED_ON: usize = 48;
/// A demonstration's excerpt of its state, in characters.
const EXCERPT_CHARS: usize = 400;

/// One question's candidates: the demonstration sets (items' indices) and the items each
/// is scored on.
struct Trial {
    shown: Vec<usize>,
    scored: Vec<usize>,
}

/// The question variants to ask, and about which example each: `(variant, example)`.
struct Plan {
    /// Variant 0 is the question as it is; variant `t + 1` is trial `t`'s.
    variants: Vec<Question>,
    trials: Vec<Trial>,
    /// Variant and item index of every call.
    asked: Vec<(usize, usize)>,
}

/// The items of `id` that can be shown or scored: readable states.
fn usable<'a>(examples: &'a Examples, id: &str) -> Vec<&'a Item> {
    examples
        .items
        .get(id)
        .map_or(&[][..], |(items, _)| items)
        .iter()
        .filter(|it| {
            !crate::engine::builtin::text::render(&examples.states[it.example])
                .trim()
                .is_empty()
        })
        .collect()
}

/// Why a question cannot be given demonstrations, if it cannot.
fn too_few(kind: &QuestionKind, items: &[&Item]) -> Option<String> {
    let outcomes = outcome_keys(kind).len();
    let present: std::collections::BTreeSet<usize> = items.iter().map(|it| it.outcome).collect();
    if items.len() < MIN_EXAMPLES.max(outcomes) {
        Some(format!(
            "too few annotated examples ({} readable; {} needed) to choose demonstrations",
            items.len(),
            MIN_EXAMPLES.max(outcomes)
        ))
    } else if present.len() < 2 {
        Some("every annotated example has the same answer; the instructions stay".to_owned())
    } else {
        None
    }
}

/// The seeded candidate sets of one question and what each is scored on.
fn plan(question: &Question, id: &str, examples: &Examples, items: &[&Item], seed: u64) -> Plan {
    let outcomes = outcome_keys(&question.kind).len();
    let mut trials = Vec::with_capacity(TRIALS);
    for t in 0..TRIALS {
        let per = PER_OUTCOME[t % PER_OUTCOME.len()];
        let salt = format!("demonstrations {id} {t}");
        let mut shown = Vec::new();
        for outcome in 0..outcomes {
            let of: Vec<usize> = (0..items.len())
                .filter(|&i| items[i].outcome == outcome)
                .collect();
            // Never every example of an answer: one is left to score it on.
            let n = per.min(of.len().saturating_sub(1));
            shown.extend(folds::draw(&of, n, seed, &salt, |i| {
                examples.ids[items[i].example].clone()
            }));
        }
        shown.sort_unstable();
        let left: Vec<usize> = (0..items.len()).filter(|i| !shown.contains(i)).collect();
        let mut scored = folds::draw(&left, SCORED_ON, seed, &format!("{salt} scored"), |i| {
            examples.ids[items[i].example].clone()
        });
        scored.sort_unstable();
        trials.push(Trial { shown, scored });
    }
    let mut variants = vec![question.clone()];
    variants.extend(
        trials
            .iter()
            .map(|trial| with_demonstrations(question, id, examples, items, &trial.shown)),
    );
    // The question as it is, once per example any trial scores; each trial on its own.
    let mut baseline: Vec<usize> = trials.iter().flat_map(|t| t.scored.clone()).collect();
    baseline.sort_unstable();
    baseline.dedup();
    let mut asked: Vec<(usize, usize)> = baseline.into_iter().map(|i| (0, i)).collect();
    for (t, trial) in trials.iter().enumerate() {
        asked.extend(trial.scored.iter().map(|&i| (t + 1, i)));
    }
    Plan {
        variants,
        trials,
        asked,
    }
}

/// `question` with the items `shown` as its demonstrations, its own instructions its task.
fn with_demonstrations(
    question: &Question,
    id: &str,
    examples: &Examples,
    items: &[&Item],
    shown: &[usize],
) -> Question {
    let keys = outcome_keys(&question.kind);
    let demonstrations: Vec<Value> = shown
        .iter()
        .map(|&i| {
            let item = items[i];
            let mut entry = json!({
                "example_id": examples.ids[item.example],
                "excerpt": excerpt(&examples.states[item.example]),
                "answer": answer_value(&question.kind, &keys, item.outcome),
            });
            if let Some(reason) = examples.reasons.get(&(item.example, id.to_owned())) {
                entry["reason"] = Value::String(reason.clone());
            }
            entry
        })
        .collect();
    let mut instructions = serde_json::Map::new();
    if let Some(task) = question.task() {
        instructions.insert(TASK.into(), task.clone());
    }
    instructions.insert(DEMONSTRATIONS.into(), Value::Array(demonstrations));
    Question {
        instructions: Some(Value::Object(instructions)),
        kind: question.kind.clone(),
    }
}

/// An annotated outcome as an answer a question takes: `true`/`false`, the option key, the
/// level.
fn answer_value(kind: &QuestionKind, keys: &[String], outcome: usize) -> Value {
    match kind {
        QuestionKind::Noul { .. } => Value::Bool(outcome == 0),
        QuestionKind::Choice { .. } => Value::String(keys[outcome].clone()),
        QuestionKind::Score { .. } => Value::from(outcome),
    }
}

/// A state's text as far as a demonstration shows it.
fn excerpt(state: &Value) -> String {
    let text = crate::engine::builtin::text::render(state);
    let text = text.trim();
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((end, _)) => format!("{}…", text[..end].trim_end()),
        None => text.to_owned(),
    }
}

/// One answer to score: the question (by index in the settings), its variant, the item.
#[derive(Clone, Copy)]
struct Ask {
    q: usize,
    variant: usize,
    item: usize,
}

/// Each question's planned candidates, or why it has none; with its usable items.
type Planned<'a> = Vec<(Vec<&'a Item>, std::result::Result<Plan, String>)>;

fn planned<'a>(loaded: &Loaded, examples: &'a Examples, settings: &Settings) -> Planned<'a> {
    settings
        .questions
        .iter()
        .map(|id| {
            let question = &loaded.questions[id];
            let items = usable(examples, id);
            let plan = match too_few(&question.kind, &items) {
                Some(reason) => Err(reason),
                None => Ok(plan(question, id, examples, &items, settings.seed)),
            };
            (items, plan)
        })
        .collect()
}

/// The variants of every question, each asked alone, with their groups.
/// Each variant of a question asked alone, with its heads and groups.
type Variant = (Questions, Heads, Vec<answer_cache::Group>);

/// The variants of every question, each asked alone: the question as it is with its head
/// at the checkpoint, if it has one (what it answers now), the candidates without.
async fn askings(
    loaded: &Loaded,
    engine: &Arc<dyn Engine>,
    settings: &Settings,
    planned: &Planned<'_>,
) -> Result<Vec<Vec<Variant>>> {
    let mut all = Vec::with_capacity(planned.len());
    for (q, (_, plan)) in planned.iter().enumerate() {
        let id = &settings.questions[q];
        let mut variants = Vec::new();
        for (v, variant) in plan
            .as_ref()
            .map_or(&[][..], |p| p.variants.as_slice())
            .iter()
            .enumerate()
        {
            let questions: Questions = std::iter::once((id.clone(), variant.clone())).collect();
            let heads = if v == 0 {
                loaded.heads.clone().only(|other| other == id)
            } else {
                Heads::default()
            };
            let groups =
                answer_cache::groups(engine.clone(), questions.clone(), heads.clone()).await?;
            variants.push((questions, heads, groups));
        }
        all.push(variants);
    }
    Ok(all)
}

fn asks(planned: &Planned<'_>) -> Vec<Ask> {
    planned
        .iter()
        .enumerate()
        .flat_map(|(q, (_, plan))| {
            plan.as_ref()
                .map_or(&[][..], |p| p.asked.as_slice())
                .iter()
                .map(move |&(variant, item)| Ask { q, variant, item })
        })
        .collect()
}

/// The engine's name as the calls name it.
fn engine_name(engine: &Arc<dyn Engine>) -> String {
    engine
        .heads_over()
        .map_or_else(|| "built-in".to_owned(), |(name, _)| name.to_owned())
}

/// The calls choosing demonstrations for `settings`' questions would make, making none.
pub(super) async fn calls_of(
    ctx: &Context,
    loaded: &Loaded,
    engine: &Arc<dyn Engine>,
    examples: &Examples,
    settings: &Settings,
) -> Result<EngineCalls> {
    let planned = planned(loaded, examples, settings);
    let askings = askings(loaded, engine, settings, &planned).await?;
    let asks = asks(&planned);
    let mut calls = 0;
    for ask in &asks {
        let asking = asking_of(loaded, engine, &askings, ask);
        let item = planned[ask.q].0[ask.item];
        let id = ExampleId::from(examples.ids[item.example].as_str());
        if !answer_cache::is_cached(ctx, &asking, &id, &examples.states[item.example]).await? {
            calls += 1;
        }
    }
    Ok(EngineCalls {
        engine: engine_name(engine),
        answers: asks.len() as u64,
        cached: asks.len() as u64 - calls,
        calls,
    })
}

fn asking_of<'a>(
    loaded: &'a Loaded,
    engine: &'a Arc<dyn Engine>,
    askings: &'a [Vec<Variant>],
    ask: &Ask,
) -> Asking<'a> {
    let (questions, heads, groups) = &askings[ask.q][ask.variant];
    Asking {
        engine: engine.as_ref(),
        base: &loaded.spec.base,
        questions,
        heads,
        groups,
    }
}

/// Choose every question's demonstrations: each candidate scored through `engine`, at most
/// `budget` calls.
#[allow(clippy::too_many_lines)] // one pass in order: plan, ask, count, choose
pub(super) async fn search(
    ctx: &Context,
    loaded: &Loaded,
    engine: &Arc<dyn Engine>,
    examples: &Examples,
    settings: &Settings,
    budget: Option<u64>,
    tracker: &Tracker,
) -> Result<Outcome> {
    let planned = planned(loaded, examples, settings);
    let askings = askings(loaded, engine, settings, &planned).await?;
    let asks = asks(&planned);
    tracker
        .total
        .fetch_add(asks.len() as u64, Ordering::Relaxed);
    let counts = Counts::default();
    // Made first, then run: a stream over a closure that borrows would not be `Send` for
    // every lifetime, as a job's future must be.
    let scoring: Vec<_> = asks
        .iter()
        .map(|ask| {
            let asking = asking_of(loaded, engine, &askings, ask);
            let item = planned[ask.q].0[ask.item];
            score(
                ctx,
                asking,
                examples,
                item,
                (budget, &counts),
                tracker,
                *ask,
            )
        })
        .collect();
    let answered: Vec<(Ask, Result<Option<Vec<f64>>>)> = futures_util::stream::iter(scoring)
        .buffer_unordered(engine.max_in_flight().max(1))
        .collect()
        .await;
    tracker.check()?;
    let mut scores: HashMap<(usize, usize, usize), Vec<f64>> = HashMap::new();
    for (ask, answer) in answered {
        if let Some(ps) = answer? {
            scores.insert((ask.q, ask.variant, ask.item), ps);
        }
    }
    let (made, cached, over) = (
        counts.made.into_inner(),
        counts.cached.into_inner(),
        counts.over.into_inner(),
    );
    if over > 0 {
        let budget = budget.unwrap_or_default();
        return Err(Error::BadRequest(format!(
            "the budget of {budget} engine call{} is spent: {} of the {} answers choosing \
             demonstrations needs were read ({made} asked of `{}`), and nothing is committed; \
             the answers are cached, so the same alignment with a budget of {over} or more \
             asks only the rest",
            if budget == 1 { "" } else { "s" },
            asks.len() as u64 - over,
            asks.len(),
            engine_name(engine),
        )));
    }
    let mut outcome = Outcome {
        reports: IndexMap::new(),
        learned: IndexMap::new(),
        tuning: None,
        calls: Some(EngineCalls {
            engine: engine_name(engine),
            answers: asks.len() as u64,
            cached,
            calls: made,
        }),
    };
    for (q, (items, plan)) in planned.iter().enumerate() {
        let id = &settings.questions[q];
        let question = &loaded.questions[id];
        let skipped = examples.items.get(id).map_or(0, |(all, skipped)| {
            skipped + (all.len() - items.len()) as u64
        });
        let (report, learned) = match plan {
            Err(reason) => (unchanged(items.len(), skipped, reason.clone()), None),
            Ok(plan) => choose(id, question, items, plan, &scores, q, skipped),
        };
        if let Some(learned) = learned {
            outcome.learned.insert(id.clone(), learned);
        }
        outcome.reports.insert(id.clone(), report);
    }
    Ok(outcome)
}

/// The calls made, the answers read from the cache, and those left unread past the budget.
#[derive(Default)]
struct Counts {
    made: AtomicU64,
    cached: AtomicU64,
    over: AtomicU64,
}

/// One answer of a variant about an item, as its outcome probabilities: read from the
/// cache, or asked when the budget allows (`None`: it did not).
async fn score(
    ctx: &Context,
    asking: Asking<'_>,
    examples: &Examples,
    item: &Item,
    (budget, counts): (Option<u64>, &Counts),
    tracker: &Tracker,
    ask: Ask,
) -> (Ask, Result<Option<Vec<f64>>>) {
    let scored = async {
        tracker.check()?;
        let id = ExampleId::from(examples.ids[item.example].as_str());
        let state = &examples.states[item.example];
        if answer_cache::is_cached(ctx, &asking, &id, state).await? {
            counts.cached.fetch_add(1, Ordering::Relaxed);
        } else if counts.made.fetch_add(1, Ordering::Relaxed) >= budget.unwrap_or(u64::MAX) {
            counts.made.fetch_sub(1, Ordering::Relaxed);
            counts.over.fetch_add(1, Ordering::Relaxed);
            return Ok(None);
        }
        let answers = answer_cache::answers(ctx, &asking, &id, state, &Open).await?;
        tracker.done.fetch_add(1, Ordering::Relaxed);
        let (qid, question) = asking
            .questions
            .first()
            .ok_or_else(|| Error::bug("a variant without its question"))?;
        remote::outcome_probabilities(question, qid, answers.answers.get(qid))
            .map(Some)
            .map_err(|detail| Error::ProviderResponse {
                engine: asking.engine.describe(),
                details: vec![detail],
            })
    };
    (ask, scored.await)
}

fn unchanged(examples: usize, skipped: u64, reason: String) -> QuestionReport {
    QuestionReport {
        reason: Some(reason),
        ..QuestionReport::unchanged(examples as u64, skipped)
    }
}

/// The trial that gains the most accuracy over the question as it is on the examples it
/// leaves out (then the least log loss, then the fewest demonstrations), kept when it gains.
#[allow(clippy::too_many_lines)] // the choice, then its report, in order
fn choose(
    id: &str,
    question: &Question,
    items: &[&Item],
    plan: &Plan,
    scores: &HashMap<(usize, usize, usize), Vec<f64>>,
    q: usize,
    skipped: u64,
) -> (QuestionReport, Option<Learned>) {
    let kind = &question.kind;
    let (scale, outcomes) = (scale_of(kind), outcome_keys(kind).len());
    let answered = |variant: usize, on: &[usize]| -> Vec<Scored> {
        on.iter()
            .filter_map(|&i| {
                Some(Scored {
                    predicted: scores.get(&(q, variant, i))?.clone(),
                    label: items[i].label.clone(),
                })
            })
            .collect()
    };
    let figures = |s: &[Scored]| Metrics::compute(scale, outcomes, s);
    let best = plan
        .trials
        .iter()
        .enumerate()
        .map(|(t, trial)| {
            let (before, after) = (
                figures(&answered(0, &trial.scored)),
                figures(&answered(t + 1, &trial.scored)),
            );
            (t, after.accuracy - before.accuracy, after.log_loss)
        })
        .min_by(|a, b| {
            b.1.total_cmp(&a.1).then(a.2.total_cmp(&b.2)).then(
                plan.trials[a.0]
                    .shown
                    .len()
                    .cmp(&plan.trials[b.0].shown.len()),
            )
        });
    let Some((t, gain, _)) = best else {
        return (
            unchanged(items.len(), skipped, "no candidate was scored".into()),
            None,
        );
    };
    let trial = &plan.trials[t];
    let (before, after) = (answered(0, &trial.scored), answered(t + 1, &trial.scored));
    let metrics = |s: &[Scored]| figures(s).with_uncertainty(scale, s, id);
    let point = |m: &Metrics| crate::wire::align::CurvePoint {
        examples: m.examples,
        accuracy: round(m.accuracy),
        log_loss: round(m.log_loss),
        interval: None,
    };
    let (before, after) = (metrics(&before), metrics(&after));
    let mut report = unchanged(items.len(), skipped, String::new());
    report.fitted = trial.shown.len() as u64;
    report.held_out = trial.scored.len() as u64;
    report.figures = Some("held_out".into());
    report.candidates = Some(
        [
            ("as_is".to_owned(), point(&before)),
            ("demonstrations".to_owned(), point(&after)),
        ]
        .into_iter()
        .collect(),
    );
    let described = format!(
        "{} demonstrations (up to {} of each answer), the best of {} sets by accuracy on the \
         annotated examples each leaves out",
        trial.shown.len(),
        PER_OUTCOME[t % PER_OUTCOME.len()],
        plan.trials.len()
    );
    // More right answers, and no worse a loss: demonstrations that only move a few
    // answers by making every other one overconfident are not kept.
    let improved = gain > 0.0 && after.loss <= before.loss;
    report.reason = (!improved).then(|| {
        if gain > 0.0 {
            format!(
                "the best set of demonstrations was right more often ({:.3} against {:.3}) \
                 but its {} rose from {:.3} to {:.3} on the examples it leaves out",
                after.accuracy, before.accuracy, after.metric, before.loss, after.loss
            )
        } else {
            format!(
                "no set of demonstrations scored better than the instructions as they are \
                 on the examples it leaves out (the best: {:.3} against {:.3})",
                after.accuracy, before.accuracy
            )
        }
    });
    report.before = Some(before);
    report.after = Some(after);
    if !improved {
        return (report, None);
    }
    report.improved = true;
    report.chosen = Some("demonstrations".into());
    report.candidate = Some(described);
    let learned = Learned {
        file: None,
        head: None,
        fit_id: None,
        fitted: Vec::new(),
        documents: Vec::new(),
        instructions: plan.variants[t + 1].instructions.clone(),
    };
    (report, Some(learned))
}
