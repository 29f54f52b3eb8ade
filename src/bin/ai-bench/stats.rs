//! The figures the tables print: percentiles, a mean with its 95 % interval, and a row of a
//! paired table (hard against learning).

pub(crate) fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Mean and the half-width of its 95 % interval.
pub(crate) fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    (mean, 1.96 * sd / n.sqrt())
}

/// One row of a paired table: `label`, the games, hard's and learning's mean shots, the mean
/// shots saved (hard − learning) with its 95 % interval, and learning's p99 ms a move.
pub(crate) fn paired_row(label: &str, pairs: &[(f64, f64)], mut times: Vec<f64>) -> String {
    let n = pairs.len() as f64;
    let hard = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let learn = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let diffs: Vec<f64> = pairs.iter().map(|p| p.0 - p.1).collect();
    let (mean, half) = mean_ci(&diffs);
    times.sort_by(f64::total_cmp);
    format!(
        "{label} {n:>6}  {hard:>5.2}  {learn:>8.2}  {mean:>+6.2} ({:+.2} to {:+.2})  {:>22.3}",
        mean - half,
        mean + half,
        percentile(&times, 0.99),
    )
}
