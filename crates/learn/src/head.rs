//! A learned head: a regularized linear model over the state's pooled encoder embedding
//! and its words' TF-IDF, with the zero-shot answer as its prior.
//!
//! For outcome k of K, the logit is
//!
//! ```text
//! z_k = a · ln p0_k + b_k + Σ_j x_j · W[j, k]          (multinomial: a choice, a noul)
//! z_k = a · ln p0_k + b_k + s_k · Σ_j x_j · w_j        (ordinal: a score, s_k = k − (K−1)/2)
//! ```
//!
//! and the answer is softmax(z). `p0` is the zero-shot distribution, `x` the centered,
//! scaled embedding followed by the TF-IDF row. The ordinal form is the adjacent-category
//! logit model: one direction in feature space moves the answer up or down the levels, so
//! levels are learned as ordered, not as unrelated labels. The penalty pulls `W` to 0 and
//! `a` to 1, `b` to 0: with few labels the head stays at zero-shot, with many it follows
//! the data; how hard it pulls is the `Penalty`, chosen by cross-validation.
//!
//! A head fitted with [`Prior::None`] holds `a` at 0: a plain regression over the features
//! (what TF-IDF + logistic regression is), which with many labels can do better than
//! starting from a zero-shot answer that is confidently wrong on some states.

use super::lbfgs::{self, Stop};
use super::words::{Counts, Vocabulary};

/// How a head's logits are formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// A weight vector per outcome: choices and nouls.
    Multinomial,
    /// One weight vector moving along ordered levels: scores.
    Ordinal,
}

impl Link {
    pub fn name(self) -> &'static str {
        match self {
            Self::Multinomial => "multinomial",
            Self::Ordinal => "ordinal",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "multinomial" => Some(Self::Multinomial),
            "ordinal" => Some(Self::Ordinal),
            _ => None,
        }
    }
}

/// What a head reads of one state.
#[derive(Debug, Clone, Copy)]
pub struct Reading<'a> {
    /// The pooled embedding (`arbiter::engine::builtin::EmbeddedState::pooled`); empty for
    /// a blank state.
    pub pooled: &'a [f32],
    /// The words' bucket counts ([`super::words::counts`]).
    pub counts: &'a Counts,
    /// The zero-shot probabilities, one per outcome.
    pub prior: &'a [f64],
}

/// Whether a head starts from the zero-shot answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prior {
    /// Its log-probabilities, weighed by `a`, which is pulled to 1.
    ZeroShot,
    /// Left out: `a` is held at 0.
    None,
}

/// The inverse strengths of the pull towards zero-shot, per feature block (a larger value
/// pulls harder).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Penalty {
    pub embedding: f64,
    pub words: f64,
}

/// The pull of the prior's weight to 1 and of the biases to 0.
const PRIOR_PENALTY: f64 = 1.0;
/// The least probability a prior is read as (its log must be finite).
const PRIOR_FLOOR: f64 = 1e-6;

/// A fitted head.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    pub link: Link,
    pub outcomes: usize,
    /// `a`: how much of the zero-shot log-probabilities is kept.
    pub prior_weight: f64,
    /// `b`, one per outcome.
    pub bias: Vec<f64>,
    /// The mean pooled embedding of the examples fitted on (subtracted first).
    pub center: Vec<f32>,
    /// The root mean square norm of the centered embeddings (divided by after).
    pub scale: f32,
    /// `W` over the embedding: `dim × columns`, row-major.
    pub embedding: Vec<f32>,
    pub vocabulary: Vocabulary,
    /// `W` over the words: `vocabulary.len() × columns`, row-major.
    pub words: Vec<f32>,
}

impl Head {
    /// Weight columns: one per outcome, or one for an ordinal head.
    pub fn columns(&self) -> usize {
        columns(self.link, self.outcomes)
    }

    pub fn dim(&self) -> usize {
        self.center.len()
    }

    /// The answer's probabilities, one per outcome.
    pub fn probabilities(&self, reading: &Reading<'_>) -> Vec<f64> {
        let row = Row::new(reading, &self.center, self.scale, &self.vocabulary);
        let columns = self.columns();
        let mut scores = vec![0.0; columns];
        for (j, x) in row.dense.iter().enumerate() {
            for (c, s) in scores.iter_mut().enumerate() {
                *s += f64::from(*x) * f64::from(self.embedding[j * columns + c]);
            }
        }
        for (j, x) in &row.sparse {
            for (c, s) in scores.iter_mut().enumerate() {
                *s += f64::from(*x) * f64::from(self.words[*j as usize * columns + c]);
            }
        }
        let logits = logits(
            self.link,
            self.outcomes,
            self.prior_weight,
            &self.bias,
            &row.log_prior,
            &scores,
        );
        softmax(&logits)
    }
}

fn columns(link: Link, outcomes: usize) -> usize {
    match link {
        Link::Multinomial => outcomes,
        Link::Ordinal => 1,
    }
}

/// One example as the objective reads it.
struct Row {
    dense: Vec<f32>,
    sparse: Vec<(u32, f32)>,
    /// ln p0, centered over outcomes (softmax does not see a shift).
    log_prior: Vec<f64>,
}

impl Row {
    fn new(reading: &Reading<'_>, center: &[f32], scale: f32, vocabulary: &Vocabulary) -> Self {
        let dense = if reading.pooled.len() == center.len() && scale > 0.0 {
            reading
                .pooled
                .iter()
                .zip(center)
                .map(|(x, m)| (x - m) / scale)
                .collect()
        } else {
            // A blank state has no embedding: it reads as the mean.
            vec![0.0; center.len()]
        };
        let mut log_prior: Vec<f64> = reading
            .prior
            .iter()
            .map(|p| p.max(PRIOR_FLOOR).ln())
            .collect();
        let mean = log_prior.iter().sum::<f64>() / log_prior.len().max(1) as f64;
        log_prior.iter_mut().for_each(|l| *l -= mean);
        Self {
            dense,
            sparse: vocabulary.tf_idf(reading.counts),
            log_prior,
        }
    }
}

fn level_position(k: usize, outcomes: usize) -> f64 {
    k as f64 - (outcomes as f64 - 1.0) / 2.0
}

fn logits(
    link: Link,
    outcomes: usize,
    prior_weight: f64,
    bias: &[f64],
    log_prior: &[f64],
    scores: &[f64],
) -> Vec<f64> {
    (0..outcomes)
        .map(|k| {
            let learned = match link {
                Link::Multinomial => scores[k],
                Link::Ordinal => level_position(k, outcomes) * scores[0],
            };
            prior_weight * log_prior.get(k).copied().unwrap_or(0.0) + bias[k] + learned
        })
        .collect()
}

/// Numerically stable softmax.
pub fn softmax(z: &[f64]) -> Vec<f64> {
    let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = z.iter().map(|v| (v - max).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / sum).collect()
}

/// Fit one head per penalty, in the order given, each starting from the one before (so
/// give them from the strongest pull to the weakest), on `readings` with outcome `labels`.
pub fn fit_path(
    (link, prior): (Link, Prior),
    outcomes: usize,
    readings: &[Reading<'_>],
    labels: &[usize],
    penalties: &[Penalty],
) -> Vec<Head> {
    let dim = readings.iter().map(|r| r.pooled.len()).max().unwrap_or(0);
    let embedded: Vec<&[f32]> = readings
        .iter()
        .map(|r| r.pooled)
        .filter(|p| p.len() == dim)
        .collect();
    let mut center = vec![0f32; dim];
    for pooled in &embedded {
        for (m, x) in center.iter_mut().zip(pooled.iter()) {
            *m += x;
        }
    }
    let count = embedded.len().max(1) as f32;
    center.iter_mut().for_each(|m| *m /= count);
    let spread: f32 = embedded
        .iter()
        .map(|p| {
            p.iter()
                .zip(&center)
                .map(|(x, m)| (x - m).powi(2))
                .sum::<f32>()
        })
        .sum::<f32>()
        / count;
    let scale = if spread > 0.0 { spread.sqrt() } else { 1.0 };
    let vocabulary = Vocabulary::of(readings.iter().map(|r| r.counts));
    let rows: Vec<Row> = readings
        .iter()
        .map(|r| Row::new(r, &center, scale, &vocabulary))
        .collect();
    let columns = columns(link, outcomes);
    let (d, v) = (dim * columns, vocabulary.len() * columns);
    // θ = [a, b_0 … b_{K−1}, W_embedding, W_words]
    let mut theta = vec![0.0; 1 + outcomes + d + v];
    theta[0] = match prior {
        Prior::ZeroShot => 1.0,
        Prior::None => 0.0,
    };
    // scikit-learn's stop for L-BFGS: the gradient of the mean loss at most 1e-4, in at
    // most 100 iterations (the loss here is summed, so its gradient is n times as large).
    let stop = Stop {
        iterations: 100,
        gradient: 1e-4 * readings.len().max(1) as f64,
    };
    let mut heads = Vec::with_capacity(penalties.len());
    for penalty in penalties {
        lbfgs::minimize(&mut theta, stop, |theta, gradient| {
            objective(
                (link, prior),
                outcomes,
                &rows,
                labels,
                *penalty,
                (dim, theta),
                gradient,
            )
        });
        let (a, rest) = theta.split_at(1);
        let (b, rest) = rest.split_at(outcomes);
        let (we, wn) = rest.split_at(d);
        heads.push(Head {
            link,
            outcomes,
            prior_weight: a[0],
            bias: b.to_vec(),
            center: center.clone(),
            scale,
            embedding: we.iter().map(|w| *w as f32).collect(),
            vocabulary: vocabulary.clone(),
            words: wn.iter().map(|w| *w as f32).collect(),
        });
    }
    heads
}

/// The penalized negative log-likelihood (summed over examples) and its gradient.
fn objective(
    (link, prior): (Link, Prior),
    outcomes: usize,
    rows: &[Row],
    labels: &[usize],
    penalty: Penalty,
    (dim, theta): (usize, &[f64]),
    gradient: &mut [f64],
) -> f64 {
    let columns = columns(link, outcomes);
    let a = theta[0];
    let b = &theta[1..=outcomes];
    let we = &theta[1 + outcomes..1 + outcomes + dim * columns];
    let wn = &theta[1 + outcomes + dim * columns..];
    gradient.iter_mut().for_each(|g| *g = 0.0);
    let mut value = 0.0;
    let mut scores = vec![0.0; columns];
    let mut dscores = vec![0.0; columns];
    for (row, &label) in rows.iter().zip(labels) {
        row_scores(&mut scores, row, we, wn);
        let z = logits(link, outcomes, a, b, &row.log_prior, &scores);
        let p = softmax(&z);
        value -= p[label].max(1e-300).ln();
        // dL/dz_k = p_k − [k = label]
        dscores.iter_mut().for_each(|d| *d = 0.0);
        for k in 0..outcomes {
            let dz = p[k] - f64::from(u8::from(k == label));
            gradient[0] += dz * row.log_prior.get(k).copied().unwrap_or(0.0);
            gradient[1 + k] += dz;
            match link {
                Link::Multinomial => dscores[k] += dz,
                Link::Ordinal => dscores[0] += dz * level_position(k, outcomes),
            }
        }
        let (_, rest) = gradient.split_at_mut(1 + outcomes);
        let (ge, gn) = rest.split_at_mut(dim * columns);
        row_gradient((ge, gn), row, &dscores);
    }
    match prior {
        Prior::ZeroShot => {
            value += 0.5 * PRIOR_PENALTY * (a - 1.0).powi(2);
            gradient[0] += PRIOR_PENALTY * (a - 1.0);
        }
        // `a` stays where it started, at 0.
        Prior::None => gradient[0] = 0.0,
    }
    for k in 0..outcomes {
        value += 0.5 * PRIOR_PENALTY * b[k] * b[k];
        gradient[1 + k] += PRIOR_PENALTY * b[k];
    }
    let (_, rest) = gradient.split_at_mut(1 + outcomes);
    let (ge, gn) = rest.split_at_mut(dim * columns);
    // The squares summed apart, in lanes: one running sum over every weight was a chain as
    // long as the vocabulary.
    value +=
        0.5 * penalty.embedding * lbfgs::dot(we, we) + 0.5 * penalty.words * lbfgs::dot(wn, wn);
    lbfgs::axpy(penalty.embedding, we, ge);
    lbfgs::axpy(penalty.words, wn, gn);
    value
}

/// `scores[c] = Σ_j dense[j] · we[j·C + c]`, then `+= x · wn[j·C + c]` for each word `(j, x)`
/// of the row (`C` = `scores.len()`), each sum in that order. The few column counts a head
/// has get a loop the compiler unrolls, each score kept in a register: the same sums, term
/// for term, as the plain loop, in about half the time (this and [`row_gradient`] are most
/// of an alignment's fitting).
fn row_scores(scores: &mut [f64], row: &Row, we: &[f64], wn: &[f64]) {
    match scores.len() {
        1 => row_scores_of::<1>(scores, row, we, wn),
        2 => row_scores_of::<2>(scores, row, we, wn),
        3 => row_scores_of::<3>(scores, row, we, wn),
        4 => row_scores_of::<4>(scores, row, we, wn),
        5 => row_scores_of::<5>(scores, row, we, wn),
        6 => row_scores_of::<6>(scores, row, we, wn),
        columns => {
            scores.iter_mut().for_each(|s| *s = 0.0);
            for (x, w) in row.dense.iter().zip(we.chunks_exact(columns)) {
                let x = f64::from(*x);
                for (s, wc) in scores.iter_mut().zip(w) {
                    *s += x * wc;
                }
            }
            for (j, x) in &row.sparse {
                let x = f64::from(*x);
                let at = *j as usize * columns;
                for (s, wc) in scores.iter_mut().zip(&wn[at..at + columns]) {
                    *s += x * wc;
                }
            }
        }
    }
}

fn row_scores_of<const C: usize>(scores: &mut [f64], row: &Row, we: &[f64], wn: &[f64]) {
    let mut sums = [0.0; C];
    for (x, w) in row.dense.iter().zip(we.chunks_exact(C)) {
        let x = f64::from(*x);
        for c in 0..C {
            sums[c] += x * w[c];
        }
    }
    for (j, x) in &row.sparse {
        let x = f64::from(*x);
        let w = &wn[*j as usize * C..][..C];
        for c in 0..C {
            sums[c] += x * w[c];
        }
    }
    scores.copy_from_slice(&sums);
}

/// `ge[j·C + c] += dense[j] · dscores[c]` and `gn[j·C + c] += x · dscores[c]` for each word
/// `(j, x)` of the row, as [`row_scores`] unrolled for few columns.
fn row_gradient((ge, gn): (&mut [f64], &mut [f64]), row: &Row, dscores: &[f64]) {
    match dscores.len() {
        1 => row_gradient_of::<1>((ge, gn), row, dscores),
        2 => row_gradient_of::<2>((ge, gn), row, dscores),
        3 => row_gradient_of::<3>((ge, gn), row, dscores),
        4 => row_gradient_of::<4>((ge, gn), row, dscores),
        5 => row_gradient_of::<5>((ge, gn), row, dscores),
        6 => row_gradient_of::<6>((ge, gn), row, dscores),
        columns => {
            for (x, g) in row.dense.iter().zip(ge.chunks_exact_mut(columns)) {
                let x = f64::from(*x);
                for (g, d) in g.iter_mut().zip(dscores) {
                    *g += x * d;
                }
            }
            for (j, x) in &row.sparse {
                let x = f64::from(*x);
                let at = *j as usize * columns;
                for (g, d) in gn[at..at + columns].iter_mut().zip(dscores) {
                    *g += x * d;
                }
            }
        }
    }
}

fn row_gradient_of<const C: usize>((ge, gn): (&mut [f64], &mut [f64]), row: &Row, dscores: &[f64]) {
    let mut d = [0.0; C];
    d.copy_from_slice(dscores);
    for (x, g) in row.dense.iter().zip(ge.chunks_exact_mut(C)) {
        let x = f64::from(*x);
        for c in 0..C {
            g[c] += x * d[c];
        }
    }
    for (j, x) in &row.sparse {
        let x = f64::from(*x);
        let g = &mut gn[*j as usize * C..][..C];
        for c in 0..C {
            g[c] += x * d[c];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::counts;

    fn readings<'a>(
        pooled: &'a [Vec<f32>],
        counts: &'a [Counts],
        prior: &'a [Vec<f64>],
    ) -> Vec<Reading<'a>> {
        (0..pooled.len())
            .map(|i| Reading {
                pooled: &pooled[i],
                counts: &counts[i],
                prior: &prior[i],
            })
            .collect()
    }

    #[test]
    fn the_gradient_is_the_objectives() {
        for (link, start) in [
            (Link::Multinomial, Prior::ZeroShot),
            (Link::Ordinal, Prior::ZeroShot),
            (Link::Multinomial, Prior::None),
        ] {
            let pooled = vec![vec![0.6, 0.8], vec![1.0, 0.0], vec![0.0, 1.0]];
            let texts = [
                counts("late parcel"),
                counts("refund please"),
                counts("late"),
            ];
            let prior = vec![
                vec![0.2, 0.5, 0.3],
                vec![0.6, 0.3, 0.1],
                vec![0.3, 0.3, 0.4],
            ];
            let rs = readings(&pooled, &texts, &prior);
            let vocabulary = Vocabulary::of(rs.iter().map(|r| r.counts));
            let rows: Vec<Row> = rs
                .iter()
                .map(|r| Row::new(r, &[0.5, 0.5], 0.7, &vocabulary))
                .collect();
            let labels = [0, 2, 1];
            let penalty = Penalty {
                embedding: 0.3,
                words: 0.7,
            };
            let n = 1 + 3 + 2 * columns(link, 3) + vocabulary.len() * columns(link, 3);
            let theta: Vec<f64> = (0..n).map(|i| ((i * 37 % 11) as f64 - 5.0) / 7.0).collect();
            let mut gradient = vec![0.0; n];
            let family = (link, start);
            objective(
                family,
                3,
                &rows,
                &labels,
                penalty,
                (2, &theta),
                &mut gradient,
            );
            // Without the prior its weight is held: no gradient moves it.
            let first = match start {
                Prior::ZeroShot => 0,
                Prior::None => {
                    assert_eq!(gradient[0], 0.0);
                    1
                }
            };
            for i in first..n {
                let (mut up, mut down) = (theta.clone(), theta.clone());
                up[i] += 1e-6;
                down[i] -= 1e-6;
                let mut scratch = vec![0.0; n];
                let numeric =
                    (objective(family, 3, &rows, &labels, penalty, (2, &up), &mut scratch)
                        - objective(family, 3, &rows, &labels, penalty, (2, &down), &mut scratch))
                        / 2e-6;
                assert!((numeric - gradient[i]).abs() < 1e-5, "{family:?} θ[{i}]");
            }
        }
    }

    /// 40 states, refunds (outcome 0) and late parcels (outcome 1) in turn, each naming its
    /// answer in its words, without an embedding.
    fn refunds_and_parcels() -> (Vec<Counts>, Vec<usize>, Vec<Vec<f32>>) {
        let texts = (0..40)
            .map(|i| counts(["refund money back", "parcel late"][i % 2]))
            .collect();
        let labels = (0..40).map(|i| i % 2).collect();
        (texts, labels, vec![Vec::new(); 40])
    }

    #[test]
    fn a_strong_pull_keeps_the_prior_and_a_weak_one_follows_the_words() {
        let (texts, labels, pooled) = refunds_and_parcels();
        // A prior that is wrong half the time and unsure.
        let prior = vec![vec![0.5, 0.5]; 40];
        let rs = readings(&pooled, &texts, &prior);
        let strong = Penalty {
            embedding: 1e6,
            words: 1e6,
        };
        let weak = Penalty {
            embedding: 0.1,
            words: 0.1,
        };
        let heads = fit_path(
            (Link::Multinomial, Prior::ZeroShot),
            2,
            &rs,
            &labels,
            &[strong, weak],
        );
        let p_strong = heads[0].probabilities(&rs[0]);
        let p_weak = heads[1].probabilities(&rs[0]);
        assert!((p_strong[0] - 0.5).abs() < 0.01, "{p_strong:?}");
        assert!(p_weak[0] > 0.95, "{p_weak:?}");
        assert!(heads[1].probabilities(&rs[1])[1] > 0.95);
    }

    #[test]
    fn a_head_without_the_prior_answers_the_same_whatever_zero_shot_says() {
        let (texts, labels, pooled) = refunds_and_parcels();
        let sure = |outcome: usize| {
            let mut p = vec![1e-3; 2];
            p[outcome] = 1.0 - 1e-3;
            p
        };
        // Zero-shot sure of the right answer where the head is fitted, of the wrong one on
        // the same states read again.
        let right: Vec<Vec<f64>> = labels.iter().map(|&y| sure(y)).collect();
        let wrong: Vec<Vec<f64>> = labels.iter().map(|&y| sure(1 - y)).collect();
        let fitted = readings(&pooled, &texts, &right);
        let reread = readings(&pooled, &texts, &wrong);
        let strong = Penalty {
            embedding: 1e6,
            words: 1e6,
        };
        let fit = |start| fit_path((Link::Multinomial, start), 2, &fitted, &labels, &[strong]);
        let with = &fit(Prior::ZeroShot)[0];
        let without = &fit(Prior::None)[0];
        // Pulled hard towards no weight on the words, the head with the prior answers what
        // zero-shot says; the one without answers the annotated frequencies (a half each).
        assert!(with.probabilities(&fitted[0])[0] > 0.9);
        assert!(with.probabilities(&reread[0])[0] < 0.1);
        assert_eq!(without.prior_weight, 0.0);
        let p = without.probabilities(&fitted[0]);
        assert!((p[0] - 0.5).abs() < 0.01, "{p:?}");
        assert_eq!(p, without.probabilities(&reread[0]));
    }

    #[test]
    fn an_ordinal_head_orders_the_levels() {
        let texts: Vec<Counts> = (0..60)
            .map(|i| counts(["calm", "annoyed", "furious"][i % 3]))
            .collect();
        let labels: Vec<usize> = (0..60).map(|i| i % 3).collect();
        let pooled = vec![Vec::new(); 60];
        let prior = vec![vec![1.0 / 3.0; 3]; 60];
        let rs = readings(&pooled, &texts, &prior);
        let weak = Penalty {
            embedding: 0.01,
            words: 0.01,
        };
        let head = &fit_path((Link::Ordinal, Prior::ZeroShot), 3, &rs, &labels, &[weak])[0];
        for (i, r) in rs.iter().take(3).enumerate() {
            let p = head.probabilities(r);
            let top = (0..3).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
            assert_eq!(top, i, "{p:?}");
        }
    }
}
