//! Multinomial logistic regression as scikit-learn's `LogisticRegression()` fits it, for the
//! benches' baselines and heads: an L2 penalty of C = 1 on the weights, the intercept
//! unpenalized, by L-BFGS; each row sparse, (feature, value).

use arbiter::engine::builtin::learned::head::softmax;
use arbiter::engine::builtin::learned::lbfgs::{self, Stop};

/// The weights (feature-major, `classes` per feature) and then the intercepts.
pub(crate) fn fit(
    rows: &[Vec<(usize, f64)>],
    labels: &[usize],
    features: usize,
    classes: usize,
    stop: Stop,
) -> Vec<f64> {
    let mut theta = vec![0.0; (features + 1) * classes];
    lbfgs::minimize(&mut theta, stop, |theta, gradient| {
        gradient.fill(0.0);
        let mut value = 0.0;
        for (row, &y) in rows.iter().zip(labels) {
            let p = softmax(&scores(theta, row, features, classes));
            value -= p[y].max(1e-300).ln();
            for k in 0..classes {
                let d = p[k] - f64::from(u8::from(k == y));
                for (j, x) in row {
                    gradient[j * classes + k] += d * x;
                }
                gradient[features * classes + k] += d;
            }
        }
        for i in 0..features * classes {
            value += 0.5 * theta[i] * theta[i];
            gradient[i] += theta[i];
        }
        value
    });
    theta
}

/// Each class's score (before the softmax) of `row`.
pub(crate) fn scores(
    theta: &[f64],
    row: &[(usize, f64)],
    features: usize,
    classes: usize,
) -> Vec<f64> {
    (0..classes)
        .map(|k| {
            theta[features * classes + k]
                + row
                    .iter()
                    .map(|(j, x)| x * theta[j * classes + k])
                    .sum::<f64>()
        })
        .collect()
}
