//! Limited-memory BFGS for the smooth convex objectives a learned head minimizes (the
//! same method scikit-learn's `LogisticRegression` uses by default), with a backtracking
//! line search that only accepts steps that decrease the objective enough (Armijo).

/// When to stop.
#[derive(Debug, Clone, Copy)]
pub struct Stop {
    /// The most iterations.
    pub iterations: usize,
    /// Stop once the largest gradient component is at most this.
    pub gradient: f64,
}

impl Default for Stop {
    fn default() -> Self {
        Self {
            iterations: 300,
            gradient: 1e-5,
        }
    }
}

/// Pairs of steps and gradient changes kept.
const MEMORY: usize = 10;
/// The sufficient decrease a step must make (Armijo's constant).
const ARMIJO: f64 = 1e-4;

/// Minimize `objective` (which writes its gradient into the second argument and returns
/// its value) from `x`, in place. Returns the final value.
pub fn minimize(
    x: &mut [f64],
    stop: Stop,
    mut objective: impl FnMut(&[f64], &mut [f64]) -> f64,
) -> f64 {
    let n = x.len();
    let mut gradient = vec![0.0; n];
    let mut value = objective(x, &mut gradient);
    let mut steps: std::collections::VecDeque<(Vec<f64>, Vec<f64>, f64)> =
        std::collections::VecDeque::with_capacity(MEMORY);
    let mut direction = vec![0.0; n];
    let mut trial = vec![0.0; n];
    let mut trial_gradient = vec![0.0; n];
    let (mut new_s, mut new_y) = (vec![0.0; n], vec![0.0; n]);
    let mut alphas = [0.0; MEMORY];
    for iteration in 0..stop.iterations {
        if max_abs(&gradient) <= stop.gradient {
            break;
        }
        // The two-loop recursion: direction = −H·gradient.
        direction.copy_from_slice(&gradient);
        for (j, (s, y, rho)) in steps.iter().enumerate().rev() {
            let alpha = rho * dot(s, &direction);
            alphas[j] = alpha;
            axpy(-alpha, y, &mut direction);
        }
        let scale = steps.back().map_or(1.0, |(s, y, _)| dot(s, y) / dot(y, y));
        direction.iter_mut().for_each(|d| *d *= scale);
        for (j, (s, y, rho)) in steps.iter().enumerate() {
            let beta = rho * dot(y, &direction);
            axpy(alphas[j] - beta, s, &mut direction);
        }
        direction.iter_mut().for_each(|d| *d = -*d);
        let mut slope = dot(&direction, &gradient);
        if slope >= 0.0 {
            // Not a descent direction (curvature lost to rounding): start over downhill.
            steps.clear();
            for (d, g) in direction.iter_mut().zip(&gradient) {
                *d = -g;
            }
            slope = -dot(&gradient, &gradient);
        }
        let mut step = if iteration == 0 && steps.is_empty() {
            1.0 / max_abs(&gradient).max(1.0)
        } else {
            1.0
        };
        let mut accepted = false;
        for _ in 0..40 {
            for ((t, xi), d) in trial.iter_mut().zip(x.iter()).zip(&direction) {
                *t = xi + step * d;
            }
            let trial_value = objective(&trial, &mut trial_gradient);
            if trial_value.is_finite() && trial_value <= value + ARMIJO * step * slope {
                for ((si, t), xi) in new_s.iter_mut().zip(&trial).zip(x.iter()) {
                    *si = t - xi;
                }
                for ((yi, a), b) in new_y.iter_mut().zip(&trial_gradient).zip(&gradient) {
                    *yi = a - b;
                }
                let sy = dot(&new_s, &new_y);
                if sy > 1e-12 {
                    // The oldest pair's vectors hold the next pair once the memory is full.
                    let spare = match steps.len() {
                        MEMORY => steps.pop_front().map(|(s, y, _)| (s, y)),
                        _ => None,
                    };
                    let (s, y) = spare.unwrap_or_else(|| (vec![0.0; n], vec![0.0; n]));
                    let s = std::mem::replace(&mut new_s, s);
                    let y = std::mem::replace(&mut new_y, y);
                    steps.push_back((s, y, 1.0 / sy));
                }
                x.copy_from_slice(&trial);
                gradient.copy_from_slice(&trial_gradient);
                let decrease = value - trial_value;
                value = trial_value;
                accepted = decrease > 1e-12 * value.abs().max(1.0);
                break;
            }
            step *= 0.5;
        }
        if !accepted {
            break;
        }
    }
    value
}

/// The dot product in eight running sums: one sum is a chain of additions each waiting on
/// the last, and these dot products were most of a head's fit.
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    const LANES: usize = 8;
    let mut sums = [0.0; LANES];
    let (a_chunks, b_chunks) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f64 = (a_chunks.remainder().iter())
        .zip(b_chunks.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a_chunks.zip(b_chunks) {
        for lane in 0..LANES {
            sums[lane] += x[lane] * y[lane];
        }
    }
    let [s0, s1, s2, s3, s4, s5, s6, s7] = sums;
    ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)) + tail
}

pub(crate) fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_minimum_of_an_ill_conditioned_quadratic() {
        let scales = [1.0, 10.0, 100.0, 1000.0];
        let mut x = vec![1.0; 4];
        minimize(&mut x, Stop::default(), |x, g| {
            let mut value = 0.0;
            for i in 0..4 {
                let d = x[i] - i as f64;
                value += 0.5 * scales[i] * d * d;
                g[i] = scales[i] * d;
            }
            value
        });
        for (i, xi) in x.iter().enumerate() {
            assert!((xi - i as f64).abs() < 1e-6, "{x:?}");
        }
    }

    #[test]
    fn the_dot_product_in_lanes_is_the_sum_of_products_at_every_length() {
        for n in 0..40 {
            let a: Vec<f64> = (0..n).map(|i| (i as f64 * 0.7).sin()).collect();
            let b: Vec<f64> = (0..n).map(|i| 1.0 / (i as f64 + 1.5)).collect();
            let serial: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!((dot(&a, &b) - serial).abs() <= 1e-14, "length {n}");
        }
        assert_eq!(dot(&[2.0; 17], &[3.0; 17]), 102.0);
    }

    #[test]
    fn finds_the_minimum_of_rosenbrock() {
        let mut x = vec![-1.2, 1.0];
        let stop = Stop {
            iterations: 500,
            gradient: 1e-8,
        };
        minimize(&mut x, stop, |x, g| {
            let (a, b) = (x[0], x[1]);
            g[0] = -2.0 * (1.0 - a) - 400.0 * a * (b - a * a);
            g[1] = 200.0 * (b - a * a);
            (1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2)
        });
        assert!(
            (x[0] - 1.0).abs() < 1e-4 && (x[1] - 1.0).abs() < 1e-4,
            "{x:?}"
        );
    }
}
