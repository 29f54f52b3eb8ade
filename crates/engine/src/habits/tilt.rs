//! The exponential tilt by a layout's standardised features that makes the layouts seen
//! likeliest: Newton's method, and the linear solve of each step.

use super::layout_features::FEATURES;

pub(super) fn dot(a: &[f64; FEATURES], b: &[f64; FEATURES]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `ln` of the weighted mean of `exp(theta · z)` over `reference` (features and weights).
pub(super) fn log_mean_exp(theta: &[f64; FEATURES], reference: &[([f64; FEATURES], f64)]) -> f64 {
    let top = reference
        .iter()
        .map(|(z, _)| dot(theta, z))
        .fold(f64::MIN, f64::max);
    let (mut sum, mut total) = (0.0, 0.0);
    for (z, w) in reference {
        sum += w * (dot(theta, z) - top).exp();
        total += w;
    }
    if total > 0.0 && sum > 0.0 {
        top + (sum / total).ln()
    } else {
        0.0
    }
}

/// The tilt `theta` that makes the layouts `seen` likeliest (each `exp(theta · z)` over
/// `reference`'s weighted mean of it), with a standard normal prior on each coordinate: by
/// Newton's method (the log-likelihood is concave), each coordinate within ±[`TILT_MAX`].
pub(super) fn tilt_for(
    seen: &[([f64; FEATURES], f64)],
    reference: &[([f64; FEATURES], f64)],
) -> [f64; FEATURES] {
    let mut theta = [0.0; FEATURES];
    let n: f64 = seen.iter().map(|s| s.1).sum();
    if n <= 0.0 || reference.is_empty() {
        return theta;
    }
    let mut observed = [0.0; FEATURES];
    for (z, w) in seen {
        for k in 0..FEATURES {
            observed[k] += w * z[k] / n;
        }
    }
    for _ in 0..12 {
        // The reference's mean and covariance of z under the tilt `theta`.
        let top = reference
            .iter()
            .map(|(z, _)| dot(&theta, z))
            .fold(f64::MIN, f64::max);
        let mut total = 0.0;
        let mut mean = [0.0; FEATURES];
        let mut second = [[0.0; FEATURES]; FEATURES];
        for (z, w) in reference {
            let e = w * (dot(&theta, z) - top).exp();
            total += e;
            for a in 0..FEATURES {
                mean[a] += e * z[a];
                for b in 0..=a {
                    second[a][b] += e * z[a] * z[b];
                }
            }
        }
        if total <= 0.0 {
            break;
        }
        // The gradient, n (observed − mean) − theta, and the negated Hessian,
        // n · covariance + I.
        let mut grad = [0.0; FEATURES];
        let mut hess = [[0.0; FEATURES]; FEATURES];
        mean.iter_mut().for_each(|m| *m /= total);
        for a in 0..FEATURES {
            grad[a] = n * (observed[a] - mean[a]) - theta[a];
            for b in 0..=a {
                let c = second[a][b] / total - mean[a] * mean[b];
                hess[a][b] = n * c + f64::from(u8::from(a == b));
                hess[b][a] = hess[a][b];
            }
        }
        let Some(step) = solve(hess, grad) else {
            break;
        };
        let mut moved = 0.0f64;
        for k in 0..FEATURES {
            let next = (theta[k] + step[k]).clamp(-TILT_MAX, TILT_MAX);
            moved = moved.max((next - theta[k]).abs());
            theta[k] = next;
        }
        if moved < 1e-4 {
            break;
        }
    }
    theta
}

/// `x` with `a x = b`, for a symmetric positive definite `a` (Gaussian elimination with
/// partial pivoting); `None` if `a` is singular.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> Option<[f64; FEATURES]> {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, rest) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (r, row) in rest.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + r] -= f * b[col];
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let rest: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The largest tilt, per standardised feature.
const TILT_MAX: f64 = 4.0;
