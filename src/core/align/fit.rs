//! Fitting a calibration: the weights and per-outcome biases of
//! [`aligned::probabilities`](crate::engine::builtin::aligned::probabilities) that minimize
//! the mean log loss of some examples, by Newton's method.
//!
//! The model is a multinomial logistic regression whose feature weights are shared by all
//! outcomes (an outcome's logit is `w · x_c + b_c`), so it has `F + K` parameters: with
//! only the zero-shot feature it is temperature scaling with a prior (Platt scaling for a
//! noul, whose feature is the true − false gap). Features are standardized for the fit and
//! the weights mapped back, so the ridge penalty treats them alike; the shift that
//! standardizing adds is the same for every outcome and cancels in the softmax.

use crate::engine::builtin::aligned::{FEATURES, logits, softmax};

/// Ridge penalty on standardized weights and biases (mean-loss scale).
const RIDGE: f64 = 1e-3;
const MAX_ITERATIONS: usize = 60;
/// Above this many outcomes the biases are not fitted (the Hessian would be large); each
/// outcome keeps the log of its smoothed label frequency.
const MAX_FITTED_BIASES: usize = 128;

/// One example: its per-outcome features and its (possibly soft) label.
pub(super) struct Row {
    pub(super) features: Vec<[f64; FEATURES]>,
    pub(super) label: Vec<f64>,
}

/// A fitted calibration.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Calibration {
    pub(super) weights: [f64; FEATURES],
    pub(super) bias: Vec<f64>,
}

impl Calibration {
    pub(super) fn predict(&self, features: &[[f64; FEATURES]]) -> Vec<f64> {
        softmax(&logits(&self.weights, &self.bias, features))
    }
}

/// Fit on `rows` using the features `used` (the others get weight 0). `outcomes` ≥ 1.
pub(super) fn fit(rows: &[Row], outcomes: usize, used: [bool; FEATURES]) -> Calibration {
    let (mean, scale) = standardization(rows, used);
    let active: Vec<usize> = (0..FEATURES).filter(|f| scale[*f] > 0.0).collect();
    let fit_bias = outcomes <= MAX_FITTED_BIASES;
    let prior = log_prior(rows, outcomes);
    let dim = active.len() + if fit_bias { outcomes } else { 0 };
    // Standardized features per row and outcome, over the active features only.
    let xs: Vec<Vec<Vec<f64>>> = rows
        .iter()
        .map(|row| {
            row.features
                .iter()
                .map(|x| {
                    active
                        .iter()
                        .map(|&f| (x[f] - mean[f]) / scale[f])
                        .collect()
                })
                .collect()
        })
        .collect();
    let mut theta = vec![0.0; dim];
    if fit_bias {
        // Start from the label frequencies: the loss is already at the prior's.
        theta[active.len()..].copy_from_slice(&prior);
    }
    let bias_of = |theta: &[f64], c: usize| {
        if fit_bias {
            theta[active.len() + c]
        } else {
            prior[c]
        }
    };
    let objective =
        |theta: &[f64]| objective(&xs, rows, theta, outcomes, active.len(), fit_bias, &prior);
    let mut current = objective(&theta);
    for _ in 0..MAX_ITERATIONS {
        let (gradient, hessian) =
            derivatives(&xs, rows, &theta, outcomes, active.len(), fit_bias, &prior);
        if gradient.iter().map(|g| g * g).sum::<f64>().sqrt() < 1e-9 {
            break;
        }
        let Some(step) = solve(hessian, &gradient) else {
            break;
        };
        // Backtracking: Newton's step, halved until the objective decreases.
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-6 {
            let candidate: Vec<f64> = theta.iter().zip(&step).map(|(a, s)| a - t * s).collect();
            let value = objective(&candidate);
            if value.is_finite() && value < current {
                theta = candidate;
                improved = current - value > 1e-12;
                current = value;
                break;
            }
            t *= 0.5;
        }
        if !improved {
            break;
        }
    }
    let mut weights = [0.0; FEATURES];
    for (i, &f) in active.iter().enumerate() {
        weights[f] = theta[i] / scale[f];
    }
    let bias = (0..outcomes).map(|c| bias_of(&theta, c)).collect();
    Calibration { weights, bias }
}

/// The mean log loss of `rows` at `theta`, plus the ridge penalty.
#[allow(clippy::too_many_arguments)]
fn objective(
    xs: &[Vec<Vec<f64>>],
    rows: &[Row],
    theta: &[f64],
    outcomes: usize,
    features: usize,
    fit_bias: bool,
    prior: &[f64],
) -> f64 {
    let mut loss = 0.0;
    for (x, row) in xs.iter().zip(rows) {
        let z: Vec<f64> = (0..outcomes)
            .map(|c| {
                let bias = if fit_bias {
                    theta[features + c]
                } else {
                    prior[c]
                };
                bias + dot(&theta[..features], &x[c])
            })
            .collect();
        let p = softmax(&z);
        loss -= row
            .label
            .iter()
            .zip(&p)
            .filter(|(y, _)| **y > 0.0)
            .map(|(y, p)| y * p.max(1e-300).ln())
            .sum::<f64>();
    }
    loss / rows.len().max(1) as f64 + 0.5 * RIDGE * theta.iter().map(|t| t * t).sum::<f64>()
}

/// Mean and standard deviation of each used feature over every (row, outcome); a scale of
/// 0 marks a feature that is unused or constant.
fn standardization(rows: &[Row], used: [bool; FEATURES]) -> ([f64; FEATURES], [f64; FEATURES]) {
    let mut mean = [0.0; FEATURES];
    let mut scale = [0.0; FEATURES];
    let count = rows.iter().map(|r| r.features.len()).sum::<usize>().max(1) as f64;
    for f in (0..FEATURES).filter(|f| used[*f]) {
        let values = || {
            rows.iter()
                .flat_map(|r| r.features.iter().map(move |x| x[f]))
        };
        let m = values().sum::<f64>() / count;
        let var = values().map(|x| (x - m) * (x - m)).sum::<f64>() / count;
        mean[f] = m;
        scale[f] = if var > 1e-18 { var.sqrt() } else { 0.0 };
    }
    (mean, scale)
}

/// Log of the label frequencies, smoothed by one pseudo-count per outcome.
fn log_prior(rows: &[Row], outcomes: usize) -> Vec<f64> {
    let mut counts = vec![1.0; outcomes];
    for row in rows {
        for (c, y) in row.label.iter().enumerate().take(outcomes) {
            counts[c] += y;
        }
    }
    let total: f64 = counts.iter().sum();
    counts.iter().map(|n| (n / total).ln()).collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Gradient and Hessian of the objective at `theta` (`features` weights, then one bias per
/// outcome when `fit_bias`). Written in blocks, so a row costs O(K·F²) with no allocation:
/// with `x_c` an outcome's features, `p` the softmax and `μ = Σ p_c x_c`,
/// `H_ww = Σ p_c x_c x_cᵀ − μμᵀ`, `H_wb[c] = p_c (x_c − μ)`, `H_bb = diag(p) − ppᵀ`.
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn derivatives(
    xs: &[Vec<Vec<f64>>],
    rows: &[Row],
    theta: &[f64],
    outcomes: usize,
    features: usize,
    fit_bias: bool,
    prior: &[f64],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let dim = theta.len();
    let mut gradient = vec![0.0; dim];
    let mut hessian = vec![vec![0.0; dim]; dim];
    let mut z = vec![0.0; outcomes];
    let mut mu = vec![0.0; features];
    for (x, row) in xs.iter().zip(rows) {
        for c in 0..outcomes {
            let bias = if fit_bias {
                theta[features + c]
            } else {
                prior[c]
            };
            z[c] = bias + dot(&theta[..features], &x[c]);
        }
        let p = softmax(&z);
        let mass: f64 = row.label.iter().sum();
        mu.fill(0.0);
        for c in 0..outcomes {
            let y = row.label.get(c).copied().unwrap_or(0.0);
            let residual = mass * p[c] - y;
            for f in 0..features {
                gradient[f] += residual * x[c][f];
                mu[f] += p[c] * x[c][f];
            }
            if fit_bias {
                gradient[features + c] += residual;
            }
            for a in 0..features {
                let pa = mass * p[c] * x[c][a];
                for b in 0..features {
                    hessian[a][b] += pa * x[c][b];
                }
            }
        }
        for a in 0..features {
            for b in 0..features {
                hessian[a][b] -= mass * mu[a] * mu[b];
            }
        }
        if fit_bias {
            for c in 0..outcomes {
                let bc = features + c;
                for a in 0..features {
                    let value = mass * p[c] * (x[c][a] - mu[a]);
                    hessian[a][bc] += value;
                    hessian[bc][a] += value;
                }
                for d in 0..outcomes {
                    let diagonal = if c == d { p[c] } else { 0.0 };
                    hessian[bc][features + d] += mass * (diagonal - p[c] * p[d]);
                }
            }
        }
    }
    let n = rows.len().max(1) as f64;
    for d in 0..dim {
        gradient[d] = gradient[d] / n + RIDGE * theta[d];
        for e in 0..dim {
            hessian[d][e] /= n;
        }
        hessian[d][d] += RIDGE;
    }
    (gradient, hessian)
}

/// Solve `a x = b` for a symmetric positive definite `a` (Cholesky); `None` if it is not.
// The textbook names (a, b, d, s, x, y) of the algorithm.
#[allow(clippy::many_single_char_names)]
fn solve(mut a: Vec<Vec<f64>>, b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    for j in 0..n {
        let mut d = a[j][j];
        for v in &a[j][..j] {
            d -= v * v;
        }
        if d <= 0.0 || !d.is_finite() {
            return None;
        }
        let d = d.sqrt();
        a[j][j] = d;
        for i in j + 1..n {
            let mut s = a[i][j];
            for (u, v) in a[i][..j].iter().zip(&a[j][..j]) {
                s -= u * v;
            }
            a[i][j] = s / d;
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i][k] * y[k];
        }
        y[i] = s / a[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= a[k][i] * x[k];
        }
        x[i] = s / a[i][i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(x0: &[f64], label: usize, k: usize) -> Row {
        let mut y = vec![0.0; k];
        y[label] = 1.0;
        Row {
            features: x0.iter().map(|v| [*v, 0.0, 0.0, 0.0, 0.0, 0.0]).collect(),
            label: y,
        }
    }

    const ONLY_FIRST: [bool; FEATURES] = [true, false, false, false, false, false];

    #[test]
    fn a_separating_feature_gets_a_positive_weight() {
        // The label's outcome has the larger feature 90% of the time, for either label.
        let rows: Vec<Row> = (0..200)
            .map(|i| {
                let y = i % 2;
                let right = !(i % 20 == 0 || i % 20 == 11);
                let hi = if right { y } else { 1 - y };
                let mut x = [0.0, 0.0];
                x[hi] = 0.1;
                row(&x, y, 2)
            })
            .collect();
        let fitted = fit(&rows, 2, ONLY_FIRST);
        assert!(fitted.weights[0] > 0.0, "{fitted:?}");
        assert_eq!(&fitted.weights[1..], &[0.0; 5]);
        // Calibrated: the confident side gets about 90%.
        let p = fitted.predict(&[[0.1, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0; FEATURES]]);
        assert!((p[0] - 0.9).abs() < 0.03, "{p:?}");
    }

    // Exact on purpose: an unused feature's weight is exactly 0.0.
    #[allow(clippy::float_cmp)]
    #[test]
    fn without_signal_it_predicts_the_label_frequencies() {
        let rows: Vec<Row> = (0..300)
            .map(|i| row(&[0.0, 0.0, 0.0], usize::from(i % 3 != 0), 3))
            .collect();
        let fitted = fit(&rows, 3, ONLY_FIRST);
        assert_eq!(
            fitted.weights, [0.0; FEATURES],
            "a constant feature is unused"
        );
        let p = fitted.predict(&[[0.0; FEATURES]; 3]);
        assert!(
            (p[0] - 1.0 / 3.0).abs() < 0.02 && (p[1] - 2.0 / 3.0).abs() < 0.02,
            "{p:?}"
        );
        assert!(p[2] < 0.01);
    }

    #[test]
    fn the_fit_lowers_the_loss_and_is_deterministic() {
        let rows: Vec<Row> = (0..100)
            .map(|i| {
                let y = i % 3;
                let x: Vec<f64> = (0..3)
                    .map(|c| {
                        if c == y {
                            0.3
                        } else {
                            ((i * 7 + c) % 5) as f64 * 0.1
                        }
                    })
                    .collect();
                row(&x, y, 3)
            })
            .collect();
        let loss = |cal: &Calibration| {
            rows.iter()
                .map(|r| -cal.predict(&r.features)[crate::core::metrics::argmax(&r.label)].ln())
                .sum::<f64>()
        };
        let zero = Calibration {
            weights: [0.0; FEATURES],
            bias: vec![0.0; 3],
        };
        let a = fit(&rows, 3, ONLY_FIRST);
        assert!(loss(&a) < loss(&zero));
        assert_eq!(a, fit(&rows, 3, ONLY_FIRST));
    }

    #[test]
    fn the_derivatives_match_finite_differences() {
        let xs: Vec<Vec<Vec<f64>>> = (0..7)
            .map(|i| {
                (0..3)
                    .map(|c| {
                        (0..2)
                            .map(|f| f64::from((i * 5 + c * 3 + f * 7) % 11) / 5.0 - 1.0)
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let rows: Vec<Row> = (0..7)
            .map(|i| Row {
                features: Vec::new(),
                label: if i == 3 {
                    vec![0.2, 0.5, 0.3]
                } else {
                    (0..3).map(|c| f64::from(u8::from(c == i % 3))).collect()
                },
            })
            .collect();
        let prior = vec![0.0; 3];
        let theta = vec![0.3, -0.7, 0.1, 0.4, -0.2];
        let f = |t: &[f64]| objective(&xs, &rows, t, 3, 2, true, &prior);
        let (gradient, hessian) = derivatives(&xs, &rows, &theta, 3, 2, true, &prior);
        let h = 1e-5;
        for d in 0..theta.len() {
            let mut plus = theta.clone();
            let mut minus = theta.clone();
            plus[d] += h;
            minus[d] -= h;
            let numeric = (f(&plus) - f(&minus)) / (2.0 * h);
            assert!(
                (numeric - gradient[d]).abs() < 1e-6,
                "gradient {d}: {numeric} vs {}",
                gradient[d]
            );
            let (g_plus, _) = derivatives(&xs, &rows, &plus, 3, 2, true, &prior);
            let (g_minus, _) = derivatives(&xs, &rows, &minus, 3, 2, true, &prior);
            for e in 0..theta.len() {
                let numeric = (g_plus[e] - g_minus[e]) / (2.0 * h);
                assert!(
                    (numeric - hessian[e][d]).abs() < 1e-5,
                    "hessian {e},{d}: {numeric} vs {}",
                    hessian[e][d]
                );
            }
        }
    }

    #[test]
    fn cholesky_solves_and_refuses_an_indefinite_matrix() {
        let x = solve(vec![vec![4.0, 2.0], vec![2.0, 3.0]], &[2.0, 1.0]).unwrap();
        assert!((4.0 * x[0] + 2.0 * x[1] - 2.0).abs() < 1e-12);
        assert!((2.0 * x[0] + 3.0 * x[1] - 1.0).abs() < 1e-12);
        assert!(solve(vec![vec![0.0, 1.0], vec![1.0, 0.0]], &[1.0, 1.0]).is_none());
    }
}
