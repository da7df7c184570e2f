//! The search for a better question: candidates built from some annotated examples and
//! scored only on others.
//!
//! A candidate ([`Spec`]) is a way to build a model from a training set: which exemplars
//! (by label coverage, by the baseline's mistakes, or a seeded random draw, and how many
//! per outcome), whether to add cues, and always a calibration fitted on the training set
//! (exemplars are left out of their own neighbours while it is fitted). [`fit_and_predict`]
//! chooses the candidate by cross-validation on the fit set alone, builds it on the fit set
//! and predicts the held-out examples, so the figures the gate compares include the choice
//! of candidate and the held-out examples never shaped the model.

use super::cues::Corpus;
use super::fit::{Calibration, Row, fit};
use super::folds::{assign, draw};
use crate::core::metrics::{Scale, loss};
use crate::engine::builtin::aligned::{FEATURES, features};
use crate::wire::QuestionKind;
use std::collections::HashMap;
use std::fmt;

/// Outer (and inner) folds.
pub(super) const FOLDS: usize = 5;
/// Exemplars per outcome the candidates try.
pub(super) const SIZES: [usize; 3] = [4, 16, 48];
/// Coverage picks among at most this many examples of an outcome (the greedy is quadratic).
const COVERAGE_POOL: usize = 240;

/// How exemplars are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Strategy {
    /// Representative and spread out: greedy facility location over similarity.
    Coverage,
    /// The examples the baseline gets most wrong first, then coverage.
    Mistakes,
    /// A seeded random draw.
    Random,
}

/// One candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Spec {
    pub(super) exemplars: Option<(Strategy, usize)>,
    pub(super) cues: bool,
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some((strategy, n)) = self.exemplars {
            let how = match strategy {
                Strategy::Coverage => "coverage",
                Strategy::Mistakes => "baseline mistakes",
                Strategy::Random => "seeded random",
            };
            parts.push(format!("exemplars ({how}, {n} per outcome)"));
        }
        if self.cues {
            parts.push("cues".to_owned());
        }
        parts.push("calibration".to_owned());
        f.write_str(&parts.join(" + "))
    }
}

/// Every candidate, in a fixed order (ties go to the earlier, simpler one).
pub(super) fn specs() -> Vec<Spec> {
    let mut all = vec![
        Spec {
            exemplars: None,
            cues: false,
        },
        Spec {
            exemplars: None,
            cues: true,
        },
    ];
    for n in SIZES {
        for strategy in [Strategy::Coverage, Strategy::Mistakes, Strategy::Random] {
            for cues in [false, true] {
                all.push(Spec {
                    exemplars: Some((strategy, n)),
                    cues,
                });
            }
        }
    }
    all
}

/// What the search needs of a question's annotated examples.
pub(super) struct Problem<'a> {
    pub(super) kind: &'a QuestionKind,
    pub(super) scale: Scale,
    pub(super) outcomes: usize,
    pub(super) ids: Vec<&'a str>,
    pub(super) labels: Vec<Vec<f64>>,
    pub(super) outcome_of: Vec<usize>,
    /// Per example: the base question's outcome similarities.
    pub(super) zero_shot: Vec<Vec<f64>>,
    /// Per example: the current checkpoint's prediction (what "before" is).
    pub(super) baseline: Vec<Vec<f64>>,
    /// `sims[i * n + j]`: the similarity of example `i`'s state to example `j` as an exemplar.
    pub(super) sims: Vec<f32>,
    pub(super) corpus: Corpus,
    /// The similarity of every example to a cue text.
    pub(super) cue_similarity: &'a (dyn Fn(&str) -> crate::error::Result<Vec<f64>> + Sync),
    pub(super) seed: u64,
    /// Whether an example may be an exemplar (its state is small enough to write).
    pub(super) exemplar_ok: Vec<bool>,
}

/// A built model: what is written into the question.
#[derive(Debug, Clone)]
pub(super) struct Model {
    pub(super) spec: Spec,
    /// Example indexes.
    pub(super) exemplars: Vec<usize>,
    /// Per outcome.
    pub(super) cues: Vec<Vec<String>>,
    pub(super) calibration: Calibration,
}

/// What a training set gives every candidate built on it.
struct Prepared {
    cues: Vec<Vec<String>>,
    /// Per example, per outcome.
    cue_sims: Vec<Vec<Option<f64>>>,
    /// Per strategy, per outcome: training examples in the order they would be picked.
    orders: HashMap<Strategy, Vec<Vec<usize>>>,
}

impl Prepared {
    /// The exemplars `spec` picks: the first of each outcome's order.
    fn exemplars(&self, spec: Spec) -> Vec<usize> {
        let Some((strategy, n)) = spec.exemplars else {
            return Vec::new();
        };
        self.orders[&strategy]
            .iter()
            .flat_map(|order| order.iter().take(n).copied())
            .collect()
    }
}

impl Problem<'_> {
    fn n(&self) -> usize {
        self.ids.len()
    }

    fn sim(&self, i: usize, j: usize) -> f64 {
        f64::from(self.sims[i * self.n() + j])
    }

    fn prepare(&self, train: &[usize], with_cues: bool) -> crate::error::Result<Prepared> {
        let mut cues = vec![Vec::new(); self.outcomes];
        let mut cue_sims = vec![vec![None; self.outcomes]; self.n()];
        if with_cues {
            let labels: Vec<usize> = train.iter().map(|&i| self.outcome_of[i]).collect();
            cues = self.corpus.cues(train, &labels, self.outcomes);
            let keys = crate::engine::builtin::aligned::outcome_keys(self.kind);
            for (c, phrases) in cues.iter().enumerate() {
                if phrases.is_empty() {
                    continue;
                }
                let text = crate::engine::builtin::aligned::cue_text(&keys[c], phrases);
                for (i, s) in (self.cue_similarity)(&text)?.into_iter().enumerate() {
                    cue_sims[i][c] = Some(s);
                }
            }
        }
        let by_outcome = |items: &[usize]| -> Vec<Vec<usize>> {
            let mut groups = vec![Vec::new(); self.outcomes];
            for &i in items {
                groups[self.outcome_of[i]].push(i);
            }
            groups
        };
        let candidates: Vec<usize> = train
            .iter()
            .copied()
            .filter(|&i| self.exemplar_ok[i])
            .collect();
        let groups = by_outcome(&candidates);
        let max = SIZES[SIZES.len() - 1];
        let coverage: Vec<Vec<usize>> = groups.iter().map(|g| self.coverage(g, max)).collect();
        let mistakes: Vec<Vec<usize>> = groups
            .iter()
            .zip(&coverage)
            .map(|(group, covered)| {
                let mut wrong: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|&i| argmax(&self.baseline[i]) != self.outcome_of[i])
                    .collect();
                // Most wrong first: the lowest probability on the label.
                wrong.sort_by(|&a, &b| {
                    let pa = self.baseline[a][self.outcome_of[a]];
                    let pb = self.baseline[b][self.outcome_of[b]];
                    pa.total_cmp(&pb).then(a.cmp(&b))
                });
                wrong.truncate(max);
                for &i in covered {
                    if wrong.len() >= max {
                        break;
                    }
                    if !wrong.contains(&i) {
                        wrong.push(i);
                    }
                }
                wrong
            })
            .collect();
        let random: Vec<Vec<usize>> = groups
            .iter()
            .map(|g| draw(g, max, self.seed, "exemplars", |i| self.ids[i].to_owned()))
            .collect();
        let orders = HashMap::from([
            (Strategy::Coverage, coverage),
            (Strategy::Mistakes, mistakes),
            (Strategy::Random, random),
        ]);
        Ok(Prepared {
            cues,
            cue_sims,
            orders,
        })
    }

    /// Greedy facility location: each pick raises most the summed best similarity of the
    /// outcome's examples to the picks, so the picks are typical and spread out.
    fn coverage(&self, group: &[usize], max: usize) -> Vec<usize> {
        if group.is_empty() {
            return Vec::new();
        }
        let pool = draw(group, COVERAGE_POOL, self.seed, "coverage", |i| {
            self.ids[i].to_owned()
        });
        let mut best = vec![f64::NEG_INFINITY; group.len()];
        let mut picked: Vec<usize> = Vec::new();
        while picked.len() < max.min(pool.len()) {
            let mut choice: Option<(f64, usize)> = None;
            for &candidate in &pool {
                if picked.contains(&candidate) {
                    continue;
                }
                let gain: f64 = group
                    .iter()
                    .zip(&best)
                    .map(|(&i, &b)| {
                        let s = self.sim(i, candidate);
                        if b == f64::NEG_INFINITY {
                            s
                        } else {
                            (s - b).max(0.0)
                        }
                    })
                    .sum();
                if choice.is_none_or(|(g, _)| gain > g) {
                    choice = Some((gain, candidate));
                }
            }
            let Some((_, candidate)) = choice else { break };
            picked.push(candidate);
            for (b, &i) in best.iter_mut().zip(group) {
                *b = b.max(self.sim(i, candidate));
            }
        }
        picked
    }

    /// The features of example `i` for a model with `exemplars` (never its own neighbour).
    fn features_of(
        &self,
        i: usize,
        exemplars: &[usize],
        cue_sims: &[Option<f64>],
    ) -> Vec<[f64; FEATURES]> {
        let mut neighbours = vec![Vec::new(); self.outcomes];
        for &e in exemplars {
            if e != i {
                neighbours[self.outcome_of[e]].push(self.sim(i, e));
            }
        }
        features(
            self.kind,
            self.outcomes,
            &self.zero_shot[i],
            &mut neighbours,
            cue_sims,
        )
    }

    fn build(&self, prepared: &Prepared, spec: Spec, train: &[usize]) -> Model {
        let exemplars = prepared.exemplars(spec);
        let no_cues = vec![None; self.outcomes];
        let rows: Vec<Row> = train
            .iter()
            .map(|&i| Row {
                features: self.features_of(
                    i,
                    &exemplars,
                    if spec.cues {
                        &prepared.cue_sims[i]
                    } else {
                        &no_cues
                    },
                ),
                label: self.labels[i].clone(),
            })
            .collect();
        let has_exemplars = !exemplars.is_empty();
        let used = [
            true,
            has_exemplars,
            has_exemplars,
            has_exemplars,
            spec.cues,
            has_exemplars,
        ];
        Model {
            spec,
            calibration: fit(&rows, self.outcomes, used),
            cues: if spec.cues {
                prepared.cues.clone()
            } else {
                vec![Vec::new(); self.outcomes]
            },
            exemplars,
        }
    }

    fn predict(&self, model: &Model, prepared: &Prepared, i: usize) -> Vec<f64> {
        let no_cues = vec![None; self.outcomes];
        let cue_sims = if model.spec.cues {
            &prepared.cue_sims[i]
        } else {
            &no_cues
        };
        model
            .calibration
            .predict(&self.features_of(i, &model.exemplars, cue_sims))
    }

    fn loss_of(&self, i: usize, predicted: &[f64]) -> f64 {
        loss(self.scale, predicted, &self.labels[i])
    }
}

fn argmax(ps: &[f64]) -> usize {
    crate::core::metrics::argmax(ps)
}

/// Prepared training sets, by the folds they leave out, built once each.
struct Cache<'p, 'a> {
    problem: &'p Problem<'a>,
    folds: Vec<usize>,
    prepared: HashMap<Vec<usize>, Prepared>,
    cancelled: &'p (dyn Fn() -> bool + Sync),
}

impl Cache<'_, '_> {
    fn members(&self, excluded: &[usize]) -> Vec<usize> {
        (0..self.problem.n())
            .filter(|i| !excluded.contains(&self.folds[*i]))
            .collect()
    }

    fn prepared(&mut self, excluded: &[usize]) -> crate::error::Result<&Prepared> {
        if (self.cancelled)() {
            // The job sees its cancel flag and ends `cancelled`; this only stops the work.
            return Err(crate::error::Error::Internal(
                "the alignment was cancelled".into(),
            ));
        }
        let mut key = excluded.to_vec();
        key.sort_unstable();
        if !self.prepared.contains_key(&key) {
            let members = self.members(&key);
            let prepared = self.problem.prepare(&members, true)?;
            self.prepared.insert(key.clone(), prepared);
        }
        Ok(&self.prepared[&key])
    }

    /// Cross-validated mean loss of each spec over the folds not in `excluded`: the best
    /// spec (ties: the first), and the temperature that calibrates its held-out predictions.
    fn choose(&mut self, excluded: &[usize], specs: &[Spec]) -> crate::error::Result<(Spec, f64)> {
        let inner: Vec<usize> = (0..FOLDS).filter(|f| !excluded.contains(f)).collect();
        let mut totals = vec![0.0; specs.len()];
        // Per spec: (example, held-out prediction), to fit the chosen one's temperature.
        let mut held_out_predictions: Vec<Vec<(usize, Vec<f64>)>> = vec![Vec::new(); specs.len()];
        for &g in &inner {
            let mut held_out = excluded.to_vec();
            held_out.push(g);
            let train = self.members(&held_out);
            let test: Vec<usize> = (0..self.problem.n())
                .filter(|i| self.folds[*i] == g)
                .collect();
            if train.is_empty() || test.is_empty() {
                continue;
            }
            let problem = self.problem;
            let prepared = self.prepared(&held_out)?;
            for ((total, spec), predictions) in
                totals.iter_mut().zip(specs).zip(&mut held_out_predictions)
            {
                let model = problem.build(prepared, *spec, &train);
                for &i in &test {
                    let predicted = problem.predict(&model, prepared, i);
                    *total += problem.loss_of(i, &predicted);
                    predictions.push((i, predicted));
                }
            }
        }
        let mut best = 0;
        for (s, total) in totals.iter().enumerate() {
            if *total < totals[best] - 1e-12 {
                best = s;
            }
        }
        let labels: Vec<&[f64]> = held_out_predictions[best]
            .iter()
            .map(|(i, _)| self.problem.labels[*i].as_slice())
            .collect();
        let predictions: Vec<&[f64]> = held_out_predictions[best]
            .iter()
            .map(|(_, p)| p.as_slice())
            .collect();
        Ok((specs[best], temperature(&predictions, &labels)))
    }
}

/// The temperature `T` (0.25..4) whose `p^(1/T)`, renormalized, has the least mean log loss
/// on held-out predictions: the last calibration step, fitted on outputs of models that
/// did not see those examples. 1 when there are none.
fn temperature(predictions: &[&[f64]], labels: &[&[f64]]) -> f64 {
    if predictions.is_empty() {
        return 1.0;
    }
    let loss = |log_t: f64| {
        let inverse = (-log_t).exp();
        predictions
            .iter()
            .zip(labels)
            .map(|(p, y)| {
                let logits: Vec<f64> = p.iter().map(|x| x.max(1e-300).ln() * inverse).collect();
                crate::core::metrics::log_loss(
                    &crate::engine::builtin::aligned::softmax(&logits),
                    y,
                )
            })
            .sum::<f64>()
    };
    // Golden-section search over log T; the loss is convex in 1/T.
    let (mut a, mut b) = (-(4f64.ln()), 4f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - ratio * (b - a), a + ratio * (b - a));
    let (mut fc, mut fd) = (loss(c), loss(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = loss(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = loss(d);
        }
    }
    f64::midpoint(a, b).exp()
}

/// The model with its logits divided by `temperature`.
fn tempered(mut model: Model, temperature: f64) -> Model {
    for w in &mut model.calibration.weights {
        *w /= temperature;
    }
    for b in &mut model.calibration.bias {
        *b /= temperature;
    }
    model
}

/// The fold every held-out example is in: never trained on, never chosen with.
const HELD_OUT_FOLD: usize = FOLDS;

/// A split's fitted model and its predictions for the held-out examples.
pub(super) struct Fit {
    pub(super) model: Model,
    /// Per example: the model's prediction when it is held out, else `None`.
    pub(super) held_out: Vec<Option<Vec<f64>>>,
}

/// The candidate chosen by cross-validation on the examples `held_out` leaves in (the fit
/// set, in folds under `split_seed`), built on them, and its predictions for the held-out
/// examples, which take no part in fitting or choosing.
pub(super) fn fit_and_predict(
    problem: &Problem<'_>,
    held_out: &[bool],
    split_seed: u64,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> crate::error::Result<Fit> {
    let fit: Vec<usize> = (0..problem.n()).filter(|&i| !held_out[i]).collect();
    let fit_ids: Vec<&str> = fit.iter().map(|&i| problem.ids[i]).collect();
    let fit_labels: Vec<usize> = fit.iter().map(|&i| problem.outcome_of[i]).collect();
    let mut folds = vec![HELD_OUT_FOLD; problem.n()];
    for (&i, fold) in fit
        .iter()
        .zip(assign(&fit_ids, &fit_labels, FOLDS, split_seed))
    {
        folds[i] = fold;
    }
    let mut cache = Cache {
        problem,
        folds,
        prepared: HashMap::new(),
        cancelled,
    };
    let (chosen, temperature) = cache.choose(&[HELD_OUT_FOLD], &specs())?;
    let prepared = cache.prepared(&[HELD_OUT_FOLD])?;
    let model = tempered(problem.build(prepared, chosen, &fit), temperature);
    let predictions = (0..problem.n())
        .map(|i| held_out[i].then(|| problem.predict(&model, prepared, i)))
        .collect();
    Ok(Fit {
        model,
        held_out: predictions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Exact on purpose: without data the temperature is exactly 1.0.
    #[allow(clippy::float_cmp)]
    #[test]
    fn the_temperature_softens_overconfidence_and_sharpens_underconfidence() {
        fn refs(v: &[Vec<f64>]) -> Vec<&[f64]> {
            v.iter().map(Vec::as_slice).collect()
        }
        // Right 70% of the time at 95% confidence: T > 1.
        let labels: Vec<Vec<f64>> = (0..100)
            .map(|i| {
                if i % 10 < 7 {
                    vec![1.0, 0.0]
                } else {
                    vec![0.0, 1.0]
                }
            })
            .collect();
        let over: Vec<Vec<f64>> = (0..100).map(|_| vec![0.95, 0.05]).collect();
        assert!(temperature(&refs(&over), &refs(&labels)) > 1.5);
        let under: Vec<Vec<f64>> = (0..100).map(|_| vec![0.55, 0.45]).collect();
        assert!(temperature(&refs(&under), &refs(&labels)) < 0.8);
        assert_eq!(temperature(&[], &[]), 1.0);
    }

    #[test]
    fn specs_are_distinct_and_name_themselves() {
        let all = specs();
        assert_eq!(all.len(), 2 + SIZES.len() * 3 * 2);
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| b != a));
        }
        assert_eq!(all[0].to_string(), "calibration");
        assert_eq!(
            Spec {
                exemplars: Some((Strategy::Mistakes, 16)),
                cues: true
            }
            .to_string(),
            "exemplars (baseline mistakes, 16 per outcome) + cues + calibration"
        );
    }
}
