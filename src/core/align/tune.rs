//! The encoder's fine-tune in an alignment (`SetFit`, [`crate::engine::builtin::tuned`]):
//! pairs of annotated states drawn across every question's labels, one fine-tune per fold
//! of the model's examples (without that fold's labels, for honest out-of-fold figures)
//! and one on every label (what the checkpoint keeps). Whether the heads read it is the
//! cross-validation's say ([`super::align`] compares the questions' choices both ways).

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::engine::builtin::tuned::{Budget, Delta, Pair, TopInputs};

/// At most this many annotated states are tuned on (a seeded sample): what enters the
/// tuned layer is held for each, about 0.6 MiB.
pub(super) const MAX_TUNED: usize = 128;
/// Below this many readable annotated states the alignment does not fine-tune: each fold's
/// fine-tune would draw its pairs from six or seven states, too few for the
/// cross-validation to tell one that pays from one that does not. Chosen on the learning
/// bench's development split, where fine-tuning cost 0.4 ± 0.3 points of fresh accuracy at
/// 8 annotated states and gained 0.6 ± 0.3 at 16.
pub(super) const MIN_STATES: usize = 16;
/// Pairs drawn per state and question in one round; rounds are drawn until the budget's
/// steps have pairs enough, at most this many.
const MAX_ROUNDS: usize = 32;

/// What the fine-tunes give the alignment.
pub(super) struct Tuned {
    /// Each example's fold (indices into `Examples::ids`).
    pub(super) fold_of: Vec<usize>,
    /// Per fold, each example's vector over the encoder tuned without that fold's labels
    /// (empty for a blank state).
    pub(super) by_fold: Vec<Vec<Vec<f32>>>,
    /// Each example's vector over the encoder tuned on every label.
    pub(super) full: Vec<Vec<f32>>,
    /// The delta tuned on every label: what the checkpoint keeps.
    pub(super) delta: Delta,
    /// The states tuned on.
    pub(super) examples: usize,
    pub(super) steps: usize,
}

/// Why an alignment does not fine-tune, when it does not (`embedded`: the annotated states).
pub(super) fn not_tuned(
    engine: &BuiltinEngine,
    settings: &Settings,
    embedded: &[EmbeddedState],
) -> Option<String> {
    let readable = readable(embedded).len();
    if !settings.tune {
        Some("turned off (--no-tune)".into())
    } else if !engine.tunable() {
        Some("only `mo`'s encoder (MiniLM-L3, first window) is tunable".into())
    } else if settings.holdout > 0.0 {
        Some(
            "examples are held out (--holdout); the fine-tune draws its pairs from every \
             annotated example"
                .into(),
        )
    } else if readable < MIN_STATES {
        Some(format!(
            "{readable} annotated states; it needs at least {MIN_STATES} (with fewer, \
             cross-validation cannot tell whether it pays)"
        ))
    } else {
        None
    }
}

/// The annotated states the fine-tune can read (indices into `embedded`).
fn readable(embedded: &[EmbeddedState]) -> Vec<usize> {
    (0..embedded.len())
        .filter(|&i| !embedded[i].is_blank())
        .collect()
}

/// Fine-tune the encoder on the annotated `examples` ([`Tuned`]); [`not_tuned`] has said
/// there are states enough.
// In order (sample, inputs, fine-tunes, vectors), over locals every step shares.
#[allow(clippy::too_many_lines)]
pub(super) fn tune(
    engine: &BuiltinEngine,
    examples: &Examples,
    embedded: &[EmbeddedState],
    settings: &Settings,
    tracker: &Tracker,
) -> Result<Tuned> {
    let n = examples.ids.len();
    let readable = readable(embedded);
    if readable.len() < MIN_STATES {
        return Err(Error::bug("a fine-tune asked for on too few states"));
    }
    let folds = settings.folds.min(readable.len()).max(2);
    let ids: Vec<&str> = examples.ids.iter().map(String::as_str).collect();
    let fold_of = folds::assign(&ids, &vec![0; n], folds, settings.seed, false);
    // The sample tuned on, and what enters the tuned layer for each of its states.
    let mut sample = readable.clone();
    sample.sort_by_key(|&i| folds::key(settings.seed, "tune", &examples.ids[i]));
    sample.truncate(MAX_TUNED);
    sample.sort_unstable();
    let inputs = parallel_map(sample.len(), tracker, |s| {
        engine.top_inputs(&examples.states[sample[s]])
    });
    tracker.check()?;
    let inputs: Vec<TopInputs> = inputs
        .into_iter()
        .map(|read| {
            read.unwrap_or_else(|| Err(not_run("a state")))?
                .ok_or_else(|| Error::bug("a readable state with nothing to tune on"))
        })
        .collect::<Result<_>>()?;
    let budget = Budget::DEFAULT;
    tracker
        .total
        .fetch_add(((folds + 1) * budget.steps) as u64, Ordering::Relaxed);
    // Fold `f`'s fine-tune draws on the states outside it; the last, on all of them.
    let runs: Vec<Vec<usize>> = (0..=folds)
        .map(|f| {
            (0..sample.len())
                .filter(|&s| f == folds || fold_of[sample[s]] != f)
                .collect()
        })
        .collect();
    let deltas = parallel_map(runs.len(), tracker, |run| {
        let members = &runs[run];
        let refs: Vec<&TopInputs> = members.iter().map(|&s| &inputs[s]).collect();
        let of_member: Vec<usize> = members.iter().map(|&s| sample[s]).collect();
        let pairs = pairs(examples, &of_member, budget, settings.seed ^ run as u64);
        let layered = engine.embedder().layered()?;
        crate::engine::builtin::tuned::fine_tune(
            layered,
            &refs,
            &pairs,
            budget,
            settings.seed,
            &mut |_, _| {
                tracker.done.fetch_add(1, Ordering::Relaxed);
                !tracker.cancelled()
            },
        )
    });
    tracker.check()?;
    let mut deltas: Vec<Delta> = deltas
        .into_iter()
        .map(|delta| delta.unwrap_or_else(|| Err(not_run("a fine-tune"))))
        .collect::<Result<_>>()?;
    let delta = deltas
        .pop()
        .ok_or_else(|| Error::bug("no fine-tune on every label"))?;
    // Every readable state's vector over each fine-tune (what enters the layer is read
    // again for a state outside the sample).
    let vectors = parallel_map(n, tracker, |i| -> Result<Vec<Vec<f32>>> {
        if embedded[i].is_blank() {
            return Ok(vec![Vec::new(); folds + 1]);
        }
        let read;
        let state_inputs = if let Ok(s) = sample.binary_search(&i) {
            &inputs[s]
        } else {
            read = engine
                .top_inputs(&examples.states[i])?
                .ok_or_else(|| Error::bug("a readable state with nothing to tune on"))?;
            &read
        };
        deltas
            .iter()
            .chain(std::iter::once(&delta))
            .map(|d| engine.tuned_vector(state_inputs, d))
            .collect()
    });
    tracker.check()?;
    let mut by_fold = vec![Vec::with_capacity(n); folds];
    let mut full = Vec::with_capacity(n);
    for vectors in vectors {
        let mut vectors = vectors.unwrap_or_else(|| Err(not_run("a state")))?;
        full.push(vectors.pop().unwrap_or_default());
        for (fold, vector) in vectors.into_iter().enumerate() {
            by_fold[fold].push(vector);
        }
    }
    Ok(Tuned {
        fold_of,
        by_fold,
        full,
        delta,
        examples: sample.len(),
        steps: budget.steps,
    })
}

/// `SetFit`'s pairs over the states `members` (example indices; a pair names positions in
/// it): per round, each state with one of the same answer and one of another, question by
/// question, each pair's target the share of the questions both answer on which they
/// agree. Seeded.
fn pairs(examples: &Examples, members: &[usize], budget: Budget, seed: u64) -> Vec<Pair> {
    // Each member's outcome per question (None: not annotated for it).
    let mut questions: Vec<&String> = examples.items.keys().collect();
    questions.sort();
    let position: HashMap<usize, usize> =
        members.iter().enumerate().map(|(m, &i)| (i, m)).collect();
    let answers: Vec<Vec<Option<usize>>> = questions
        .iter()
        .map(|q| {
            let mut of = vec![None; members.len()];
            for item in &examples.items[*q].0 {
                if let Some(&m) = position.get(&item.example) {
                    of[m] = Some(item.outcome);
                }
            }
            of
        })
        .collect();
    let agreement = |a: usize, b: usize| -> f64 {
        let (mut both, mut agree) = (0usize, 0usize);
        for of in &answers {
            if let (Some(x), Some(y)) = (of[a], of[b]) {
                both += 1;
                agree += usize::from(x == y);
            }
        }
        agree as f64 / both.max(1) as f64
    };
    let mut rng = fastrand::Rng::with_seed(seed);
    let wanted = budget.steps * budget.batch;
    let mut pairs = Vec::new();
    for _ in 0..MAX_ROUNDS {
        for of in &answers {
            for a in 0..members.len() {
                let Some(x) = of[a] else { continue };
                let same: Vec<usize> = (0..members.len())
                    .filter(|&b| b != a && of[b] == Some(x))
                    .collect();
                let other: Vec<usize> = (0..members.len())
                    .filter(|&b| of[b].is_some_and(|y| y != x))
                    .collect();
                for candidates in [same, other] {
                    if !candidates.is_empty() {
                        let b = candidates[rng.usize(..candidates.len())];
                        pairs.push((a, b, agreement(a, b)));
                    }
                }
            }
        }
        if pairs.len() >= wanted || pairs.is_empty() {
            break;
        }
    }
    pairs
}

/// Why an alignment over a remote engine's answers does not fine-tune: its heads read the
/// base encoder, which a decision at the checkpoint embeds the state with beside the call.
pub(super) fn remote_untuned(settings: &Settings) -> Option<String> {
    settings.remote.as_ref().map(|name| {
        format!(
            "the heads read the answers of remote engine `{name}` over the base encoder's \
             features; the encoder is fine-tuned only for the built-in engine's heads"
        )
    })
}

/// Why the alignment cannot fine-tune because of a question it leaves as it is: a head of
/// the base checkpoint that reads its fine-tune, which a new one would replace.
pub(super) fn tuned_elsewhere(loaded: &Loaded, settings: &Settings) -> Option<String> {
    let kept: Vec<&String> = loaded
        .questions
        .keys()
        .filter(|id| {
            loaded.heads.get(id).is_some_and(|l| l.tuned.is_some())
                && !settings.questions.contains(id)
        })
        .collect();
    (!kept.is_empty()).then(|| {
        format!(
            "{} read{} the base checkpoint's fine-tune: align {} with these questions to tune \
             again",
            kept.iter()
                .map(|id| format!("`{id}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if kept.len() == 1 { "s" } else { "" },
            if kept.len() == 1 { "it" } else { "them" },
        )
    })
}

/// The questions' mean out-of-fold log loss of what each chose (over those that chose).
fn chosen_loss(outcome: &Outcome) -> Option<f64> {
    let losses: Vec<f64> = outcome
        .reports
        .values()
        .filter_map(|report| {
            let chosen = report.chosen.as_ref()?;
            Some(report.candidates.as_ref()?.get(chosen)?.log_loss)
        })
        .collect();
    (!losses.is_empty()).then(|| losses.iter().sum::<f64>() / losses.len() as f64)
}

/// The alignment over the fine-tuned encoder where its choices do better out of fold than
/// over the base one (and some question's head reads it), else over the base.
pub(super) fn choose_encoder(base: Outcome, over_tuned: Outcome, tuned: tune::Tuned) -> Outcome {
    let (tuned_loss, base_loss) = (chosen_loss(&over_tuned), chosen_loss(&base));
    let reads = over_tuned
        .reports
        .values()
        .any(|report| report.improved && report.chosen.as_deref() == Some("head"));
    let (used, reason) = match (tuned_loss, base_loss) {
        (Some(t), Some(b)) if t < b - 1e-9 && reads => (
            true,
            format!(
                "kept: the questions' choices score a mean out-of-fold log loss of {t:.3} over \
                 the fine-tuned encoder, {b:.3} over the base one"
            ),
        ),
        (Some(t), Some(b)) if t < b - 1e-9 => (
            false,
            "not kept: no question's head would read it".to_owned(),
        ),
        (Some(t), Some(b)) => (
            false,
            format!(
                "not kept: the questions' choices score a mean out-of-fold log loss of {t:.3} \
                 over the fine-tuned encoder, {b:.3} over the base one"
            ),
        ),
        _ => (
            false,
            "not kept: no question had a choice to make".to_owned(),
        ),
    };
    let report = crate::wire::align::TuningReport {
        used,
        examples: tuned.examples as u64,
        steps: tuned.steps as u64,
        log_loss_tuned: tuned_loss.map(round),
        log_loss_base: base_loss.map(round),
        reason,
    };
    if used {
        Outcome {
            tuning: Some((report, Some(tuned.delta))),
            ..over_tuned
        }
    } else {
        Outcome {
            tuning: Some((report, None)),
            ..base
        }
    }
}
